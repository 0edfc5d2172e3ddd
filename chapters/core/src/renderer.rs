//! One frame, the same in the window and headless, run from the stack's plan
//! (`stage::frame_plan`): frame uniform and what chapters publish → prepare (every chapter's
//! update, then each one's light_scene and loans) → shadow map and scene (in the shadow of a
//! lent volume and clouds) → each chapter's colour stage, chained, and its loans → display.

use crate::auto_range::RangeReadback;
use crate::camera::CameraPose;
use crate::chapter::{ChapterContext, DynChapter, Publish, PublishedMedia, StackMedia, UpdateContext};
use crate::display::{DisplayPass, DisplaySettings};
use crate::frame::{FrameResources, FrameUniform};
use crate::gpu::GpuContext;
use crate::history::{FrameHistory, HistoryKey, jitter, jitter_depth};
use crate::lend::{LENT_ON_GPU, LendTime, Lending, Observed};
use crate::media::casters::FogCasters;
use crate::media::density::MAX_DENSITY_TEXTURES;
use crate::media::textures::DensityTextureSlots;
use crate::media::volumes::MAX_FOG_VOLUMES;
use crate::params::DynParameters;
use crate::scene::TestScene;
use crate::scene_settings::SceneSettings;
use crate::shaders::ShaderStore;
use crate::stack::{Stack, StackView};
use crate::stage::{Resource, Stage};
use crate::time::TimeControl;
use crate::timing::{GpuTimer, PassRecorder, PassTimes, TimingMode};
use crate::views::ViewKind;
use std::collections::BTreeSet;

/// What to draw this frame.
pub struct FrameRequest<'a> {
    pub camera: &'a CameraPose,
    pub scene: &'a SceneSettings,
    pub time: &'a TimeControl,
    /// Simulation step to apply before rendering (`None`: time stands still).
    pub dt: Option<f32>,
    pub view: StackView,
    pub legend: bool,
    /// The camera jumped (a preset was loaded, the camera reset): history is invalid.
    pub camera_cut: bool,
    /// The frame is shown live, in the viewer: chapters may pace progressive work over frames
    /// (`ChapterContext::paced`). False for figures, tests and renders, whose frames are whole.
    pub paced: bool,
}

pub struct Renderer {
    pub frame: FrameResources,
    pub scene: TestScene,
    pub display: DisplayPass,
    pub timer: Option<GpuTimer>,
    pub timing: TimingMode,
    /// Read-back of auto-ranged views' min / max, for the legend's numbers.
    pub auto_range: RangeReadback,
    /// Dither colour views for 8-bit output (see `DisplaySettings::dither`).
    pub dither: bool,
    /// Last frame's matrices and what invalidates history.
    pub history: FrameHistory,
    /// The frame size the chapters' `resize` hooks were last called with.
    chapters_sized_for: Option<[u32; 2]>,
    /// This frame's local fog volumes as the stack published them, their density grids, and
    /// whether they shadow each other.
    media: PublishedMedia,
    /// Their GPU copies and the baked noise, one set for the whole stack (`media::textures`).
    pub fog_density: DensityTextureSlots,
    /// Their shadow casters, binned once for every chapter (`media::casters`).
    pub fog_casters: FogCasters,
    /// What each chapter published before the last frame (by stack index).
    published: Vec<BTreeSet<Resource>>,
    /// What each chapter of the stack lent and looked up in the last frame, in stage order.
    pub observed: Vec<Observed>,
}

impl Renderer {
    pub fn new(
        gpu: &GpuContext,
        shaders: &ShaderStore,
        size: [u32; 2],
        output_format: wgpu::TextureFormat,
    ) -> anyhow::Result<Self> {
        let frame = FrameResources::new(gpu, size);
        let scene = TestScene::new(gpu, &frame, shaders)?;
        let display = DisplayPass::new(gpu, &frame, shaders, output_format)?;
        let auto_range = RangeReadback::new(gpu);
        Ok(Self {
            frame,
            scene,
            display,
            timer: GpuTimer::new(gpu),
            timing: TimingMode::Off,
            auto_range,
            dither: true,
            history: FrameHistory::default(),
            chapters_sized_for: None,
            media: PublishedMedia::default(),
            fog_density: DensityTextureSlots::new(&gpu.device, shaders),
            fog_casters: FogCasters::new(&gpu.device),
            published: Vec::new(),
            observed: Vec::new(),
        })
    }

    pub fn resize(&mut self, gpu: &GpuContext, size: [u32; 2]) {
        if size == self.frame.size {
            return;
        }
        self.frame.resize(gpu, size);
        self.scene.rebind(gpu, &self.frame);
        self.display.rebind(gpu, &self.frame);
    }

    // ANCHOR: reload
    /// Rebuilds the core's pipelines and every chapter's. Nothing changes where a build fails;
    /// every chapter is tried, and the first error is returned.
    pub fn reload_shaders(&mut self, gpu: &GpuContext, shaders: &ShaderStore, stack: &mut Stack) -> anyhow::Result<()> {
        self.history.note_reload();
        self.scene.reload(gpu, shaders)?;
        self.display.reload(gpu, shaders)?;
        let mut first_error = None;
        for chapter in stack.chapters_mut() {
            if let Err(e) = chapter.create_gpu(gpu, &self.frame.layouts, shaders) {
                first_error.get_or_insert(e.context(format!("chapter {}", chapter.info().id)));
            }
        }
        first_error.map_or(Ok(()), Err)
    }
    // ANCHOR_END: reload

    // ANCHOR: display_settings
    /// How the chapter's `view` is displayed (with the chapter's range override).
    pub fn display_settings(
        chapter: &mut dyn DynChapter,
        view: usize,
        scene: &SceneSettings,
        legend: bool,
    ) -> DisplaySettings {
        let info = chapter.views()[view];
        let range = match info.kind {
            ViewKind::Scalar { min, max, .. } => chapter.view_range(view).unwrap_or((min, max)),
            ViewKind::Color => (0.0, 1.0),
        };
        DisplaySettings { kind: info.kind, range, exposure_ev: scene.exposure_ev, legend, dither: true }
    }
    // ANCHOR_END: display_settings

    /// The frame uniform for this request, with the history data of this frame.
    fn frame_uniform(&mut self, stack: &mut Stack, req: &FrameRequest) -> FrameUniform {
        let mut uniform = FrameUniform::new(req.camera, req.scene, self.frame.size, req.time.time, req.time.frame);
        // Parameters change from the panel, `--set`, presets and tests, and none of them reports
        // it; comparing their RON (a few kB, a fraction of a millisecond of CPU) each frame is
        // the one place that sees every change.
        let mut settings = stack.settings_key();
        settings.push_str(&req.scene.to_ron());
        let key = HistoryKey { size: self.frame.size, settings };
        let view_proj = glam::Mat4::from_cols_array_2d(&uniform.view_proj);
        let history = self.history.advance(key, req.camera, req.camera_cut, view_proj);
        uniform.prev_view_proj = history.prev_view_proj.to_cols_array_2d();
        uniform.jitter_px = jitter(req.time.frame);
        uniform.jitter_depth = jitter_depth(req.time.frame);
        uniform.history_valid = u32::from(history.valid);
        uniform.history_epoch = history.epoch;
        self.media = PublishedMedia::default();
        self.published.clear();
        for chapter in stack.chapters_mut() {
            let mut out = Publish { frame: &mut uniform, media: &mut self.media, wrote: BTreeSet::new() };
            chapter.publish(&mut out);
            self.published.push(out.wrote);
        }
        self.media.volumes.truncate(MAX_FOG_VOLUMES);
        // A volume whose slot is past the last texture reads an empty slot: density 0.
        self.media.textures.truncate(MAX_DENSITY_TEXTURES);
        uniform
    }

    /// One simulation step of every chapter (`Chapter::update`) and nothing drawn: the warm-up
    /// before a figure, for chapters whose state evolves in `update` alone.
    pub fn simulate(&mut self, gpu: &GpuContext, stack: &mut Stack, dt: f32) {
        let mut passes = PassRecorder::new(gpu, self.timer.as_mut(), self.timing);
        for chapter in stack.chapters_mut() {
            chapter.update(&mut UpdateContext { gpu, passes: &mut passes, dt });
        }
        passes.submit();
    }

    /// Writes the frame's uniform, brings the fog volumes' textures and casters up to date and
    /// tells the chapters of a new frame size; returns the uniform.
    fn begin_frame(&mut self, gpu: &GpuContext, stack: &mut Stack, req: &FrameRequest) -> FrameUniform {
        let uniform = self.frame_uniform(stack, req);
        self.frame.write_uniform(gpu, &uniform);
        // The volumes' density grids and noise, uploaded or baked once for every chapter.
        self.fog_density.update(gpu, &self.media.textures, &self.media.volumes);
        // Their shadow casters, binned for the frame's sun when something changed.
        self.fog_casters.update(gpu, &self.media.volumes, uniform.sun_dir, self.media.shadows);
        self.frame.reset_view_range(gpu);
        // Chapters hear of a new frame size once, before their first frame at it.
        if self.chapters_sized_for != Some(self.frame.size) {
            for chapter in stack.chapters_mut() {
                chapter.resize(gpu, self.frame.size);
            }
            self.chapters_sized_for = Some(self.frame.size);
        }
        uniform
    }

    /// Records and submits one frame into `output`, pass by pass as the stack's plan orders
    /// them (`Stack::plan`). Returns per-pass times when the timing mode gives them at once (CPU
    /// split); timestamp times arrive through `self.timer`.
    pub fn render(
        &mut self,
        gpu: &GpuContext,
        stack: &mut Stack,
        req: &FrameRequest,
        output: &wgpu::TextureView,
    ) -> Option<PassTimes> {
        let uniform = self.begin_frame(gpu, stack, req);
        let shown = req.view;
        let display = DisplaySettings {
            dither: self.dither,
            ..Self::display_settings(stack.chapter_mut(shown.chapter), shown.view, req.scene, req.legend)
        };
        let plan = stack.plan();
        let made_in_stack = stack.chapters().iter().flat_map(|c| c.stage_io().writes.iter().copied()).collect();
        let frame = &self.frame;
        let mut lending = Lending::new(&gpu.device, frame, stack.len(), made_in_stack);
        for (i, wrote) in self.published.iter().enumerate() {
            wrote.iter().for_each(|&kind| lending.note_published(i, kind));
        }
        let media = StackMedia {
            volumes: &self.media.volumes,
            textures: &self.media.textures,
            density: &self.fog_density,
            casters: &self.fog_casters,
        };
        let mut passes = PassRecorder::new(gpu, self.timer.as_mut(), self.timing);
        let mut run = PlanRun { gpu, frame, req, uniform: &uniform, media, shown };

        // ANCHOR: render_plan
        // Prepare: every simulation's step first, then each chapter's prepare in plan order.
        if let Some(dt) = req.dt {
            for pass in plan.iter().filter(|p| p.stage == Stage::Prepare) {
                if let Some(i) = stack.position(pass.by) {
                    stack.chapter_mut(i).update(&mut UpdateContext { gpu, passes: &mut passes, dt });
                }
            }
        }
        for pass in &plan {
            let index = stack.position(pass.by);
            match (pass.stage, index) {
                (Stage::Scene, _) => {
                    // The scene, in the shadow of any medium and clouds a chapter lends.
                    let volume_shadow = lending.group(Resource::VolumeShadow, None);
                    let cloud_shadow = lending.group(Resource::CloudShadow, None);
                    self.scene.record(&mut passes, frame, volume_shadow, cloud_shadow);
                }
                (Stage::Display, _) => self.display.record(gpu, &mut passes, &display, output),
                (Stage::Prepare, Some(i)) => run.prepare(stack.chapter_mut(i), i, &mut lending, &mut passes),
                // The colour stages, chained, up to the chapter whose view is shown.
                (_, Some(i)) if i <= shown.chapter => {
                    run.colour_stage(stack.chapter_mut(i), i, &mut lending, &mut passes);
                }
                _ => {}
            }
        }
        // ANCHOR_END: render_plan
        self.observed = lending.into_observed();
        let times = passes.submit();
        if matches!(display.kind, ViewKind::Scalar { auto: true, .. }) {
            self.auto_range.request(gpu, &self.frame.view_range);
        }
        times
    }
}

/// What every chapter pass of one frame shares, for running the plan.
struct PlanRun<'a> {
    gpu: &'a GpuContext,
    frame: &'a FrameResources,
    req: &'a FrameRequest<'a>,
    uniform: &'a FrameUniform,
    media: StackMedia<'a>,
    shown: StackView,
}

impl<'a> PlanRun<'a> {
    fn context<'c, 'r>(
        &self,
        lending: &'c Lending<'a>,
        passes: &'c mut PassRecorder<'r>,
        i: usize,
        (inputs, output): (&'c wgpu::BindGroup, &'c wgpu::BindGroup),
    ) -> ChapterContext<'c, 'r>
    where
        'a: 'c,
    {
        ChapterContext {
            gpu: self.gpu,
            frame: self.frame,
            passes,
            inputs,
            output,
            view: if i == self.shown.chapter { self.shown.view } else { 0 },
            time: self.req.time,
            scene: self.req.scene,
            uniform: self.uniform,
            paced: self.req.paced,
            lending,
            index: i,
            media: self.media,
        }
    }

    /// Chapter `i`'s prepare, then what it lends after it.
    fn prepare(
        &mut self,
        chapter: &mut dyn DynChapter,
        i: usize,
        lending: &mut Lending<'a>,
        passes: &mut PassRecorder,
    ) {
        let groups = (&self.frame.scene_inputs, &self.frame.view_out);
        chapter.light_scene(&mut self.context(lending, passes, i, groups));
        self.lend(chapter, i, LendTime::AfterPrepare, lending, passes);
    }

    /// Chapter `i`'s colour stage, reading the colour the stage before left, then its loans.
    fn colour_stage(
        &mut self,
        chapter: &mut dyn DynChapter,
        i: usize,
        lending: &mut Lending<'a>,
        passes: &mut PassRecorder,
    ) {
        let groups = self.frame.chain_groups(i, self.shown.chapter + 1);
        chapter.render(&mut self.context(lending, passes, i, groups));
        self.lend(chapter, i, LendTime::AfterStage, lending, passes);
    }

    fn lend(
        &self,
        chapter: &dyn DynChapter,
        i: usize,
        time: LendTime,
        lending: &mut Lending<'a>,
        passes: &mut PassRecorder,
    ) {
        for (kind, _) in LENT_ON_GPU.into_iter().filter(|&(_, t)| t == time) {
            if let Some(loan) = chapter.lend(kind) {
                lending.take(i, kind, loan, passes.encoder());
            }
        }
    }
}
