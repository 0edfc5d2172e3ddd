//! Chapter 4 — froxel volumetric fog: a frustum-aligned 3D grid (160×90×64 by default) with
//! exponential depth slices; a media pass (constant density plus chapter 2's height layers,
//! drifting 3D noise, the local fog volumes the stack publishes), a lighting pass (the sun
//! through the core's shadow map and the clouds' shadow map when published, ambient or sky light, the scene's point and spot lights,
//! Henyey–Greenstein or Cornette–Shanks phase), front-to-back integration per column with
//! Hillaire's (2015) energy-conserving step, and a composite at each pixel's depth (Wronski 2014)
//! that continues the medium in closed form beyond the grid. Every pass runs in the froxel-fog
//! stage, after the scene has drawn the shadow map this frame's lighting needs.

pub mod binning;
pub mod params;
pub mod reference;
pub mod volumes;

use bytemuck::{Pod, Zeroable};
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::textures::{DensityPipelines, any_textured};
use fogbook_core::media::volumes::MAX_FOG_VOLUMES;
use fogbook_core::params::{DynParameters, finite_in};
#[cfg(feature = "book")]
use fogbook_core::plot::{Series, line_chart};
use fogbook_core::shaders::WgslConst;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::transparent_fog::FogPart;
use fogbook_core::{
    Book, Chapter, ChapterContext, ChapterInfo, Figure, Loan, Publish, Resource, Stage, StageIo, ViewInfo,
};
pub use params::{FroxelFogParams, PhaseFunction};
use reference::Slices;
use volumes::{Layouts, MediaBuffers, Volumes, check_grid};

pub const SHADERS: &[&str] = &[
    "04-froxel-fog/media.wgsl",
    "04-froxel-fog/lighting.wgsl",
    "04-froxel-fog/integrate.wgsl",
    "04-froxel-fog/composite.wgsl",
];

/// Workgroup of the media and lighting passes (4×4×4 froxels) and of the integration (8×8 columns).
pub const FROXEL_TILE: u32 = 4;
pub const COLUMN_TILE: u32 = 8;

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "The colour so far, seen through the froxel fog"),
    ViewInfo::color("scene", "The colour this stage receives, without the fog"),
    ViewInfo::scalar("density-slice", "Extinction σt of the froxels in slice `slice`", 1e-4, 10.0, "1/m").log_scale(),
    ViewInfo::scalar("inscattering-slice", "Luminance of S, scattered per metre, in slice `slice`", 1e-5, 1.0, "1/m")
        .log_scale(),
    ViewInfo::color("inscattering", "In-scattered radiance integrated from the eye to the pixel's depth"),
    ViewInfo::fraction("transmittance", "Transmittance from the eye to the pixel's depth"),
    ViewInfo::scalar("slices", "Slice coordinate s(d) = N ln(d/n) / ln(f/n) of the pixel's depth", 0.0, 64.0, ""),
    ViewInfo::fraction("shadow", "The sun's visibility in the volume at the middle of slice `slice`"),
    ViewInfo::scalar("noise-slice", "The noise's factor on the global medium in slice `slice`", 0.0, 2.0, ""),
    ViewInfo::scalar("lights-slice", "Luminance of the local lights' share of S in slice `slice`", 1e-5, 1.0, "1/m")
        .log_scale(),
    ViewInfo::color("history", "Slice `slice`'s history: green its weight, red rejected (outside last frame's grid)"),
    ViewInfo::scalar("emission-slice", "Luminance of the local volumes' emission in slice `slice`", 1e-5, 1.0, "1/m")
        .log_scale(),
    ViewInfo::color("grid", "The final colour with the froxel columns (yellow) and slice edges (cyan)"),
    ViewInfo::color("reference", "Per-pixel reference: the same medium and lights, 512 steps along each pixel's ray"),
    ViewInfo::scalar(
        "reference-error",
        "|ΔY| / Y of the final colour, the grid's against the reference's",
        0.0,
        0.1,
        "rel.",
    ),
];
// ANCHOR_END: views

// ANCHOR: uniform
/// Mirrors `struct FroxelParams` in shaders/common/volumetric_grid.wgsl (the grid's uniform as
/// the fog at any depth reads it too; the core binds zeros in its place without this chapter).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct FroxelUniform {
    pub grid: [u32; 4],
    pub slices: [f32; 4],
    pub medium: [f32; 4],
    pub albedo: [f32; 4],
    pub light: [f32; 4],
    /// x: the slice views' slice; y: solo light (0: all); z: phase function; w: fog volumes.
    pub debug: [u32; 4],
    /// x: 1 = temporal; y: history weight; z: 1 = the history volume holds last frame's result;
    /// w: factor on the local lights.
    pub temporal: [f32; 4],
    /// x: noise amount; y: 1 / noise size (1/m); z: 1 = continue beyond the grid; w: 1 = local
    /// volumes point-sampled (`volume_point_sample`).
    pub noise: [f32; 4],
    /// xyz: how far the wind has carried the noise (m).
    pub wind: [f32; 4],
}

/// Where the wind has carried the noise after `time_s` seconds (m): heading as a camera yaw
/// (0 towards −Z, positive to the left).
pub fn wind_offset(p: &FroxelFogParams, time_s: f64) -> [f32; 3] {
    let speed = finite_in(p.wind_speed_m_s, 0.0, 50.0, 0.0) as f64;
    let heading = (finite_in(p.wind_heading_deg, -180.0, 180.0, 0.0) as f64).to_radians();
    // Wrapped every 65.536 km of travel (9 hours at 2 m/s), where the noise jumps once: f32
    // positions keep their centimetres below that.
    let travelled = (speed * time_s).rem_euclid(65536.0);
    [(-heading.sin() * travelled) as f32, 0.0, (-heading.cos() * travelled) as f32]
}

impl FroxelUniform {
    pub fn new(p: &FroxelFogParams, grid: [u32; 3], view: usize, history: bool) -> Self {
        let s = slices(p, grid[2]);
        let log_range = (s.far / s.near).ln();
        let n = grid[2] as f64;
        let a = p.fog_albedo;
        Self {
            grid: [grid[0], grid[1], grid[2], view as u32],
            slices: [s.near as f32, s.far as f32, (n / log_range) as f32, (log_range / n) as f32],
            medium: [
                finite_in(p.constant_density, 0.0, 1e4, 0.0),
                finite_in(p.layer_density, 0.0, 1e4, 0.0),
                finite_in(p.layer_falloff, 0.0, 100.0, 0.0),
                finite_in(p.layer_height_m, -1e6, 1e6, 0.0),
            ],
            albedo: [
                finite_in(a[0], 0.0, 1.0, 0.0),
                finite_in(a[1], 0.0, 1.0, 0.0),
                finite_in(a[2], 0.0, 1.0, 0.0),
                finite_in(p.phase_g, -0.999, 0.999, 0.0),
            ],
            light: [
                finite_in(p.sun_scale, 0.0, 1e4, 0.0),
                finite_in(p.ambient_scale, 0.0, 1e4, 0.0),
                p.volume_shadows as u32 as f32,
                p.froxel_fog as u32 as f32,
            ],
            debug: [
                p.slice.min(grid[2] - 1),
                p.solo_light.min(fogbook_core::lights::MAX_LOCAL_LIGHTS as u32),
                (p.phase_function == PhaseFunction::CornetteShanks) as u32,
                0,
            ],
            temporal: [
                p.temporal as u32 as f32,
                finite_in(p.history_blend, 0.0, 0.99, 0.0),
                history as u32 as f32,
                finite_in(p.local_light_scale, 0.0, 1e4, 0.0),
            ],
            noise: [
                finite_in(p.noise_amount, 0.0, 1.0, 0.0),
                1.0 / finite_in(p.noise_scale_m, 0.5, 500.0, 16.0),
                p.continue_beyond_grid as u32 as f32,
                p.volume_point_sample as u32 as f32,
            ],
            wind: [0.0; 4],
        }
    }
}
// ANCHOR_END: uniform

/// The slice distribution of these parameters (near and far made valid).
pub fn slices(p: &FroxelFogParams, count: u32) -> Slices {
    Slices::new(p.near_m as f64, p.fog_distance_m as f64, count)
}

pub struct Pipelines {
    /// With and without the density textures' code (`DensityPipelines`).
    media: DensityPipelines,
    lighting: wgpu::ComputePipeline,
    integrate: wgpu::ComputePipeline,
    composite: wgpu::ComputePipeline,
}

pub struct FroxelGpu {
    pipelines: Pipelines,
    layouts: Layouts,
    uniform: wgpu::Buffer,
    /// The local fog volumes of this frame (`MAX_FOG_VOLUMES` slots).
    fog_volumes: wgpu::Buffer,
    pub volumes: Volumes,
}

#[derive(Default)]
pub struct FroxelFog {
    pub params: FroxelFogParams,
    status: Option<String>,
}

impl FroxelFog {
    pub fn new() -> Self {
        Self::default()
    }

    fn grid(&self) -> [u32; 3] {
        [self.params.grid_width, self.params.grid_height, self.params.grid_depth]
    }

    /// Reallocates the volumes when the grid's size changed; a size the device cannot hold is
    /// refused with a message and the parameters go back to the size in use.
    fn follow_grid(&mut self, g: &mut FroxelGpu, gpu: &GpuContext) {
        let want = self.grid();
        if g.volumes.size == want {
            return;
        }
        match Volumes::new(gpu, &g.layouts, &g.uniform, want) {
            Ok(v) => {
                g.volumes = v;
                self.status = None;
            }
            Err(e) => {
                let [x, y, z] = g.volumes.size;
                self.status = Some(format!("{e:#}; keeping {x}×{y}×{z}"));
                (self.params.grid_width, self.params.grid_height, self.params.grid_depth) = (x, y, z);
            }
        }
    }
}

impl Chapter for FroxelFog {
    type Gpu = FroxelGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "froxel-fog",
            number: 4,
            title: "Froxel volumetric fog",
            summary: "Fog in a camera-aligned 3D grid: media, sun light through the shadow map, energy-conserving integration per column, applied at each pixel's depth",
        }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "",
            stage: Stage::VolumetricFog,
            reads: &[
                Resource::Color,
                Resource::SceneDistance,
                Resource::SceneLight,
                Resource::ShadowMap,
                Resource::CloudShadow,
                Resource::History,
                Resource::SkyTables,
                Resource::LocalLights,
                Resource::Handover,
                Resource::FogVolumes,
            ],
            writes: &[Resource::Color, Resource::Handover, Resource::TransparentFog],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    // ANCHOR: publish
    /// Chapter 2's analytic fog starts where this grid ends (when this fog is on).
    fn publish(&mut self, out: &mut Publish) {
        if self.params.froxel_fog {
            *out.handover().volumetric_far_m = slices(&self.params, self.params.grid_depth).far as f32;
        }
    }
    // ANCHOR_END: publish

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn view_range(&mut self, view: usize) -> Option<(f32, f32)> {
        (VIEWS[view].name == "slices").then_some((0.0, self.params.grid_depth as f32))
    }

    fn shader_files(&self) -> &'static [&'static str] {
        SHADERS
    }

    fn shader_constants(&self) -> Vec<WgslConst> {
        vec![WgslConst::u32("BIN_COLUMNS", binning::BIN_COLUMNS), WgslConst::u32("BIN_SLICES", binning::BIN_SLICES)]
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    /// Transparent surfaces get this fog at their own depth (`fogbook_core::transparent_fog`):
    /// the parameters, the scattering volume the last render wrote and the integrated volume.
    fn lend(&self, g: &FroxelGpu, kind: Resource) -> Option<Loan> {
        if kind != Resource::TransparentFog {
            return None;
        }
        let v = &g.volumes;
        let written = ((v.frames + 1) % 2) as usize; // `render` wrote scatter[frames % 2], then counted
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        Some(Loan::FogPart(FogPart::Grid {
            uniform: g.uniform.clone(),
            scattering: view(&v.scatter[written]),
            integrated: view(&v.integrated),
        }))
    }

    fn create_gpu(
        &mut self,
        gpu: &GpuContext,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
    ) -> anyhow::Result<FroxelGpu> {
        check_grid(gpu, self.grid())?;
        let device = &gpu.device;
        let own = Layouts::new(device);
        let module =
            |i: usize| -> anyhow::Result<wgpu::ShaderModule> { create_module(device, &shaders.load(SHADERS[i])?) };
        let (inputs, sky) = (Some(&layouts.scene_inputs), Some(&layouts.shared_sky));
        let pipelines = Pipelines {
            media: DensityPipelines::new(device, module(0)?, "media", &[inputs, None, Some(&own.media)])?,
            // Group 1: the clouds' shadow (the view output is the composite's alone).
            lighting: compute_pipeline(
                device,
                &module(1)?,
                "lighting",
                &[inputs, Some(&layouts.cloud_shadow), Some(&own.lighting), sky],
            )?,
            integrate: compute_pipeline(device, &module(2)?, "integrate", &[inputs, None, Some(&own.integrate)])?,
            composite: compute_pipeline(
                device,
                &module(3)?,
                "composite",
                &[inputs, Some(&layouts.view_out), Some(&own.composite), sky],
            )?,
        };
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("froxel fog params"),
            size: std::mem::size_of::<FroxelUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let fog_volumes = fogbook_core::media::volumes::volume_buffer(device, "froxel fog volumes");
        let volumes = Volumes::new(gpu, &own, &uniform, self.grid())?;
        self.status = None;
        Ok(FroxelGpu { pipelines, layouts: own, uniform, fog_volumes, volumes })
    }

    fn render(&mut self, g: &mut FroxelGpu, ctx: &mut ChapterContext) {
        self.follow_grid(g, ctx.gpu);
        let [x, y, z] = g.volumes.size;
        let mut uniform = FroxelUniform::new(&self.params, [x, y, z], ctx.view, g.volumes.frames > 0);
        let [wx, wy, wz] = wind_offset(&self.params, ctx.time.time);
        uniform.wind = [wx, wy, wz, 0.0];
        let media = ctx.media();
        let (sky, cloud_shadow) = (ctx.group(Resource::SkyTables), ctx.group(Resource::CloudShadow));
        let injected = &media.volumes[..media.volumes.len().min(MAX_FOG_VOLUMES)];
        let textured = any_textured(injected);
        if let Some(e) = g.pipelines.media.prepare(&ctx.gpu.device, textured) {
            self.status = Some(e);
        }
        // The stack's density textures (`StackMedia::density`), bound as they are now.
        // Shadows between the volumes: the stack's caster masks, binned once for every chapter.
        let buffers = MediaBuffers { uniform: &g.uniform, fog_volumes: &g.fog_volumes, casters: &media.casters.buffer };
        g.volumes.bind_media(&ctx.gpu.device, &g.layouts, &buffers, media.density);
        if let Some(e) = media.density.noise_error() {
            self.status = Some(e.to_string());
        }
        uniform.debug[3] = injected.len() as u32;
        ctx.gpu.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
        if !injected.is_empty() {
            ctx.gpu.write_buffer(&g.fog_volumes, 0, bytemuck::cast_slice(injected));
        }
        // ANCHOR: bins
        let bins = &mut g.volumes.bins;
        if self.params.volume_culling {
            binning::bin_volumes(injected, ctx.uniform, [x, y, z], &slices(&self.params, z), bins);
        } else {
            bins.clear();
            bins.mark_all(injected.len());
        }
        ctx.gpu.write_buffer(&g.volumes.volume_bins, 0, bytemuck::cast_slice(&bins.words));
        // ANCHOR_END: bins
        // ANCHOR: render
        let (p, v) = (&g.pipelines, &g.volumes);
        let media_group = v.media_group();
        // This frame writes scattering volume `cur` and reads the other as history.
        let cur = (v.frames % 2) as usize;
        let froxels = [x.div_ceil(FROXEL_TILE), y.div_ceil(FROXEL_TILE), z.div_ceil(FROXEL_TILE)];
        ctx.passes.compute("froxel fog: media", |pass| {
            if let Some(group) = media_group {
                pass.set_pipeline(p.media.pipeline(textured));
                pass.set_bind_group(0, ctx.inputs, &[]);
                pass.set_bind_group(2, group, &[]);
                pass.dispatch_workgroups(froxels[0], froxels[1], froxels[2]);
            }
        });
        ctx.passes.compute("froxel fog: lighting", |pass| {
            pass.set_pipeline(&p.lighting);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, cloud_shadow, &[]);
            pass.set_bind_group(2, &v.lighting_group[cur], &[]);
            pass.set_bind_group(3, sky, &[]);
            pass.dispatch_workgroups(froxels[0], froxels[1], froxels[2]);
        });
        ctx.passes.compute("froxel fog: integration", |pass| {
            pass.set_pipeline(&p.integrate);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(2, &v.integrate_group[cur], &[]);
            pass.dispatch_workgroups(x.div_ceil(COLUMN_TILE), y.div_ceil(COLUMN_TILE), 1);
        });
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("froxel fog: composite", |pass| {
            pass.set_pipeline(&p.composite);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &v.composite_group[cur], &[]);
            pass.set_bind_group(3, sky, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
        g.volumes.frames += 1;
        // ANCHOR_END: render
    }

    fn book(&self) -> Book {
        Book {
            test_settings: Self::test_settings(),
            // Two frames: the second has a history, which the history view and figure show.
            test_frames: 2,
            // Without temporal accumulation no frame's image depends on the one before.
            warmup_steps_only: !self.params.temporal,
            figures: Self::figures(),
            #[cfg(feature = "book")]
            plots: Self::plots,
            ..Default::default()
        }
    }
}

/// What the tests and the book do with this chapter (`Chapter::book`); none of it runs in the
/// viewer.
impl FroxelFog {
    /// A 64×36×32 grid: lavapipe on two cores lights it in a fraction of the default's time.
    pub fn test_settings() -> Vec<&'static str> {
        vec!["grid_width=64", "grid_height=36", "grid_depth=32"]
    }

    // ANCHOR: figures
    fn figures() -> Vec<Figure> {
        const DUSK: &[&str] = &[
            "scene.sun_illuminance=0",
            "scene.ambient=0.02,0.025,0.04",
            "scene.point_lights=4",
            "scene.spot_lights=2",
            "constant_density=0.01",
        ];
        const LIGHTS_CAMERA: &str = "30,5,-80,-18,3,60";
        const NOISE: &[&str] = &["noise_amount=0.9", "noise_scale_m=30", "constant_density=0.008"];
        const MOVING: &[&str] = &[
            "scene.sun_illuminance=0",
            "scene.ambient=0.02,0.025,0.04",
            "scene.point_lights=4",
            "scene.spot_lights=2",
            "constant_density=0.01",
            "temporal=true",
            "scene.light_orbit_deg_s=90",
        ];
        let fig = |name, view, settings: &[&'static str], camera| Figure::new(name, view, settings, camera);
        vec![
            // The sun's share alone: the tower's shadow is a dark wedge in the glow.
            fig("sun-only", "inscattering", &["ambient_scale=0"], None),
            fig("no-volume-shadows", "inscattering", &["ambient_scale=0", "volume_shadows=false"], None),
            fig("shadow-slice-40", "shadow", &["slice=40"], None),
            fig("dense-haze", "final", &["constant_density=0.01", "layer_density=0"], None),
            fig("with-sky", "final", &[], None).with(&["sky"]),
            // Dusk: four point lights and two spots on the ring around the tower.
            fig("lights-at-dusk", "final", DUSK, Some(LIGHTS_CAMERA)),
            fig("lights-slice-22", "lights-slice", &[DUSK, &["slice=22"]].concat(), Some(LIGHTS_CAMERA)),
            fig("solo-light-3", "inscattering", &[DUSK, &["solo_light=3"]].concat(), Some(LIGHTS_CAMERA)),
            fig("cornette-shanks", "inscattering", &["ambient_scale=0", "phase_function=cornette-shanks"], None),
            fig("history-temporal", "history", &["temporal=true"], None),
            fig("noise", "final", NOISE, None),
            fig("noise-slice-20", "noise-slice", &[NOISE, &["slice=20"]].concat(), None),
            // A grid ending at 100 m, continued in closed form beyond, and without the continuation.
            fig("short-grid-continued", "final", &["fog_distance_m=100", "layer_density=0.05"], None),
            fig(
                "short-grid-cut",
                "final",
                &["fog_distance_m=100", "layer_density=0.05", "continue_beyond_grid=false"],
                None,
            ),
            // Chapter 2 beyond the grid, its layers inside it.
            fig("with-height-fog", "final", &["fog_distance_m=100"], None).with(&["height-fog"]),
            // The per-pixel reference march of the same medium and lights, and the grid against it.
            fig("reference-march", "reference", &[], None),
            fig("grid-error", "reference-error", &[], None),
            // Close up on the tower's shaft: its edges are a column wide.
            fig("shaft-edge-error", "reference-error", &[], Some("0,2,0,-9,0,14")),
            fig("lights-error", "reference-error", DUSK, Some(LIGHTS_CAMERA)),
            // The ring orbiting at 90°/s with the history on, 40 frames on: each frame's lights
            // stay in the history and fade by η per frame, a trail behind each light.
            fig("moving-lights", "final", MOVING, Some(LIGHTS_CAMERA)).continuing_for(39),
            fig("moving-lights-error", "reference-error", MOVING, Some(LIGHTS_CAMERA)).continuing(),
        ]
    }
    // ANCHOR_END: figures

    #[cfg(feature = "book")]
    fn plots() -> Vec<(&'static str, String)> {
        let s = Slices::new(1.0, 300.0, 64);
        let depth = line_chart(
            "Slice boundaries: n = 1 m, f = 300 m, N = 64",
            "slice index k",
            "depth z_k (m)",
            (0.0, 64.0),
            (0.0, 300.0),
            &[
                Series {
                    label: "exponential, n (f/n)^(k/N)".into(),
                    color: "#1f77b4",
                    points: (0..=64).map(|k| (k as f64, s.begin(k))).collect(),
                },
                Series {
                    label: "linear, f k / N".into(),
                    color: "#999999",
                    points: (0..=64).map(|k| (k as f64, 300.0 * k as f64 / 64.0)).collect(),
                },
            ],
        );
        let coarse = Slices::new(1.0, 300.0, 32);
        let curve = |f: &dyn Fn(f64) -> f64| (0..=100).map(|i| (i as f64 * 0.005, f(i as f64 * 0.005))).collect();
        let steps = line_chart(
            "In-scattering at 300 m, albedo 1, L = 1, N = 32",
            "extinction σt (1/m)",
            "in-scattered radiance",
            (0.0, 0.5),
            (0.0, 3.0),
            &[
                Series {
                    label: "closed form (1 − e^(−σt d))".into(),
                    color: "#222222",
                    points: curve(&|t| reference::homogeneous_inscattering(1.0, t, t, 300.0)),
                },
                Series {
                    label: "energy-conserving steps".into(),
                    color: "#1f77b4",
                    points: curve(&|t| reference::integrate_column(&coarse, 300.0, |_| (t, t)).0),
                },
                Series {
                    label: "Riemann steps S·Δ".into(),
                    color: "#d62728",
                    points: curve(&|t| reference::integrate_column_riemann(&coarse, 300.0, |_| (t, t))),
                },
            ],
        );
        vec![("slice-depths", depth), ("step-integral", steps)]
    }
}
