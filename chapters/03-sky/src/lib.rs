//! Chapter 3 — a physically based sky after Bruneton (2017, "Precomputed Atmospheric
//! Scattering: a New Implementation"; Bruneton and Neyret 2008): Earth's atmosphere (Rayleigh,
//! Mie, ozone), lookup textures precomputed on the GPU when the atmosphere changes
//! (transmittance, single and multiple scattering, sky irradiance), and per frame the sky, the
//! planet's ground, aerial perspective over the test scene, and the scene's sun and ambient
//! light, all from those textures.

pub mod cpu_luts;
pub mod luts;
pub mod params;
#[cfg(feature = "book")]
pub mod plots;
pub mod reference;

use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::{storage_buffer_entry, texture_3d_entry, texture_entry, uniform_entry};
use fogbook_core::capture::FloatImage;
use fogbook_core::frame::SCREEN_TILE;
use fogbook_core::frame::{FrameLayouts, SceneLight};
use fogbook_core::gpu::{GpuContext, Requirements};
use fogbook_core::params::DynParameters;
use fogbook_core::shaders::WgslConst;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::timing::PassRecorder;
use fogbook_core::views::SnapshotTolerance;
use fogbook_core::{Book, Chapter, ChapterContext, ChapterInfo, Figure, Loan, Resource, Stage, StageIo, ViewInfo};
use luts::{LutTextures, PrecomputePipelines};
pub use params::{LutResolution, SkyParams};
use reference::Atmosphere;

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "Sky, planet and aerial perspective over the scene lit by the atmosphere"),
    ViewInfo::color("sky", "The sky alone: every ray to the planet's ground or out of the atmosphere"),
    ViewInfo::color("single-scattering", "Light scattered once (sky and aerial perspective, no scene)"),
    ViewInfo::color("multiple-scattering", "Light scattered two or more times (orders 2..n)"),
    ViewInfo::color("transmittance-lut", "Transmittance LUT: view-zenith parameter x_μ across, altitude up"),
    ViewInfo::color(
        "scattering-lut",
        "Rayleigh + multiple scattering texels (× exposure / 4π) of the r slice `lut_slice`: 8 blocks of ν across, μ_s inside each; μ up (lower half: rays to the ground)",
    ),
    ViewInfo::color("mie-lut", "Single Mie scattering texels, laid out as scattering-lut"),
    ViewInfo::scalar(
        "density-lut",
        "Scattering density J of the last order, laid out as scattering-lut",
        1e-10,
        1e-5,
        "W/m³/sr/nm",
    )
    .log_scale()
    .auto_range(),
    ViewInfo::color("irradiance-lut", "Sky irradiance LUT: sun-zenith cosine μ_s across (−1..1), altitude up"),
    ViewInfo::color("aerial-inscattering", "Light scattered into the eye between the camera and the surface"),
    ViewInfo::fraction("aerial-transmittance", "Transmittance from the camera to the surface (mean of RGB)"),
    ViewInfo::scalar("luminance", "Luminance of the final image (sky, planet, lit scene)", 1.0, 20000.0, "cd/m²")
        .log_scale(),
];
// ANCHOR_END: views

/// Sun angular radius (rad), Bruneton 2017.
pub const SUN_ANGULAR_RADIUS: f32 = 0.004675;
/// Lowest sun-zenith cosine the scattering texture covers: cos 102°, the sun 12° below the
/// horizon.
pub const MU_S_MIN: f64 = -0.20791169081775931;

/// Mirrors `struct AtmosphereParams` in shaders/common/atmosphere_tables.wgsl (the shared sky's
/// table layout, `fogbook_core::shared_sky`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct AtmosphereUniform {
    pub radii: [f32; 4],
    pub rayleigh: [f32; 4],
    pub mie: [f32; 4],
    pub ozone: [f32; 4],
    pub solar: [f32; 4],
    /// The debug view.
    pub view: u32,
    pub scattering_orders: u32,
    /// 1: blend two rays across the horizon (`horizon_blend_deg` > 0).
    pub horizon_blend_on: u32,
    pub _pad0: u32,
    pub sizes: [u32; 4],
    /// Lowest sun-zenith cosine the scattering texture covers.
    pub mu_s_min: f32,
    /// Half-width of the horizon blend, as a cosine.
    pub horizon_blend_half_width: f32,
    /// The LUT views' r slice (0..1).
    pub lut_slice: f32,
    pub _pad1: f32,
}

impl AtmosphereUniform {
    pub fn new(p: &SkyParams, view: usize) -> Self {
        let a = Atmosphere::from_params(p);
        let v3 = |v: [f64; 3], w: f64| [v[0] as f32, v[1] as f32, v[2] as f32, w as f32];
        let blend = (p.horizon_blend_deg as f64).to_radians().sin() as f32;
        Self {
            radii: [a.bottom_radius as f32, a.top_radius as f32, p.camera_altitude_m, p.exposure],
            rayleigh: v3(a.rayleigh_scattering, a.rayleigh_scale_height),
            mie: [a.mie_scattering[0] as f32, a.mie_extinction[0] as f32, a.mie_scale_height as f32, a.mie_g as f32],
            ozone: v3(a.ozone_absorption, a.ground_albedo),
            solar: v3(a.solar_irradiance, SUN_ANGULAR_RADIUS as f64),
            view: view as u32,
            scattering_orders: p.scattering_orders,
            horizon_blend_on: u32::from(blend > 0.0),
            _pad0: 0,
            sizes: p.lut_resolution.scattering_size(),
            mu_s_min: MU_S_MIN as f32,
            horizon_blend_half_width: blend,
            lut_slice: p.lut_slice.clamp(0.0, 1.0),
            _pad1: 0.0,
        }
    }
}

const SKY_SHADER: &str = "03-sky/sky.wgsl";
const LIGHTING_SHADER: &str = "03-sky/scene_lighting.wgsl";

/// The lookup textures and the bind groups that read them (recreated with the resolution).
struct LutSet {
    textures: LutTextures,
    /// The sky and scene-lighting passes' group for each parity of the final sums.
    sky_groups: [wgpu::BindGroup; 2],
    /// The same tables as the core's shared-sky group, for later stages.
    shared: [wgpu::BindGroup; 2],
}

/// What every set of lookup tables is bound together with.
struct LutBindings {
    uniform: wgpu::Buffer,
    sampler: wgpu::Sampler,
    /// The scene light (`SceneLight`) the lighting pass writes, lent to the core.
    lighting: wgpu::Buffer,
    sky_layout: wgpu::BindGroupLayout,
    /// The core's layout of the shared-sky group.
    shared_layout: wgpu::BindGroupLayout,
}

/// The sky's GPU state.
pub struct Gpu {
    bindings: LutBindings,
    precompute: PrecomputePipelines,
    sky_pipeline: wgpu::ComputePipeline,
    lighting_pipeline: wgpu::ComputePipeline,
    luts: LutSet,
    /// The parameters the LUTs were computed for; a change recomputes them.
    luts_for: Option<SkyParams>,
    /// The set computed before the current one, with its parameters: going back to them (an
    /// undone edit; the book's figures, one atmosphere after another) swaps the two sets
    /// instead of computing again. It doubles the tables' memory once the atmosphere changes.
    previous: Option<(LutSet, SkyParams)>,
    /// How many times the tables were computed (tests).
    computations: u32,
}

#[derive(Default)]
pub struct Sky {
    pub params: SkyParams,
}

impl LutBindings {
    fn lut_set(&self, device: &wgpu::Device, size: [u32; 4]) -> LutSet {
        let textures = LutTextures::new(device, size);
        let t = &textures;
        let sky_group = |i: usize| {
            let views = [
                &t.transmittance.1,
                &t.scattering[i].1,
                &t.single_mie.1,
                &t.single_rayleigh.1,
                &t.irradiance[i].1,
                &t.density.1,
            ];
            let mut entries = vec![
                wgpu::BindGroupEntry { binding: 0, resource: self.uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&self.sampler) },
                wgpu::BindGroupEntry { binding: 8, resource: self.lighting.as_entire_binding() },
            ];
            for (binding, view) in [1, 3, 4, 5, 6, 7].into_iter().zip(views) {
                entries.push(wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(view) });
            }
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("sky"),
                layout: &self.sky_layout,
                entries: &entries,
            })
        };
        let shared = |i: usize| {
            let tables = fogbook_core::shared_sky::SkyTables {
                uniform: &self.uniform,
                transmittance: &t.transmittance.1,
                scattering: &t.scattering[i].1,
                single_mie: &t.single_mie.1,
                irradiance: &t.irradiance[i].1,
                sampler: &self.sampler,
            };
            fogbook_core::shared_sky::bind_group(device, &self.shared_layout, &tables)
        };
        LutSet { sky_groups: [sky_group(0), sky_group(1)], shared: [shared(0), shared(1)], textures }
    }
}

impl Gpu {
    // ANCHOR: update_luts
    /// Writes this frame's uniform and recomputes the lookup textures if the atmosphere changed
    /// (or on every call with `every_frame`, to time them).
    fn prepare(
        &mut self,
        params: &SkyParams,
        gpu: &GpuContext,
        passes: &mut PassRecorder,
        view: usize,
        every_frame: bool,
    ) {
        let uniform = AtmosphereUniform::new(params, view);
        gpu.write_buffer(&self.bindings.uniform, 0, bytemuck::bytes_of(&uniform));
        let key = params.lut_key();
        let size = params.lut_resolution.scattering_size();
        if self.luts_for.as_ref() != Some(&key) {
            if !every_frame && self.previous.as_ref().is_some_and(|(_, k)| *k == key) {
                self.swap_with_previous();
                return;
            }
            // Keep the current set as the previous one; compute into the older set's textures.
            if let Some(current_key) = self.luts_for.take() {
                let spare = match self.previous.take() {
                    Some((set, _)) => set,
                    None => self.bindings.lut_set(&gpu.device, size),
                };
                self.previous = Some((std::mem::replace(&mut self.luts, spare), current_key));
            }
        } else if !every_frame {
            return;
        }
        if self.luts.textures.scattering_size != size {
            self.luts = self.bindings.lut_set(&gpu.device, size);
        }
        let (textures, uniform) = (&self.luts.textures, &self.bindings.uniform);
        luts::record_precompute(gpu, passes, &self.precompute, textures, uniform, params.scattering_orders);
        self.luts_for = Some(key);
        self.computations += 1;
    }
    // ANCHOR_END: update_luts

    /// The previous set becomes the current one and the current one the previous.
    fn swap_with_previous(&mut self) {
        if let Some((set, key)) = self.previous.take() {
            let current = std::mem::replace(&mut self.luts, set);
            self.previous = self.luts_for.replace(key).map(|current_key| (current, current_key));
        }
    }

    /// Computes the LUTs now, whether or not the parameters changed, and waits for the GPU
    /// (tests and benches).
    pub fn precompute_now(&mut self, params: &SkyParams, gpu: &GpuContext) {
        self.prepare_now(params, gpu, true);
    }

    /// Brings the LUTs up to date for `params` as a frame does (computed, swapped in or left
    /// alone), and waits for the GPU (tests).
    pub fn update_luts_now(&mut self, params: &SkyParams, gpu: &GpuContext) {
        self.prepare_now(params, gpu, false);
    }

    fn prepare_now(&mut self, params: &SkyParams, gpu: &GpuContext, every_frame: bool) {
        let mut passes = PassRecorder::new(gpu, None, fogbook_core::timing::TimingMode::Off);
        self.prepare(params, gpu, &mut passes, 0, every_frame);
        passes.submit();
        gpu.wait();
    }

    /// How many times the tables were computed so far.
    pub fn lut_computations(&self) -> u32 {
        self.computations
    }

    /// Computes the LUTs now and reads one back (tests): "transmittance" or "irradiance".
    pub fn read_lut(&mut self, params: &SkyParams, gpu: &GpuContext, which: &str) -> Result<FloatImage> {
        self.precompute_now(params, gpu);
        self.current_lut(params, gpu, which)
    }

    /// Reads back one of the current LUTs as they are (tests): "transmittance" or "irradiance".
    pub fn current_lut(&self, params: &SkyParams, gpu: &GpuContext, which: &str) -> Result<FloatImage> {
        let t = &self.luts.textures;
        let texture = match which {
            "transmittance" => &t.transmittance.0,
            "irradiance" => &t.irradiance[LutTextures::final_index(params.scattering_orders)].0,
            other => anyhow::bail!("no 2D LUT named {other:?}"),
        };
        FloatImage::read(gpu, texture)
    }

    /// GPU memory of the lookup textures (bytes).
    pub fn lut_bytes(&self) -> u64 {
        self.luts.textures.bytes()
    }
}

impl Sky {
    pub fn new() -> Self {
        Self::default()
    }

    fn final_index(&self) -> usize {
        LutTextures::final_index(self.params.scattering_orders)
    }
}

impl Chapter for Sky {
    type Gpu = Gpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "sky",
            number: 3,
            title: "Physically based sky",
            summary: "Bruneton's precomputed atmospheric scattering: transmittance, multiple scattering and irradiance LUTs; sky, aerial perspective and scene light from them",
        }
    }

    fn requirements(&self) -> Requirements {
        // Linear filtering of the rgba32float lookup textures.
        Requirements { features: wgpu::Features::FLOAT32_FILTERABLE, ..Default::default() }
    }

    // ANCHOR: stage
    /// The sky writes the scene's light in prepare (`light_scene`), then in its own stage puts
    /// the sky behind the scene and aerial perspective over it.
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "lookup tables, scene light",
            stage: Stage::Atmosphere,
            reads: &[Resource::Color, Resource::SceneDistance],
            writes: &[Resource::SceneLight, Resource::SkyTables, Resource::Color, Resource::ViewRange],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[
            luts::TRANSMITTANCE_SHADER,
            luts::DIRECT_IRRADIANCE_SHADER,
            luts::SINGLE_SCATTERING_SHADER,
            luts::SCATTERING_DENSITY_SHADER,
            luts::INDIRECT_IRRADIANCE_SHADER,
            luts::MULTIPLE_SCATTERING_SHADER,
            SKY_SHADER,
            LIGHTING_SHADER,
        ]
    }

    /// The LUT passes' sample counts, the same as the f64 port's (`cpu_luts`).
    fn shader_constants(&self) -> Vec<WgslConst> {
        use cpu_luts::{DENSITY_SAMPLES, IRRADIANCE_SAMPLES, RAY_SAMPLES, TRANSMITTANCE_SAMPLES};
        vec![
            WgslConst::u32("TRANSMITTANCE_SAMPLES", TRANSMITTANCE_SAMPLES as u32),
            WgslConst::u32("RAY_SAMPLES", RAY_SAMPLES),
            WgslConst::u32("DENSITY_SAMPLES", DENSITY_SAMPLES),
            WgslConst::u32("IRRADIANCE_SAMPLES", IRRADIANCE_SAMPLES),
        ]
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<Gpu> {
        let device = &gpu.device;
        let sky_module = create_module(device, &shaders.load(SKY_SHADER)?)?;
        let lighting_module = create_module(device, &shaders.load(LIGHTING_SHADER)?)?;
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("atmosphere"),
            size: std::mem::size_of::<AtmosphereUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let lighting = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sky: scene lighting"),
            size: std::mem::size_of::<SceneLight>() as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let compute = wgpu::ShaderStages::COMPUTE;
        let float = wgpu::TextureSampleType::Float { filterable: true };
        let texture_3d = |binding| texture_3d_entry(binding, compute, float);
        let sky_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sky"),
            entries: &[
                uniform_entry(0, compute),
                texture_entry(1, compute, float),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: compute,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                texture_3d(3),
                texture_3d(4),
                texture_3d(5),
                texture_entry(6, compute, float),
                texture_3d(7),
                // sun_dir, sun_color, ambient for the frame uniform (the scene-lighting pass).
                storage_buffer_entry(8, compute, false),
            ],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("sky LUTs"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let precompute = PrecomputePipelines::new(device, shaders, sampler.clone())?;
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&sky_layout)];
        let sky_pipeline = compute_pipeline(device, &sky_module, "sky", &groups)?;
        let lighting_pipeline = compute_pipeline(device, &lighting_module, "scene_lighting", &groups)?;
        let bindings =
            LutBindings { uniform, sampler, lighting, sky_layout, shared_layout: layouts.shared_sky.clone() };
        let luts = bindings.lut_set(device, self.params.lut_resolution.scattering_size());
        Ok(Gpu {
            bindings,
            precompute,
            sky_pipeline,
            lighting_pipeline,
            luts,
            luts_for: None,
            previous: None,
            computations: 0,
        })
    }

    // ANCHOR: shared_sky
    /// After prepare: the tables of the last completed sum, and the scene light the lighting
    /// pass wrote (when the sky lights the scene), which the core copies into the frame uniform.
    fn lend(&self, g: &Gpu, kind: Resource) -> Option<Loan> {
        match kind {
            Resource::SkyTables => Some(Loan::Group(g.luts.shared[self.final_index()].clone())),
            Resource::SceneLight if self.params.light_scene => Some(Loan::SceneLight(g.bindings.lighting.clone())),
            _ => None,
        }
    }
    // ANCHOR_END: shared_sky

    // ANCHOR: light_scene
    fn light_scene(&mut self, g: &mut Gpu, ctx: &mut ChapterContext) {
        // The first pass of the frame: the LUTs are brought up to date here, before the scene.
        g.prepare(&self.params, ctx.gpu, ctx.passes, ctx.view, self.params.precompute_every_frame);
        let index = self.final_index();
        if !self.params.light_scene {
            return;
        }
        // The same bind groups as the sky pass: the frame's, and the LUTs'.
        ctx.passes.compute("sky: scene lighting", |pass| {
            pass.set_pipeline(&g.lighting_pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &g.luts.sky_groups[index], &[]);
            pass.dispatch_workgroups(1, 1, 1);
        });
    }
    // ANCHOR_END: light_scene

    // ANCHOR: render
    fn render(&mut self, g: &mut Gpu, ctx: &mut ChapterContext) {
        // `light_scene` ran earlier this frame: the uniform is written and the LUTs are current.
        let index = self.final_index();
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("sky: sky + aerial perspective", |pass| {
            pass.set_pipeline(&g.sky_pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &g.luts.sky_groups[index], &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
    // ANCHOR_END: render

    fn book(&self) -> Book {
        Book {
            test_settings: Self::test_settings(),
            // The tables are computed when the atmosphere changes, whatever frame that is.
            warmup_steps_only: true,
            snapshot_tolerance: Self::snapshot_tolerance(),
            figures: Self::figures(),
            #[cfg(feature = "book")]
            plots: plots::plots,
            ..Default::default()
        }
    }
}

/// What the tests and the book do with this chapter (`Chapter::book`); none of it runs in the
/// viewer.
impl Sky {
    /// The test scene's 1 km ground ends just below the horizon, and which pixels of that band
    /// rasterise as ground or as sky differs between GPUs: on an H200 1.8% of the luminance
    /// view's pixels (log scale) move by up to 42/255, everything else by at most 2.
    fn snapshot_tolerance() -> SnapshotTolerance {
        SnapshotTolerance::pixels(2, 0.025)
    }

    /// The coarse scattering texture keeps the snapshot tests quick on a software driver.
    fn test_settings() -> Vec<&'static str> {
        vec!["lut_resolution=quarter"]
    }

    // ANCHOR: figures
    fn figures() -> Vec<Figure> {
        let fig = |name, view, settings: &[&'static str], camera| Figure::new(name, view, settings, camera);
        vec![
            fig("sunset", "final", &["scene.sun_elevation_deg=2"], None),
            fig("noon", "sky", &["scene.sun_elevation_deg=60"], Some("0,2,0,0,20,90")),
            fig(
                "from-orbit",
                "sky",
                &["camera_altitude_m=400000", "scene.sun_elevation_deg=30"],
                Some("0,2,0,0,-60,90"),
            ),
            fig("four-orders", "sky", &["scene.sun_elevation_deg=5"], Some("0,2,0,20,10,90")),
            // Three of Bruneton's demo views (camera distance, view zenith and azimuth, sun zenith
            // and azimuth, exposure): (9000 m, 1.47, 0, 1.3, 3.0, 10), (2.7e6 m, 0.81, 0, 1.57,
            // 2.0, 10), (1.2e7 m, 0, 0, 0.93, −2.0, 10), as tests/sky_golden.rs maps them onto
            // our camera (the last one 1.1e7 m up, the highest the settings reach).
            fig(
                "bruneton-demo-1",
                "sky",
                &["scene.sun_elevation_deg=15.4356", "scene.sun_azimuth_deg=-8.1095"],
                Some("0,911.934,0,0,-5.85586,50"),
            ),
            fig(
                "bruneton-demo-2",
                "sky",
                &["camera_altitude_m=2091017.7", "scene.sun_elevation_deg=-5.48137", "scene.sun_azimuth_deg=-65.98996"],
                Some("0,2,0,0,-56.96999,50"),
            ),
            fig(
                "bruneton-demo-3",
                "sky",
                &["camera_altitude_m=10000000", "scene.sun_elevation_deg=36.71493", "scene.sun_azimuth_deg=65.40844"],
                Some("0,1000000,0,0,-89,50"),
            ),
            // The horizon from 200 m through a 4° lens: planet ground, aerial perspective, haze.
            fig(
                "horizon",
                "sky",
                &["exposure=40", "camera_altitude_m=200", "scene.sun_elevation_deg=3"],
                Some("0,2,0,-20,-0.3,4"),
            ),
            fig(
                "horizon-blend",
                "sky",
                &["exposure=40", "camera_altitude_m=200", "scene.sun_elevation_deg=3", "horizon_blend_deg=0.2"],
                Some("0,2,0,-20,-0.3,4"),
            ),
            // Last, the two that need other tables: each change of the atmosphere or of the
            // orders computes them again (45 s on a software driver at full size), so the
            // default's come first, once.
            fig("single-only", "sky", &["scattering_orders=1", "scene.sun_elevation_deg=5"], Some("0,2,0,20,10,90")),
            fig("no-ozone-twilight", "sky", &["ozone=false", "scene.sun_elevation_deg=-4"], Some("0,2,0,20,10,90")),
        ]
    }
    // ANCHOR_END: figures
}
