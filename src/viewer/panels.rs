//! The viewer's egui panels: chapters, views with legend, time, camera, parameters, timings,
//! captures and presets.

use super::Viewer;
use fogbook_core::camera::CameraMode;
use fogbook_core::renderer::Renderer;
use fogbook_core::ui::{legend, param_panel};

/// What the panels asked for that needs the GPU (handled after the UI pass).
#[derive(Default)]
pub struct UiRequests {
    pub switch_chapter: Option<String>,
    pub capture_png: bool,
    pub capture_exr: bool,
    pub save_preset: bool,
    pub load_preset: bool,
    pub reset_chapter: bool,
}

pub fn side_panel(ui: &mut egui::Ui, v: &mut Viewer) -> UiRequests {
    let mut req = UiRequests::default();
    egui::Panel::left("fogbook side panel").default_size(330.0).show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("fogbook");
            let current = v.setup.chapter.info();
            egui::ComboBox::from_id_salt("chapter")
                .selected_text(format!("{} {}", current.number, current.title))
                .show_ui(ui, |ui| {
                    for (id, title) in &v.chapter_list {
                        if ui.selectable_label(*id == current.id, title).clicked() && *id != current.id {
                            req.switch_chapter = Some(id.to_string());
                        }
                    }
                });
            ui.label(current.summary);

            ui.separator();
            ui.strong("View (V / Shift+V)");
            let views = v.setup.chapter.views();
            egui::ComboBox::from_id_salt("view").selected_text(views[v.view].name).show_ui(ui, |ui| {
                for (i, view) in views.iter().enumerate() {
                    ui.selectable_value(&mut v.view, i, view.name).on_hover_text(view.description);
                }
            });
            ui.label(views[v.view].description);
            let display = Renderer::display_settings(v.setup.chapter.as_mut(), v.view, &v.setup.scene, true);
            let range = match (display.kind, v.auto_range) {
                (fogbook_core::ViewKind::Scalar { auto: true, .. }, Some(r)) => r,
                _ => display.range,
            };
            legend(ui, &display.kind, range);

            ui.separator();
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

            ui.separator();
            ui.strong("Camera (drag, arrows, wheel; Tab: orbit/fly)");
            ui.horizontal(|ui| {
                ui.selectable_value(&mut v.camera_control.mode, CameraMode::Orbit, "Orbit");
                ui.selectable_value(&mut v.camera_control.mode, CameraMode::Fly, "Fly (WASDQE)");
            });
            let c = &v.setup.camera;
            ui.monospace(format!("--camera {}", c.to_cli()));
            if ui.button("Reset camera").clicked() {
                v.setup.camera = Default::default();
            }

            ui.separator();
            ui.collapsing("Chapter parameters", |ui| {
                param_panel(ui, v.setup.chapter.params());
                if ui.button("Defaults").clicked() {
                    v.setup.chapter.params().reset();
                }
            });
            ui.collapsing("Scene", |ui| {
                param_panel(ui, &mut v.setup.scene);
            });

            ui.separator();
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

            ui.separator();
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
            if let Some(status) = v.setup.chapter.status() {
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
        });
    });
    req
}
