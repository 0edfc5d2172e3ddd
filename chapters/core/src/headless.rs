//! Offscreen rendering: a device, a renderer and an output texture, for the CLI, figures,
//! benches and tests.

use crate::camera::CameraPose;
use crate::capture::{FloatImage, read_rgba8};
use crate::chapter::DynChapter;
use crate::frame::check_size;
use crate::gpu::{GpuContext, Requirements};
use crate::renderer::{FrameRequest, Renderer};
use crate::scene_settings::SceneSettings;
use crate::shaders::ShaderStore;
use crate::stack::{Stack, StackView};
use crate::time::TimeControl;
use crate::timing::PassTimes;
use anyhow::{Result, anyhow};

pub const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

pub struct Headless {
    pub gpu: GpuContext,
    pub shaders: ShaderStore,
    pub renderer: Renderer,
    pub output: wgpu::Texture,
    /// Frames as the viewer paces them (`FrameRequest::paced`): off, so that every frame is
    /// whole, except for a bench of the viewer's frames and the tests of pacing.
    pub paced: bool,
}

/// One rendered view: what the screen would show, and the raw values behind it.
pub struct Capture {
    pub display: image::RgbaImage,
    pub raw: FloatImage,
    /// The range an auto-ranged view was displayed with (the field's min / max).
    pub auto_range: Option<(f32, f32)>,
}

impl Headless {
    /// A device meeting `req`, with targets of `size`.
    pub fn new(req: &Requirements, size: [u32; 2]) -> Result<Self> {
        let gpu = GpuContext::headless(req)?;
        check_size(&gpu, size).map_err(|e| anyhow!(e))?;
        let shaders = ShaderStore::discover();
        let renderer = Renderer::new(&gpu, &shaders, size, OUTPUT_FORMAT)?;
        let output = Self::make_output(&gpu, size);
        Ok(Self { gpu, shaders, renderer, output, paced: false })
    }

    fn make_output(gpu: &GpuContext, size: [u32; 2]) -> wgpu::Texture {
        gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("headless output"),
            size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: OUTPUT_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    }

    pub fn resize(&mut self, size: [u32; 2]) -> Result<()> {
        check_size(&self.gpu, size).map_err(|e| anyhow!(e))?;
        self.renderer.resize(&self.gpu, size);
        if self.output.size().width != size[0] || self.output.size().height != size[1] {
            self.output = Self::make_output(&self.gpu, size);
        }
        Ok(())
    }

    /// Creates one chapter's GPU resources against this renderer.
    pub fn prepare(&self, chapter: &mut dyn DynChapter) -> Result<()> {
        chapter.create_gpu(&self.gpu, &self.renderer.frame.layouts, &self.shaders)
    }

    /// Creates every chapter's GPU resources against this renderer.
    pub fn prepare_stack(&self, stack: &mut Stack) -> Result<()> {
        stack.chapters_mut().iter_mut().try_for_each(|c| self.prepare(c.as_mut()))
    }

    /// Advances `frames` fixed steps from `time` (rendering each, as the viewer would) and
    /// returns the timings of the last frame.
    pub fn run(
        &mut self,
        stack: &mut Stack,
        camera: &CameraPose,
        scene: &SceneSettings,
        time: &mut TimeControl,
        view: StackView,
        frames: u32,
    ) -> Option<PassTimes> {
        let out_view = self.output.create_view(&Default::default());
        let mut times = None;
        let paced = self.paced;
        for _ in 0..frames.max(1) {
            let dt = time.tick(0.0);
            let req = FrameRequest { camera, scene, time, dt, view, legend: true, camera_cut: false, paced };
            times = self.renderer.render(&self.gpu, stack, &req, &out_view);
        }
        times
    }

    /// Like `run`, but when every chapter of the stack allows it (`Book::warmup_steps_only`) the
    /// frames before the last only step the simulations, without drawing: the same state, at a
    /// fraction of the cost on a software driver.
    pub fn run_warmed(
        &mut self,
        stack: &mut Stack,
        camera: &CameraPose,
        scene: &SceneSettings,
        time: &mut TimeControl,
        view: StackView,
        frames: u32,
    ) -> Option<PassTimes> {
        let frames = frames.max(1);
        if !stack.chapters().iter().all(|c| c.book().warmup_steps_only) {
            return self.run(stack, camera, scene, time, view, frames);
        }
        for _ in 1..frames {
            if let Some(dt) = time.tick(0.0) {
                self.renderer.simulate(&self.gpu, stack, dt);
            }
        }
        self.run(stack, camera, scene, time, view, 1)
    }

    /// Draws the current state once more with time standing still (no step): another view of
    /// the frame just rendered, or the same view under settings that change only how it is shown.
    pub fn redraw(
        &mut self,
        stack: &mut Stack,
        camera: &CameraPose,
        scene: &SceneSettings,
        view: StackView,
    ) -> Option<PassTimes> {
        let mut paused = TimeControl::fixed(0.0);
        paused.paused = true;
        self.run(stack, camera, scene, &mut paused, view, 1)
    }

    /// Reads back the last rendered frame.
    pub fn capture(&mut self) -> Result<Capture> {
        let auto_range = self.renderer.auto_range.read_now(&self.gpu, &self.renderer.frame.view_range);
        Ok(Capture {
            display: read_rgba8(&self.gpu, &self.output)?,
            raw: FloatImage::read(&self.gpu, &self.renderer.frame.view.texture)?,
            auto_range,
        })
    }
}
