//! The viewer's start, one chapter at a time: each chapter's GPU state is made and a first frame
//! of it drawn (its tables, noise and bakes: the sky's scattering tables, the clouds' noise,
//! chapter 8's flipbook), with a progress screen in the window and a line on the terminal for
//! each. On a software driver that is minutes for the `everything` stack, which would otherwise
//! be a black window.
//!
//! The chapters leave the stack while they are prepared and go back in stage order when the
//! last is done. A chapter's first frame is drawn alone, with time standing still, into a
//! texture nobody sees: what it computes once stays with the chapter, and what depends on the
//! rest of the stack is made again by the first real frame.

use anyhow::{Result, anyhow};
use fogbook_core::gpu::GpuContext;
use fogbook_core::renderer::{FrameRequest, Renderer};
use fogbook_core::scene_settings::SceneSettings;
use fogbook_core::shaders::ShaderStore;
use fogbook_core::time::TimeControl;
use fogbook_core::{DynChapter, Stack, StackView};
use std::time::Instant;

/// The size of each chapter's first frame.
const FIRST_FRAME_SIZE: [u32; 2] = [64, 36];

/// Where the start has got to.
pub struct Startup {
    /// The chapters still to prepare, in stage order, and those done.
    pending: std::collections::VecDeque<Box<dyn DynChapter>>,
    ready: Vec<Box<dyn DynChapter>>,
    /// "number title" and seconds of each chapter done.
    pub done: Vec<(String, f64)>,
    pub total: usize,
    pub started: Instant,
    /// Where the chapters' first frames are drawn.
    target: PreparedTarget,
}

impl Startup {
    /// Takes every chapter out of `stack` to prepare them one by one, drawing their first frames
    /// in `format` (the display's).
    pub fn new(stack: &mut Stack, gpu: &GpuContext, format: wgpu::TextureFormat) -> Self {
        let pending: std::collections::VecDeque<_> = stack.take_all_but(&[]).into();
        let total = pending.len();
        let target = PreparedTarget::new(gpu, FIRST_FRAME_SIZE, format);
        Self { pending, ready: Vec::new(), done: Vec::new(), total, started: Instant::now(), target }
    }

    /// The chapter to be prepared next, as "number title".
    pub fn next_name(&self) -> Option<String> {
        self.pending.front().map(|c| title(c.as_ref()))
    }

    /// Prepares the next chapter: its GPU state, then one still frame of it alone. Once every
    /// chapter is done, returns the whole stack.
    pub fn step(
        &mut self,
        gpu: &GpuContext,
        renderer: &mut Renderer,
        shaders: &ShaderStore,
        frame: (&fogbook_core::camera::CameraPose, &SceneSettings),
    ) -> Result<Option<Stack>> {
        let Some(mut chapter) = self.pending.pop_front() else {
            return self.finish().map(Some);
        };
        let name = title(chapter.as_ref());
        let t = Instant::now();
        eprintln!("fogbook: preparing {} of {}: {name}…", self.done.len() + 1, self.total);
        chapter.create_gpu(gpu, &renderer.frame.layouts, shaders)?;
        let mut alone = Stack::new(vec![chapter]).map_err(|e| anyhow!(e))?;
        let time = TimeControl::fixed(0.0);
        let (camera, scene) = frame;
        let req = FrameRequest {
            camera,
            scene,
            time: &time,
            dt: None,
            view: StackView::default(),
            legend: false,
            camera_cut: true,
            paced: false,
        };
        // What a chapter prepares once does not depend on the frame's size: a small first frame
        // spends next to nothing per pixel (minutes at full size on a software driver).
        renderer.resize(gpu, FIRST_FRAME_SIZE);
        renderer.display.viewport = None;
        renderer.render(gpu, &mut alone, &req, &self.target.view);
        gpu.wait();
        self.ready.extend(alone.take_all_but(&[]));
        let seconds = t.elapsed().as_secs_f64();
        eprintln!("fogbook: {name} ready in {seconds:.1} s");
        self.done.push((name, seconds));
        // The stack comes back at the next call, after one more progress screen ("the first
        // frame"), which stays up while the first real frame is drawn.
        Ok(None)
    }

    fn finish(&mut self) -> Result<Stack> {
        let stack = Stack::new(std::mem::take(&mut self.ready)).map_err(|e| anyhow!(e))?;
        eprintln!("fogbook: {} ready in {:.1} s", stack.spec(), self.started.elapsed().as_secs_f64());
        Ok(stack)
    }
}

/// The texture the chapters' first frames are drawn into, in the display's format.
struct PreparedTarget {
    _texture: wgpu::Texture,
    view: wgpu::TextureView,
}

impl PreparedTarget {
    fn new(gpu: &GpuContext, size: [u32; 2], format: wgpu::TextureFormat) -> Self {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("viewer start-up frame"),
            size: wgpu::Extent3d { width: size[0].max(1), height: size[1].max(1), depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Self { _texture: texture, view }
    }
}

fn title(chapter: &dyn DynChapter) -> String {
    let info = chapter.info();
    format!("{} {}", info.number, info.title)
}

/// The progress screen: what is ready, what is being prepared, a bar and the time so far.
pub fn progress_ui(ui: &mut egui::Ui, s: &Startup) {
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.25);
            ui.heading("fogbook is preparing the frame");
            ui.add_space(8.0);
            let fraction = s.done.len() as f32 / s.total.max(1) as f32;
            let label = match s.next_name() {
                Some(next) => format!("{} of {}: {next}", s.done.len() + 1, s.total),
                None => "the first frame".to_string(),
            };
            ui.add(egui::ProgressBar::new(fraction).text(label).desired_width(420.0));
            ui.label(format!("started {:.0} s ago", s.started.elapsed().as_secs_f64()));
            ui.add_space(8.0);
            for (name, seconds) in &s.done {
                ui.label(format!("✓ {name} ({seconds:.1} s)"));
            }
        });
    });
}
