//! The display pass: the view target's raw values → tonemapped or false-coloured output.

use crate::bindings::{storage_buffer_entry, texture_entry, uniform_entry};
use crate::frame::FrameResources;
use crate::gpu::GpuContext;
use crate::shaders::{ShaderStore, create_module};
use crate::timing::PassRecorder;
use crate::views::{ColorMap, ViewKind};
use bytemuck::{Pod, Zeroable};

const SHADER: &str = "core/display.wgsl";

/// Mirrors `struct Display` in `shaders/core/display.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub struct DisplayUniform {
    pub range_min: f32,
    pub range_max: f32,
    pub exposure_ev: f32,
    pub mode: u32,
    pub log_scale: u32,
    pub legend: u32,
    pub auto_range: u32,
    pub dither: u32,
    /// Top-left corner of the image in the output (pixels): where the viewport starts.
    pub origin_x: f32,
    pub origin_y: f32,
}

/// How the current view is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplaySettings {
    pub kind: ViewKind,
    /// Range actually used for scalar views (the view's default, or the chapter's override).
    pub range: (f32, f32),
    pub exposure_ev: f32,
    pub legend: bool,
    /// Dither colour views against 8-bit banding (off for the snapshot tests, whose reference
    /// images would otherwise carry incompressible noise).
    pub dither: bool,
}

pub struct DisplayPass {
    /// Where in the output the image goes (x, y, width, height in pixels); `None`: all of it.
    /// The viewer puts the image beside its side panel, not under it.
    pub viewport: Option<[u32; 4]>,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    pipeline: wgpu::RenderPipeline,
    format: wgpu::TextureFormat,
}

impl DisplayPass {
    pub fn new(
        gpu: &GpuContext,
        frame: &FrameResources,
        shaders: &ShaderStore,
        format: wgpu::TextureFormat,
    ) -> anyhow::Result<Self> {
        let device = &gpu.device;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("display"),
            entries: &[
                uniform_entry(0, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, wgpu::ShaderStages::FRAGMENT, wgpu::TextureSampleType::Float { filterable: false }),
                storage_buffer_entry(2, wgpu::ShaderStages::FRAGMENT, true),
            ],
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("display uniform"),
            size: std::mem::size_of::<DisplayUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = Self::bind(device, &layout, &uniform, frame);
        let pipeline = Self::pipeline(device, shaders, &layout, format)?;
        Ok(Self { viewport: None, layout, uniform, bind_group, pipeline, format })
    }

    fn bind(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        uniform: &wgpu::Buffer,
        frame: &FrameResources,
    ) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("display"),
            layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&frame.view.view) },
                wgpu::BindGroupEntry { binding: 2, resource: frame.view_range.as_entire_binding() },
            ],
        })
    }

    fn pipeline(
        device: &wgpu::Device,
        shaders: &ShaderStore,
        layout: &wgpu::BindGroupLayout,
        format: wgpu::TextureFormat,
    ) -> anyhow::Result<wgpu::RenderPipeline> {
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("display"),
            bind_group_layouts: &[Some(layout)],
            immediate_size: 0,
        });
        let desc = wgpu::RenderPipelineDescriptor {
            label: Some("display"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("display_vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("display_fs"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        };
        crate::shaders::checked(device, "display", || device.create_render_pipeline(&desc))
    }

    pub fn reload(&mut self, gpu: &GpuContext, shaders: &ShaderStore) -> anyhow::Result<()> {
        self.pipeline = Self::pipeline(&gpu.device, shaders, &self.layout, self.format)?;
        Ok(())
    }

    pub fn rebind(&mut self, gpu: &GpuContext, frame: &FrameResources) {
        self.bind_group = Self::bind(&gpu.device, &self.layout, &self.uniform, frame);
    }

    pub fn record(
        &self,
        gpu: &GpuContext,
        passes: &mut PassRecorder,
        settings: &DisplaySettings,
        output: &wgpu::TextureView,
    ) {
        let (mode, log, auto) = match settings.kind {
            ViewKind::Color => (0, false, false),
            ViewKind::Scalar { map: ColorMap::Turbo, log, auto, .. } => (1, log, auto),
            ViewKind::Scalar { map: ColorMap::Viridis, log, auto, .. } => (2, log, auto),
        };
        let u = DisplayUniform {
            range_min: settings.range.0,
            range_max: settings.range.1,
            exposure_ev: settings.exposure_ev,
            mode,
            log_scale: log as u32,
            legend: settings.legend as u32,
            auto_range: auto as u32,
            dither: settings.dither as u32,
            origin_x: self.viewport.map_or(0.0, |v| v[0] as f32),
            origin_y: self.viewport.map_or(0.0, |v| v[1] as f32),
        };
        gpu.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&u));
        passes.render(
            "display",
            &[Some(wgpu::RenderPassColorAttachment {
                view: output,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            None,
            |pass| {
                if let Some([x, y, w, h]) = self.viewport {
                    pass.set_viewport(x as f32, y as f32, w as f32, h as f32, 0.0, 1.0);
                }
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, &self.bind_group, &[]);
                pass.draw(0..3, 0..1);
            },
        );
    }
}
