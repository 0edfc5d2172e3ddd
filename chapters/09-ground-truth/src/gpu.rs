//! The tracer's GPU side: its uniform, the running sums per pixel, and the three passes (trace,
//! the frame's mean, the views). A frame traces one class of the screen's tiles (`budget`): all
//! of them, except in the viewer under a frame budget. The sums restart whenever what the frame
//! shows changes: the camera, the frame's size, the scene's light, or any parameter of the stack
//! (the core's history epoch counts those). The stack's time is not in that list: a medium that
//! moves with time is averaged over the frames summed, so pause the time to converge on one
//! instant.

use crate::budget::{Class, Interleave, ShareController, StepBudget, dispatch_size, occupancy_cap};
use crate::params::{GroundTruthParams, SkyMode};
use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::{storage_buffer_entry, uniform_entry};
use fogbook_core::frame::{FrameLayouts, FrameUniform, SCREEN_TILE};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::point::{
    CLOUD_LAYER_BINDINGS, PLACED_VOLUMES_BINDINGS, PointMediaStandIns, SIMULATED_GRID_BINDINGS,
};
use fogbook_core::media::textures::DensityTextureSlots;
use fogbook_core::media::volumes::{FogVolume, MAX_FOG_VOLUMES, volume_buffer};
use fogbook_core::scene::{GROUND_ALBEDO, GROUND_HALF_SIZE_M, scene_boxes};
use fogbook_core::shaders::{ShaderStore, WgslConst, compute_pipeline, compute_pipeline_with, create_module};
use fogbook_core::transparent_fog::FogResources;
use fogbook_core::{ChapterContext, Resource};
use wgpu::util::DeviceExt;

// ANCHOR: flags
/// What the tracer sees (`Tracer::flags`).
pub struct Flags;

impl Flags {
    pub const SURFACES: u32 = 1;
    pub const SUN: u32 = 2;
    pub const LOCAL_LIGHTS: u32 = 4;
    pub const CONSTANT_ENVIRONMENT: u32 = 8;
    /// The sky's atmosphere traced as a medium (where the sky is in the stack).
    pub const ATMOSPHERE: u32 = 16;

    /// The flags' WGSL constants, the majorant grid's size and the frame mean's first level.
    pub fn constants() -> Vec<WgslConst> {
        vec![
            WgslConst::u32("MEAN_GROUPS", MEAN_GROUPS),
            WgslConst::u32("MAJORANT_GRID_X", MAJORANT_GRID[0]),
            WgslConst::u32("MAJORANT_GRID_Y", MAJORANT_GRID[1]),
            WgslConst::u32("MAJORANT_GRID_Z", MAJORANT_GRID[2]),
            WgslConst::u32("PLACED_GRID", PLACED_GRID),
            WgslConst::u32("FLAG_SURFACES", Self::SURFACES),
            WgslConst::u32("FLAG_SUN", Self::SUN),
            WgslConst::u32("FLAG_LOCAL_LIGHTS", Self::LOCAL_LIGHTS),
            WgslConst::u32("FLAG_CONSTANT_ENVIRONMENT", Self::CONSTANT_ENVIRONMENT),
            WgslConst::u32("FLAG_ATMOSPHERE", Self::ATMOSPHERE),
        ]
    }

    pub fn of(p: &GroundTruthParams) -> u32 {
        let on = |b: bool, flag: u32| if b { flag } else { 0 };
        on(p.surfaces, Self::SURFACES)
            | on(p.sun, Self::SUN)
            | on(p.local_lights, Self::LOCAL_LIGHTS)
            | on(p.constant_environment, Self::CONSTANT_ENVIRONMENT)
            | on(p.sky == SkyMode::Medium, Self::ATMOSPHERE)
    }
}
// ANCHOR_END: flags

/// Mirrors `struct Tracer` in `shaders/09-ground-truth/trace.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct TracerUniform {
    /// The tiles traced this frame: t with t mod `share` = `phase` (`budget::Class`).
    pub share: u32,
    pub phase: u32,
    /// Workgroups per row of the dispatch, tiles per row of the frame, tiles in all.
    pub groups_x: u32,
    pub tiles_x: u32,
    pub tile_count: u32,
    pub samples: u32,
    pub max_bounces: u32,
    pub max_collisions: u32,
    pub flags: u32,
    pub volume_count: u32,
    pub box_count: u32,
    pub seed: u32,
    /// Tentative collisions a path may take a dispatch before it waits for the next (0: none).
    pub step_budget: u32,
    /// 1 where the paths' states are bound: a waiting path goes on.
    pub resume: u32,
    pub pad: [u32; 2],
    pub domain_min: [f32; 4],
    pub domain_max: [f32; 4],
    pub environment: [f32; 4],
    pub ground: [f32; 4],
}

/// Cells of the majorant grid over the media's box (x, y, z): 31 m cubes over the 2 km ground and
/// the default 1 km of height.
pub const MAJORANT_GRID: [u32; 3] = [64, 32, 64];

/// Cells a side of the grid over the placed media (the smoke, the local volumes), remade with
/// them (majorant_grid.wgsl).
pub const PLACED_GRID: u32 = 64;

/// The majorant grids' buffer: the scene grid's two bounds per cell, the placed grid's one, and
/// the placed grid's box (8 floats).
fn majorant_floats() -> u64 {
    let scene = MAJORANT_GRID.iter().map(|&n| u64::from(n)).product::<u64>();
    2 * scene + u64::from(PLACED_GRID).pow(3) + 8
}

/// Workgroups of 64 that build every cell of both grids.
fn majorant_groups() -> u32 {
    let scene: u32 = MAJORANT_GRID.iter().product();
    scene.max(PLACED_GRID.pow(3)).div_ceil(64)
}

/// Bytes of one pixel's waiting path (`PathState` in trace.wgsl).
const PATH_STATE_BYTES: u64 = 64;

/// Paths per pixel a frame may add: one dispatch each.
pub const MAX_SAMPLES_PER_FRAME: u32 = 256;
/// The trace's pass, whose GPU time paces the viewer's frames (`budget`).
pub const TRACE_PASS: &str = "ground truth: trace";
/// The first level's workgroups of the frame's mean (resolve.wgsl).
const MEAN_GROUPS: u32 = 1024;

/// Pixels per screen tile, the unit a frame's share is dealt in.
const TILE_PIXELS: f64 = (SCREEN_TILE * SCREEN_TILE) as f64;

impl TracerUniform {
    /// The uniform of a whole frame (one class of one); `render` sets the class traced.
    pub fn new(p: &GroundTruthParams, volume_count: u32) -> Self {
        let g = GROUND_HALF_SIZE_M;
        let [r, gr, b] = GROUND_ALBEDO;
        Self {
            share: 1,
            phase: 0,
            groups_x: 0,
            tiles_x: 0,
            tile_count: 0,
            samples: p.samples_per_frame.clamp(1, MAX_SAMPLES_PER_FRAME),
            max_bounces: p.max_bounces,
            max_collisions: p.max_collisions.max(16),
            flags: Flags::of(p),
            volume_count,
            box_count: scene_boxes().len() as u32,
            seed: p.seed,
            step_budget: 0,
            resume: 0,
            pad: [0; 2],
            domain_min: [-g, 0.0, -g, 0.0],
            domain_max: [g, sanitized(p.medium_top_m, 1.0, 1.0e5), g, 0.0],
            environment: p.environment.map(|c| sanitized(c, 0.0, 1.0e4)),
            ground: [r, gr, b, g],
        }
    }
}

/// The screen's tiles of `size`: per row and per column.
fn screen_tiles(size: [u32; 2]) -> [u32; 2] {
    [size[0].div_ceil(SCREEN_TILE), size[1].div_ceil(SCREEN_TILE)]
}

/// The paths of a whole frame of `tile_count` tiles at `samples` paths per pixel.
fn whole_frame_paths(tile_count: u32, samples: u32) -> f64 {
    f64::from(tile_count) * TILE_PIXELS * f64::from(samples)
}

/// `x` clamped into [lo, hi], and `lo` for NaN.
fn sanitized(x: f32, lo: f32, hi: f32) -> f32 {
    if x.is_nan() { lo } else { x.clamp(lo, hi) }
}

/// Mirrors `struct SceneBox` in `shaders/09-ground-truth/scene_geometry.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct BoxRecord {
    pub min: [f32; 4],
    pub max: [f32; 4],
    pub albedo: [f32; 4],
}

fn box_records() -> Vec<BoxRecord> {
    scene_boxes()
        .iter()
        .map(|b| BoxRecord {
            min: b.min.extend(0.0).into(),
            max: b.max.extend(0.0).into(),
            albedo: [b.albedo[0], b.albedo[1], b.albedo[2], 0.0],
        })
        .collect()
}

// ANCHOR: shown
/// What the frame shows, beside the parameters (the history epoch counts those): the sums
/// restart when it changes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    epoch: u32,
    view_proj: [[f32; 4]; 4],
    camera: [f32; 4],
    viewport: [f32; 4],
    sun: [[f32; 4]; 3],
    volumes: usize,
}

impl Shown {
    fn of(u: &FrameUniform, volumes: usize) -> Self {
        Self {
            epoch: u.history_epoch,
            view_proj: u.view_proj,
            camera: u.camera_pos,
            viewport: u.viewport,
            sun: [u.sun_dir, u.sun_color, u.ambient],
            volumes,
        }
    }
}
// ANCHOR_END: shown

/// The running sums for a frame of `size`, the paths waiting between dispatches (a stand-in of
/// one state until a frame has a step budget), and their groups.
struct Sums {
    size: [u32; 2],
    sums: wgpu::Buffer,
    moments: wgpu::Buffer,
    paths: wgpu::Buffer,
    /// Whether `paths` holds a state per pixel.
    resumable: bool,
    trace_group: wgpu::BindGroup,
    resolve_group: wgpu::BindGroup,
}

/// The trace specialised to what the stack has: the clouds' shell and the cards' tree walk
/// compiled away where it has none (WGSL `override TRACE_CLOUDS`, `TRACE_CARDS`), so that a path
/// holds no registers for them; and the majorant grid's build (`build_majorants`), which needs
/// neither. The variant without either is made at start, the others the first time a stack asks
/// for them.
struct Variants {
    module: wgpu::ShaderModule,
    groups: [wgpu::BindGroupLayout; 4],
    made: std::collections::HashMap<(&'static str, bool, bool), wgpu::ComputePipeline>,
}

impl Variants {
    fn get(
        &mut self,
        device: &wgpu::Device,
        entry: &'static str,
        clouds: bool,
        cards: bool,
    ) -> anyhow::Result<wgpu::ComputePipeline> {
        if let Some(p) = self.made.get(&(entry, clouds, cards)) {
            return Ok(p.clone());
        }
        let groups = self.groups.each_ref().map(Some);
        let constants = [("TRACE_CLOUDS", f64::from(u8::from(clouds))), ("TRACE_CARDS", f64::from(u8::from(cards)))];
        let made = compute_pipeline_with(device, &self.module, entry, &groups, &constants)?;
        self.made.insert((entry, clouds, cards), made.clone());
        Ok(made)
    }
}

pub struct TracerGpu {
    pipelines: Variants,
    majorants: wgpu::Buffer,
    mean: [wgpu::ComputePipeline; 2],
    resolve: wgpu::ComputePipeline,
    trace_layout: wgpu::BindGroupLayout,
    media_layout: wgpu::BindGroupLayout,
    point_stand_ins: PointMediaStandIns,
    resolve_layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    boxes: wgpu::Buffer,
    volumes: wgpu::Buffer,
    frame_mean: wgpu::Buffer,
    shown_view: wgpu::Buffer,
    sums: Option<Sums>,
    shown: Option<Shown>,
    /// Which tiles each frame traces, and the paths each holds.
    interleave: Interleave,
    /// The viewer's tentative collisions per path and dispatch, from the measured times.
    steps: StepBudget,
    /// This frame's step budget (0: whole paths).
    pub step_budget: u32,
    /// The class the last frame traced, and whether that frame was paced (the viewer's).
    pub class: Option<Class>,
    pub paced: bool,
}

/// Group 1 of the trace: the tracer's uniform, the sums, the scene's boxes, the majorant grid,
/// the waiting paths.
fn trace_layout_entries() -> [wgpu::BindGroupLayoutEntry; 6] {
    let c = wgpu::ShaderStages::COMPUTE;
    [
        uniform_entry(2, c),
        storage_buffer_entry(3, c, false),
        storage_buffer_entry(4, c, false),
        storage_buffer_entry(5, c, true),
        storage_buffer_entry(6, c, false),
        storage_buffer_entry(7, c, false),
    ]
}

/// The media sampled at points from fields of their own (media::point): a cloud layer's, a
/// simulated grid's and the six-way cards' placed volumes.
fn point_media_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    let mut entries = fogbook_clouds::march_layout_entries();
    entries.extend(fogbook_smoke::medium::medium_layout_entries());
    entries.extend(fogbook_six_way::medium::medium_layout_entries());
    entries
}

/// Group 2 of the trace (stack_media.wgsl): the fogs' uniforms, the local volumes, their
/// density textures and the point media.
fn media_layout_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    let c = wgpu::ShaderStages::COMPUTE;
    let mut entries =
        vec![uniform_entry(0, c), storage_buffer_entry(3, c, true), uniform_entry(4, c), uniform_entry(5, c)];
    entries.extend(DensityTextureSlots::layout_entries(c));
    entries.extend(point_media_entries());
    entries
}

/// Sampled textures of the frame's groups the trace binds beside its media: the scene inputs'
/// colour, distance and shadow map, and the sky's four tables.
const FRAME_SAMPLED_TEXTURES: u32 = 7;

/// Sampled textures the trace binds in its one stage: every medium's at once, more than WebGPU's
/// default limit (16) once the point media are among them.
pub fn sampled_textures() -> u32 {
    let media = media_layout_entries().iter().filter(|e| matches!(e.ty, wgpu::BindingType::Texture { .. })).count();
    FRAME_SAMPLED_TEXTURES + media as u32
}

/// Storage buffers the trace binds in its one stage: the sums, the moments, the boxes, the
/// majorant grids, the waiting paths, the local volumes and the point media's three, one more
/// than WebGPU's default limit (8). (The boxes as a uniform array corrupted lavapipe's heap.)
pub fn storage_buffers() -> u32 {
    let storage = |entries: &[wgpu::BindGroupLayoutEntry]| {
        entries
            .iter()
            .filter(|e| matches!(e.ty, wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { .. }, .. }))
            .count()
    };
    (storage(&media_layout_entries()) + storage(&trace_layout_entries())) as u32
}

fn buffer(device: &wgpu::Device, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size, usage, mapped_at_creation: false })
}

impl TracerGpu {
    pub fn new(gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> anyhow::Result<Self> {
        let device = &gpu.device;
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })
        };
        let trace_layout = layout("ground truth: trace", &trace_layout_entries());
        // Stand-ins made once for the point media a stack lacks.
        let point_stand_ins = PointMediaStandIns::new(device, &point_media_entries());
        let media_layout = layout("ground truth: media", &media_layout_entries());
        let resolve_layout = layout(
            "ground truth: views",
            &[
                storage_buffer_entry(0, c, true),
                storage_buffer_entry(1, c, true),
                storage_buffer_entry(2, c, false),
                uniform_entry(3, c),
            ],
        );
        let trace_module = create_module(device, &shaders.load(crate::TRACE_SHADER)?)?;
        let resolve_module = create_module(device, &shaders.load(crate::RESOLVE_SHADER)?)?;
        let trace_groups =
            [Some(&layouts.scene_inputs), Some(&trace_layout), Some(&media_layout), Some(&layouts.shared_sky)];
        let resolve_groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&resolve_layout)];
        let groups = trace_groups.map(|g| g.expect("every group is bound").clone());
        let mut pipelines = Variants { module: trace_module, groups, made: Default::default() };
        pipelines.get(device, "trace", false, false)?;
        pipelines.get(device, "build_majorants", false, false)?;
        pipelines.get(device, "build_placed_box", false, false)?;
        let mean = [
            compute_pipeline(device, &resolve_module, "mean_partials", &resolve_groups)?,
            compute_pipeline(device, &resolve_module, "mean_luminance", &resolve_groups)?,
        ];
        let resolve = compute_pipeline(device, &resolve_module, "resolve", &resolve_groups)?;
        let uniform = buffer(
            device,
            "ground truth",
            std::mem::size_of::<TracerUniform>() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let boxes = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("ground truth: boxes"),
            contents: bytemuck::cast_slice(&box_records()),
            usage: wgpu::BufferUsages::STORAGE,
        });
        Ok(Self {
            pipelines,
            majorants: buffer(
                device,
                "ground truth: majorant grids",
                majorant_floats() * 4,
                wgpu::BufferUsages::STORAGE,
            ),
            mean,
            resolve,
            trace_layout,
            media_layout,
            point_stand_ins,
            resolve_layout,
            uniform,
            boxes,
            volumes: volume_buffer(device, "ground truth: fog volumes"),
            frame_mean: buffer(
                device,
                "ground truth: frame mean",
                4 * (1 + u64::from(MEAN_GROUPS)),
                wgpu::BufferUsages::STORAGE,
            ),
            shown_view: buffer(
                device,
                "ground truth: view",
                16,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            sums: None,
            shown: None,
            interleave: Interleave::default(),
            steps: StepBudget::default(),
            step_budget: 0,
            class: None,
            paced: false,
        })
    }

    /// The running sums for a frame of `size`, made again when the size changes, with a waiting
    /// path per pixel where `resumable` asks for them and the device holds them (else a
    /// stand-in); an error where the device cannot hold the sums.
    fn sums_for(&mut self, device: &wgpu::Device, size: [u32; 2], resumable: bool) -> Result<&Sums, String> {
        let pixels = u64::from(size[0]) * u64::from(size[1]);
        let limit = device.limits().max_storage_buffer_binding_size.min(device.limits().max_buffer_size);
        let resumable = resumable && pixels * PATH_STATE_BYTES <= limit;
        let stale = self.sums.as_ref().is_none_or(|s| s.size != size || (resumable && !s.resumable));
        if stale {
            let bytes = pixels * 16;
            if bytes > limit {
                self.sums = None;
                return Err(format!(
                    "ground truth: a {}×{} frame needs {} MiB of sums per buffer, more than this device's {} MiB",
                    size[0],
                    size[1],
                    bytes >> 20,
                    limit >> 20
                ));
            }
            // Cleared when the sums restart (`render`); made whole again with waiting paths.
            let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
            let sums = buffer(device, "ground truth: sums", bytes.max(16), storage);
            let moments = buffer(device, "ground truth: moments", bytes.max(16), storage);
            let path_bytes = if resumable { pixels.max(1) * PATH_STATE_BYTES } else { PATH_STATE_BYTES };
            let paths = buffer(device, "ground truth: waiting paths", path_bytes, storage);
            let group = |label, layout, entries: &[wgpu::BindGroupEntry]| {
                device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries })
            };
            let entry = |binding, resource| wgpu::BindGroupEntry { binding, resource };
            let trace_group = group(
                "ground truth: trace",
                &self.trace_layout,
                &[
                    entry(2, self.uniform.as_entire_binding()),
                    entry(3, sums.as_entire_binding()),
                    entry(4, moments.as_entire_binding()),
                    entry(5, self.boxes.as_entire_binding()),
                    entry(6, self.majorants.as_entire_binding()),
                    entry(7, paths.as_entire_binding()),
                ],
            );
            let resolve_group = group(
                "ground truth: views",
                &self.resolve_layout,
                &[
                    entry(0, sums.as_entire_binding()),
                    entry(1, moments.as_entire_binding()),
                    entry(2, self.frame_mean.as_entire_binding()),
                    entry(3, self.shown_view.as_entire_binding()),
                ],
            );
            self.sums = Some(Sums { size, sums, moments, paths, resumable, trace_group, resolve_group });
            self.shown = None;
        }
        Ok(self.sums.as_ref().expect("made above"))
    }

    // ANCHOR: media_group
    /// Group 2 of the trace: the fogs' uniforms the stack lent (stand-ins for the missing), its
    /// local volumes, its density textures and the point media's fields
    /// (shaders/09-ground-truth/stack_media.wgsl).
    fn media_group(&self, ctx: &ChapterContext, density: &DensityTextureSlots) -> wgpu::BindGroup {
        let fogs = FogResources::of(&ctx.frame.transparent_fog_stand_ins, ctx.fog_parts());
        let mut entries = vec![
            wgpu::BindGroupEntry { binding: 0, resource: fogs.grid.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 3, resource: self.volumes.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 4, resource: fogs.height.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 5, resource: fogs.distance.as_entire_binding() },
        ];
        entries.extend(density.entries());
        entries.extend(self.point_stand_ins.entries(ctx.point_media()));
        ctx.gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ground truth: media"),
            layout: &self.media_layout,
            entries: &entries,
        })
    }
    // ANCHOR_END: media_group

    // ANCHOR: class
    /// The tiles this frame traces and its uniform: every tile in headless frames; in the
    /// viewer's (`ChapterContext::paced`) 1/k of them, k fixed by `interleave` or chosen from the
    /// budget and the measured cost (`budget`), 1 where the budget is 0.
    fn frame_class(
        &mut self,
        p: &GroundTruthParams,
        ctx: &ChapterContext,
        controller: &ShareController,
        restart: bool,
    ) -> TracerUniform {
        let size = ctx.frame.size;
        let [tiles_x, tiles_y] = screen_tiles(size);
        let tile_count = tiles_x * tiles_y;
        let mut u = TracerUniform::new(p, 0);
        let whole_frame = whole_frame_paths(tile_count, u.samples);
        let wanted = match (ctx.paced, p.interleave) {
            (false, _) => 1,
            // A measured time holds only for classes that fill the GPU (budget::occupancy_cap).
            (true, 0) if controller.measured() => {
                let cap = occupancy_cap(tile_count, TILE_PIXELS);
                controller.share(f64::from(p.frame_budget_ms), whole_frame, cap)
            }
            (true, 0) => controller.share(f64::from(p.frame_budget_ms), whole_frame, tile_count),
            (true, k) => k,
        };
        let class = self.interleave.next(wanted, tile_count, u.samples, restart);
        (self.class, self.paced) = (Some(class), ctx.paced);
        (u.share, u.phase, u.tiles_x, u.tile_count) = (class.share, class.phase, tiles_x, tile_count);
        u.groups_x = dispatch_size(class.tiles)[0];
        u
    }
    // ANCHOR_END: class

    // ANCHOR: step_budget
    /// The tentative collisions a path may take this frame before it waits for the next:
    /// `path_steps` where set; in the viewer's frames with k from the budget, as many as fit the
    /// budget where even the occupancy cap's share overruns it (`budget::StepBudget`); else 0,
    /// whole paths.
    fn step_budget(&mut self, p: &GroundTruthParams, ctx: &ChapterContext, controller: &ShareController) -> u32 {
        if p.path_steps > 0 {
            return p.path_steps;
        }
        if !(ctx.paced && p.interleave == 0 && p.frame_budget_ms > 0.0) {
            return 0;
        }
        let [tiles_x, tiles_y] = screen_tiles(ctx.frame.size);
        let tile_count = tiles_x * tiles_y;
        let whole_frame = whole_frame_paths(tile_count, TracerUniform::new(p, 0).samples);
        let cap = occupancy_cap(tile_count, TILE_PIXELS);
        let overrun = controller.classes_wanted(f64::from(p.frame_budget_ms), whole_frame) / f64::from(cap);
        self.steps.next(controller.observations(), overrun)
    }
    // ANCHOR_END: step_budget

    /// The fewest and the most paths a pixel holds so far.
    pub fn paths_range(&self) -> (u32, u32) {
        self.interleave.paths_range()
    }

    // ANCHOR: render
    /// Adds this frame's paths to the sums of the tiles it traces (all from zero when what is
    /// shown changed) and writes the view `ctx.view`; an error where the frame is too large for
    /// the device.
    pub fn render(
        &mut self,
        p: &GroundTruthParams,
        ctx: &mut ChapterContext,
        controller: &ShareController,
    ) -> Result<(), String> {
        let media = ctx.media();
        let volumes: &[FogVolume] = &media.volumes[..media.volumes.len().min(MAX_FOG_VOLUMES)];
        let size = ctx.frame.size;
        let steps = self.step_budget(p, ctx, controller);
        let resumable = self.sums_for(&ctx.gpu.device, size, steps > 0)?.resumable;
        self.step_budget = if resumable { steps } else { 0 };
        let shown = Shown::of(ctx.uniform, volumes.len());
        let restart = self.shown != Some(shown);
        self.shown = Some(shown);
        let uniform = TracerUniform {
            volume_count: volumes.len() as u32,
            step_budget: self.step_budget,
            resume: u32::from(resumable),
            ..self.frame_class(p, ctx, controller, restart)
        };
        let class = self.class.expect("set by frame_class");
        ctx.gpu.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        ctx.gpu.write_buffer(&self.shown_view, 0, bytemuck::cast_slice(&[ctx.view as u32, 0, 0, 0]));
        if !volumes.is_empty() {
            ctx.gpu.write_buffer(&self.volumes, 0, bytemuck::cast_slice(volumes));
        }
        let media_group = self.media_group(ctx, media.density);
        let lent = |bindings: &std::ops::Range<u32>| ctx.point_media().contains_key(&bindings.start);
        let (clouds, cards) = (lent(&CLOUD_LAYER_BINDINGS), lent(&PLACED_VOLUMES_BINDINGS));
        let simulated = lent(&SIMULATED_GRID_BINDINGS);
        let device = &ctx.gpu.device;
        let made = |e: anyhow::Error| format!("ground truth: {e:#}");
        let trace = self.pipelines.get(device, "trace", clouds, cards).map_err(made)?;
        let build = self.pipelines.get(device, "build_majorants", false, false).map_err(made)?;
        let placed_box = self.pipelines.get(device, "build_placed_box", false, false).map_err(made)?;
        let sums = self.sums.as_ref().expect("made by sums_for");
        if restart {
            // Every pixel starts again, not only the tiles this frame traces.
            ctx.passes.encoder().clear_buffer(&sums.sums, 0, None);
            ctx.passes.encoder().clear_buffer(&sums.moments, 0, None);
            // No path of what was shown before goes on.
            ctx.passes.encoder().clear_buffer(&sums.paths, 0, None);
        }
        let sky = ctx.group(Resource::SkyTables);
        // The media's bounds change with what the frame shows and a simulated grid's with every
        // step: this frame's paths need a bound on this frame's. (The cards, which move, are
        // bounded by their own boxes, not the grid.) Not only a step changes a grid — an upload
        // does, a saved volume loaded, a reset — so it is bounded again every frame.
        let rebuild = restart || simulated;
        let groups = dispatch_size(class.tiles);
        ctx.passes.compute(TRACE_PASS, |pass| {
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, &sums.trace_group, &[]);
            pass.set_bind_group(2, &media_group, &[]);
            pass.set_bind_group(3, sky, &[]);
            if rebuild {
                // The placed media's box first: the cells of their grid are cut from it.
                pass.set_pipeline(&placed_box);
                pass.dispatch_workgroups(1, 1, 1);
                pass.set_pipeline(&build);
                pass.dispatch_workgroups(majorant_groups(), 1, 1);
            }
            // One path per pixel of the class a dispatch, which bounds each dispatch's work.
            pass.set_pipeline(&trace);
            for _ in 0..uniform.samples {
                pass.dispatch_workgroups(groups[0], groups[1], 1);
            }
        });
        ctx.passes.note_work(whole_frame_paths(class.tiles, uniform.samples));
        let tiles = screen_tiles(size);
        ctx.passes.compute("ground truth: views", |pass| {
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &sums.resolve_group, &[]);
            // The frame's mean in two levels (resolve.wgsl).
            pass.set_pipeline(&self.mean[0]);
            pass.dispatch_workgroups(MEAN_GROUPS, 1, 1);
            pass.set_pipeline(&self.mean[1]);
            pass.dispatch_workgroups(1, 1, 1);
            pass.set_pipeline(&self.resolve);
            pass.dispatch_workgroups(tiles[0], tiles[1], 1);
        });
        Ok(())
    }
    // ANCHOR_END: render
}
