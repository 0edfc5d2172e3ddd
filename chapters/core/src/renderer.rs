//! One frame, the same in the window and headless, in the order of `stage::Stage`:
//! frame uniform → prepare (every chapter's update and light_scene) → shadow map and scene (in
//! the shadow of a published volume) →
//! each chapter's colour stage, chained → display.

use crate::auto_range::RangeReadback;
use crate::camera::CameraPose;
use crate::chapter::{ChapterContext, DynChapter, Publish, UpdateContext};
use crate::display::{DisplayPass, DisplaySettings};
use crate::fog_volume_casters::FogCasters;
use crate::fog_volume_density::{DensityTexture, MAX_DENSITY_TEXTURES};
use crate::fog_volume_textures::DensityTextureSlots;
use crate::fog_volumes::{FogVolume, MAX_FOG_VOLUMES};
use crate::frame::{FrameResources, FrameUniform};
use crate::gpu::GpuContext;
use crate::history::{FrameHistory, HistoryKey, jitter, jitter_depth};
use crate::params::DynParameters;
use crate::scene::TestScene;
use crate::scene_settings::SceneSettings;
use crate::shaders::ShaderStore;
use crate::stack::{Stack, StackView};
use crate::stage::Stage;
use crate::time::TimeControl;
use crate::timing::{GpuTimer, PassRecorder, PassTimes, TimingMode};
use crate::views::ViewKind;
use std::sync::Arc;

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
    /// This frame's local fog volumes, as the stack published them, and their density grids.
    fog_volumes: Vec<FogVolume>,
    fog_textures: Vec<Arc<DensityTexture>>,
    /// Their GPU copies and the baked noise, one set for the whole stack (`fog_volume_textures`).
    pub fog_density: DensityTextureSlots,
    /// Whether they shadow each other (`Publish::fog_volume_shadows`).
    fog_volume_shadows: bool,
    /// Their shadow casters, binned once for every chapter (`fog_volume_casters`).
    pub fog_casters: FogCasters,
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
            fog_volumes: Vec::new(),
            fog_textures: Vec::new(),
            fog_density: DensityTextureSlots::new(&gpu.device, shaders),
            fog_volume_shadows: false,
            fog_casters: FogCasters::new(&gpu.device),
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

    /// The shared-sky group: the tables a chapter of the stack publishes, else the stand-ins.
    pub fn shared_sky(frame: &FrameResources, stack: &Stack) -> wgpu::BindGroup {
        stack.chapters().iter().find_map(|c| c.shared_sky()).unwrap_or_else(|| frame.sky_stand_in.clone())
    }

    /// The transparent-fog group: what the fog chapters among `earlier` lend it (asked after
    /// their renders this frame), stand-ins for the rest.
    pub fn transparent_fog(
        gpu: &GpuContext,
        frame: &FrameResources,
        earlier: &[Box<dyn DynChapter>],
    ) -> wgpu::BindGroup {
        let parts = earlier.iter().filter_map(|c| c.transparent_fog());
        crate::transparent_fog::bind_group(
            &gpu.device,
            &frame.layouts.transparent_fog,
            &frame.transparent_fog_stand_ins,
            parts,
        )
    }

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
        self.fog_volumes.clear();
        self.fog_textures.clear();
        self.fog_volume_shadows = false;
        for chapter in stack.chapters_mut() {
            chapter.publish(&mut Publish {
                frame: &mut uniform,
                fog_volumes: &mut self.fog_volumes,
                fog_textures: &mut self.fog_textures,
                fog_volume_shadows: &mut self.fog_volume_shadows,
            });
        }
        self.fog_volumes.truncate(MAX_FOG_VOLUMES);
        // A volume whose slot is past the last texture reads an empty slot: density 0.
        self.fog_textures.truncate(MAX_DENSITY_TEXTURES);
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
        self.fog_density.update(gpu, &self.fog_textures, &self.fog_volumes);
        // Their shadow casters, binned for the frame's sun when something changed.
        self.fog_casters.update(gpu, &self.fog_volumes, uniform.sun_dir, self.fog_volume_shadows);
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

    /// Records and submits one frame into `output`. Returns per-pass times when the timing mode
    /// gives them at once (CPU split); timestamp times arrive through `self.timer`.
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
        let view_of = |i: usize| if i == shown.chapter { shown.view } else { 0 };
        let mut passes = PassRecorder::new(gpu, self.timer.as_mut(), self.timing);

        // ANCHOR: render_prepare
        // Prepare: simulations, lookup tables, the scene's light.
        if let Some(dt) = req.dt {
            for chapter in stack.chapters_mut() {
                chapter.update(&mut UpdateContext { gpu, passes: &mut passes, dt });
            }
        }
        // Each chapter's prepare sees the sky's tables as the chapters before it left them (the
        // clouds' shadow map needs the sky's planet).
        for i in 0..stack.len() {
            let sky = Self::shared_sky(&self.frame, stack);
            stack.chapter_mut(i).light_scene(&mut ChapterContext {
                gpu,
                frame: &self.frame,
                passes: &mut passes,
                inputs: &self.frame.scene_inputs,
                output: &self.frame.view_out,
                sky: &sky,
                cloud_shadow: &self.frame.cloud_shadow_stand_in,
                transparent_fog: &self.frame.transparent_fog_stand_in,
                view: view_of(i),
                time: req.time,
                scene: req.scene,
                fog_volumes: &self.fog_volumes,
                fog_textures: &self.fog_textures,
                fog_density: &self.fog_density,
                fog_casters: &self.fog_casters,
                uniform: &uniform,
            });
        }
        // ANCHOR_END: render_prepare

        // ANCHOR: render_scene
        // Scene, in the shadow of any medium and clouds the stack publishes one of.
        let volume_shadow = stack
            .chapters()
            .iter()
            .find_map(|c| c.volume_shadow())
            .unwrap_or_else(|| self.frame.volume_shadow_stand_in.clone());
        let cloud_shadow = stack
            .chapters()
            .iter()
            .find_map(|c| c.cloud_shadow())
            .unwrap_or_else(|| self.frame.cloud_shadow_stand_in.clone());
        self.scene.record(&mut passes, &self.frame, &volume_shadow, &cloud_shadow);
        let sky = Self::shared_sky(&self.frame, stack);
        // ANCHOR_END: render_scene

        // ANCHOR: render_stages
        // The colour stages, chained, up to the chapter whose view is shown. The transparent
        // stage gets the fog the stages before it left.
        let stages = shown.chapter + 1;
        let first_transparent =
            stack.chapters()[..stages].iter().position(|c| c.stage_io().stage == Stage::Transparent);
        let mut transparent_fog = self.frame.transparent_fog_stand_in.clone();
        for i in 0..stages {
            if Some(i) == first_transparent {
                transparent_fog = Self::transparent_fog(gpu, &self.frame, &stack.chapters()[..i]);
            }
            let (inputs, output) = self.frame.chain_groups(i, stages);
            stack.chapter_mut(i).render(&mut ChapterContext {
                gpu,
                frame: &self.frame,
                passes: &mut passes,
                inputs,
                output,
                sky: &sky,
                cloud_shadow: &cloud_shadow,
                transparent_fog: &transparent_fog,
                view: view_of(i),
                time: req.time,
                scene: req.scene,
                fog_volumes: &self.fog_volumes,
                fog_textures: &self.fog_textures,
                fog_density: &self.fog_density,
                fog_casters: &self.fog_casters,
                uniform: &uniform,
            });
        }

        // Display.
        self.display.record(gpu, &mut passes, &display, output);
        let times = passes.submit();
        // ANCHOR_END: render_stages
        if matches!(display.kind, ViewKind::Scalar { auto: true, .. }) {
            self.auto_range.request(gpu, &self.frame.view_range);
        }
        times
    }
}
