//! One frame, the same in the window and headless:
//! frame uniform → shadow map → scene → chapter (writes the selected view) → display.

use crate::auto_range::RangeReadback;
use crate::camera::CameraPose;
use crate::chapter::{Chapter, ChapterContext, UpdateContext};
use crate::display::{DisplayPass, DisplaySettings};
use crate::frame::{FrameResources, FrameUniform};
use crate::gpu::GpuContext;
use crate::scene::TestScene;
use crate::scene_settings::SceneSettings;
use crate::shaders::ShaderStore;
use crate::time::TimeControl;
use crate::timing::{GpuTimer, PassRecorder, PassTimes, TimingMode};
use crate::views::ViewKind;

/// What to draw this frame.
pub struct FrameRequest<'a> {
    pub camera: &'a CameraPose,
    pub scene: &'a SceneSettings,
    pub time: &'a TimeControl,
    /// Simulation step to apply before rendering (`None`: time stands still).
    pub dt: Option<f32>,
    pub view: usize,
    pub legend: bool,
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
        Ok(Self { frame, scene, display, timer: GpuTimer::new(gpu), timing: TimingMode::Off, auto_range, dither: true })
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
    /// Rebuilds the core's pipelines and the chapter's. Nothing changes where a build fails.
    pub fn reload_shaders(
        &mut self,
        gpu: &GpuContext,
        shaders: &ShaderStore,
        chapter: &mut dyn Chapter,
    ) -> anyhow::Result<()> {
        self.scene.reload(gpu, shaders)?;
        self.display.reload(gpu, shaders)?;
        chapter.create_gpu(gpu, &self.frame.layouts, shaders)
    }
    // ANCHOR_END: reload

    // ANCHOR: display_settings
    /// How the chapter's `view` is displayed (with the chapter's range override).
    pub fn display_settings(
        chapter: &mut dyn Chapter,
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

    // ANCHOR: render
    /// Records and submits one frame into `output`. Returns per-pass times when the timing mode
    /// gives them at once (CPU split); timestamp times arrive through `self.timer`.
    pub fn render(
        &mut self,
        gpu: &GpuContext,
        chapter: &mut dyn Chapter,
        req: &FrameRequest,
        output: &wgpu::TextureView,
    ) -> Option<PassTimes> {
        let uniform = FrameUniform::new(req.camera, req.scene, self.frame.size, req.time.time, req.time.frame);
        self.frame.write_uniform(gpu, &uniform);
        self.frame.reset_view_range(gpu);
        let display =
            DisplaySettings { dither: self.dither, ..Self::display_settings(chapter, req.view, req.scene, req.legend) };
        let mut passes = PassRecorder::new(gpu, self.timer.as_mut(), self.timing);
        if let Some(dt) = req.dt {
            chapter.update(&mut UpdateContext { gpu, passes: &mut passes, dt });
        }
        chapter.light_scene(&mut ChapterContext {
            gpu,
            frame: &self.frame,
            passes: &mut passes,
            view: req.view,
            time: req.time,
            scene: req.scene,
        });
        self.scene.record(&mut passes, &self.frame);
        chapter.render(&mut ChapterContext {
            gpu,
            frame: &self.frame,
            passes: &mut passes,
            view: req.view,
            time: req.time,
            scene: req.scene,
        });
        self.display.record(gpu, &mut passes, &display, output);
        let times = passes.submit();
        if matches!(display.kind, ViewKind::Scalar { auto: true, .. }) {
            self.auto_range.request(gpu, &self.frame.view_range);
        }
        times
    }
    // ANCHOR_END: render
}
