//! `fogbook list`: chapters, views and parameters, as plain text.

use crate::registry;
use fogbook_core::ViewKind;
use fogbook_core::params::collect;
use fogbook_core::scene_settings::SceneSettings;
use std::fmt::Write;

/// The text `list` prints (also snapshot-tested).
pub fn text() -> String {
    let mut out = String::new();
    let mut scene = SceneSettings::default();
    let _ = writeln!(out, "Shared scene settings (--set scene.NAME=VALUE):");
    for (info, value) in collect(&mut scene) {
        let _ = writeln!(
            out,
            "    {:<22} = {:<22} [{}] {}  {}",
            info.name,
            info.value_text(&value),
            info.range_text(),
            info.unit,
            info.help
        );
    }
    let _ = writeln!(out, "\nNamed stacks (--stack NAME; or --chapter a,b,c; views as chapter/view):");
    for (name, ids, what) in registry::STACKS {
        let _ = writeln!(out, "    {:<14} {:<34} {}", name, ids.join(","), what);
    }
    for mut chapter in registry::chapters() {
        let info = chapter.info();
        let _ = writeln!(out, "\nChapter {} — {} ({})\n  {}", info.number, info.title, info.id, info.summary);
        let _ = writeln!(out, "  stage: {}", chapter.stage_io().stage.name());
        let _ = writeln!(out, "  views:");
        for v in chapter.views() {
            let kind = match v.kind {
                ViewKind::Color => "colour".to_string(),
                ViewKind::Scalar { min, max, unit, .. } => format!("scalar {min}..{max} {unit}"),
            };
            let _ = writeln!(out, "    {:<16} {:<20} {}", v.name, kind, v.description);
        }
        let _ = writeln!(out, "  parameters (--set NAME=VALUE):");
        for (p, value) in chapter.params().defaults() {
            let _ = writeln!(
                out,
                "    {:<22} = {:<22} [{}] {}  {}",
                p.name,
                p.value_text(&value),
                p.range_text(),
                p.unit,
                p.help
            );
        }
    }
    out
}
