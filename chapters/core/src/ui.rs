//! egui widgets the viewer builds its panels from: a parameter panel driven by the parameter
//! descriptions, and a legend for scalar views.

use crate::params::{DynParameters, ParamInfo, ParamKind, ParamList, ParamVisitor};
use crate::views::{ColorMap, ViewKind};

/// The visitor that draws each parameter it is shown into `ui`, noting whether any changed.
struct Panel<'u> {
    ui: &'u mut egui::Ui,
    changed: bool,
}
impl Panel<'_> {
    /// One row: the parameter's bare name (its help on hover) and the widget `add` draws.
    fn row(&mut self, info: &ParamInfo, add: impl FnOnce(&mut egui::Ui) -> egui::Response) {
        let r = self
            .ui
            .horizontal(|ui| {
                // A list item's field under its bare name (`volumes[2].density` as `density`).
                let label = ui.label(info.name.rsplit('.').next().unwrap_or(info.name));
                let r = add(ui);
                if !info.help.is_empty() {
                    label.on_hover_text(info.help);
                }
                r
            })
            .inner;
        self.changed |= r.changed();
    }
}
impl ParamVisitor for Panel<'_> {
    fn group(&mut self, title: &'static str) {
        self.ui.separator();
        self.ui.strong(title);
    }
    // ANCHOR: list_panel
    /// The items as a selectable list with add, duplicate and delete; the selected item's
    /// parameters below it. The selection lives in egui's memory, per list.
    fn list(&mut self, list: &mut dyn ParamList) -> bool {
        let label = list.item_label();
        let id = self.ui.make_persistent_id(("param-list", label));
        let mut selected: usize = self.ui.data_mut(|d| d.get_temp(id)).unwrap_or(0);
        let (n, max) = (list.len(), list.max_len());
        self.ui.label(format!("{n} {label}s (at most {max})"));
        egui::ScrollArea::vertical().id_salt(("param-list-scroll", label)).max_height(160.0).show(self.ui, |ui| {
            for i in 0..n {
                if ui.selectable_label(i == selected, format!("{i}: {}", list.describe(i))).clicked() {
                    selected = i;
                }
            }
        });
        let mut changed = false;
        self.ui.horizontal(|ui| {
            if ui.add_enabled(n < max, egui::Button::new("Add")).clicked() {
                list.push_new();
                selected = list.len() - 1;
                changed = true;
            }
            if ui.add_enabled(selected < n && n < max, egui::Button::new("Duplicate")).clicked() {
                list.duplicate(selected);
                selected += 1;
                changed = true;
            }
            if ui.add_enabled(selected < n, egui::Button::new("Delete")).clicked() {
                list.remove(selected);
                selected = selected.min(list.len().saturating_sub(1));
                changed = true;
            }
        });
        self.changed |= changed;
        if selected < list.len() {
            self.ui.strong(format!("{label} {selected}"));
            list.visit_item(selected, self);
        }
        self.ui.data_mut(|d| d.insert_temp(id, selected));
        true
    }
    // ANCHOR_END: list_panel
    fn float(&mut self, info: &ParamInfo, value: &mut f32) {
        let ParamKind::Float { min, max, log } = info.kind else { return };
        self.row(info, |ui| {
            ui.add(egui::Slider::new(value, min..=max).logarithmic(log).suffix(format!(" {}", info.unit)))
        });
    }
    fn int(&mut self, info: &ParamInfo, value: &mut u32) {
        let ParamKind::Int { min, max } = info.kind else { return };
        self.row(info, |ui| ui.add(egui::Slider::new(value, min..=max).suffix(format!(" {}", info.unit))));
    }
    fn boolean(&mut self, info: &ParamInfo, value: &mut bool) {
        self.row(info, |ui| ui.checkbox(value, ""));
    }
    fn choice(&mut self, info: &ParamInfo, index: &mut usize) {
        let ParamKind::Choice { options } = info.kind else { return };
        self.row(info, |ui| {
            let mut r = egui::ComboBox::from_id_salt(info.name)
                .selected_text(options.get(*index).copied().unwrap_or("?"))
                .show_ui(ui, |ui| {
                    let mut changed = false;
                    for (i, o) in options.iter().enumerate() {
                        changed |= ui.selectable_value(index, i, *o).changed();
                    }
                    changed
                });
            if r.inner == Some(true) {
                r.response.mark_changed();
            }
            r.response
        });
    }
    fn text(&mut self, info: &ParamInfo, value: &mut String) {
        self.row(info, |ui| ui.text_edit_singleline(value));
    }
    fn color(&mut self, info: &ParamInfo, value: &mut [f32; 4]) {
        let ParamKind::Color { alpha, max } = info.kind else { return };
        self.row(info, |ui| {
            let mut r = if alpha {
                ui.color_edit_button_rgba_unmultiplied(value)
            } else {
                let mut rgb = [value[0], value[1], value[2]];
                let r = ui.color_edit_button_rgb(&mut rgb);
                value[..3].copy_from_slice(&rgb);
                r
            };
            // HDR colours: a scale slider on top of the picker.
            if max > 1.0 {
                let mut scale = value[..3].iter().cloned().fold(0.0f32, f32::max).max(1e-6);
                let before = scale;
                let s = ui.add(egui::Slider::new(&mut scale, 0.0..=max).text("×"));
                if s.changed() {
                    for c in &mut value[..3] {
                        *c = (*c / before * scale).clamp(0.0, max);
                    }
                    r.mark_changed();
                }
            }
            r
        });
    }
}

/// Draws every parameter with a widget matching its kind; returns true if any changed.
pub fn param_panel(ui: &mut egui::Ui, params: &mut dyn DynParameters) -> bool {
    let mut panel = Panel { ui, changed: false };
    params.visit_all(&mut panel);
    panel.changed
}

/// A horizontal colour bar with the range and unit of a scalar view.
pub fn legend(ui: &mut egui::Ui, kind: &ViewKind, range: (f32, f32)) {
    let ViewKind::Scalar { unit, map, log, .. } = *kind else { return };
    let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width().min(260.0), 14.0), egui::Sense::hover());
    let steps = 48;
    for i in 0..steps {
        let t0 = i as f32 / steps as f32;
        let x0 = rect.left() + rect.width() * t0;
        let x1 = rect.left() + rect.width() * (i + 1) as f32 / steps as f32;
        let c = colormap_srgb(map, t0);
        ui.painter().rect_filled(
            egui::Rect::from_min_max(egui::pos2(x0, rect.top()), egui::pos2(x1, rect.bottom())),
            0.0,
            egui::Color32::from_rgb(c[0], c[1], c[2]),
        );
    }
    ui.horizontal(|ui| {
        ui.label(format!("{:.4} {unit}", range.0));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(format!("{:.4} {unit}{}", range.1, if log { " (log)" } else { "" }));
        });
    });
}

/// CPU copy of the shader colour maps (sRGB bytes), for the legend.
pub fn colormap_srgb(map: ColorMap, t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    let rgb = match map {
        ColorMap::Turbo => {
            let r = [0.13572138, 4.61539260, -42.66032258, 132.13108234, -152.94239396, 59.28637943];
            let g = [0.09140261, 2.19418839, 4.84296658, -14.18503333, 4.27729857, 2.82956604];
            let b = [0.10667330, 12.64194608, -60.58204836, 110.36276771, -89.90310912, 27.34824973];
            let poly = |c: [f32; 6]| c.iter().rev().fold(0.0, |acc, k| acc * t + k);
            [poly(r), poly(g), poly(b)]
        }
        ColorMap::Viridis => {
            let c = [
                [0.2777273272234177, 0.005407344544966578, 0.3340998053353061],
                [0.1050930431085774, 1.404613529898575, 1.384590162594685],
                [-0.3308618287255563, 0.214847559468213, 0.09509516302823659],
                [-4.634230498983486, -5.799100973351585, -19.33244095627987],
                [6.228269936347081, 14.17993336680509, 56.69055260068105],
                [4.776384997670288, -13.74514537774601, -65.35303263337234],
                [-5.435455855934631, 4.645852612178535, 26.3124352495832],
            ];
            let mut out = [0.0f32; 3];
            for (ch, o) in out.iter_mut().enumerate() {
                *o = c.iter().rev().fold(0.0, |acc, k| acc * t + k[ch] as f32);
            }
            out
        }
    };
    rgb.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}
