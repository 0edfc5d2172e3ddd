//! Chapter 5 — local fog volumes: bounded fog placed in the world (boxes, ellipsoids and
//! cylinders, rotated, each with its density, height falloff, edge fade, albedo, emission and
//! phase g). The chapter publishes its volumes to the stack (`Chapter::publish`), where chapter
//! 4's media pass injects them into its froxels; its own pass integrates them per pixel in
//! closed form (ray–shape intersection, the optical depth of a constant or height-falloff
//! density), lit by the sun and the ambient light — over the whole ray when chapter 4 is not in
//! the stack, and beyond its grid's far end when it is. It runs in the height-fog stage, before
//! the froxel fog, which lays the nearer part over it. The volumes are a list of up to
//! `MAX_FOG_VOLUMES` in the parameters (`params`); both paths test only the volumes binned to
//! their tile or block of froxels (`binning`, and chapter 4's). A volume may carry a density
//! texture (`textures`: scrolling noise, or a saved smoke volume read with the core's loader),
//! which both paths multiply in; the analytic path integrates a textured volume by a short
//! march inside its crossing, as there is no closed form for it.

pub mod binning;
pub mod params;
pub mod reference;
pub mod textures;
pub mod volumes;

use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::{storage_buffer_entry, uniform_entry};
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::density::{MAX_DENSITY_TEXTURE_SIDE, SOURCE_FILE};
use fogbook_core::media::textures::{DensityPipelines, DensityTextureSlots, any_textured};
use fogbook_core::media::volumes::{BIN_WORDS, FogVolume, MAX_FOG_VOLUMES, VolumeBins};
use fogbook_core::params::{DynParameters, finite_in};
#[cfg(feature = "book")]
use fogbook_core::plot::{Series, line_chart};
use fogbook_core::shaders::WgslConst;
use fogbook_core::shaders::{ShaderStore, create_module};
use fogbook_core::{Book, Chapter, ChapterContext, ChapterInfo, Figure, Publish, Resource, Stage, StageIo, ViewInfo};
pub use params::{DensitySource, LocalFogParams, Shape, VolumeParams};
use textures::LoadedFiles;
pub use volumes::check_volumes;

pub const SHADER: &str = "05-local-fog/analytic.wgsl";
/// The pass that fills each volume's grid of the sun's transmittance.
pub const SUN_GRID_SHADER: &str = "05-local-fog/sun_grid.wgsl";

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color(
        "final",
        "The colour so far through the volumes (beyond the froxel grid when chapter 4 is stacked)",
    ),
    ViewInfo::color("volume-mask", "The colour of the nearest volume the ray crosses before the surface"),
    ViewInfo::scalar("overlap-count", "How many volumes the ray crosses before the surface", 0.0, 4.0, ""),
    ViewInfo::scalar("optical-depth", "Optical depth τ of the volumes alone, eye to surface", 1e-3, 10.0, "")
        .log_scale(),
    ViewInfo::fraction("transmittance", "Transmittance e^(−τ) of the volumes alone, eye to surface"),
    ViewInfo::color("inscattering", "Radiance the volumes scatter and emit towards the eye, eye to surface"),
    ViewInfo::fraction(
        "sun-transmittance",
        "The nearest volume's own transmittance towards the sun at its median scattering point",
    ),
    ViewInfo::color("path", "Blue: volumes drawn by chapter 4's froxels; orange: integrated here; both: split"),
    ViewInfo::scalar("tile-volumes", "Volumes binned to the pixel's 16×16 tile: the ones its ray tests", 0.0, 8.0, ""),
];
// ANCHOR_END: views

// ANCHOR: uniform
/// Mirrors `struct LocalFogParams` in shaders/05-local-fog/analytic.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct LocalFogUniform {
    /// x: volumes; y: the debug view; z: 1 = apply the fog; w: 1 = the scene shadows the sun.
    pub counts: [u32; 4],
    /// x: factor on the sun; y: factor on the ambient light; z: 1 = the volumes shadow each other;
    /// w: how the sun's transmittance is taken: 0 at every pixel, 1 at the corners of 8×8-pixel
    /// blocks, 2 from each volume's grid (`SUN_GRID`).
    pub light: [f32; 4],
}

/// `light.w` when the sun's transmittance comes from each volume's grid.
pub const SUN_FROM_GRID: f32 = 2.0;
/// Points per side of each volume's grid of the sun's transmittance (`SUN_GRID` in the shader).
pub const SUN_GRID: u32 = 16;
/// The grid pass's workgroup side (4³ points).
const SUN_GRID_WORKGROUP: u32 = 4;

impl LocalFogUniform {
    pub fn new(p: &LocalFogParams, volumes: usize, view: usize) -> Self {
        Self {
            counts: [
                volumes.min(MAX_FOG_VOLUMES) as u32,
                view as u32,
                p.local_fog as u32,
                p.volume_scene_shadows as u32,
            ],
            light: [
                finite_in(p.volume_sun_scale, 0.0, 1e4, 0.0),
                finite_in(p.volume_ambient_scale, 0.0, 1e4, 0.0),
                p.volume_shadows as u32 as f32,
                if p.sun_grid { SUN_FROM_GRID } else { p.block_sun as u32 as f32 },
            ],
        }
    }
}
// ANCHOR_END: uniform

pub struct LocalFogGpu {
    /// With and without the density textures' code (`DensityPipelines`).
    pipeline: DensityPipelines,
    /// The pass that fills `sun_grid`, likewise, and its group's layout (the same bindings, the
    /// grid writable: the analytic pass reads it as read-only storage, which GPUs cache).
    grid_pipeline: DensityPipelines,
    grid_layout: wgpu::BindGroupLayout,
    /// Per volume, the sun's transmittance at `SUN_GRID`³ points (`MAX_FOG_VOLUMES` of them),
    /// and what it was filled from: the generations of the core's caster masks (the volumes, the
    /// sun's direction, whether they shadow each other) and of the density textures (none until
    /// the first fill).
    sun_grid: wgpu::Buffer,
    sun_grid_of: Option<(u64, u64)>,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    volumes: wgpu::Buffer,
    /// The volumes' bit masks per screen tile (`binning`), its CPU copy, and the group with both.
    tile_bins: wgpu::Buffer,
    bins: VolumeBins,
    /// The pass's group, with the stack's density textures (`StackMedia::density`) of
    /// the generation it holds and the core's caster masks (`StackMedia::casters`, made
    /// with those textures and kept); made in `bind`.
    group: Option<(u64, wgpu::BindGroup, wgpu::BindGroup)>,
}

impl LocalFogGpu {
    /// Makes the tile masks' buffer (and the group) fit a frame of `size` pixels.
    fn fit_tiles(&mut self, device: &wgpu::Device, size: [u32; 2]) {
        let tiles = binning::tile_grid(size);
        if self.bins.size == tiles {
            return;
        }
        self.bins = VolumeBins::new(tiles);
        self.tile_bins = tile_bins_buffer(device, &self.bins);
        self.group = None;
    }

    /// The pass's group with the stack's density textures as they are now (made again when they
    /// or the tile masks' buffer changed).
    fn bind(&mut self, device: &wgpu::Device, textures: &DensityTextureSlots, casters: &wgpu::Buffer) {
        let generation = textures.generation();
        if self.group.as_ref().is_none_or(|(g, _, _)| *g != generation) {
            let buffers = [&self.uniform, &self.volumes, &self.tile_bins, casters, &self.sun_grid];
            let group = bind_group(device, &self.layout, buffers, textures);
            let grid_group = bind_group(device, &self.grid_layout, buffers, textures);
            self.group = Some((generation, group, grid_group));
        }
    }
}

fn tile_bins_buffer(device: &wgpu::Device, bins: &VolumeBins) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("local fog tile bins"),
        size: (bins.words.len().max(BIN_WORDS) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Both passes' groups, in their order: the scene's inputs, the view's output, the pass's own and
/// the sky's.
fn set_groups(pass: &mut wgpu::ComputePass, groups: [&wgpu::BindGroup; 4]) {
    for (index, group) in (0..).zip(groups) {
        pass.set_bind_group(index, group, &[]);
    }
}

/// The pass's group: its uniform, the volumes, the tile masks, the caster masks and the sun grid
/// (bindings 0–4), then the density textures.
fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffers: [&wgpu::Buffer; 5],
    textures: &DensityTextureSlots,
) -> wgpu::BindGroup {
    let mut entries: Vec<wgpu::BindGroupEntry> = (0..)
        .zip(buffers)
        .map(|(binding, b)| wgpu::BindGroupEntry { binding, resource: b.as_entire_binding() })
        .collect();
    entries.extend(textures.entries());
    device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some("local fog"), layout, entries: &entries })
}

pub struct LocalFog {
    pub params: LocalFogParams,
    status: Option<String>,
    /// The parameters last drawn, whose files loaded: a change whose files do not load goes
    /// back to these (`sync_files`).
    applied: LocalFogParams,
    /// The density grids in use, by path, in slot order.
    files: LoadedFiles,
    /// The largest 3D texture side the device allows (until the GPU is made, the chapter's own
    /// limit).
    device_side: u32,
    /// The time of the last `publish` (s), the volumes it published (their file slots in the
    /// stack's list of grids), and the index of the first of them in the stack's list of volumes.
    time_s: f64,
    published: Vec<FogVolume>,
    first: usize,
}

impl Default for LocalFog {
    fn default() -> Self {
        Self {
            params: LocalFogParams::default(),
            status: None,
            applied: LocalFogParams::default(),
            files: Vec::new(),
            device_side: MAX_DENSITY_TEXTURE_SIDE,
            time_s: 0.0,
            published: Vec::new(),
            first: 0,
        }
    }
}

impl LocalFog {
    pub fn new() -> Self {
        Self::default()
    }

    /// The paths of the density grids in use, in slot order.
    pub fn density_files(&self) -> Vec<String> {
        self.files.iter().map(|(p, _)| p.clone()).collect()
    }

    // ANCHOR: sync_files
    /// Makes the density grids follow the parameters (changed by the panel, `--set` or a
    /// preset): the files they name are read, or, when one cannot be, the parameters go back to
    /// the last ones drawn, with one message in `status`.
    pub fn sync_files(&mut self) {
        if self.params == self.applied {
            return;
        }
        let files = self.params.density_files();
        match textures::resolve(&files, &self.files, self.device_side) {
            Ok(loaded) => {
                self.files = loaded;
                self.applied = self.params.clone();
                self.status = None;
            }
            Err(e) => {
                self.status = Some(format!("{e}; keeping the {} volumes in use", self.applied.volumes.len()));
                self.params = self.applied.clone();
            }
        }
    }
    // ANCHOR_END: sync_files

    // ANCHOR: set_volumes
    /// Replaces the list of volumes by `list`, or refuses it with one message (`status`, and the
    /// error) and keeps the volumes in use: more than `MAX_FOG_VOLUMES`, a value out of its range
    /// (a NaN, a zero size), a volume the core cannot carry, or a density file that cannot be
    /// used (`textures::resolve`).
    pub fn set_volumes(&mut self, list: Vec<VolumeParams>) -> Result<(), String> {
        let mut candidate = LocalFogParams { volumes: list, ..self.params.clone() };
        let checked = fogbook_core::params::check(&mut candidate)
            .map_err(|e| e.to_string())
            .and_then(|()| check_volumes(&candidate.fog_volumes()))
            .and_then(|()| textures::resolve(&candidate.density_files(), &self.files, self.device_side));
        match checked {
            Ok(files) => {
                self.files = files;
                self.applied = candidate.clone();
                self.params = candidate;
                self.status = None;
                Ok(())
            }
            Err(e) => {
                let message = format!("{e}; keeping the {} volumes in use", self.params.volumes.len());
                self.status = Some(message.clone());
                Err(message)
            }
        }
    }
    // ANCHOR_END: set_volumes

    /// The volumes at the last published time, as the core carries them (file slots counted
    /// from this chapter's first grid).
    pub fn volumes(&self) -> Vec<FogVolume> {
        self.params.fog_volumes_at(self.time_s)
    }
}

impl Chapter for LocalFog {
    type Gpu = LocalFogGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "local-fog",
            number: 5,
            title: "Local fog volumes",
            summary: "Boxes, ellipsoids and cylinders of fog placed in the world: injected into the froxel grid, or integrated in closed form per pixel",
        }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "",
            stage: Stage::AnalyticFog,
            reads: &[
                Resource::Color,
                Resource::SceneDistance,
                Resource::SceneLight,
                Resource::ShadowMap,
                Resource::SkyTables,
                Resource::Handover,
                // The stack's list, its own volumes in it and the casters binned over it.
                Resource::FogVolumes,
            ],
            writes: &[Resource::Color, Resource::FogVolumes],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    // ANCHOR: publish
    /// The volumes go to every chapter of the stack (chapter 4 injects them into its froxels),
    /// their density grids with them: a file's slot is counted from where this chapter's grids
    /// begin in the stack's list.
    fn publish(&mut self, out: &mut Publish) {
        self.sync_files();
        self.time_s = out.time_s() as f64;
        let media = out.media();
        let base = media.textures.len() as f32;
        self.published = self.volumes();
        self.first = media.volumes.len();
        for v in &mut self.published {
            if v.texture[0] == SOURCE_FILE {
                // The grid's largest value (found once, when the file loaded) bounds it for the
                // path tracer.
                v.texture[2] = self.files.get(v.texture[1] as usize).map_or(0.0, |(_, t)| t.largest());
                v.texture[1] += base;
            }
        }
        media.volumes.extend(&self.published);
        media.textures.extend(self.files.iter().map(|(_, t)| t.clone()));
        media.shadows |= self.params.volume_shadows;
    }
    // ANCHOR_END: publish

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[SHADER, SUN_GRID_SHADER]
    }

    fn shader_constants(&self) -> Vec<WgslConst> {
        vec![WgslConst::u32("TILE_PX", binning::TILE_PX), WgslConst::u32("SUN_GRID", SUN_GRID)]
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    fn create_gpu(
        &mut self,
        gpu: &GpuContext,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
    ) -> anyhow::Result<LocalFogGpu> {
        let device = &gpu.device;
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let c = wgpu::ShaderStages::COMPUTE;
        let layout_with = |label, grid_read_only| {
            let mut entries = vec![
                uniform_entry(0, c),
                storage_buffer_entry(1, c, true),
                storage_buffer_entry(2, c, true),
                storage_buffer_entry(3, c, true),
                storage_buffer_entry(4, c, grid_read_only),
            ];
            entries.extend(DensityTextureSlots::layout_entries(c));
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries: &entries })
        };
        let layout = layout_with("local fog", true);
        let grid_layout = layout_with("local fog sun grid", false);
        self.device_side = device.limits().max_texture_dimension_3d;
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("local fog params"),
            size: std::mem::size_of::<LocalFogUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let volumes = fogbook_core::media::volumes::volume_buffer(device, "local fog volumes");
        // Sized for the frame at its first render (`fit_tiles`).
        let bins = VolumeBins::new([0; 3]);
        let tile_bins = tile_bins_buffer(device, &bins);
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&layout), Some(&layouts.shared_sky)];
        let pipeline = DensityPipelines::new(device, module, "analytic", &groups)?;
        let grid_module = create_module(device, &shaders.load(SUN_GRID_SHADER)?)?;
        let grid_groups =
            [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&grid_layout), Some(&layouts.shared_sky)];
        let grid_pipeline = DensityPipelines::new(device, grid_module, "sun_grid", &grid_groups)?;
        let sun_grid = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("local fog sun grid"),
            size: (MAX_FOG_VOLUMES * SUN_GRID.pow(3) as usize * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        Ok(LocalFogGpu {
            pipeline,
            grid_pipeline,
            grid_layout,
            sun_grid,
            sun_grid_of: None,
            layout,
            uniform,
            volumes,
            tile_bins,
            bins,
            group: None,
        })
    }

    // ANCHOR: render
    fn render(&mut self, g: &mut LocalFogGpu, ctx: &mut ChapterContext) {
        // The stack's volumes (at most MAX_FOG_VOLUMES), whose indices the core's caster masks
        // hold; this chapter draws its own, those it published, from index `first`.
        let media = ctx.media();
        let sky = ctx.group(Resource::SkyTables);
        let stack = media.volumes;
        let first = self.first.min(stack.len());
        let own = &stack[first..(first + self.published.len()).min(stack.len())];
        let textured = any_textured(stack);
        if let Some(e) = g.pipeline.prepare(&ctx.gpu.device, textured) {
            self.status = Some(e);
        }
        if let Some(e) = g.grid_pipeline.prepare(&ctx.gpu.device, textured) {
            self.status = Some(e);
        }
        if let Some(e) = media.density.noise_error() {
            self.status = Some(e.to_string());
        }
        let uniform = LocalFogUniform::new(&self.params, stack.len(), ctx.view);
        ctx.gpu.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
        if !stack.is_empty() {
            ctx.gpu.write_buffer(&g.volumes, 0, bytemuck::cast_slice(stack));
        }
        let [w, h] = ctx.frame.size;
        g.fit_tiles(&ctx.gpu.device, [w, h]);
        if self.params.culling {
            binning::bin_tiles(own, first, ctx.uniform, [w, h], &mut g.bins);
        } else {
            binning::bin_every_tile(first, own.len(), &mut g.bins);
        }
        ctx.gpu.write_buffer(&g.tile_bins, 0, bytemuck::cast_slice(&g.bins.words));
        // The stack's density textures (`StackMedia::density`) and shadow casters
        // (`StackMedia::casters`, binned by the core), bound as they are now.
        g.bind(&ctx.gpu.device, media.density, &media.casters.buffer);
        let Some((_, group, grid_group)) = &g.group else { return };
        // The sun grid, filled again only when what it is made of changed: the core's caster
        // masks are binned again exactly when the volumes, the sun's direction or the switch
        // change (a scrolling texture moves its volume's offset, so such a volume refills it
        // every frame), and a density file loaded again changes the textures' generation.
        let made_of = (media.casters.generation(), media.density.generation());
        if self.params.sun_grid && !stack.is_empty() && g.sun_grid_of != Some(made_of) {
            let layers = (stack.len() as u32 * SUN_GRID).div_ceil(SUN_GRID_WORKGROUP);
            let groups = [ctx.inputs, ctx.output, grid_group, sky];
            ctx.passes.compute("local fog: sun grid", |pass| {
                pass.set_pipeline(g.grid_pipeline.pipeline(textured));
                set_groups(pass, groups);
                let side = SUN_GRID / SUN_GRID_WORKGROUP;
                pass.dispatch_workgroups(side, side, layers);
            });
            g.sun_grid_of = Some(made_of);
        }
        let groups = [ctx.inputs, ctx.output, group, sky];
        ctx.passes.compute("local fog: analytic", |pass| {
            pass.set_pipeline(g.pipeline.pipeline(textured));
            set_groups(pass, groups);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
    // ANCHOR_END: render

    fn book(&self) -> Book {
        // Nothing carries over from one frame to the next.
        Book {
            figures: Self::figures(),
            #[cfg(feature = "book")]
            plots: Self::plots,
            warmup_steps_only: true,
            ..Default::default()
        }
    }
}

/// What the tests and the book do with this chapter (`Chapter::book`); none of it runs in the
/// viewer.
impl LocalFog {
    // ANCHOR: figures
    // Chapter 4 at a small grid ending at 30 m: the mist is in its froxels, the sphere
    // (27–35 m away) is cut by its far end, the cylinder (57–63 m) lies beyond it.
    const FROXELS: &[&str] = &[
        "froxel-fog.grid_width=64",
        "froxel-fog.grid_height=36",
        "froxel-fog.grid_depth=32",
        "froxel-fog.fog_distance_m=30",
        "froxel-fog.constant_density=0",
        "froxel-fog.layer_density=0",
    ];
    const FROXELS_100: &[&str] = &[
        "froxel-fog.grid_width=64",
        "froxel-fog.grid_height=36",
        "froxel-fog.grid_depth=32",
        "froxel-fog.fog_distance_m=100",
        "froxel-fog.constant_density=0",
        "froxel-fog.layer_density=0",
    ];
    const ABOVE: Option<&str> = Some("-5,25,-5,0,-35,60");
    const FAR_END_LIGHTS: &[&str] = &[
        "scene.sun_illuminance=0",
        "scene.ambient=0.02,0.025,0.04",
        "scene.point_lights=4",
        "scene.light_intensity=600",
        "froxel-fog.constant_density=0",
        "froxel-fog.layer_density=0",
        "volume_count=1",
        "volumes[0].x_m=46",
        "volumes[0].y_m=4",
        "volumes[0].z_m=-124",
        "volumes[0].size_x_m=40",
        "volumes[0].size_y_m=8",
        "volumes[0].size_z_m=16",
        "volumes[0].yaw_deg=0",
        "volumes[0].density=0.1",
        "volumes[0].falloff=0",
        "volumes[0].edge_fade_m=0",
    ];
    const LIGHTS: Option<&str> = Some("20,4,-95,-45,3,60");
    // tests/local_fog/main.rs's `shadowing_slab_settings` for the default sun: the slab 9 m
    // towards the sun from above the box.
    const SLAB: &[&str] = &[
        "block_sun=false",
        "volume_scene_shadows=false",
        "volumes[0].size_x_m=5",
        "volumes[0].size_z_m=5",
        "volume_count=2",
        "volumes[1].x_m=1.03",
        "volumes[1].y_m=5.06",
        "volumes[1].z_m=-38.33",
        "volumes[1].size_x_m=12",
        "volumes[1].size_y_m=2",
        "volumes[1].size_z_m=12",
        "volumes[1].yaw_deg=0",
        "volumes[1].falloff=0",
        "volumes[1].edge_fade_m=0",
        "volumes[1].density=0.15",
    ];
    const SLAB_CAMERA: Option<&str> = Some("-2,3.5,-14,0,-3,50");
    const NOISE: &[&str] = &[
        "volumes[0].density_source=noise",
        "volumes[0].noise_frequency=0.7",
        "volumes[0].noise_octaves=4",
        "volumes[0].noise_contrast=1.6",
        "volumes[0].scroll_x_mps=1.5",
        "volumes[1].density_source=noise",
        "volumes[1].noise_frequency=0.4",
        "volumes[1].noise_contrast=2.5",
        "volumes[1].scroll_y_mps=0.6",
    ];

    /// The chapter's extra figures for the book.
    fn figures() -> Vec<Figure> {
        let fig = |name, view, settings: &[&'static str], camera| Figure::new(name, view, settings, camera);
        vec![
            fig(
                "no-edge-fade",
                "final",
                &["volumes[0].edge_fade_m=0", "volumes[1].edge_fade_m=0", "volumes[2].edge_fade_m=0"],
                None,
            ),
            fig("from-above-optical-depth", "optical-depth", &[], Some("-5,25,-5,0,-35,60")),
            // Without the sun: the ambient light and the sphere's own glow.
            fig("glow-at-dusk", "final", &["scene.sun_illuminance=0", "scene.ambient=0.02,0.025,0.04"], None),
            fig("overlap", "overlap-count", &["volumes[1].x_m=-3", "volumes[1].y_m=3", "volumes[1].size_x_m=12"], None),
            fig("with-froxel-fog", "final", Self::FROXELS, None).with(&["froxel-fog"]),
            fig("with-froxel-fog-path", "local-fog/path", Self::FROXELS, None).with(&["froxel-fog"]),
            // Density textures, seen from above: the mist's density times four octaves of
            // noise, the sphere's times coarser noise of higher contrast (at t = 1/60 s).
            fig("noise-from-above-optical-depth", "optical-depth", Self::NOISE, Some("-5,25,-5,0,-35,60")),
            // Chapter 4's grid seen from above, its transmittance: each volume averaged over the
            // froxel's slice (the box filter), then taken at the froxel's one sample point.
            fig("box-filter-from-above", "froxel-fog/transmittance", Self::FROXELS_100, Self::ABOVE)
                .with(&["froxel-fog"]),
            fig(
                "point-sample-from-above",
                "froxel-fog/transmittance",
                &[Self::FROXELS_100, &["froxel-fog.volume_point_sample=true"]].concat(),
                Self::ABOVE,
            )
            .with(&["froxel-fog"]),
            // A mist around one of the ring's point lights, the grid ending 33 m away and at 300 m:
            // beyond the grid's end this chapter has no point lights.
            fig(
                "far-end-lights-cut",
                "final",
                &[Self::FAR_END_LIGHTS, &["froxel-fog.fog_distance_m=33"]].concat(),
                Self::LIGHTS,
            )
            .with(&["froxel-fog"]),
            fig("far-end-lights-in-grid", "final", Self::FAR_END_LIGHTS, Self::LIGHTS).with(&["froxel-fog"]),
            // The sharp-edged slab over a small box (the shadow test's): the sun's transmittance
            // from each volume's 16³ grid, then traced at every pixel.
            fig("sun-grid-slab", "sun-transmittance", Self::SLAB, Self::SLAB_CAMERA),
            fig(
                "per-pixel-sun-slab",
                "sun-transmittance",
                &[Self::SLAB, &["sun_grid=false"]].concat(),
                Self::SLAB_CAMERA,
            ),
        ]
    }
    // ANCHOR_END: figures

    #[cfg(feature = "book")]
    fn plots() -> Vec<(&'static str, String)> {
        // Optical depth through a 10 m box of density 0.2 /m whose density falls with height,
        // along rays at several slopes, against the falloff.
        use fogbook_core::media::volumes::SHAPE_BOX;
        use glam::DVec3;
        let v = |k: f64| FogVolume {
            centre: [0.0, 5.0, -20.0, SHAPE_BOX],
            half_size: [50.0, 5.0, 5.0, 0.0],
            albedo_density: [1.0, 1.0, 1.0, 0.2],
            emission_falloff: [0.0, 0.0, 0.0, k as f32],
            ..FogVolume::AXIS_ALIGNED
        };
        let slopes = [(0.0, "#1f77b4"), (0.15, "#d62728"), (0.4, "#2ca02c")];
        let chart = line_chart(
            "Optical depth through a 10 m box (ρ₀ = 0.2 /m at its bottom), eye at 1 m",
            "height falloff k (1/m)",
            "τ",
            (0.0, 1.0),
            (0.0, 2.2),
            &slopes
                .iter()
                .map(|&(slope, color)| Series {
                    label: format!("ray slope v_y = {slope}"),
                    color,
                    points: (0..=100)
                        .map(|i| {
                            let k = i as f64 * 0.01;
                            let d = DVec3::new(0.0, slope, -1.0).normalize();
                            (k, reference::optical_depth(&v(k), DVec3::new(0.0, 1.0, 0.0), d, 0.0, 1e3))
                        })
                        .collect(),
                })
                .collect::<Vec<_>>(),
        );
        vec![("optical-depth-vs-falloff", chart)]
    }
}
