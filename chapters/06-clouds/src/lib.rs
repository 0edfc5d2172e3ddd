//! Chapter 6 — volumetric clouds: a layer of clouds in a spherical shell on chapter 3's
//! planet, ray-marched per pixel (or, in the real-time mode, one pixel in sixteen a frame and
//! the rest reprojected) through Perlin–Worley and Worley noise generated once on the GPU (Schneider & Vos 2015), lit by the sun through the sky's transmittance and a short
//! light march, a dual-lobe phase function and octaves of multiple scattering, with the sky's
//! ambient light from above and the ground's from below, integrated with Hillaire's (2016)
//! energy-conserving step. In a stack it runs after the sky, takes its planet, light and aerial
//! perspective from the sky's tables, and stops at the scene's surfaces; alone it uses the
//! scene's constant sun and ambient light on an Earth-sized planet. Its shadow map darkens the
//! sun on the scene and in the froxel fog.

pub mod noise;
pub mod params;
#[cfg(feature = "book")]
pub mod plots;
pub mod realtime;
pub mod reference;
pub mod shadow;
pub mod textures;
pub mod weather_file;

use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::{sampler_entry, texture_3d_entry, texture_entry, uniform_entry};
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::point::{CLOUD_LAYER_BINDINGS, LentBinding};
use fogbook_core::params::{DynParameters, finite_in};
use fogbook_core::shaders::WgslConst;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::{Book, Chapter, ChapterContext, ChapterInfo, Figure, Loan, Resource, Stage, StageIo, ViewInfo};
pub use params::{CloudMode, CloudParams, DensityModel, NoiseResolution};
use realtime::RealtimeGpu;
use shadow::ShadowMapGpu;
use textures::NoiseTextures;

pub const SHADER: &str = "06-clouds/march.wgsl";
const SHADER_FILES: &[&str] = &[
    SHADER,
    "06-clouds/density.wgsl",
    "06-clouds/lighting.wgsl",
    "06-clouds/tileable_noise.wgsl",
    textures::GENERATE_SHADER,
    realtime::SHADER,
    shadow::SHADER,
];

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "The colour so far with the clouds over it, in the sky's aerial perspective"),
    ViewInfo::fraction("density", "The largest cloud density the view ray meets (0..1)"),
    ViewInfo::fraction("transmittance", "Transmittance e^(−τ) of the clouds along the view ray"),
    ViewInfo::fraction(
        "light-transmittance",
        "Transmittance towards the sun from the cloud the eye sees (opacity-weighted mean of the light march)",
    ),
    ViewInfo::scalar("step-count", "Steps the view march took before it stopped (early exit)", 0.0, 128.0, "steps"),
    ViewInfo::fraction("base-noise", "A slice of the base shape, tiled: r Perlin–Worley | g; b | a Worley sums"),
    ViewInfo::fraction("detail-noise", "A slice of the detail noise, tiled: r | g; b Worley sums | r at mip 2"),
    ViewInfo::fraction("weather-map", "The weather map, tiled: coverage | type; density | coverage after the remap"),
    ViewInfo::color("octave0", "Sun light of octave 0 (single scattering) reaching the eye"),
    ViewInfo::color("octave1", "Sun light of octave 1 (multiple-scattering approximation)"),
    ViewInfo::color("octave2", "Sun light of octave 2 (multiple-scattering approximation)"),
    // The real-time mode's (shown whatever the mode).
    ViewInfo::scalar(
        "age",
        "Real time: frames since this pixel was last marched (grey: interpolated)",
        0.0,
        16.0,
        "frames",
    ),
    ViewInfo::color(
        "rejection",
        "Real time: white marched, black reprojected, grey no cloud possible; rejected: purple no history, red off-screen, green occlusion, blue neighbourhood",
    ),
    ViewInfo::scalar(
        "realtime-error",
        "Real time against this frame's full reference march: |ΔY| / Y of the final colour",
        0.0,
        0.1,
        "rel.",
    ),
    ViewInfo::fraction(
        "cloud-shadow",
        "The clouds' shadow map: transmittance towards the sun from the ground around the camera, seen from above (+x right, +z down)",
    ),
];
/// The views that show the real-time mode's reconstruction.
const REALTIME_VIEWS: std::ops::Range<usize> = 11..14;
/// The shadow map's view.
pub const VIEW_CLOUD_SHADOW: usize = 14;
// ANCHOR_END: views

// ANCHOR: uniform
/// Mirrors `struct CloudParams` in shaders/06-clouds/density.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct CloudUniform {
    pub shell: [f32; 4],
    pub shape: [f32; 4],
    pub scales: [f32; 4],
    pub wind: [f32; 4],
    pub medium: [f32; 4],
    pub phase: [f32; 4],
    pub octaves: [f32; 4],
    pub light: [f32; 4],
    pub counts: [u32; 4],
    pub flags: [u32; 4],
    /// The real-time mode's: this frame's pixel in each 4×4 block (x, y), 1 = the history holds
    /// last frame (z), 1 = reproject it (w) — set by `RealtimeGpu::record`.
    pub realtime: [u32; 4],
    /// The wind's step since last frame along x and z (m; set by `RealtimeGpu::record`), the
    /// neighbourhood margin and the scene-distance tolerance of the history's rejection.
    pub reprojection: [f32; 4],
}

impl CloudUniform {
    /// The parameters as the shader reads them, every float finite and in its range, at time
    /// `time_s` (the wind's offset, speed × time along its heading).
    pub fn new(p: &CloudParams, view: usize, time_s: f64) -> Self {
        let f = |v: f32, lo: f32, hi: f32, fallback: f32| finite_in(v, lo, hi, fallback);
        let per_km = |km: f32, lo: f32, hi: f32| 1.0 / (f(km, lo, hi, hi) * 1000.0);
        let heading = (f(p.wind_direction_deg, -180.0, 180.0, 0.0) as f64).to_radians();
        let [wind_x, wind_z] = wind_offset(p, time_s);
        Self {
            shell: [
                f(p.planet_radius_km, 100.0, 1e5, 6360.0) * 1000.0,
                f(p.layer_bottom_m, 0.0, 20000.0, 1500.0),
                f(p.layer_thickness_m, 100.0, 10000.0, 2500.0),
                f(p.max_march_km, 1.0, 1000.0, 60.0) * 1000.0,
            ],
            shape: [
                f(p.coverage, 0.0, 1.0, 0.5),
                f(p.cloud_type, 0.0, 1.0, 0.5),
                f(p.type_variation, 0.0, 2.0, 0.0),
                f(p.detail_erosion, 0.0, 1.0, 0.0),
            ],
            scales: [
                per_km(p.shape_tile_km, 0.5, 200.0),
                per_km(p.detail_tile_km, 0.05, 20.0),
                per_km(p.weather_tile_km, 1.0, 1000.0),
                f(p.curl_strength_m, 0.0, 1000.0, 0.0),
            ],
            wind: [wind_x as f32, wind_z as f32, f(p.wind_shear, 0.0, 5.0, 0.0), heading as f32],
            medium: [
                f(p.extinction, 0.0, 1.0, 0.0),
                f(p.albedo, 0.0, 1.0, 1.0),
                f(p.ambient_scale, 0.0, 100.0, 0.0),
                f(p.sun_scale, 0.0, 100.0, 0.0),
            ],
            phase: [
                f(p.phase_forward_g, -0.99, 0.99, 0.0),
                f(p.phase_backward_g, -0.99, 0.99, 0.0),
                f(p.phase_forward_weight, 0.0, 1.0, 1.0),
                p.powder as u32 as f32,
            ],
            octaves: [
                f(p.octave_extinction, 0.0, 1.0, 0.5),
                f(p.octave_contribution, 0.0, 1.0, 0.5),
                f(p.octave_eccentricity, 0.0, 1.0, 0.5),
                f(p.light_cone_spread, 0.0, 1.0, 0.0),
            ],
            light: [
                f(p.light_march_m, 10.0, 20000.0, 1500.0),
                f(p.ground_albedo, 0.0, 1.0, 0.1),
                f(p.noise_slice, 0.0, 1.0, 0.5),
                p.aerial_perspective as u32 as f32,
            ],
            counts: [p.view_steps.clamp(1, 512), p.light_steps.clamp(1, 32), p.octaves.clamp(1, 3), view as u32],
            flags: [
                (p.density_model == DensityModel::Slab) as u32,
                p.jitter as u32,
                p.clouds as u32,
                p.shadow_steps.clamp(1, 64),
            ],
            realtime: [0; 4],
            reprojection: [0.0, 0.0, f(p.neighbourhood_margin, 0.0, 4.0, 0.5), f(p.depth_tolerance, 0.001, 1.0, 0.05)],
        }
    }
}
// ANCHOR_END: uniform

/// How far the wind has carried the field along x and z by `time_s` (m): speed × time along its
/// heading, in f64 (the offset grows without bound; the noise repeats, so it need not wrap).
pub fn wind_offset(p: &CloudParams, time_s: f64) -> [f64; 2] {
    let speed = finite_in(p.wind_speed_m_s, 0.0, 100.0, 0.0) as f64;
    let heading = (finite_in(p.wind_direction_deg, -180.0, 180.0, 0.0) as f64).to_radians();
    let travelled = speed * time_s;
    [travelled * heading.cos(), travelled * heading.sin()]
}

pub struct CloudsGpu {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    group: wgpu::BindGroup,
    pub noise: NoiseTextures,
    /// The generation shader, kept to make textures of another resolution.
    noise_module: wgpu::ShaderModule,
    /// The real-time mode's passes and history.
    pub realtime: RealtimeGpu,
    /// The shadow map, and whether it is published this frame.
    pub shadow: ShadowMapGpu,
    shadow_published: bool,
}

#[derive(Default)]
pub struct Clouds {
    pub params: CloudParams,
    status: Option<String>,
    weather: WeatherFile,
}

/// The weather map from a file: the path last tried, and the texels read from it (`None`: the
/// generated map), at `size`².
#[derive(Default)]
struct WeatherFile {
    tried: String,
    texels: Option<Vec<u8>>,
    size: u32,
}

impl Clouds {
    pub fn new() -> Self {
        Self::default()
    }
}

/// The march's bindings of group 2 (density.wgsl): the parameters, the noise textures and their
/// sampler, at the media layer's place for a cloud layer (`media::point::CLOUD_LAYER_BINDINGS`),
/// where a path tracer binds them too. The real-time passes extend them with their own
/// (realtime.rs).
pub fn march_layout_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    let c = wgpu::ShaderStages::COMPUTE;
    let float = wgpu::TextureSampleType::Float { filterable: true };
    let [uniform, base, detail, weather, sampler, curl] = cloud_bindings();
    vec![
        uniform_entry(uniform, c),
        texture_3d_entry(base, c, float),
        texture_3d_entry(detail, c, float),
        texture_entry(weather, c, float),
        sampler_entry(sampler, c),
        texture_entry(curl, c, float),
    ]
}

/// The bindings of density.wgsl: uniform, base shape, detail, weather map, sampler, curl.
fn cloud_bindings() -> [u32; 6] {
    let first = CLOUD_LAYER_BINDINGS.start;
    std::array::from_fn(|k| first + k as u32)
}

/// The resources of `march_layout_entries`.
pub(crate) fn march_entries<'a>(uniform: &'a wgpu::Buffer, n: &'a NoiseTextures) -> Vec<wgpu::BindGroupEntry<'a>> {
    let [u, base, detail, weather, sampler, curl] = cloud_bindings();
    let view = |binding, v| wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(v) };
    vec![
        wgpu::BindGroupEntry { binding: u, resource: uniform.as_entire_binding() },
        view(base, &n.base_view),
        view(detail, &n.detail_view),
        view(weather, &n.weather_view),
        wgpu::BindGroupEntry { binding: sampler, resource: wgpu::BindingResource::Sampler(&n.sampler) },
        view(curl, &n.curl_view),
    ]
}

/// The same resources lent to a pass that samples the clouds at points (`Resource::PointMedia`).
fn point_media(uniform: &wgpu::Buffer, n: &NoiseTextures) -> Loan {
    let [u, base, detail, weather, sampler, curl] = cloud_bindings();
    let view = |binding, v: &wgpu::TextureView| (binding, LentBinding::Texture(v.clone()));
    Loan::Bindings(vec![
        (u, LentBinding::Buffer(uniform.clone())),
        view(base, &n.base_view),
        view(detail, &n.detail_view),
        view(weather, &n.weather_view),
        (sampler, LentBinding::Sampler(n.sampler.clone())),
        view(curl, &n.curl_view),
    ])
}

fn march_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    n: &NoiseTextures,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("clouds"),
        layout,
        entries: &march_entries(uniform, n),
    })
}

impl Chapter for Clouds {
    type Gpu = CloudsGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "clouds",
            number: 6,
            title: "Volumetric clouds",
            summary: "A cloud layer on the sky's planet, ray-marched through Perlin–Worley noise and lit by the sun and sky",
        }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "noise textures, once; the shadow map when its inputs change",
            stage: Stage::FarMedia,
            reads: &[Resource::Color, Resource::SceneDistance, Resource::SceneLight, Resource::SkyTables],
            writes: &[Resource::Color, Resource::CloudShadow, Resource::PointMedia],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn view_range(&mut self, view: usize) -> Option<(f32, f32)> {
        // The step-count heat map up to the steps asked for.
        (VIEWS[view].name == "step-count").then(|| (0.0, self.params.view_steps.clamp(1, 512) as f32))
    }

    fn shader_files(&self) -> &'static [&'static str] {
        SHADER_FILES
    }

    fn shader_constants(&self) -> Vec<WgslConst> {
        let mut constants = noise::shader_constants();
        constants.push(WgslConst::i32("BLOCK", realtime::BLOCK as i32));
        constants
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    fn create_gpu(
        &mut self,
        gpu: &GpuContext,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
    ) -> anyhow::Result<CloudsGpu> {
        let device = &gpu.device;
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("clouds"),
            entries: &march_layout_entries(),
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("clouds params"),
            size: std::mem::size_of::<CloudUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let noise_module = create_module(device, &shaders.load(textures::GENERATE_SHADER)?)?;
        let noise = NoiseTextures::new(gpu, &noise_module, self.params.noise_resolution)?;
        let group = march_group(device, &layout, &uniform, &noise);
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&layout), Some(&layouts.shared_sky)];
        let pipeline = compute_pipeline(device, &module, "clouds_march", &groups)?;
        let realtime = RealtimeGpu::new(device, layouts, &create_module(device, &shaders.load(realtime::SHADER)?)?)?;
        let shadow_module = create_module(device, &shaders.load(shadow::SHADER)?)?;
        let (_, resolution) = shadow::map_size(self.params.shadow_extent_km, self.params.shadow_resolution);
        let shadow = ShadowMapGpu::new(device, layouts, &shadow_module, resolution)?;
        Ok(CloudsGpu {
            pipeline,
            layout,
            uniform,
            group,
            noise,
            noise_module,
            realtime,
            shadow,
            shadow_published: false,
        })
    }

    // ANCHOR: prepare
    /// The noise, generated in the prepare stage of the first frame and again only when its
    /// seed or resolution changes (or every frame when asked to, for timing).
    fn light_scene(&mut self, g: &mut CloudsGpu, ctx: &mut ChapterContext) {
        let (resolution, seed) = (self.params.noise_resolution, self.params.noise_seed);
        if g.noise.resolution != resolution {
            match NoiseTextures::new(ctx.gpu, &g.noise_module, resolution) {
                Ok(noise) => {
                    g.noise = noise;
                    g.group = march_group(&ctx.gpu.device, &g.layout, &g.uniform, &g.noise);
                    g.realtime.forget_groups();
                    g.shadow.forget();
                    self.status = None;
                }
                Err(e) => self.status = Some(format!("keeping the noise textures in use: {e:#}")),
            }
        }
        // ANCHOR: weather_file
        let path = self.params.weather_map_file.trim().to_string();
        let size = resolution.sizes()[2];
        let mut upload = false;
        if path != self.weather.tried || (self.weather.texels.is_some() && self.weather.size != size) {
            self.weather.tried = path.clone();
            if path.is_empty() {
                // Back to the generated map.
                self.weather.texels = None;
                g.noise.generated = None;
                self.status = None;
            } else {
                match weather_file::load(std::path::Path::new(&path), size) {
                    Ok(texels) => {
                        self.weather = WeatherFile { tried: path, texels: Some(texels), size };
                        self.status = None;
                        upload = true;
                    }
                    Err(e) => self.status = Some(format!("{e:#}; keeping the weather map in use")),
                }
            }
        }
        let from_file = self.weather.texels.is_some();
        if g.noise.generated != Some(seed) || self.params.noise_every_frame {
            g.noise.generate(ctx.gpu, ctx.passes, seed, !from_file);
            upload = true;
        }
        if upload {
            g.shadow.forget(); // new noise or weather: the map is out of date
        }
        if let (true, Some(texels)) = (upload, &self.weather.texels) {
            if texels.len() == (size * size * 4) as usize {
                weather_file::upload(ctx.gpu, &g.noise.weather, texels);
            } else {
                // Read for another noise resolution and unreadable now: the generated map, next frame.
                self.weather.texels = None;
                g.noise.generated = None;
            }
        }
        // ANCHOR_END: weather_file
        self.shadow_map(g, ctx);
    }
    // ANCHOR_END: prepare

    /// The clouds' shadow map (see `shadow`) as the core's cloud-shadow group, when the clouds
    /// are drawn and cast one.
    fn lend(&self, g: &CloudsGpu, kind: Resource) -> Option<Loan> {
        match kind {
            Resource::CloudShadow if g.shadow_published => Some(Loan::Group(g.shadow.published().clone())),
            // The field as this frame's march read it, for a pass that samples it at points.
            Resource::PointMedia => Some(point_media(&g.uniform, &g.noise)),
            _ => None,
        }
    }

    // ANCHOR: render
    fn render(&mut self, g: &mut CloudsGpu, ctx: &mut ChapterContext) {
        // The shadow map, built in prepare (`shadow_map`), shown as it is.
        if ctx.view == VIEW_CLOUD_SHADOW {
            g.shadow.draw_view(ctx);
            return;
        }
        let mut uniform = CloudUniform::new(&self.params, ctx.view, ctx.time.time);
        // The real-time views show the reconstruction in either mode; the final image uses it
        // in the real-time mode while there are clouds to draw.
        let realtime = REALTIME_VIEWS.contains(&ctx.view)
            || (ctx.view == 0 && self.params.mode == CloudMode::Realtime && self.params.clouds);
        if realtime {
            let wind = wind_offset(&self.params, ctx.time.time);
            g.realtime.record(ctx, &mut uniform, &g.uniform, &g.noise, wind, self.params.reproject);
            return;
        }
        g.realtime.drew_last_call = false;
        ctx.passes.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
        let [w, h] = ctx.frame.size;
        let sky = ctx.group(Resource::SkyTables);
        ctx.passes.compute("clouds: march", |pass| {
            pass.set_pipeline(&g.pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &g.group, &[]);
            pass.set_bind_group(3, sky, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
    // ANCHOR_END: render

    fn book(&self) -> Book {
        Book {
            // Nothing accumulates from frame to frame (the noise is regenerated identically),
            // except the real-time mode's history.
            warmup_steps_only: self.params.mode == CloudMode::Reference,
            // Without jitter the images are smooth: small references, steady across GPUs.
            test_settings: vec![
                "noise_resolution=low",
                "view_steps=24",
                "light_steps=4",
                "jitter=false",
                "shadow_resolution=64",
                "shadow_steps=6",
            ],
            figures: Self::figures(),
            #[cfg(feature = "book")]
            plots: plots::plots,
            ..Default::default()
        }
    }
}

impl Clouds {
    // ANCHOR: shadow_map
    /// The shadow map for this frame (built only when its inputs changed), published while the
    /// clouds are drawn and cast shadows; built for the `cloud-shadow` view in any case.
    fn shadow_map(&mut self, g: &mut CloudsGpu, ctx: &mut ChapterContext) {
        let p = &self.params;
        g.shadow_published = p.clouds && p.cloud_shadows;
        if !g.shadow_published && ctx.view != VIEW_CLOUD_SHADOW {
            return;
        }
        // The march's uniform as this frame's render writes it again (the same density), written
        // in order with the passes: the map's pass reads this one, the march its own.
        let uniform = CloudUniform::new(p, ctx.view, ctx.time.time);
        ctx.passes.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
        let (extent_m, resolution) = shadow::map_size(p.shadow_extent_km, p.shadow_resolution);
        let f = ctx.uniform;
        let camera = [f.camera_pos[0], f.camera_pos[1], f.camera_pos[2]];
        let sun = [f.sun_dir[0], f.sun_dir[1], f.sun_dir[2]];
        let map = shadow::map_uniform(camera, sun, extent_m, resolution, p.shadow_strength);
        g.shadow.record(ctx, &uniform, &g.uniform, &g.noise, &map, resolution);
    }
    // ANCHOR_END: shadow_map

    // ANCHOR: figures
    fn figures() -> Vec<Figure> {
        // From the ground looking up at 20°: first alone, in the scene's constant sun and ambient
        // light, each figure continuing from the first one's frame with its own settings (the
        // noise is made once); then under the sky, whose tables at a quarter of their size keep
        // the figures quick on a software driver.
        const LOOK_UP: Option<&str> = Some("0,2,0,0,20,70");
        let alone = |name, settings: &[&'static str]| Figure::new(name, "final", settings, LOOK_UP);
        let sky = |name, settings: &[&'static str], camera| {
            let mut all = vec!["sky.lut_resolution=quarter"];
            all.extend_from_slice(settings);
            Figure::new(name, "final", &all, camera).with(&["sky"])
        };
        const BROKEN_CUMULUS: &[&str] = &[
            "layer_bottom_m=300",
            "layer_thickness_m=500",
            "shape_tile_km=1.5",
            "detail_tile_km=0.15",
            "weather_tile_km=2.5",
            "coverage=0.35",
            "extinction=0.08",
            "noise_seed=2",
            "shadow_extent_km=3",
            "scene.sun_elevation_deg=20",
            "froxel-fog.layer_density=0",
            "froxel-fog.constant_density=0.0015",
            "froxel-fog.ambient_scale=0.4",
            "froxel-fog.fog_distance_m=1500",
            "froxel-fog.continue_beyond_grid=false",
        ];
        let shadows = |name, view, settings: &[&'static str]| {
            Figure::new(name, view, &[BROKEN_CUMULUS, settings].concat(), Some("0,80,450,-20,-3,70"))
                .with(&["froxel-fog"])
        };
        vec![
            alone("single-scattering", &["octaves=1"]),
            alone("three-octaves", &[]).continuing(),
            alone("powder", &["powder=true"]).continuing(),
            alone("stratus", &["cloud_type=0", "type_variation=0", "coverage=0.7"]).continuing(),
            sky("clouds-in-sky", &[], LOOK_UP),
            sky("low-sun", &["scene.sun_elevation_deg=4"], LOOK_UP).continuing(),
            sky("from-above", &[], Some("0,6000,0,0,-25,70")).continuing(),
            // Low broken cumulus over chapter 4's fog, facing the sun: the clouds' shadow on the
            // ground and in the fog, without it, and the fog's in-scattering alone.
            shadows("cloud-shadows", "final", &[]),
            shadows("cloud-shadows-off", "final", &["cloud_shadows=false"]),
            shadows("cloud-shadows-in-the-fog", "froxel-fog/inscattering", &[]),
        ]
    }
    // ANCHOR_END: figures
}
