//! The contract every chapter implements, in the shape of wgpu's example framework: describe
//! yourself, say what the device must offer, create GPU resources, advance time, render a view.

use crate::frame::{FrameLayouts, FrameResources, FrameUniform};
use crate::gpu::{GpuContext, Requirements};
use crate::lend::{Lending, Loan};
use crate::media::casters::FogCasters;
use crate::media::density::DensityTexture;
use crate::media::textures::DensityTextureSlots;
use crate::media::volumes::FogVolume;
use crate::params::DynParameters;
use crate::scene_settings::SceneSettings;
use crate::shaders::{ShaderStore, WgslConst, view_constants};
use crate::stage::{Resource, StageIo};
use crate::time::TimeControl;
use crate::timing::{PassRecorder, PassTimes};
use crate::transparent_fog::FogPart;
use crate::views::{SnapshotTolerance, ViewInfo};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A chapter's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChapterInfo {
    /// CLI name (kebab-case): the name of the chapter's folder without its number.
    pub id: &'static str,
    /// The book's chapter number.
    pub number: u32,
    pub title: &'static str,
    /// One sentence for `list` and the side panel.
    pub summary: &'static str,
}

/// What a chapter's `light_scene` and `render` may use. Shared resources are looked up by kind
/// (`group`, `media`), which the core notes (see `lend`).
pub struct ChapterContext<'a, 'r> {
    pub gpu: &'a GpuContext,
    pub frame: &'a FrameResources,
    pub passes: &'a mut PassRecorder<'r>,
    /// Group 0 for this stage: the frame uniform, the colour the previous stage left (the
    /// scene's for the first), scene distance, shadow map.
    pub inputs: &'a wgpu::BindGroup,
    /// Group 1 for this stage: the colour (or debug-view) target it writes, and the range buffer.
    pub output: &'a wgpu::BindGroup,
    /// Index into `Chapter::views()` of the view to write: 0 (the chapter's final colour)
    /// unless this chapter's debug view is the one shown.
    pub view: usize,
    pub time: &'a TimeControl,
    /// The shared scene's settings (sun, ambient sky, exposure) this frame.
    pub scene: &'a SceneSettings,
    /// The frame uniform as the GPU has it this frame (the camera, for binning on the CPU).
    pub uniform: &'a crate::frame::FrameUniform,
    /// The frame is shown live (`FrameRequest::paced`): progressive work may be spread over
    /// frames to keep each within a GPU time budget. False for headless frames, each done whole.
    pub paced: bool,
    /// The frame's loans, and this chapter's index in the stack (for the notes).
    pub(crate) lending: &'a Lending<'a>,
    pub(crate) index: usize,
    pub(crate) media: StackMedia<'a>,
}

/// The local fog volumes of a stack this frame, with everything the core keeps for them.
#[derive(Clone, Copy)]
pub struct StackMedia<'a> {
    /// The volumes the stack published (at most `MAX_FOG_VOLUMES`).
    pub volumes: &'a [FogVolume],
    /// Their density grids (at most `MAX_DENSITY_TEXTURES`), indexed by a volume's slot.
    pub textures: &'a [Arc<DensityTexture>],
    /// Their GPU copies and the baked noise, shared by the stack (made current before prepare).
    pub density: &'a DensityTextureSlots,
    /// Per volume, the bit mask of the volumes that may shadow it, binned once a frame for the
    /// whole stack (`FogCasters::buffer`; all zero unless a publisher asks for volume shadows),
    /// and their generation, which changes with the volumes, the sun's direction or the switch.
    pub casters: &'a FogCasters,
}

impl<'a> ChapterContext<'a, '_> {
    // ANCHOR: look_up
    /// The bind group of a shared resource (`SkyTables`, `CloudShadow`, `VolumeShadow`,
    /// `TransparentFog`) as the chapters before this pass lent it, or its stand-in.
    pub fn group(&self, kind: Resource) -> &'a wgpu::BindGroup {
        self.lending.group(kind, Some(self.index))
    }

    /// The fogs' parts of the fog-at-depth group as the stages before this one lent them
    /// (`Resource::TransparentFog`), for a pass that binds the fogs' parameters in a group of its
    /// own; a fog absent from the stack has no part.
    pub fn fog_parts(&self) -> &'a [FogPart] {
        self.lending.fog_parts(Some(self.index))
    }

    /// The point media's resources as the stages before this one lent them
    /// (`Resource::PointMedia`), by binding of group 2; a medium absent from the stack has none.
    pub fn point_media(&self) -> &'a std::collections::BTreeMap<u32, crate::media::point::LentBinding> {
        self.lending.point_media(Some(self.index))
    }

    /// The stack's local fog volumes (`Resource::FogVolumes`).
    pub fn media(&self) -> StackMedia<'a> {
        self.lending.note_look_up(Resource::FogVolumes, Some(self.index), true);
        self.media
    }
    // ANCHOR_END: look_up
}

// ANCHOR: publish
/// What a chapter lends the other chapters of its stack for the whole frame
/// (`Chapter::publish`), before any GPU work: the handover's fields of the frame uniform, and
/// local fog volumes for chapters that inject them. Each accessor notes what it hands out.
pub struct Publish<'a> {
    pub(crate) frame: &'a mut FrameUniform,
    pub(crate) media: &'a mut PublishedMedia,
    /// The kinds this chapter wrote.
    pub(crate) wrote: BTreeSet<Resource>,
}

/// The handover (`Resource::Handover`): fields of the frame uniform one chapter fills for others.
pub struct Handover<'a> {
    /// The global medium's height layers (`FrameUniform::height_layers`).
    pub height_layers: &'a mut [[f32; 4]; 2],
    /// Where a volumetric grid over the view ends (`FrameUniform::volumetric_far_m`).
    pub volumetric_far_m: &'a mut f32,
}
// ANCHOR_END: publish

/// The stack's local fog volumes as the publishers build them (`Resource::FogVolumes`).
#[derive(Default)]
pub struct PublishedMedia {
    pub volumes: Vec<FogVolume>,
    /// Density grids of the volumes whose source is a file: a publisher pushes its grids and
    /// writes into each such volume the index its grid got here (`FogVolume::texture[1]`).
    pub textures: Vec<Arc<DensityTexture>>,
    /// Whether the volumes shadow each other's sun light (`media::casters`): false unless a
    /// publisher says so.
    pub shadows: bool,
}

impl Publish<'_> {
    /// The frame's time (s).
    pub fn time_s(&self) -> f32 {
        self.frame.time_s
    }

    pub fn handover(&mut self) -> Handover<'_> {
        self.wrote.insert(Resource::Handover);
        Handover { height_layers: &mut self.frame.height_layers, volumetric_far_m: &mut self.frame.volumetric_far_m }
    }

    pub fn media(&mut self) -> &mut PublishedMedia {
        self.wrote.insert(Resource::FogVolumes);
        self.media
    }
}

/// What a chapter's `update` may use (simulation steps record GPU passes too).
pub struct UpdateContext<'a, 'r> {
    pub gpu: &'a GpuContext,
    pub passes: &'a mut PassRecorder<'r>,
    /// Simulated seconds to advance.
    pub dt: f32,
}

// ANCHOR: book
/// How the tests and the book use a chapter, apart from its runtime methods.
#[derive(Clone, Debug)]
pub struct Book {
    /// Frames to advance before a figure is captured (a simulation needs time to develop).
    pub warmup_frames: u32,
    /// The chapter's state evolves in `update` alone (a simulation step) or not at all, so the
    /// frames before a figure's last may step without drawing, and several views of one state
    /// may be drawn from it. False for anything that accumulates while it draws (a history).
    pub warmup_steps_only: bool,
    /// Settings the snapshot tests add, to stay fast on a software driver (e.g. a coarser grid).
    pub test_settings: Vec<&'static str>,
    /// Frames the snapshot tests advance. A simulation's state must agree across GPUs, and small
    /// differences (texture-filtering precision, rounding) grow with every step.
    pub test_frames: u32,
    /// How much the snapshot images may differ between GPUs (see `SnapshotTolerance`).
    pub snapshot_tolerance: SnapshotTolerance,
    /// Settings of the book's one image per view (empty: the defaults). A chapter whose
    /// defaults are production settings can show its debug views on the simpler case its page
    /// teaches them with.
    pub view_settings: Vec<&'static str>,
    /// Extra figures for the book, beyond one image per view.
    pub figures: Vec<Figure>,
    /// Plots for the book as (file stem, SVG text), computed from the CPU reference when called.
    pub plots: fn() -> Vec<(&'static str, String)>,
}
// ANCHOR_END: book

impl Default for Book {
    fn default() -> Self {
        Self {
            warmup_frames: 1,
            warmup_steps_only: false,
            test_settings: Vec::new(),
            test_frames: 1,
            snapshot_tolerance: SnapshotTolerance::default(),
            view_settings: Vec::new(),
            figures: Vec::new(),
            plots: Vec::new,
        }
    }
}

/// A named figure for the book: a view rendered with some parameters changed.
#[derive(Clone, Debug)]
pub struct Figure {
    pub name: &'static str,
    pub view: &'static str,
    /// `name=value` settings applied on top of the defaults (`scene.` prefix for the scene).
    pub settings: Vec<&'static str>,
    /// Camera override as `x,y,z,yaw,pitch[,fov]`.
    pub camera: Option<&'static str>,
    /// Other chapters rendered in the same frame (a stack); `settings` may then name their
    /// parameters as `chapter.name=value`.
    pub with: Vec<&'static str>,
    /// `Some(k)`: the figure continues from the previous figure's frame (the chapter's views
    /// before the first figure) with its own settings and camera, `k` more steps on (0: the same
    /// state, shown again), instead of running the simulation anew from the start. With `k = 0`
    /// it is for settings that change how the state is shown, not the state, and rendered from
    /// scratch it is the same image; with `k > 0` it shows what its settings do to the previous
    /// figure's state.
    pub continues: Option<u32>,
}

impl Figure {
    pub fn new(
        name: &'static str,
        view: &'static str,
        settings: &[&'static str],
        camera: Option<&'static str>,
    ) -> Self {
        Self { name, view, settings: settings.to_vec(), camera, with: Vec::new(), continues: None }
    }

    /// The same figure, shown from the previous figure's frame (see `continues`).
    pub fn continuing(self) -> Self {
        self.continuing_for(0)
    }

    /// The same figure, `steps` steps on from the previous figure's frame (see `continues`).
    pub fn continuing_for(mut self, steps: u32) -> Self {
        self.continues = Some(steps);
        self
    }

    /// The same figure with `chapters` stacked in.
    pub fn with(mut self, chapters: &[&'static str]) -> Self {
        self.with = chapters.to_vec();
        self
    }
}

// ANCHOR: chapter
/// What a chapter implements. Its GPU state is a type of its own, created whole or not at all:
/// `create_gpu` returns it or an error, and every method that records GPU work receives it, so
/// no chapter keeps an `Option` or returns silently for want of one. The core holds a chapter
/// and its state together in a [`Loaded`].
// `WasmNotSend`: `Send` on the desktop; in a browser wgpu's handles are not `Send`, and need not be.
pub trait Chapter: wgpu::WasmNotSend + 'static {
    /// Pipelines, bind groups, textures, simulation fields: everything on the GPU.
    type Gpu: wgpu::WasmNotSend;

    fn info(&self) -> ChapterInfo;

    /// Where the chapter's colour pass runs in the frame and which shared resources it reads
    /// and writes (see `stage::RESOURCE_TABLE`).
    fn stage_io(&self) -> StageIo;

    /// Device features and limits beyond wgpu's defaults.
    fn requirements(&self) -> Requirements {
        Requirements::default()
    }

    fn params(&mut self) -> &mut dyn DynParameters;

    /// Every debug view; index 0 is the final image.
    fn views(&self) -> &'static [ViewInfo];

    /// A range that depends on the parameters (e.g. distance up to the fog's end), overriding
    /// the view's static one for display.
    fn view_range(&mut self, _view: usize) -> Option<(f32, f32)> {
        None
    }

    /// Shader files (relative to `shaders/`) this chapter compiles; hot reload watches them.
    fn shader_files(&self) -> &'static [&'static str];

    /// Constants the chapter's shaders take from its Rust code, written ahead of each of them
    /// when they compose (with a `VIEW_*` for each of `views`, which the core adds itself).
    fn shader_constants(&self) -> Vec<WgslConst> {
        Vec::new()
    }

    /// Creates every GPU resource and pipeline: at start, and again on a shader reload, when
    /// the state in use is only replaced if this succeeds.
    fn create_gpu(
        &mut self,
        gpu: &GpuContext,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
    ) -> anyhow::Result<Self::Gpu>;

    /// After a reload succeeded: moves what must survive it (a simulation's fields) from the
    /// state being replaced into the new one.
    fn carry_over(&mut self, _old: Self::Gpu, _new: &mut Self::Gpu) {}

    // ANCHOR: lend
    /// What this chapter lends its stack of `kind` (one of `lend::LENT_ON_GPU`), as its passes
    /// so far this frame left it; `None` for what it does not make. Asked at the kind's time,
    /// after the chapter's prepare or its stage (see `lend`); a later loan of a kind replaces an
    /// earlier one.
    fn lend(&self, _state: &Self::Gpu, _kind: Resource) -> Option<Loan> {
        None
    }
    // ANCHOR_END: lend

    /// The frame was resized (called before the first frame at the new size). Chapters with
    /// per-pixel resources of their own re-create them here.
    fn resize(&mut self, _state: &mut Self::Gpu, _gpu: &GpuContext, _size: [u32; 2]) {}

    /// Advances the chapter's own simulation, if it has one.
    fn update(&mut self, _state: &mut Self::Gpu, _ctx: &mut UpdateContext) {}

    /// Puts a simulation back to its initial state (the viewer's R key).
    fn reset(&mut self, _state: &mut Self::Gpu, _gpu: &GpuContext) {}

    /// What the chapter could not do of what it was asked (a file it cannot read, a grid too
    /// large for the device), with what it kept instead. The viewer shows it and carries on with
    /// the state kept; a command-line run fails with it.
    fn refusal(&self) -> Option<String> {
        None
    }

    /// A message for the user about the chapter's state: its refusal, or a note.
    fn status(&self) -> Option<String> {
        self.refusal()
    }

    /// The GPU times of an earlier frame's passes, as timestamp queries deliver them, some frames
    /// late (`Stack::pass_times`; never CPU timings). A chapter that paces its work
    /// (`ChapterContext::paced`) reads its own passes' here, with the work they noted.
    fn pass_times(&mut self, _times: &PassTimes) {}

    /// Before the frame's GPU work: what this chapter lends the others of its stack for the whole
    /// frame, the handover and the fog-volume list (see [`Publish`]).
    fn publish(&mut self, _out: &mut Publish) {}

    /// Runs in the prepare stage, before the core renders the scene; a chapter may replace the
    /// scene's lighting here (e.g. sun and sky light from an atmosphere) by writing the frame
    /// uniform.
    fn light_scene(&mut self, _state: &mut Self::Gpu, _ctx: &mut ChapterContext) {}

    /// Runs in the chapter's stage: reads the colour so far through `ctx.inputs` and writes its
    /// final colour, or the selected debug view, through `ctx.output`.
    fn render(&mut self, state: &mut Self::Gpu, ctx: &mut ChapterContext);

    /// What the tests and the book do with the chapter (frames, tolerances, figures, plots).
    fn book(&self) -> Book {
        Book::default()
    }
}
// ANCHOR_END: chapter

/// A chapter together with its GPU state, which exists once `create_gpu` has succeeded.
pub struct Loaded<C: Chapter> {
    pub chapter: C,
    pub gpu: Option<C::Gpu>,
}

impl<C: Chapter> Loaded<C> {
    pub fn new(chapter: C) -> Self {
        Self { chapter, gpu: None }
    }

    /// The chapter and its GPU state, or an error before `create_gpu` succeeded.
    pub fn parts(&mut self) -> anyhow::Result<(&mut C, &mut C::Gpu)> {
        match &mut self.gpu {
            Some(state) => Ok((&mut self.chapter, state)),
            None => anyhow::bail!("chapter {}: no GPU state yet (create_gpu has not run)", self.chapter.info().id),
        }
    }
}

// ANCHOR: dyn_chapter
/// The object-safe face of a [`Loaded`] chapter, which stacks, the renderer and the app hold as
/// `Box<dyn DynChapter>`. Before `create_gpu` has succeeded its GPU methods do nothing: the core
/// creates every chapter of a stack before its first frame, so that happens to no drawn frame.
pub trait DynChapter: wgpu::WasmNotSend {
    fn info(&self) -> ChapterInfo;
    fn stage_io(&self) -> StageIo;
    fn requirements(&self) -> Requirements;
    fn params(&mut self) -> &mut dyn DynParameters;
    fn views(&self) -> &'static [ViewInfo];
    fn view_range(&mut self, view: usize) -> Option<(f32, f32)>;
    fn shader_files(&self) -> &'static [&'static str];
    /// Every constant the chapter's shaders compose with: a `VIEW_*` per view, then the
    /// chapter's `shader_constants`.
    fn shader_prelude(&self) -> Vec<WgslConst>;
    /// Creates the GPU state, or re-creates it (a reload): on error the old one stays in use.
    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> anyhow::Result<()>;
    fn lend(&self, kind: Resource) -> Option<Loan>;
    /// The concrete `Loaded<C>` behind the trait object, for tests that reach into a chapter
    /// of a stack (e.g. to upload a field before rendering).
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
    fn resize(&mut self, gpu: &GpuContext, size: [u32; 2]);
    fn update(&mut self, ctx: &mut UpdateContext);
    fn reset(&mut self, gpu: &GpuContext);
    fn refusal(&self) -> Option<String>;
    fn status(&self) -> Option<String>;
    fn pass_times(&mut self, times: &PassTimes);
    fn publish(&mut self, out: &mut Publish);
    fn light_scene(&mut self, ctx: &mut ChapterContext);
    fn render(&mut self, ctx: &mut ChapterContext);
    fn book(&self) -> Book;
}
// ANCHOR_END: dyn_chapter

impl<C: Chapter> DynChapter for Loaded<C> {
    fn info(&self) -> ChapterInfo {
        self.chapter.info()
    }
    fn stage_io(&self) -> StageIo {
        self.chapter.stage_io()
    }
    fn requirements(&self) -> Requirements {
        self.chapter.requirements()
    }
    fn params(&mut self) -> &mut dyn DynParameters {
        self.chapter.params()
    }
    fn views(&self) -> &'static [ViewInfo] {
        self.chapter.views()
    }
    fn view_range(&mut self, view: usize) -> Option<(f32, f32)> {
        self.chapter.view_range(view)
    }
    fn shader_files(&self) -> &'static [&'static str] {
        self.chapter.shader_files()
    }
    fn shader_prelude(&self) -> Vec<WgslConst> {
        let mut constants = view_constants(self.chapter.views());
        constants.extend(self.chapter.shader_constants());
        constants
    }
    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> anyhow::Result<()> {
        let shaders = shaders.with_constants(self.shader_prelude());
        let mut state = self.chapter.create_gpu(gpu, layouts, &shaders)?;
        if let Some(old) = self.gpu.take() {
            self.chapter.carry_over(old, &mut state);
        }
        self.gpu = Some(state);
        Ok(())
    }
    fn lend(&self, kind: Resource) -> Option<Loan> {
        self.chapter.lend(self.gpu.as_ref()?, kind)
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
    fn resize(&mut self, gpu: &GpuContext, size: [u32; 2]) {
        if let Ok((chapter, state)) = self.parts() {
            chapter.resize(state, gpu, size);
        }
    }
    fn update(&mut self, ctx: &mut UpdateContext) {
        if let Ok((chapter, state)) = self.parts() {
            chapter.update(state, ctx);
        }
    }
    fn reset(&mut self, gpu: &GpuContext) {
        if let Ok((chapter, state)) = self.parts() {
            chapter.reset(state, gpu);
        }
    }
    fn refusal(&self) -> Option<String> {
        self.chapter.refusal()
    }
    fn status(&self) -> Option<String> {
        self.chapter.status()
    }
    fn pass_times(&mut self, times: &PassTimes) {
        self.chapter.pass_times(times);
    }
    fn publish(&mut self, out: &mut Publish) {
        self.chapter.publish(out);
    }
    fn light_scene(&mut self, ctx: &mut ChapterContext) {
        if let Ok((chapter, state)) = self.parts() {
            chapter.light_scene(state, ctx);
        }
    }
    fn render(&mut self, ctx: &mut ChapterContext) {
        if let Ok((chapter, state)) = self.parts() {
            chapter.render(state, ctx);
        }
    }
    fn book(&self) -> Book {
        self.chapter.book()
    }
}
