//! The shared test scene: a 2 km gridded ground, boxes at known distances down −Z, a tower that
//! casts a long shadow towards the camera (to test sun-glow masking), a sky and a shadowed sun.
//! Its geometry (`scene_geometry`) is public so tests can ray-cast the same scene on the CPU.

use crate::bindings::{comparison_sampler_entry, texture_entry, uniform_entry};
use crate::frame::{DEPTH_FORMAT, DISTANCE_FORMAT, FrameResources, HDR_FORMAT};
use crate::gpu::GpuContext;
use crate::shaders::{ShaderStore, create_module};
use crate::timing::PassRecorder;
use bytemuck::{Pod, Zeroable};
use glam::Vec3;
use wgpu::util::DeviceExt;

pub use crate::scene_geometry::{
    GROUND_ALBEDO, GROUND_HALF_SIZE_M, SHADOWED_CENTRE, SHADOWED_HALF_M, SceneBox, ray_cast, scene_boxes, tallest_box_m,
};

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Vertex {
    position: [f32; 3],
    normal: [f32; 3],
    albedo: [f32; 3],
}

fn push_quad(v: &mut Vec<Vertex>, corners: [Vec3; 4], normal: Vec3, albedo: [f32; 3]) {
    for i in [0, 1, 2, 0, 2, 3] {
        v.push(Vertex { position: corners[i].into(), normal: normal.into(), albedo });
    }
}

fn build_mesh() -> Vec<Vertex> {
    let mut v = Vec::new();
    let g = GROUND_HALF_SIZE_M;
    push_quad(
        &mut v,
        [Vec3::new(-g, 0.0, -g), Vec3::new(-g, 0.0, g), Vec3::new(g, 0.0, g), Vec3::new(g, 0.0, -g)],
        Vec3::Y,
        GROUND_ALBEDO,
    );
    for b in scene_boxes() {
        let (a, c) = (b.min, b.max);
        let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        // Counter-clockwise seen from outside.
        push_quad(&mut v, [p(a.x, c.y, a.z), p(a.x, c.y, c.z), p(c.x, c.y, c.z), p(c.x, c.y, a.z)], Vec3::Y, b.albedo);
        push_quad(&mut v, [p(a.x, a.y, c.z), p(c.x, a.y, c.z), p(c.x, c.y, c.z), p(a.x, c.y, c.z)], Vec3::Z, b.albedo);
        push_quad(
            &mut v,
            [p(c.x, a.y, a.z), p(a.x, a.y, a.z), p(a.x, c.y, a.z), p(c.x, c.y, a.z)],
            Vec3::NEG_Z,
            b.albedo,
        );
        push_quad(&mut v, [p(c.x, a.y, c.z), p(c.x, a.y, a.z), p(c.x, c.y, a.z), p(c.x, c.y, c.z)], Vec3::X, b.albedo);
        push_quad(
            &mut v,
            [p(a.x, a.y, a.z), p(a.x, a.y, c.z), p(a.x, c.y, c.z), p(a.x, c.y, a.z)],
            Vec3::NEG_X,
            b.albedo,
        );
    }
    v
}

pub struct TestScene {
    vertices: wgpu::Buffer,
    vertex_count: u32,
    frame_only_layout: wgpu::BindGroupLayout,
    lit_layout: wgpu::BindGroupLayout,
    /// Group 2 of the lit pipelines: a medium's shadow (`volume_shadow`).
    volume_shadow_layout: wgpu::BindGroupLayout,
    /// Group 1 of the lit pipelines: the clouds' shadow (`cloud_shadow`).
    cloud_shadow_layout: wgpu::BindGroupLayout,
    frame_only: wgpu::BindGroup,
    lit: wgpu::BindGroup,
    shadow_pipeline: wgpu::RenderPipeline,
    scene_pipeline: wgpu::RenderPipeline,
    sky_pipeline: wgpu::RenderPipeline,
}

const SHADER: &str = "core/scene.wgsl";

impl TestScene {
    pub fn new(gpu: &GpuContext, frame: &FrameResources, shaders: &ShaderStore) -> anyhow::Result<Self> {
        let device = &gpu.device;
        let mesh = build_mesh();
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("test scene vertices"),
            contents: bytemuck::cast_slice(&mesh),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let all = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let frame_only_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene frame only"),
            entries: &[uniform_entry(0, all)],
        });
        let lit_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene lit"),
            entries: &[
                uniform_entry(0, all),
                texture_entry(1, wgpu::ShaderStages::FRAGMENT, wgpu::TextureSampleType::Depth),
                comparison_sampler_entry(2, wgpu::ShaderStages::FRAGMENT),
            ],
        });
        let (frame_only, lit) = Self::bind_groups(device, frame, &frame_only_layout, &lit_layout);
        let volume_shadow_layout = frame.layouts.volume_shadow.clone();
        let cloud_shadow_layout = frame.layouts.cloud_shadow.clone();
        let (shadow_pipeline, scene_pipeline, sky_pipeline) = Self::pipelines(
            device,
            shaders,
            &frame_only_layout,
            &lit_layout,
            [&cloud_shadow_layout, &volume_shadow_layout],
        )?;
        Ok(Self {
            vertices,
            vertex_count: mesh.len() as u32,
            frame_only_layout,
            lit_layout,
            volume_shadow_layout,
            cloud_shadow_layout,
            frame_only,
            lit,
            shadow_pipeline,
            scene_pipeline,
            sky_pipeline,
        })
    }

    fn bind_groups(
        device: &wgpu::Device,
        frame: &FrameResources,
        frame_only_layout: &wgpu::BindGroupLayout,
        lit_layout: &wgpu::BindGroupLayout,
    ) -> (wgpu::BindGroup, wgpu::BindGroup) {
        let frame_only = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene frame only"),
            layout: frame_only_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: frame.uniform.as_entire_binding() }],
        });
        let lit = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene lit"),
            layout: lit_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: frame.uniform.as_entire_binding() },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&frame.shadow_map.view),
                },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&frame.shadow_sampler) },
            ],
        });
        (frame_only, lit)
    }

    /// The vertex buffer's layout: position, normal and colour.
    fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
        const ATTRIBUTES: [wgpu::VertexAttribute; 3] =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x3];
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRIBUTES,
        }
    }

    /// A depth test with `compare`, writing depth when `write`.
    fn depth_state(write: bool, compare: wgpu::CompareFunction) -> Option<wgpu::DepthStencilState> {
        Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(write),
            depth_compare: Some(compare),
            stencil: Default::default(),
            bias: Default::default(),
        })
    }

    /// The scene's colour targets: HDR radiance and distance, unblended.
    fn targets() -> [Option<wgpu::ColorTargetState>; 2] {
        [
            Some(wgpu::ColorTargetState { format: HDR_FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL }),
            Some(wgpu::ColorTargetState { format: DISTANCE_FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL }),
        ]
    }

    fn pipelines(
        device: &wgpu::Device,
        shaders: &ShaderStore,
        frame_only_layout: &wgpu::BindGroupLayout,
        lit_layout: &wgpu::BindGroupLayout,
        // Groups 1 and 2: the clouds' shadow and a medium's shadow.
        [cloud_shadow_layout, volume_shadow_layout]: [&wgpu::BindGroupLayout; 2],
    ) -> anyhow::Result<(wgpu::RenderPipeline, wgpu::RenderPipeline, wgpu::RenderPipeline)> {
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let layout = |groups: &[Option<&wgpu::BindGroupLayout>]| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: groups,
                immediate_size: 0,
            })
        };
        let shadow_layout = layout(&[Some(frame_only_layout)]);
        let lit_pipeline_layout = layout(&[Some(lit_layout), Some(cloud_shadow_layout), Some(volume_shadow_layout)]);
        let vertex_layout = Self::vertex_layout();
        let depth = Self::depth_state;
        let targets = Self::targets();
        let make = |desc: &wgpu::RenderPipelineDescriptor| {
            crate::shaders::checked(device, desc.label.unwrap_or("scene"), || device.create_render_pipeline(desc))
        };
        let shadow = make(&wgpu::RenderPipelineDescriptor {
            label: Some("shadow map"),
            layout: Some(&shadow_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("shadow_vs"),
                compilation_options: Default::default(),
                buffers: &[Some(vertex_layout.clone())],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: depth(true, wgpu::CompareFunction::Less),
            multisample: Default::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        })?;
        let scene = make(&wgpu::RenderPipelineDescriptor {
            label: Some("test scene"),
            layout: Some(&lit_pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("scene_vs"),
                compilation_options: Default::default(),
                buffers: &[Some(vertex_layout)],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: depth(true, wgpu::CompareFunction::Less),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("scene_fs"),
                compilation_options: Default::default(),
                targets: &targets,
            }),
            multiview_mask: None,
            cache: None,
        })?;
        let sky = make(&wgpu::RenderPipelineDescriptor {
            label: Some("sky background"),
            layout: Some(&lit_pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("sky_vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: depth(false, wgpu::CompareFunction::LessEqual),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("sky_fs"),
                compilation_options: Default::default(),
                targets: &targets,
            }),
            multiview_mask: None,
            cache: None,
        })?;
        Ok((shadow, scene, sky))
    }

    /// Rebuilds the pipelines from the current shader files; on error the old ones stay.
    pub fn reload(&mut self, gpu: &GpuContext, shaders: &ShaderStore) -> anyhow::Result<()> {
        let (a, b, c) = Self::pipelines(
            &gpu.device,
            shaders,
            &self.frame_only_layout,
            &self.lit_layout,
            [&self.cloud_shadow_layout, &self.volume_shadow_layout],
        )?;
        (self.shadow_pipeline, self.scene_pipeline, self.sky_pipeline) = (a, b, c);
        Ok(())
    }

    /// Call after `FrameResources::resize` (the bind groups reference its buffers).
    pub fn rebind(&mut self, gpu: &GpuContext, frame: &FrameResources) {
        (self.frame_only, self.lit) = Self::bind_groups(&gpu.device, frame, &self.frame_only_layout, &self.lit_layout);
    }

    /// Records the shadow map, then the scene (geometry, then sky) into the HDR and distance
    /// targets; `volume_shadow` and `cloud_shadow` are the published medium's and clouds'
    /// shadows or the frame's stand-ins.
    pub fn record(
        &self,
        passes: &mut PassRecorder,
        frame: &FrameResources,
        volume_shadow: &wgpu::BindGroup,
        cloud_shadow: &wgpu::BindGroup,
    ) {
        passes.render(
            "shadow map",
            &[],
            Some(wgpu::RenderPassDepthStencilAttachment {
                view: &frame.shadow_map.view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
            |pass| {
                pass.set_pipeline(&self.shadow_pipeline);
                pass.set_bind_group(0, &self.frame_only, &[]);
                pass.set_vertex_buffer(0, self.vertices.slice(..));
                pass.draw(0..self.vertex_count, 0..1);
            },
        );
        let clear = |view| {
            Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })
        };
        passes.render(
            "scene",
            &[clear(&frame.hdr.view), clear(&frame.distance.view)],
            Some(wgpu::RenderPassDepthStencilAttachment {
                view: &frame.depth.view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            |pass| {
                pass.set_bind_group(0, &self.lit, &[]);
                pass.set_bind_group(crate::volume_shadow::VOLUME_SHADOW_GROUP, volume_shadow, &[]);
                pass.set_bind_group(crate::cloud_shadow::CLOUD_SHADOW_GROUP, cloud_shadow, &[]);
                pass.set_pipeline(&self.scene_pipeline);
                pass.set_vertex_buffer(0, self.vertices.slice(..));
                pass.draw(0..self.vertex_count, 0..1);
                pass.set_pipeline(&self.sky_pipeline);
                pass.draw(0..3, 0..1);
            },
        );
    }
}
