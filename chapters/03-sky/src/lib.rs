//! Chapter 3 — a physically based sky after Bruneton (2017). This first part: Earth's
//! atmosphere (Rayleigh, Mie, ozone), the precomputed transmittance LUT, and sky and aerial
//! perspective from single scattering evaluated per pixel through that LUT. The precomputed
//! scattering textures with multiple scattering, ground irradiance, and scene lighting from the
//! atmosphere are the chapter's next part.

pub mod params;
pub mod reference;

use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use fogbook_core::capture::FloatImage;
use fogbook_core::frame::{FrameLayouts, Target, uniform_entry};
use fogbook_core::gpu::GpuContext;
use fogbook_core::params::DynParameters;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::timing::PassRecorder;
use fogbook_core::views::SnapshotTolerance;
use fogbook_core::{Chapter, ChapterContext, ChapterInfo, Figure, ViewInfo};
pub use params::SkyParams;
use reference::{Atmosphere, TRANSMITTANCE_SIZE};

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "Sky and aerial perspective over the scene (single scattering)"),
    ViewInfo::color("sky", "The sky alone, every ray to the ground or the top of the atmosphere"),
    ViewInfo::color("transmittance-lut", "The transmittance LUT: view-zenith parameter across, altitude up"),
    ViewInfo::color("aerial-inscattering", "Light scattered into the eye between the camera and the surface"),
    ViewInfo::fraction("aerial-transmittance", "Transmittance from the camera to the surface (mean of RGB)"),
    ViewInfo::scalar("luminance", "Luminance of the in-scattered light", 1.0, 20000.0, "cd/m²").log_scale(),
];
// ANCHOR_END: views

/// Mirrors `struct AtmosphereParams` in shaders/03-sky/atmosphere.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct AtmosphereUniform {
    pub radii: [f32; 4],
    pub rayleigh: [f32; 4],
    pub mie: [f32; 4],
    pub ozone: [f32; 4],
    pub solar: [f32; 4],
    pub mode: [u32; 4],
}

impl AtmosphereUniform {
    pub fn new(p: &SkyParams, view: usize) -> Self {
        let a = Atmosphere::from_params(p);
        let v3 = |v: [f64; 3], w: f64| [v[0] as f32, v[1] as f32, v[2] as f32, w as f32];
        Self {
            radii: [a.bottom_radius as f32, a.top_radius as f32, p.camera_altitude_m, p.exposure],
            rayleigh: v3(a.rayleigh_scattering, a.rayleigh_scale_height),
            mie: [a.mie_scattering[0] as f32, a.mie_extinction[0] as f32, a.mie_scale_height as f32, a.mie_g as f32],
            ozone: v3(a.ozone_absorption, 0.0),
            solar: v3(a.solar_irradiance, 0.0),
            mode: [view as u32, p.steps, 0, 0],
        }
    }
}

const LUT_SHADER: &str = "03-sky/transmittance_lut.wgsl";
const SKY_SHADER: &str = "03-sky/sky.wgsl";

struct Gpu {
    uniform: wgpu::Buffer,
    lut: Target,
    lut_pipeline: wgpu::ComputePipeline,
    lut_group: wgpu::BindGroup,
    sky_pipeline: wgpu::ComputePipeline,
    sky_group: wgpu::BindGroup,
    /// The parameters the LUT was computed for; a change recomputes it.
    lut_for: Option<SkyParams>,
}

#[derive(Default)]
pub struct Sky {
    pub params: SkyParams,
    gpu: Option<Gpu>,
}

impl Sky {
    pub fn new() -> Self {
        Self::default()
    }

    // ANCHOR: update_lut
    /// Recomputes the transmittance LUT if the atmosphere changed.
    fn update_lut(&mut self, gpu: &GpuContext, passes: &mut PassRecorder) {
        let Some(g) = self.gpu.as_mut() else { return };
        // Only the atmosphere matters to the LUT, not the view settings.
        let key = SkyParams { camera_altitude_m: 0.0, exposure: 1.0, steps: 1, ..self.params.clone() };
        if g.lut_for.as_ref() == Some(&key) {
            return;
        }
        gpu.queue.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&AtmosphereUniform::new(&self.params, 0)));
        passes.compute("sky: transmittance LUT", |pass| {
            pass.set_pipeline(&g.lut_pipeline);
            pass.set_bind_group(0, &g.lut_group, &[]);
            pass.dispatch_workgroups(TRANSMITTANCE_SIZE[0].div_ceil(8), TRANSMITTANCE_SIZE[1].div_ceil(8), 1);
        });
        g.lut_for = Some(key);
    }
    // ANCHOR_END: update_lut

    /// Computes the LUT now and reads it back (tests).
    pub fn read_lut(&mut self, gpu: &GpuContext) -> Result<FloatImage> {
        let mut passes = PassRecorder::new(gpu, None, fogbook_core::timing::TimingMode::Off);
        if let Some(g) = self.gpu.as_mut() {
            g.lut_for = None;
        }
        self.update_lut(gpu, &mut passes);
        passes.submit();
        let g = self.gpu.as_ref().ok_or_else(|| anyhow::anyhow!("sky: no GPU state"))?;
        FloatImage::read(gpu, &g.lut.texture)
    }
}

impl Chapter for Sky {
    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "sky",
            number: 3,
            title: "Physically based sky (part 1)",
            summary: "Bruneton's atmosphere: transmittance LUT, and sky and aerial perspective from single scattering; multiple scattering comes next",
        }
    }

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[LUT_SHADER, SKY_SHADER]
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<()> {
        let device = &gpu.device;
        let lut_module = create_module(device, &shaders.load(LUT_SHADER)?);
        let sky_module = create_module(device, &shaders.load(SKY_SHADER)?);
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("atmosphere"),
            size: std::mem::size_of::<AtmosphereUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let lut = Target::new(
            device,
            "transmittance LUT",
            TRANSMITTANCE_SIZE,
            wgpu::TextureFormat::Rgba32Float,
            wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC,
        );
        let compute = wgpu::ShaderStages::COMPUTE;
        let lut_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("transmittance LUT"),
            entries: &[
                uniform_entry(0, compute),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: compute,
                    ty: wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: wgpu::TextureFormat::Rgba32Float,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
            ],
        });
        let sky_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sky"),
            entries: &[
                uniform_entry(0, compute),
                fogbook_core::frame::texture_entry(1, compute, wgpu::TextureSampleType::Float { filterable: true }),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: compute,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("transmittance LUT"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let lut_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("transmittance LUT"),
            layout: &lut_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&lut.view) },
            ],
        });
        let sky_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sky"),
            layout: &sky_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&lut.view) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&sampler) },
            ],
        });
        let lut_pipeline = compute_pipeline(device, &lut_module, "transmittance_lut", &[Some(&lut_layout)]);
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&sky_layout)];
        let sky_pipeline = compute_pipeline(device, &sky_module, "sky", &groups);
        self.gpu = Some(Gpu { uniform, lut, lut_pipeline, lut_group, sky_pipeline, sky_group, lut_for: None });
        Ok(())
    }

    // ANCHOR: render
    fn render(&mut self, ctx: &mut ChapterContext) {
        self.update_lut(ctx.gpu, ctx.passes);
        let Some(g) = &self.gpu else { return };
        ctx.gpu.queue.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&AtmosphereUniform::new(&self.params, ctx.view)));
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("sky: sky + aerial perspective", |pass| {
            pass.set_pipeline(&g.sky_pipeline);
            pass.set_bind_group(0, &ctx.frame.scene_inputs, &[]);
            pass.set_bind_group(1, &ctx.frame.view_out, &[]);
            pass.set_bind_group(2, &g.sky_group, &[]);
            pass.dispatch_workgroups(w.div_ceil(8), h.div_ceil(8), 1);
        });
    }
    // ANCHOR_END: render

    /// The test scene's 1 km ground ends just below the horizon, and which pixels of that band
    /// rasterise as ground or as sky differs between GPUs: on an H200 1.8% of the luminance
    /// view's pixels (log scale) move by up to 42/255, everything else by at most 2.
    fn snapshot_tolerance(&self) -> SnapshotTolerance {
        SnapshotTolerance { steps: 2, max_fraction: 0.025 }
    }

    // ANCHOR: figures
    fn figures(&self) -> Vec<Figure> {
        let fig =
            |name, view, settings: &[&'static str], camera| Figure { name, view, settings: settings.to_vec(), camera };
        vec![
            fig("sunset", "final", &["scene.sun_elevation_deg=2"], None),
            fig("noon", "sky", &["scene.sun_elevation_deg=60"], Some("0,2,0,0,20,90")),
            fig(
                "from-orbit",
                "sky",
                &["camera_altitude_m=400000", "scene.sun_elevation_deg=30"],
                Some("0,2,0,0,-60,90"),
            ),
            fig("no-ozone-twilight", "sky", &["ozone=false", "scene.sun_elevation_deg=-4"], Some("0,2,0,20,10,90")),
        ]
    }
    // ANCHOR_END: figures
}
