//! Every WGSL file parses and validates with naga, with no GPU: shared modules on their own,
//! entry files after composition. Also checks that composition errors name the right file.

use fogbook::registry;
use fogbook_core::shaders::ShaderStore;

/// A shared module that calls functions its including files define (poisson.wgsl: where the
/// grids live is up to the includer) names them in a line `// #needs …`. It cannot validate on its
/// own; it is validated inside every file that imports it, and at least one must.
fn needs_includer(source: &str) -> bool {
    source.lines().any(|l| l.trim_start().starts_with("// #needs "))
}

/// The constants from Rust a file composes with: those of the chapter whose shader folder holds
/// it (none for the shared folders).
fn prelude_of(path: &str) -> Vec<fogbook_core::shaders::WgslConst> {
    let folder = path.rsplit_once('/').map_or("", |(f, _)| f);
    registry::chapters()
        .into_iter()
        .find(|c| c.shader_files().iter().any(|f| f.rsplit_once('/').is_some_and(|(d, _)| d == folder)))
        .map(|c| c.shader_prelude())
        .unwrap_or_default()
}

#[test]
fn every_shader_file_validates() {
    let store = ShaderStore::discover();
    let mut checked = 0;
    for path in ShaderStore::all_files() {
        let source = store.read(path).unwrap();
        if needs_includer(&source) {
            let importers = ShaderStore::all_files()
                .filter(|other| store.read(other).unwrap().lines().any(|l| l.trim() == format!("// #import {path}")))
                .count();
            assert!(importers > 0, "{path} needs an including file, and none imports it");
            checked += 1;
            continue;
        }
        let composed = store.with_constants(prelude_of(path)).compose(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        composed.validate().unwrap_or_else(|e| panic!("{e}"));
        checked += 1;
    }
    // Every WGSL file on disk, not only those some list names.
    fn on_disk(dir: &std::path::Path, out: &mut Vec<String>, root: &std::path::Path) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                on_disk(&p, out, root);
            } else if p.extension().is_some_and(|x| x == "wgsl") {
                out.push(p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = store.disk_root.clone().expect("tests run from a checkout with shaders/ on disk");
    let mut files = Vec::new();
    on_disk(&root, &mut files, &root);
    files.sort();
    let mut listed: Vec<String> = ShaderStore::all_files().map(String::from).collect();
    listed.sort();
    assert_eq!(listed, files, "the embedded list and shaders/ on disk differ");
    assert_eq!(checked, files.len(), "every shader file validates");
}

#[test]
fn disk_and_embedded_copies_agree() {
    let disk = ShaderStore::discover();
    assert!(disk.disk_root.is_some(), "tests run from a checkout with shaders/ on disk");
    let embedded = ShaderStore::embedded();
    for path in ShaderStore::all_files() {
        assert_eq!(
            disk.read(path).unwrap(),
            embedded.read(path).unwrap(),
            "{path}: rebuild to refresh the embedded copy"
        );
    }
}

#[test]
fn every_chapter_shader_exists_and_validates() {
    let store = ShaderStore::discover();
    for chapter in registry::chapters() {
        for path in chapter.shader_files() {
            store
                .with_constants(chapter.shader_prelude())
                .load(path)
                .unwrap_or_else(|e| panic!("{}: {e}", chapter.info().id));
        }
    }
}

#[test]
fn errors_point_at_the_file_and_line_that_hold_them() {
    let dir = std::env::temp_dir().join(format!("fogbook-shader-error-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("common")).unwrap();
    let store = ShaderStore::discover();
    std::fs::write(dir.join("common/frame.wgsl"), store.read("common/frame.wgsl").unwrap()).unwrap();
    std::fs::write(
        dir.join("broken.wgsl"),
        "// #import common/frame.wgsl\n\nfn f() -> f32 {\n    return undefined_thing;\n}\n",
    )
    .unwrap();
    let broken = ShaderStore::at(dir.clone());
    let err = broken.load("broken.wgsl").err().expect("must fail").to_string();
    assert!(err.starts_with("broken.wgsl:4:"), "{err}");
    std::fs::write(dir.join("cycle.wgsl"), "// #import cycle.wgsl\n").unwrap();
    assert!(broken.load("cycle.wgsl").is_err());
    assert!(broken.load("missing.wgsl").is_err());
    let _ = std::fs::remove_dir_all(dir);
}
