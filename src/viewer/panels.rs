//! The viewer's egui panels: the stack's chapters, views with legend, time, camera, parameters,
//! timings, captures and presets.

use super::Viewer;
use crate::registry;
use fogbook_core::camera::CameraMode;
use fogbook_core::renderer::Renderer;
use fogbook_core::ui::{legend, param_panel};

/// What the panels asked for that needs the GPU (handled after the UI pass).
#[derive(Default)]
pub struct UiRequests {
    /// Chapters to run, switched on and off by the checkboxes or a named stack.
    pub set_stack: Option<Vec<&'static str>>,
    /// The camera was reset: no history across the jump.
    pub camera_cut: bool,
    pub capture_png: bool,
    pub capture_exr: bool,
    pub save_preset: bool,
    pub load_preset: bool,
    pub reset_chapter: bool,
    /// Chapter 8's flipbook, baked with its settings, written to files (`fogbook bake`).
    pub bake_flipbook: bool,
}

pub fn side_panel(ui: &mut egui::Ui, v: &mut Viewer) -> UiRequests {
    let mut req = UiRequests::default();
    let panel = egui::Panel::left("fogbook side panel").default_size(330.0).show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("fogbook");
            chapters_section(ui, v, &mut req);

            ui.separator();
            view_section(ui, v);

            ui.separator();
            time_section(ui, v, &mut req);

            ui.separator();
            camera_section(ui, v, &mut req);

            ui.separator();
            params_section(ui, v, &mut req);

            ui.separator();
            timings_section(ui, v);

            ui.separator();
            capture_section(ui, v, &mut req);
            messages_section(ui, v);
        });
    });
    // The image is laid out beside the panel from the next frame on.
    v.panel_px = (panel.response.rect.right() * ui.ctx().pixels_per_point()).ceil().max(0.0) as u32;
    req
}

/// The chapter checkboxes and the named stacks, which ask for a new stack.
fn chapters_section(ui: &mut egui::Ui, v: &mut Viewer, req: &mut UiRequests) {
    ui.strong("Chapters in the frame");
    let active = v.setup.stack.ids();
    for (id, title) in &v.chapter_list {
        let mut on = active.contains(id);
        let stage = registry::find(id).map(|c| c.stage_io().stage.name()).unwrap_or_default();
        if ui.checkbox(&mut on, title).on_hover_text(format!("stage: {stage}")).changed() {
            let ids: Vec<&'static str> = v
                .chapter_list
                .iter()
                .map(|(i, _)| *i)
                .filter(|i| if i == id { on } else { active.contains(i) })
                .collect();
            if ids.is_empty() {
                v.status = "at least one chapter stays on".into();
            } else {
                req.set_stack = Some(ids);
            }
        }
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("stacks:");
        for (name, ids, what) in registry::STACKS {
            if ui.button(*name).on_hover_text(*what).clicked() {
                req.set_stack = Some(ids.to_vec());
            }
        }
    });
    if v.setup.stack.is_single() {
        ui.label(v.setup.stack.chapters()[0].info().summary);
    }
}

/// The view picker, the view's description and its colour legend.
fn view_section(ui: &mut egui::Ui, v: &mut Viewer) {
    ui.strong("View (V / Shift+V)");
    let views = v.setup.stack.views();
    let current = views.iter().find(|n| n.at == v.view).cloned().unwrap_or_else(|| views[0].clone());
    egui::ComboBox::from_id_salt("view").selected_text(&current.name).show_ui(ui, |ui| {
        for view in &views {
            ui.selectable_value(&mut v.view, view.at, &view.name).on_hover_text(view.info.description);
        }
    });
    ui.label(current.info.description);
    let display =
        Renderer::display_settings(v.setup.stack.chapter_mut(v.view.chapter), v.view.view, &v.setup.scene, true);
    let range = match (display.kind, v.auto_range) {
        (fogbook_core::ViewKind::Scalar { auto: true, .. }, Some(r)) => r,
        _ => display.range,
    };
    legend(ui, &display.kind, range);
}

/// The clock's controls: pause, step, reset, speed and the fixed step.
fn time_section(ui: &mut egui::Ui, v: &mut Viewer, req: &mut UiRequests) {
    ui.strong("Time (P pause, N step)");
    ui.horizontal(|ui| {
        if ui.button(if v.time.paused { "Resume" } else { "Pause" }).clicked() {
            v.time.toggle_pause();
        }
        if ui.button("Step").clicked() {
            v.time.request_step();
        }
        if ui.button("Reset").clicked() {
            v.reset_time();
            req.reset_chapter = true;
        }
    });
    ui.add(egui::Slider::new(&mut v.time.speed, 0.0..=8.0).text("speed ×"));
    let mut fixed = v.time.fixed_step.is_some();
    if ui.checkbox(&mut fixed, "fixed 1/60 s step").changed() {
        v.time.fixed_step = fixed.then_some(fogbook_core::time::DEFAULT_STEP_S);
    }
    ui.label(format!("t = {:.3} s, frame {}", v.time.time, v.time.frame));
}

/// The camera's mode, its command-line form and its reset.
fn camera_section(ui: &mut egui::Ui, v: &mut Viewer, req: &mut UiRequests) {
    ui.strong("Camera (drag, arrows, wheel; Tab: orbit/fly)");
    ui.horizontal(|ui| {
        ui.selectable_value(&mut v.camera_control.mode, CameraMode::Orbit, "Orbit");
        ui.selectable_value(&mut v.camera_control.mode, CameraMode::Fly, "Fly (WASDQE)");
    });
    let c = &v.setup.camera;
    ui.monospace(format!("--camera {}", c.to_cli()));
    if ui.button("Reset camera").clicked() {
        v.setup.camera = Default::default();
        req.camera_cut = true;
    }
}

/// Each chapter's parameters (with defaults and chapter 8's bake), then the scene's.
fn params_section(ui: &mut egui::Ui, v: &mut Viewer, req: &mut UiRequests) {
    for chapter in v.setup.stack.chapters_mut() {
        let info = chapter.info();
        ui.collapsing(format!("{} {}: parameters", info.number, info.title), |ui| {
            param_panel(ui, chapter.params());
            if ui.button("Defaults").clicked() {
                chapter.params().reset();
            }
            if info.id == "six-way-cards" {
                req.bake_flipbook |= ui
                    .button("Bake to files")
                    .on_hover_text("bake/smoke_a.png, _b.png, .exr and .json, as `fogbook bake` writes them")
                    .clicked();
            }
        });
    }
    ui.collapsing("Scene", |ui| {
        param_panel(ui, &mut v.setup.scene);
    });
}

/// The GPU time of each pass, the CPU frame time and the adapter.
fn timings_section(ui: &mut egui::Ui, v: &Viewer) {
    ui.strong("GPU time per pass");
    match &v.timings {
        Some(t) => {
            egui::Grid::new("timings").striped(true).show(ui, |ui| {
                for (name, ms) in &t.passes {
                    ui.label(name);
                    ui.monospace(format!("{ms:7.3} ms"));
                    ui.end_row();
                }
                ui.strong("total");
                ui.monospace(format!("{:7.3} ms", t.total()));
                ui.end_row();
            });
            ui.small(format!("clock: {}", t.source));
        }
        None => {
            ui.label("(waiting for the first timings)");
        }
    }
    ui.label(format!("frame {:.2} ms (CPU)", v.frame_ms));
    ui.small(&v.adapter);
}

/// The capture buttons, the preset path and the preset buttons.
fn capture_section(ui: &mut egui::Ui, v: &mut Viewer, req: &mut UiRequests) {
    ui.strong("Capture and presets");
    ui.horizontal(|ui| {
        req.capture_png = ui.button("PNG").on_hover_text("the view as displayed").clicked();
        req.capture_exr = ui.button("EXR").on_hover_text("the view's raw linear values").clicked();
    });
    ui.horizontal(|ui| {
        ui.text_edit_singleline(&mut v.preset_path);
    });
    ui.horizontal(|ui| {
        req.save_preset = ui.button("Save preset").clicked();
        req.load_preset = ui.button("Load preset").clicked();
    });
}

/// The chapters' status lines, the last shader error and the viewer's status line.
fn messages_section(ui: &mut egui::Ui, v: &Viewer) {
    for status in v.setup.stack.chapters().iter().filter_map(|c| c.status()) {
        ui.separator();
        ui.colored_label(egui::Color32::YELLOW, status);
    }
    if let Some(err) = &v.shader_error {
        ui.separator();
        ui.colored_label(egui::Color32::LIGHT_RED, "Shader error (last good pipeline still running):");
        ui.monospace(err);
    }
    if !v.status.is_empty() {
        ui.separator();
        ui.label(&v.status);
    }
}
