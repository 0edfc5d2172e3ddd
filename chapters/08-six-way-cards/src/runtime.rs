//! Chapter 8's runtime: fog cards and particles drawn with six-way lighting from a flipbook the
//! chapter bakes from chapter 7's smoke. In the transparent stage, three passes:
//!
//! 1. `prepare` (compute): what is constant over each card, once per card (`prepare`).
//! 2. The cards into the transparent layer (rgba16float: premultiplied radiance and the
//!    transmittance through the cards), by the renderer the parameters choose:
//!    - `splat` (compute, the default): the cards binned into screen tiles on the CPU (`tiles`),
//!      each tile's pixels composited front to back (`splat`, `splat.wgsl`);
//!    - `cards` (render pass): every card, back to front, with the "over" blend; `cards.wgsl`.
//! 3. `composite` (compute): the layer over the colour below, or the selected debug view;
//!    `composite.wgsl`.

use crate::baked::{BakeKey, Baked, flipbook};
use crate::emitter::Emitter;
use crate::instances::{CardInstance, Eye, FogCard, FogCardArea, build, fog_cards};
use crate::medium::CardsMediumGpu;
use crate::params::{CardParams, FrameBlend, Renderer, Weighting};
use crate::prepare::{Prepare, PreparedCard, storage_buffer};
use crate::splat::Splat;
use crate::tiles::{TileLists, bin};
use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::{storage_buffer_entry, texture_entry, uniform_entry};
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE, Target};
use fogbook_core::gpu::GpuContext;
use fogbook_core::params::DynParameters;
use fogbook_core::shaders::WgslConst;
use fogbook_core::shaders::{ShaderStore, checked, compute_pipeline, create_module};
use fogbook_core::time::DEFAULT_STEP_S;
use fogbook_core::{
    Book, Chapter, ChapterContext, ChapterInfo, Loan, Resource, Stage, StageIo, UpdateContext, ViewInfo,
};
use glam::Vec3;
use std::sync::Arc;

pub const CARDS_SHADER: &str = "08-six-way-cards/cards.wgsl";
pub const COMPOSITE_SHADER: &str = "08-six-way-cards/composite.wgsl";

/// The transparent layer's format: blendable, HDR.
const LAYER_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "The cards over the scene"),
    ViewInfo::color("scene", "The colour below the cards"),
    ViewInfo::fraction("map-top", "Light map lit from the top (straight, mean over the cards)"),
    ViewInfo::fraction("map-bottom", "Light map lit from the bottom"),
    ViewInfo::fraction("map-left", "Light map lit from the left"),
    ViewInfo::fraction("map-right", "Light map lit from the right"),
    ViewInfo::fraction("map-back", "Light map lit from behind the card"),
    ViewInfo::fraction("map-front", "Light map lit from the eye's side"),
    ViewInfo::color("masks", "Which map of each pair the sun selects: red right, green top, blue back"),
    ViewInfo::color("weights", "The selected maps' weights: red x, green y, blue z (sum to 1 when squared)"),
    ViewInfo::fraction("lit", "The six-way blend Σ w·m (straight)"),
    ViewInfo::fraction("alpha", "Coverage 1 − Π(1 − α) of all cards"),
    ViewInfo::scalar("frame", "Flipbook frame index", 0.0, 64.0, ""),
    ViewInfo::fraction("frame-blend", "Cross-fade towards the next frame"),
    ViewInfo::scalar("overdraw", "Card fragments in front of the scene per pixel", 0.0, 32.0, ""),
    ViewInfo::fraction("depth-fade", "Soft-particle fade against the scene's depth"),
    ViewInfo::fraction("camera-fade", "Fade near the eye"),
    ViewInfo::fraction("fog-transmittance", "The stack's fog transmittance from the eye to the card"),
    ViewInfo::color("atlas-a", "Atlas A (straight values; alpha not shown)"),
    ViewInfo::color("atlas-b", "Atlas B"),
];
// ANCHOR_END: views

const VIEW_OVERDRAW: usize = 14;

/// Mirrors `struct Cards` in `cards_common.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct CardsUniform {
    pub grid: [u32; 4],
    pub frame_uv: [f32; 4],
    pub swizzle: [u32; 8],
    pub absorption: [f32; 4],
    pub emission: [f32; 4],
    pub fades: [f32; 4],
    pub anim: [f32; 4],
    pub flags: [u32; 4],
    /// Cards this frame; the rest unused.
    pub counts: [u32; 4],
}

// ANCHOR: absorption_exponent
/// Unity's absorption exponent k = 1 + log₂ c / log₂ 0.2 of a colour channel, less one (the
/// shader's tint is (t / R)^(k − 1)).
pub fn absorption_exponent(c: f32) -> f32 {
    (c.max(1e-3)).log2() / 0.2f32.log2()
}
// ANCHOR_END: absorption_exponent

impl CardsUniform {
    pub fn new(p: &CardParams, book: Option<&Baked>, view: usize, time_s: f32, cards: usize) -> Self {
        let (grid, frame_uv, swizzle) = match book {
            Some(b) => {
                let l = b.layout;
                let t = b.channel_table();
                (
                    [l.cols, l.rows, b.frames.max(1), b.emission as u32],
                    [1.0 / l.cols as f32, 1.0 / l.rows as f32, 0.5 / l.frame_w as f32, 0.5 / l.frame_h as f32],
                    t,
                )
            }
            None => ([1, 1, 1, 0], [1.0, 1.0, 0.5, 0.5], [8; 8]),
        };
        let c = p.absorption_color;
        let weighting = match p.weighting {
            Weighting::Squared => 0,
            Weighting::Linear => 1,
            Weighting::LinearNormalised => 2,
        };
        let bits = p.scene_shadow as u32 | (p.fogged as u32) << 1;
        Self {
            grid,
            frame_uv,
            swizzle,
            absorption: [
                absorption_exponent(c[0]),
                absorption_exponent(c[1]),
                absorption_exponent(c[2]),
                p.absorption_range.max(1e-3),
            ],
            emission: [p.emission_color[0], p.emission_color[1], p.emission_color[2], 0.0],
            fades: [p.depth_fade_m, p.camera_near_m, p.camera_fade_m, p.edge_softness],
            anim: [p.frames_per_s, time_s, p.density_scale, p.ambient_scale],
            flags: [view as u32, weighting, (p.frame_blend == FrameBlend::CrossFade) as u32, bits],
            counts: [cards as u32, 0, 0, 0],
        }
    }
}

/// The flipbook's atlases on the GPU.
struct FlipbookGpu {
    book: Arc<Baked>,
    views: [wgpu::TextureView; 2],
}

fn upload_atlases(gpu: &GpuContext, book: Arc<Baked>) -> FlipbookGpu {
    let [w, h] = book.layout.size();
    let views = [0, 1].map(|i| {
        let atlas = &book.atlases[i];
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("six-way atlas"),
            size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba16Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let bytes: Vec<u8> = atlas.iter().flat_map(|&v| fogbook_smoke::fields::f16_bits(v).to_le_bytes()).collect();
        gpu.queue.write_texture(
            texture.as_image_copy(),
            &bytes,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(w * 8), rows_per_image: Some(h) },
            texture.size(),
        );
        texture.create_view(&Default::default())
    });
    FlipbookGpu { book, views }
}

/// The transparent layer and the groups that depend on its size, on the flipbook or on the
/// buffers (rebuilt when one of them grows).
struct Bound {
    size: [u32; 2],
    layer: Target,
    prepare_group: wgpu::BindGroup,
    cards_group: wgpu::BindGroup,
    splat_group: wgpu::BindGroup,
    composite_group: wgpu::BindGroup,
}

pub struct CardsGpu {
    layouts: FrameLayouts,
    shaders: ShaderStore,
    cards_layout: wgpu::BindGroupLayout,
    composite_layout: wgpu::BindGroupLayout,
    prepare: Prepare,
    cards: wgpu::RenderPipeline,
    overdraw: wgpu::RenderPipeline,
    splat: Splat,
    composite: wgpu::ComputePipeline,
    uniform: wgpu::Buffer,
    sampler: wgpu::Sampler,
    /// 1×1 stand-ins for the atlases before a flipbook exists.
    empty: wgpu::TextureView,
    /// The cards (`CardInstance`, back to front), their prepared data (`PreparedCard`, same
    /// order) and the tiles' lists (`TileLists::words`).
    instances: wgpu::Buffer,
    prepared: wgpu::Buffer,
    tiles: wgpu::Buffer,
    flipbook: Option<FlipbookGpu>,
    bound: Option<Bound>,
    /// The flipbook's source volumes where each card stands, for a path tracer.
    medium: CardsMediumGpu,
}

#[derive(Default)]
pub struct SixWayCards {
    pub params: CardParams,
    emitter: Emitter,
    emitter_started: bool,
    /// Seconds of animation: advanced in `update` with the emitter, so that every view of one
    /// state (a redraw with time standing still) shows the same flipbook frames.
    anim_time_s: f64,
    fog_cards: Vec<FogCard>,
    /// The area `fog_cards` were placed for.
    fog_cards_for: Option<FogCardArea>,
    /// What the last bake made (a note), and what was refused since (the flipbook kept).
    baked: Option<String>,
    status: Option<String>,
}

impl SixWayCards {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bakes (or finds in the cache) the flipbook the parameters ask for, if it is not the one
    /// in use; on failure the old one stays and the status says why.
    fn follow_bake(&mut self, g: &mut CardsGpu, gpu: &GpuContext) {
        let key = BakeKey::new(&self.params);
        if g.flipbook.as_ref().is_some_and(|f| f.book.key == key) {
            return;
        }
        let side = key.0.layout().map(|l| l.size().into_iter().max().unwrap_or(0)).unwrap_or(0);
        let max = gpu.device.limits().max_texture_dimension_2d;
        if side > max {
            self.status = Some(format!(
                "flipbook not baked: its atlas would be {side} texels wide, over this device's {max}; use fewer frames or smaller ones"
            ));
            return;
        }
        match flipbook(gpu, &g.layouts, &g.shaders, &key) {
            Ok(book) => {
                self.status = None;
                // Without its source frames (too large to keep, or to fit the device) the
                // flipbook draws as ever; a path tracer beside it sees no cards.
                let traced = match (&book.source, g.medium.set_source(gpu, book.source.as_ref())) {
                    (None, _) => "; too large to keep its source frames: not traced".to_string(),
                    (Some(_), Err(e)) => format!("; not traced: {e}"),
                    (Some(_), Ok(())) => String::new(),
                };
                self.baked = Some(format!(
                    "flipbook: {} frames of a {}³ smoke, {}×{} atlases (baked in {:.2} s){traced}",
                    book.frames,
                    key.0.grid,
                    book.layout.size()[0],
                    book.layout.size()[1],
                    book.seconds
                ));
                g.flipbook = Some(upload_atlases(gpu, book));
                g.bound = None;
            }
            Err(e) => self.status = Some(format!("flipbook not baked: {e:#}")),
        }
    }

    fn bind(&self, g: &mut CardsGpu, gpu: &GpuContext, size: [u32; 2]) {
        if g.bound.as_ref().is_some_and(|b| b.size == size) {
            return;
        }
        let device = &gpu.device;
        let layer = Target::new(
            device,
            "six-way layer",
            size,
            LAYER_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::STORAGE_BINDING,
        );
        let [a, b] = match &g.flipbook {
            Some(f) => [&f.views[0], &f.views[1]],
            None => [&g.empty, &g.empty],
        };
        let entry = |binding, resource| wgpu::BindGroupEntry { binding, resource };
        let prepare_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("six-way prepare"),
            layout: &g.prepare.layout,
            entries: &[
                entry(2, g.uniform.as_entire_binding()),
                entry(3, g.instances.as_entire_binding()),
                entry(4, g.prepared.as_entire_binding()),
            ],
        });
        let cards_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("six-way cards"),
            layout: &g.cards_layout,
            entries: &[
                entry(2, g.uniform.as_entire_binding()),
                entry(3, wgpu::BindingResource::TextureView(a)),
                entry(4, wgpu::BindingResource::TextureView(b)),
                entry(5, wgpu::BindingResource::Sampler(&g.sampler)),
                entry(6, g.prepared.as_entire_binding()),
            ],
        });
        let splat_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("six-way splat"),
            layout: &g.splat.layout,
            entries: &[
                entry(2, g.uniform.as_entire_binding()),
                entry(3, wgpu::BindingResource::TextureView(a)),
                entry(4, wgpu::BindingResource::TextureView(b)),
                entry(5, wgpu::BindingResource::Sampler(&g.sampler)),
                entry(6, g.prepared.as_entire_binding()),
                entry(7, g.tiles.as_entire_binding()),
                entry(8, wgpu::BindingResource::TextureView(&layer.view)),
            ],
        });
        let composite_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("six-way composite"),
            layout: &g.composite_layout,
            entries: &[
                entry(0, g.uniform.as_entire_binding()),
                entry(1, wgpu::BindingResource::TextureView(&layer.view)),
                entry(2, wgpu::BindingResource::TextureView(a)),
                entry(3, wgpu::BindingResource::TextureView(b)),
            ],
        });
        g.bound = Some(Bound { size, layer, prepare_group, cards_group, splat_group, composite_group });
    }

    /// The buffers hold at least `cards` cards and `words` words of tile lists; a buffer that
    /// grows drops the bind groups.
    fn reserve(g: &mut CardsGpu, gpu: &GpuContext, cards: usize, words: usize) {
        let device = &gpu.device;
        let cards = cards.max(1) as u64;
        let mut grown = false;
        let mut grow = |buffer: &mut wgpu::Buffer, label: &str, bytes: u64, usage: wgpu::BufferUsages| {
            if buffer.size() < bytes {
                *buffer = storage_buffer(device, label, bytes.next_power_of_two(), usage);
                grown = true;
            }
        };
        let copy = wgpu::BufferUsages::COPY_DST;
        grow(&mut g.instances, "six-way instances", cards * INSTANCE_BYTES, copy | wgpu::BufferUsages::VERTEX);
        grow(&mut g.prepared, "six-way prepared", cards * PREPARED_BYTES, wgpu::BufferUsages::empty());
        grow(&mut g.tiles, "six-way tiles", words.max(1) as u64 * 4, copy);
        if grown {
            g.bound = None;
        }
    }
}

const INSTANCE_BYTES: u64 = std::mem::size_of::<CardInstance>() as u64;

/// The card vertex stream (`Instance` in cards.wgsl): a `CardInstance` per card, of which the
/// vertex shader reads centre, right and up; the flipbook timing is the prepare pass's.
pub const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 3] =
    wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4];
const PREPARED_BYTES: u64 = std::mem::size_of::<PreparedCard>() as u64;

/// The cards' group layout (uniform, the two atlases, their sampler, the prepared cards) and the
/// composite's (uniform and three layers).
fn group_layouts(device: &wgpu::Device) -> (wgpu::BindGroupLayout, wgpu::BindGroupLayout) {
    let vis = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
    let filterable = wgpu::TextureSampleType::Float { filterable: true };
    let unfilterable = wgpu::TextureSampleType::Float { filterable: false };
    let cards_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("six-way cards"),
        entries: &[
            uniform_entry(2, vis),
            texture_entry(3, wgpu::ShaderStages::FRAGMENT, filterable),
            texture_entry(4, wgpu::ShaderStages::FRAGMENT, filterable),
            wgpu::BindGroupLayoutEntry {
                binding: 5,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
            storage_buffer_entry(6, wgpu::ShaderStages::FRAGMENT, true),
        ],
    });
    let compute = wgpu::ShaderStages::COMPUTE;
    let composite_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("six-way composite"),
        entries: &[
            uniform_entry(0, compute),
            texture_entry(1, compute, unfilterable),
            texture_entry(2, compute, unfilterable),
            texture_entry(3, compute, unfilterable),
        ],
    });
    (cards_layout, composite_layout)
}

fn card_pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    layout: &wgpu::PipelineLayout,
    fragment: &str,
    blend: wgpu::BlendState,
) -> Result<wgpu::RenderPipeline> {
    checked(device, &format!("pipeline {fragment}"), || {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(fragment),
            layout: Some(layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<CardInstance>() as u64,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: &INSTANCE_ATTRIBUTES,
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some(fragment),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: LAYER_FORMAT,
                    blend: Some(blend),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        })
    })
}

// ANCHOR: blend_states
/// Premultiplied "over", back to front: colour C + (1 − α)·dst, alpha (1 − α)·dst (the
/// transmittance through everything drawn so far).
const OVER: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
        operation: wgpu::BlendOperation::Add,
    },
};

/// The overdraw count: every fragment adds one to colour, alpha stays.
const COUNT: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
};
// ANCHOR_END: blend_states

impl Chapter for SixWayCards {
    type Gpu = CardsGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "six-way-cards",
            number: 8,
            title: "Six-way lit smoke cards",
            summary: "Fog cards and particles lit from six baked directions, from a flipbook baked from chapter 7's smoke",
        }
    }

    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "particles",
            stage: Stage::Transparent,
            reads: &[
                Resource::Color,
                Resource::SceneDistance,
                Resource::ShadowMap,
                Resource::SceneLight,
                Resource::SkyTables,
                Resource::TransparentFog,
                // The fog at a card's depth reads where the analytic fog takes over.
                Resource::Handover,
            ],
            writes: &[Resource::Color, Resource::PointMedia],
        }
    }

    /// After the stage: this frame's cards' source volumes, for a pass that samples media at
    /// points.
    fn lend(&self, g: &CardsGpu, kind: Resource) -> Option<Loan> {
        match kind {
            Resource::PointMedia => g.medium.point_media(),
            _ => None,
        }
    }

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn view_range(&mut self, view: usize) -> Option<(f32, f32)> {
        (VIEWS[view].name == "frame").then(|| (0.0, self.params.bake_frames.max(1) as f32))
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[crate::prepare::SHADER, CARDS_SHADER, crate::splat::SHADER, COMPOSITE_SHADER, crate::gpu::SHADER]
    }

    fn shader_constants(&self) -> Vec<WgslConst> {
        vec![WgslConst::u32("TILE_PX", crate::tiles::TILE_PX)]
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<CardsGpu> {
        let device = &gpu.device;
        let (cards_layout, composite_layout) = group_layouts(device);
        let cards_module = create_module(device, &shaders.load(CARDS_SHADER)?)?;
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("six-way cards"),
            bind_group_layouts: &[
                Some(&layouts.scene_inputs),
                Some(&cards_layout),
                Some(&layouts.transparent_fog),
                Some(&layouts.shared_sky),
            ],
            immediate_size: 0,
        });
        let cards = card_pipeline(device, &cards_module, &pipeline_layout, "fs_main", OVER)?;
        let overdraw = card_pipeline(device, &cards_module, &pipeline_layout, "fs_overdraw", COUNT)?;
        let prepare = Prepare::new(device, layouts, shaders)?;
        let splat = Splat::new(device, layouts, shaders, LAYER_FORMAT)?;
        let composite_module = create_module(device, &shaders.load(COMPOSITE_SHADER)?)?;
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&composite_layout)];
        let composite = compute_pipeline(device, &composite_module, "main", &groups)?;
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("six-way cards"),
            size: std::mem::size_of::<CardsUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("six-way atlas"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let (copy, vertex) = (wgpu::BufferUsages::COPY_DST, wgpu::BufferUsages::VERTEX);
        let empty = Target::new(
            device,
            "six-way empty atlas",
            [1, 1],
            wgpu::TextureFormat::Rgba16Float,
            wgpu::TextureUsages::TEXTURE_BINDING,
        )
        .view;
        let mut state = CardsGpu {
            layouts: layouts.clone(),
            shaders: shaders.clone(),
            cards_layout,
            composite_layout,
            prepare,
            cards,
            overdraw,
            splat,
            composite,
            uniform,
            sampler,
            empty,
            instances: storage_buffer(device, "six-way instances", 1024 * INSTANCE_BYTES, copy | vertex),
            prepared: storage_buffer(device, "six-way prepared", 1024 * PREPARED_BYTES, wgpu::BufferUsages::empty()),
            tiles: storage_buffer(device, "six-way tiles", 64 * 1024, copy),
            flipbook: None,
            bound: None,
            medium: CardsMediumGpu::new(device),
        };
        self.follow_bake(&mut state, gpu);
        Ok(state)
    }

    fn carry_over(&mut self, old: CardsGpu, new: &mut CardsGpu) {
        if new.flipbook.is_none() {
            new.flipbook = old.flipbook;
            new.medium = old.medium;
        }
    }

    fn update(&mut self, g: &mut CardsGpu, ctx: &mut UpdateContext) {
        self.follow_bake(g, ctx.gpu);
        if !self.emitter_started {
            self.emitter.reset(&self.params, DEFAULT_STEP_S);
            self.emitter_started = true;
        }
        self.emitter.step(&self.params, ctx.dt);
        if ctx.dt.is_finite() && ctx.dt > 0.0 {
            self.anim_time_s += ctx.dt as f64;
        }
    }

    fn reset(&mut self, _g: &mut CardsGpu, _gpu: &GpuContext) {
        self.emitter.reset(&self.params, DEFAULT_STEP_S);
        self.emitter_started = true;
        self.anim_time_s = 0.0;
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    fn status(&self) -> Option<String> {
        self.status.clone().or_else(|| self.baked.clone())
    }

    fn render(&mut self, g: &mut CardsGpu, ctx: &mut ChapterContext) {
        let gpu = ctx.gpu;
        let area = FogCardArea::new(&self.params);
        if self.fog_cards_for != Some(area) {
            self.fog_cards = fog_cards(&area);
            self.fog_cards_for = Some(area);
        }
        let u = ctx.uniform;
        let eye = eye_of(u);
        let book = g.flipbook.as_ref().map(|f| f.book.clone());
        let instances = match &book {
            Some(b) => build(&self.params, &self.fog_cards, &self.emitter, &eye, b.frames),
            None => Vec::new(),
        };
        let source = book.as_ref().and_then(|b| b.source.as_ref());
        g.medium.write(gpu, &self.params, source, &instances, self.anim_time_s as f32);
        let (size, compute) = (ctx.frame.size, self.params.renderer == Renderer::Compute);
        let lists: Option<TileLists> = compute.then(|| bin(&instances, u, size));
        Self::reserve(g, gpu, instances.len(), lists.as_ref().map_or(0, |l| l.words.len()));
        self.bind(g, gpu, size);
        let uniform =
            CardsUniform::new(&self.params, book.as_deref(), ctx.view, self.anim_time_s as f32, instances.len());
        gpu.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
        if !instances.is_empty() {
            gpu.write_buffer(&g.instances, 0, bytemuck::cast_slice(&instances));
        }
        if let Some(l) = &lists {
            gpu.write_buffer(&g.tiles, 0, bytemuck::cast_slice(&l.words));
        }
        let Some(bound) = &g.bound else { return };
        let (inputs, count) = (ctx.inputs, instances.len() as u32);
        let (fog, sky) = (ctx.group(Resource::TransparentFog), ctx.group(Resource::SkyTables));
        if count > 0 {
            ctx.passes.compute("six-way prepare", |pass| {
                pass.set_bind_group(0, inputs, &[]);
                pass.set_bind_group(3, sky, &[]);
                g.prepare.dispatch(pass, &bound.prepare_group, count);
            });
        }
        match &lists {
            Some(lists) => ctx.passes.compute("six-way splat", |pass| {
                pass.set_bind_group(0, inputs, &[]);
                pass.set_bind_group(2, fog, &[]);
                pass.set_bind_group(3, sky, &[]);
                g.splat.dispatch(pass, &bound.splat_group, lists);
            }),
            None => {
                let pipeline = if ctx.view == VIEW_OVERDRAW { &g.overdraw } else { &g.cards };
                let clear = wgpu::Color { r: 0.0, g: 0.0, b: 0.0, a: 1.0 };
                let attachment = wgpu::RenderPassColorAttachment {
                    view: &bound.layer.view,
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
                };
                ctx.passes.render("six-way cards", &[Some(attachment)], None, |pass| {
                    if count > 0 {
                        pass.set_pipeline(pipeline);
                        pass.set_bind_group(0, inputs, &[]);
                        pass.set_bind_group(1, &bound.cards_group, &[]);
                        pass.set_bind_group(2, fog, &[]);
                        pass.set_bind_group(3, sky, &[]);
                        pass.set_vertex_buffer(0, g.instances.slice(..));
                        pass.draw(0..6, 0..count);
                    }
                });
            }
        }
        let [w, h] = size;
        let output = ctx.output;
        ctx.passes.compute("six-way composite", |pass| {
            pass.set_pipeline(&g.composite);
            pass.set_bind_group(0, inputs, &[]);
            pass.set_bind_group(1, output, &[]);
            pass.set_bind_group(2, &bound.composite_group, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }

    fn book(&self) -> Book {
        Book {
            warmup_frames: 2,
            // The particles and the animation's clock move in `update` alone.
            warmup_steps_only: true,
            test_settings: vec!["bake_grid=32", "bake_frames=16", "bake_frame_size=48", "bake_warmup_steps=40"],
            #[cfg(feature = "book")]
            plots: crate::validation::plots,
            figures: figures(),
            ..Default::default()
        }
    }
}

/// The camera as the frame uniform gives it.
fn eye_of(u: &fogbook_core::frame::FrameUniform) -> Eye {
    let v3 = |a: [f32; 4]| Vec3::new(a[0], a[1], a[2]);
    Eye {
        position: v3(u.camera_pos),
        forward: v3(u.cam_forward).normalize_or(Vec3::NEG_Z),
        right: v3(u.cam_right).normalize_or(Vec3::X),
        up: v3(u.cam_up).normalize_or(Vec3::Y),
    }
}

// ANCHOR: figures
/// The book's figures beyond one per view: the sun behind the cards and low, the linear
/// weights, the soft particles switched off, and a flipbook with emission (a smaller bake).
fn figures() -> Vec<fogbook_core::Figure> {
    use fogbook_core::Figure;
    let small = ["bake_grid=32", "bake_frames=16", "bake_frame_size=64", "bake_warmup_steps=60"];
    vec![
        Figure::new("sun-behind", "final", &["scene.sun_azimuth_deg=170", "scene.sun_elevation_deg=15"], None),
        Figure::new(
            "weighting-linear",
            "final",
            &["weighting=linear", "scene.sun_azimuth_deg=-45", "scene.sun_elevation_deg=35"],
            None,
        ),
        Figure::new("weighting-squared", "final", &["scene.sun_azimuth_deg=-45", "scene.sun_elevation_deg=35"], None),
        Figure::new("hard-edges", "final", &["depth_fade_m=0", "edge_softness=0"], Some("0,1.5,0,0,-8")),
        Figure::new("soft-edges", "final", &[], Some("0,1.5,0,0,-8")),
        Figure::new(
            "emission",
            "final",
            &[small.as_slice(), &["bake_emission=true", "scene.sun_elevation_deg=2"]].concat(),
            None,
        ),
    ]
}
// ANCHOR_END: figures
