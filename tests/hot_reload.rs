//! Shader hot reload: a broken shader is reported with its file and line, and the last good
//! pipelines keep rendering the same image; fixing the file brings the change in.

mod common;

use common::*;
use fogbook::state::Setup;
use fogbook_core::shaders::ShaderStore;
use fogbook_core::time::TimeControl;

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A stack rendering from a private copy of `shaders/`, which a test may break.
struct Scratch {
    root: std::path::PathBuf,
    h: fogbook_core::headless::Headless,
    setup: Setup,
}

impl Scratch {
    fn new(label: &str, chapters: &str) -> Self {
        let root = std::env::temp_dir().join(format!("fogbook-{label}-{}", std::process::id()));
        copy_dir(&ShaderStore::discover().disk_root.unwrap(), &root);
        let mut h = headless([64, 36]);
        h.shaders = ShaderStore::at(root.clone());
        let mut setup = Setup::new(chapters).unwrap();
        h.prepare_stack(&mut setup.stack).unwrap();
        Self { root, h, setup }
    }

    fn frame(&mut self) -> image::RgbaImage {
        let mut t = TimeControl::fixed(0.0);
        let s = &mut self.setup;
        self.h.run(&mut s.stack, &s.camera, &s.scene, &mut t, Default::default(), 1);
        self.h.capture().unwrap().display
    }

    fn reload(&mut self) -> anyhow::Result<()> {
        self.h.renderer.reload_shaders(&self.h.gpu, &self.h.shaders, &mut self.setup.stack)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

#[test]
fn broken_shader_keeps_the_last_good_pipeline() {
    let mut s = Scratch::new("hot-reload", "distance-fog");
    let good = s.frame();
    let fog = s.root.join("01-distance-fog/distance_fog.wgsl");
    let original = std::fs::read_to_string(&fog).unwrap();
    std::fs::write(&fog, original.replace("let a = fog.color.a;", "let a = fog.color.a +;")).unwrap();
    let msg = format!("{:#}", s.reload().unwrap_err());
    assert!(msg.contains("01-distance-fog/distance_fog.wgsl:"), "{msg}");
    assert_eq!(s.frame(), good, "the last good pipeline keeps running");

    // A visible edit: no fog at all.
    std::fs::write(&fog, original.replace("distance_fog_composite(scene, amount, glow)", "scene")).unwrap();
    s.reload().unwrap();
    assert_ne!(s.frame(), good, "the edit shows");
}

/// A shader that naga accepts but that no longer fits its bind-group layout (the uniform moved
/// to another binding) is an error from reload, not a panic, and the last good pipeline keeps
/// rendering the same image.
#[test]
fn broken_binding_keeps_the_last_good_pipeline() {
    let mut s = Scratch::new("broken-binding", "distance-fog,height-fog");
    let good = s.frame();
    let file = s.root.join("02-height-fog/height_fog.wgsl");
    let original = std::fs::read_to_string(&file).unwrap();
    let moved = "@group(2) @binding(3) var<uniform> height: HeightFogParams;";
    let broken = original.replace("@group(2) @binding(0) var<uniform> height: HeightFogParams;", moved);
    assert_ne!(broken, original);
    std::fs::write(&file, &broken).unwrap();
    let prelude =
        fogbook::registry::chapters().into_iter().find(|c| c.info().id == "height-fog").unwrap().shader_prelude();
    s.h.shaders.with_constants(prelude).load("02-height-fog/height_fog.wgsl").expect("naga accepts the moved binding");
    let err = format!("{:#}", s.reload().unwrap_err());
    eprintln!("{err}");
    assert!(err.contains("height-fog") && err.contains("height_fog"), "{err}");
    assert_eq!(s.frame(), good, "the last good pipeline keeps running");
}
