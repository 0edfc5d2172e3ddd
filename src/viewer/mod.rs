//! The interactive viewer: a winit window, the stack's frame, and egui panels on top.

mod input;
mod panels;
mod startup;

use crate::cli::ViewArgs;
use crate::registry;
use crate::state::Setup;
use anyhow::{Context, Result, anyhow};
use fogbook_core::camera::{CameraController, CameraMode};
use fogbook_core::capture::{FloatImage, read_rgba8, save_png};
use fogbook_core::gpu::{GpuContext, new_instance};
use fogbook_core::hot_reload::ShaderWatcher;
use fogbook_core::renderer::{FrameRequest, Renderer};
use fogbook_core::shaders::ShaderStore;
use fogbook_core::time::TimeControl;
use fogbook_core::timing::{PassTimes, TimingMode};
use fogbook_core::{DynChapter, Stack, StackView};
use input::{Action, InputState};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

/// True when a window can be opened (X11 or Wayland on Linux; always elsewhere).
pub fn display_available() -> bool {
    if cfg!(target_os = "linux") {
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    } else {
        true
    }
}

pub fn run(args: ViewArgs) -> Result<()> {
    let mut setup = Setup::from_args(&args.scene)?;
    // Opened without settings of the user's own: each chapter's viewer preset.
    if args.scene.set.is_empty() && args.scene.preset.is_none() {
        for chapter in setup.stack.chapters_mut() {
            registry::apply_viewer_preset(chapter.as_mut()).map_err(|e| anyhow!(e))?;
        }
    }
    let view = match &args.view {
        Some(name) => setup.stack.find_view(name).map_err(|e| anyhow!(e))?,
        // The first view on offer: a chapter's final image, or a stack's whole frame.
        None => setup.stack.views()[0].at,
    };
    let event_loop =
        EventLoop::new().context("cannot open a window (no display?); try `fogbook figures` or `fogbook render`")?;
    let script = Script { frames: args.frames, cycle_views: args.cycle_views, shown: 0 };
    let mut app = App { viewer: Viewer::new(setup, view), gfx: None, startup: None, error: None, script };
    event_loop.run_app(&mut app).context("event loop")?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Everything the panels edit.
pub struct Viewer {
    pub setup: Setup,
    pub view: StackView,
    pub time: TimeControl,
    pub camera_control: CameraController,
    pub ui_visible: bool,
    /// Width of the side panel in pixels, as last laid out: the image starts right of it.
    pub panel_px: u32,
    pub shader_error: Option<String>,
    pub status: String,
    pub timings: Option<PassTimes>,
    pub frame_ms: f64,
    pub adapter: String,
    pub preset_path: String,
    /// The field min / max of an auto-ranged view, as last read back.
    pub auto_range: Option<(f32, f32)>,
    /// (id, "number title") of every chapter, for the chapter list.
    pub chapter_list: Vec<(&'static str, String)>,
    /// The next frame follows a jump of the camera (preset, reset): no history across it.
    pub camera_cut: bool,
    input: InputState,
    last_frame: Instant,
}

impl Viewer {
    fn new(setup: Setup, view: StackView) -> Self {
        let preset_path = format!("{}.ron", setup.stack.spec().replace(',', "+"));
        Self {
            setup,
            view,
            time: TimeControl::default(),
            camera_control: CameraController::default(),
            ui_visible: true,
            panel_px: 0,
            shader_error: None,
            status: String::new(),
            timings: None,
            frame_ms: 0.0,
            adapter: String::new(),
            preset_path,
            auto_range: None,
            chapter_list: registry::chapters()
                .iter()
                .map(|c| {
                    let i = c.info();
                    (i.id, format!("{} {}", i.number, i.title))
                })
                .collect(),
            input: InputState::default(),
            last_frame: Instant::now(),
            camera_cut: false,
        }
    }

    pub fn reset_time(&mut self) {
        self.time.reset();
    }

    fn cycle_view(&mut self, delta: isize) {
        self.view = self.setup.stack.cycle_view(self.view, delta);
    }
}

struct Gfx {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: GpuContext,
    shaders: ShaderStore,
    renderer: Renderer,
    watcher: Option<ShaderWatcher>,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
}

struct App {
    viewer: Viewer,
    gfx: Option<Gfx>,
    /// Until every chapter is prepared (`startup`): the chapters are out of the stack.
    startup: Option<startup::Startup>,
    error: Option<anyhow::Error>,
    script: Script,
}

/// A scripted run: close after a number of frames, optionally touring every view.
struct Script {
    frames: Option<u32>,
    cycle_views: bool,
    shown: u32,
}

/// The window opens at 1440 × 810 (logical pixels), or at nine tenths of a smaller screen, in
/// the same 16:9 shape.
fn window_size(event_loop: &ActiveEventLoop) -> winit::dpi::Size {
    let wanted = winit::dpi::LogicalSize::new(1440.0, 810.0);
    let Some(monitor) = event_loop.primary_monitor().or_else(|| event_loop.available_monitors().next()) else {
        return wanted.into();
    };
    let screen = monitor.size().to_logical::<f64>(monitor.scale_factor());
    let fit = (0.9 * screen.width / wanted.width).min(0.9 * screen.height / wanted.height);
    if fit.is_finite() && fit > 0.0 && fit < 1.0 {
        winit::dpi::LogicalSize::new((wanted.width * fit).round(), (wanted.height * fit).round()).into()
    } else {
        wanted.into()
    }
}

impl App {
    fn init(&mut self, event_loop: &ActiveEventLoop) -> Result<Gfx> {
        let attrs = Window::default_attributes().with_title("fogbook").with_inner_size(window_size(event_loop));
        let window = Arc::new(event_loop.create_window(attrs)?);
        let instance = new_instance(Some(Box::new(event_loop.owned_display_handle())));
        let surface = instance.create_surface(window.clone())?;
        // Every chapter's requirements: any of them can be switched on later.
        let gpu = GpuContext::with_instance(instance, Some(&surface), &registry::requirements())?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| anyhow!("the surface is not supported by {}", gpu.describe()))?;
        let caps = surface.get_capabilities(&gpu.adapter);
        // The surface is linear (egui blends in gamma space and wants that); the display pass
        // writes through an sRGB view of the same texture, so the hardware encodes its output.
        config.format = caps
            .formats
            .iter()
            .copied()
            .find(|f| !f.is_srgb() && f.add_srgb_suffix().is_srgb())
            .unwrap_or(config.format);
        config.view_formats = vec![config.format.add_srgb_suffix()];
        config.present_mode = wgpu::PresentMode::AutoVsync;
        surface.configure(&gpu.device, &config);
        let shaders = ShaderStore::discover();
        let mut renderer =
            Renderer::new(&gpu, &shaders, [config.width, config.height], config.format.add_srgb_suffix())?;
        // Software drivers get per-pass CPU timing (their timestamps are misattributed).
        renderer.timing = TimingMode::best_for(&gpu);
        // The chapters' GPU state is made one chapter a frame, behind a progress screen.
        self.startup = Some(startup::Startup::new(&mut self.viewer.setup.stack, &gpu, config.format.add_srgb_suffix()));
        let watcher = shaders.disk_root.as_deref().and_then(ShaderWatcher::new);
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(&gpu.device, config.format, Default::default());
        self.viewer.adapter = gpu.describe();
        Ok(Gfx { window, surface, config, gpu, shaders, renderer, watcher, egui_ctx, egui_state, egui_renderer })
    }

    fn handle_action(&mut self, action: Action, event_loop: &ActiveEventLoop) {
        let v = &mut self.viewer;
        match action {
            Action::Quit => event_loop.exit(),
            Action::TogglePause => v.time.toggle_pause(),
            Action::Step => v.time.request_step(),
            Action::ToggleUi => v.ui_visible = !v.ui_visible,
            Action::NextView => v.cycle_view(1),
            Action::PreviousView => v.cycle_view(-1),
            Action::ResetTime => {
                v.reset_time();
                if let Some(g) = &self.gfx {
                    for chapter in v.setup.stack.chapters_mut() {
                        chapter.reset(&g.gpu);
                    }
                }
            }
            Action::ToggleCameraMode => {
                v.camera_control.mode = match v.camera_control.mode {
                    CameraMode::Orbit => CameraMode::Fly,
                    CameraMode::Fly => CameraMode::Orbit,
                }
            }
        }
    }

    /// Draws one frame; false when no surface texture was available (nothing shown).
    fn frame(&mut self) -> bool {
        let Some(gfx) = self.gfx.as_mut() else { return false };
        let v = &mut self.viewer;
        let now = Instant::now();
        let real_dt = (now - v.last_frame).as_secs_f32();
        v.frame_ms = real_dt as f64 * 1e3;
        v.last_frame = now;

        if gfx.watcher.as_ref().is_some_and(|w| w.take_changed()) {
            match gfx.renderer.reload_shaders(&gfx.gpu, &gfx.shaders, &mut v.setup.stack) {
                Ok(()) => {
                    v.shader_error = None;
                    v.status = "shaders reloaded".into();
                }
                Err(e) => v.shader_error = Some(format!("{e:#}")),
            }
        }

        let camera_input = v.input.take_camera_input();
        v.camera_control.apply(&mut v.setup.camera, &camera_input, real_dt);
        let dt = v.time.tick(real_dt);

        let frame = match gfx.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                gfx.surface.configure(&gfx.gpu.device, &gfx.config);
                return false;
            }
            _ => return false,
        };
        let target = frame.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(gfx.config.format.add_srgb_suffix()),
            ..Default::default()
        });
        let ui_target = frame.texture.create_view(&Default::default());
        // The image beside the side panel, not under it: the frame is the size of the area
        // right of the panel, and the display pass draws into that viewport.
        let left = if v.ui_visible { v.panel_px.min(gfx.config.width.saturating_sub(1)) } else { 0 };
        let image = [gfx.config.width - left, gfx.config.height];
        gfx.renderer.resize(&gfx.gpu, image);
        gfx.renderer.display.viewport = Some([left, 0, image[0], image[1]]);
        let req = FrameRequest {
            camera: &v.setup.camera,
            scene: &v.setup.scene,
            time: &v.time,
            dt,
            view: v.view,
            legend: true,
            camera_cut: std::mem::take(&mut v.camera_cut),
            paced: true,
        };
        if let Some(t) = gfx.renderer.render(&gfx.gpu, &mut v.setup.stack, &req, &target) {
            v.timings = Some(t);
        }
        if let Some(t) = gfx.renderer.timer.as_mut().and_then(|t| t.try_collect(&gfx.gpu)) {
            // Chapters that pace their work read their passes' GPU times here.
            v.setup.stack.pass_times(&t);
            v.timings = Some(t);
        }
        v.auto_range = gfx.renderer.auto_range.poll(&gfx.gpu);

        // UI on top.
        let mut requests = panels::UiRequests::default();
        let visible = v.ui_visible;
        paint_ui(gfx, &ui_target, wgpu::LoadOp::Load, |ui| {
            if visible {
                requests = panels::side_panel(ui, v);
            }
        });
        gfx.gpu.queue.present(frame);
        self.handle_requests(requests);
        true
    }

    /// Shows the progress screen, then prepares the next chapter; the last puts the stack back.
    fn start_up(&mut self, event_loop: &ActiveEventLoop) {
        let (Some(gfx), Some(start)) = (self.gfx.as_mut(), self.startup.as_mut()) else { return };
        draw_ui_only(gfx, |ui| startup::progress_ui(ui, start));
        let v = &mut self.viewer;
        match start.step(&gfx.gpu, &mut gfx.renderer, &gfx.shaders, (&v.setup.camera, &v.setup.scene)) {
            Ok(None) => {}
            Ok(Some(stack)) => {
                v.setup.stack = stack;
                v.camera_cut = true;
                v.last_frame = Instant::now();
                self.startup = None;
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    /// Advances a scripted run after a shown frame.
    fn after_frame(&mut self, event_loop: &ActiveEventLoop) {
        let s = &mut self.script;
        if s.frames.is_none() && !s.cycle_views {
            return;
        }
        s.shown += 1;
        let v = &mut self.viewer;
        println!("viewer: frame {} showed {} / {}", s.shown, v.setup.stack.spec(), v.setup.stack.view_name(v.view));
        if let Some(err) = &v.shader_error {
            println!("viewer: shader error: {err}");
        }
        if s.cycle_views {
            v.cycle_view(1);
        }
        if s.frames.is_some_and(|n| s.shown >= n) {
            event_loop.exit();
        }
    }

    fn handle_requests(&mut self, req: panels::UiRequests) {
        let Some(gfx) = self.gfx.as_mut() else { return };
        let v = &mut self.viewer;
        if let Some(ids) = req.set_stack {
            match restack(gfx, &mut v.setup.stack, &ids) {
                Ok(()) => {
                    v.view = StackView { chapter: v.setup.stack.len() - 1, view: 0 };
                    v.status = format!("stack: {}", v.setup.stack.spec());
                }
                Err(e) => v.status = format!("cannot stack {}: {e:#}", ids.join(",")),
            }
        }
        if req.reset_chapter {
            for chapter in v.setup.stack.chapters_mut() {
                chapter.reset(&gfx.gpu);
            }
        }
        if req.capture_png || req.capture_exr {
            v.status = match capture(gfx, v, req.capture_exr) {
                Ok(path) => format!("wrote {}", path.display()),
                Err(e) => format!("capture failed: {e:#}"),
            };
        }
        if req.save_preset {
            v.status = match fogbook_core::preset::save(
                v.preset_path.as_ref(),
                &mut v.setup.stack,
                &v.setup.camera,
                &v.setup.scene,
            ) {
                Ok(()) => format!("saved {}", v.preset_path),
                Err(e) => format!("{e:#}"),
            };
        }
        if req.load_preset {
            v.status = match load_preset(gfx, v) {
                Ok(()) => format!("loaded {}", v.preset_path),
                Err(e) => format!("{e:#} (nothing changed)"),
            };
        }
        if req.camera_cut {
            v.camera_cut = true;
        }
        if req.bake_flipbook {
            v.status = match bake_to_files(&mut v.setup.stack) {
                Ok(report) => report,
                Err(e) => format!("bake failed: {e:#}"),
            };
        }
    }
}

/// Runs `ui` through egui and paints it over `target` (`load`: keep what is there, or clear),
/// then submits the commands.
fn paint_ui(gfx: &mut Gfx, target: &wgpu::TextureView, load: wgpu::LoadOp<wgpu::Color>, ui: impl FnMut(&mut egui::Ui)) {
    let raw_input = gfx.egui_state.take_egui_input(&gfx.window);
    let mut output = gfx.egui_ctx.run_ui(raw_input, ui);
    gfx.egui_state.handle_platform_output(&gfx.window, output.platform_output);
    let jobs = gfx.egui_ctx.tessellate(output.shapes, output.pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [gfx.config.width, gfx.config.height],
        pixels_per_point: output.pixels_per_point,
    };
    for (id, deltas) in output.textures_delta.set.drain() {
        for delta in &deltas {
            gfx.egui_renderer.update_texture(&gfx.gpu.device, &gfx.gpu.queue, id, delta);
        }
    }
    let mut encoder = gfx.gpu.device.create_command_encoder(&Default::default());
    let extra = gfx.egui_renderer.update_buffers(&gfx.gpu.device, &gfx.gpu.queue, &mut encoder, &jobs, &screen);
    {
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        gfx.egui_renderer.render(&mut pass.forget_lifetime(), &jobs, &screen);
    }
    gfx.gpu.submit(extra.into_iter().chain([encoder.finish()]));
    for id in output.textures_delta.free.drain() {
        gfx.egui_renderer.free_texture(&id);
    }
}

/// A frame of UI alone on a cleared window (the start-up's progress screen).
fn draw_ui_only(gfx: &mut Gfx, ui: impl FnMut(&mut egui::Ui)) {
    let frame = match gfx.surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
        wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
            gfx.surface.configure(&gfx.gpu.device, &gfx.config);
            return;
        }
        _ => return,
    };
    let target = frame.texture.create_view(&Default::default());
    let background = wgpu::Color { r: 0.02, g: 0.02, b: 0.025, a: 1.0 };
    paint_ui(gfx, &target, wgpu::LoadOp::Clear(background), ui);
    gfx.gpu.queue.present(frame);
}

/// Makes the stack `ids`: chapters already running keep their GPU state, parameters and
/// simulation; the others are created. Nothing changes if a chapter cannot be created.
fn restack(gfx: &Gfx, stack: &mut Stack, ids: &[&'static str]) -> Result<()> {
    let mut fresh: Vec<Box<dyn DynChapter>> = Vec::new();
    for id in ids.iter().filter(|id| stack.position(id).is_none()) {
        let mut chapter = registry::find(id).map_err(|e| anyhow!(e))?;
        registry::apply_viewer_preset(chapter.as_mut()).map_err(|e| anyhow!(e))?;
        chapter.create_gpu(&gfx.gpu, &gfx.renderer.frame.layouts, &gfx.shaders)?;
        fresh.push(chapter);
    }
    stack.restack(ids, fresh).map_err(|e| anyhow!(e))
}

/// Loads the preset file into the viewer, switching to its stack first if it names another;
/// on any error the viewer keeps what it had.
/// Writes the flipbook chapter 8 draws (its bake settings) to `bake/`, as `fogbook bake` does.
fn bake_to_files(stack: &mut Stack) -> Result<String> {
    let i = stack.position("six-way-cards").ok_or_else(|| anyhow!("chapter 8 is not in the frame"))?;
    let params: fogbook_six_way::params::CardParams = ron::from_str(&stack.chapter_mut(i).params().to_ron())?;
    let key = fogbook_six_way::baked::BakeKey::new(&params);
    let mut args = crate::commands::bake::args_for(&key.0, PathBuf::from("bake"), "smoke");
    args.set = key.1;
    Ok(crate::commands::bake::run(&args)?.to_string().replace('\n', "; "))
}

fn load_preset(gfx: &Gfx, v: &mut Viewer) -> Result<()> {
    let path = std::path::Path::new(&v.preset_path);
    let spec = fogbook_core::preset::chapters_of(path)?;
    let mut setup = Setup::new(&spec)?;
    setup.camera = v.setup.camera;
    setup.scene = v.setup.scene.clone();
    setup.apply(Some(path), &[], None)?;
    let ids = setup.stack.ids();
    if ids != v.setup.stack.ids() {
        restack(gfx, &mut v.setup.stack, &ids)?;
        v.view = StackView { chapter: v.setup.stack.len() - 1, view: 0 };
    }
    fogbook_core::preset::load(path, &mut v.setup.stack, &mut v.setup.camera, &mut v.setup.scene)?;
    v.camera_cut = true;
    Ok(())
}

/// Renders the current view offscreen-identical into the window's targets and saves it.
fn capture(gfx: &mut Gfx, v: &mut Viewer, exr: bool) -> Result<PathBuf> {
    std::fs::create_dir_all("captures")?;
    let stem = format!(
        "captures/{}-{}-{}",
        v.setup.stack.spec().replace(',', "+"),
        v.setup.stack.view_name(v.view).replace('/', "-"),
        v.time.frame
    );
    if exr {
        let path = PathBuf::from(format!("{stem}.exr"));
        FloatImage::read(&gfx.gpu, &gfx.renderer.frame.view.texture)?.save_exr(&path)?;
        return Ok(path);
    }
    // PNG: render the display pass once more into an sRGB texture we can read.
    let size = gfx.renderer.frame.size;
    let texture = gfx.gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("capture"),
        size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let mut display =
        fogbook_core::display::DisplayPass::new(&gfx.gpu, &gfx.renderer.frame, &gfx.shaders, texture.format())?;
    let settings =
        Renderer::display_settings(v.setup.stack.chapter_mut(v.view.chapter), v.view.view, &v.setup.scene, true);
    let mut passes = fogbook_core::timing::PassRecorder::new(&gfx.gpu, None, TimingMode::Off);
    display.record(&gfx.gpu, &mut passes, &settings, &texture.create_view(&Default::default()));
    passes.submit();
    display.rebind(&gfx.gpu, &gfx.renderer.frame);
    let path = PathBuf::from(format!("{stem}.png"));
    save_png(&read_rgba8(&gfx.gpu, &texture)?, &path)?;
    Ok(path)
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match self.init(event_loop) {
            Ok(g) => {
                g.window.request_redraw();
                self.gfx = Some(g);
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gfx) = self.gfx.as_mut() else { return };
        let consumed = gfx.egui_state.on_window_event(&gfx.window, &event).consumed;
        match &event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                return;
            }
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                let size = [
                    size.width.min(fogbook_core::frame::MAX_RENDER_SIDE),
                    size.height.min(fogbook_core::frame::MAX_RENDER_SIDE),
                ];
                gfx.config.width = size[0];
                gfx.config.height = size[1];
                gfx.surface.configure(&gfx.gpu.device, &gfx.config);
                // The frame follows in `frame`, at the size of the area beside the panel.
            }
            WindowEvent::RedrawRequested => {
                if self.startup.is_some() {
                    self.start_up(event_loop);
                } else if self.frame() {
                    self.after_frame(event_loop);
                }
                if let Some(g) = &self.gfx {
                    g.window.request_redraw();
                }
                return;
            }
            _ => {}
        }
        if !consumed && let Some(action) = self.viewer.input.on_event(&event) {
            self.handle_action(action, event_loop);
        }
    }
}
