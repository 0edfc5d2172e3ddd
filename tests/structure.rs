//! Dependency order is book order: a file of chapter N uses only its own chapter, an earlier one
//! or the core (chapter 0: `chapters/core/`, `shaders/common/`, `shaders/core/`), never a later
//! chapter, so that the book can be read, and the code built, front to back. Checked here without
//! a GPU: the WGSL imports (`// #import DIR/FILE.wgsl`, as `fogbook_core::shaders` composes
//! them), the chapter crates' dependencies (their `Cargo.toml`), and the shader paths a chapter's
//! Rust code names. Shared WGSL lives in `shaders/common/`; a chapter's functions that a later
//! chapter or the core needs move there.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The one import allowed to point forwards, (importer, imported), relative to `shaders/`.
const FORWARD_IMPORTS: &[(&str, &str)] = &[
    // The fog at a transparent surface's own depth composes chapter 4's froxel volume at that
    // depth, and at_depth.wgsl reads chapter 4's uniform and volumes (FroxelParams and its
    // bindings, 04-froxel-fog/common.wgsl): moving it to common would take chapter 4's grid with
    // it. The core binds an all-zero stand-in for the uniform when chapter 4 is not in the stack.
    ("common/transparent_fog.wgsl", "04-froxel-fog/at_depth.wgsl"),
];

const IMPORT_PREFIX: &str = "// #import ";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The chapter a folder of `shaders/` or `chapters/` belongs to: `NN-name` is chapter NN;
/// `core` and `common` are chapter 0.
fn chapter_of_dir(dir: &str) -> Option<u32> {
    match dir {
        "core" | "common" => Some(0),
        _ => {
            let (number, rest) = dir.split_once('-')?;
            (number.len() == 2 && !rest.is_empty()).then(|| number.parse().ok()).flatten()
        }
    }
}

/// The chapter of a path relative to `shaders/` (its first folder).
fn chapter_of_shader(path: &str) -> Option<u32> {
    chapter_of_dir(path.split('/').next()?)
}

fn files_with_extension(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_with_extension(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Every `.wgsl` under `shaders/`, as (path relative to `shaders/`, text).
fn shader_files() -> Vec<(String, String)> {
    let shaders = root().join("shaders");
    let mut paths = Vec::new();
    files_with_extension(&shaders, "wgsl", &mut paths);
    assert!(!paths.is_empty(), "no .wgsl under {}", shaders.display());
    paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&shaders).unwrap().to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

#[test]
fn wgsl_imports_only_from_its_own_or_an_earlier_chapter() {
    let files = shader_files();
    let known: std::collections::HashSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let mut failures = Vec::new();
    let mut exceptions_seen = Vec::new();
    for (path, text) in &files {
        let Some(own) = chapter_of_shader(path) else {
            failures.push(format!("shaders/{path}: its folder is neither `NN-name`, `common` nor `core`"));
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let Some(import) = line.trim_start().strip_prefix(IMPORT_PREFIX) else { continue };
            let import = import.trim();
            let at = format!("shaders/{path}:{}: `// #import {import}`", i + 1);
            if !known.contains(import) {
                failures.push(format!("{at}: no such file under shaders/"));
                continue;
            }
            let Some(target) = chapter_of_shader(import) else {
                failures.push(format!("{at}: the imported file's folder has no chapter"));
                continue;
            };
            if target > own {
                if FORWARD_IMPORTS.contains(&(path.as_str(), import)) {
                    exceptions_seen.push((path.as_str(), import));
                } else {
                    failures.push(format!(
                        "{at}: chapter {own} imports from chapter {target}, a later one (move the shared \
                         code to shaders/common/)"
                    ));
                }
            }
        }
    }
    for exception in FORWARD_IMPORTS {
        if !exceptions_seen.contains(exception) {
            failures.push(format!(
                "FORWARD_IMPORTS lists {} -> {}, which no longer imports forwards: remove it from the list",
                exception.0, exception.1
            ));
        }
    }
    assert!(failures.is_empty(), "{} import(s) against the book's order:\n{}", failures.len(), failures.join("\n"));
}

/// A chapter crate's folder under `chapters/` and its `Cargo.toml`'s text.
fn chapter_manifests() -> Vec<(String, String)> {
    let mut out: Vec<_> = std::fs::read_dir(root().join("chapters"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| {
            let dir = e.file_name().to_string_lossy().into_owned();
            (dir, std::fs::read_to_string(e.path().join("Cargo.toml")).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The value of `key = "value"` on a TOML line, if that is the line's key.
fn string_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.split_once('=')?;
    (k.trim() == key).then(|| v.trim().trim_matches('"'))
}

/// The crates a manifest depends on (normal, dev and build dependencies, any target), each with
/// the manifest's line: the key, or its `package = "…"` where it renames one.
fn dependencies(manifest: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut in_table = false;
    for (i, raw) in manifest.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']');
            let last = header.rsplit('.').next().unwrap_or(header);
            let table = header.split('.').find(|part| part.ends_with("dependencies"));
            in_table = table.is_some() && last.ends_with("dependencies");
            // `[dependencies.name]` names the crate in its header.
            if table.is_some() && !last.ends_with("dependencies") {
                out.push((last.trim_matches('"').to_string(), i + 1));
            }
            continue;
        }
        if !in_table || line.is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let key = key.trim().split('.').next().unwrap().trim_matches('"');
        let renamed = value
            .split(',')
            .find_map(|part| string_value(part.trim().trim_start_matches('{').trim(), "package"))
            .map(|p| p.trim_end_matches('}').trim().trim_matches('"'));
        out.push((renamed.unwrap_or(key).to_string(), i + 1));
    }
    out
}

#[test]
fn chapter_crates_depend_only_on_earlier_chapters() {
    let manifests = chapter_manifests();
    assert!(manifests.len() >= 9, "found only {} chapter crates under chapters/", manifests.len());
    let mut chapter_of_crate = BTreeMap::new();
    let mut failures = Vec::new();
    for (dir, manifest) in &manifests {
        let name = manifest.lines().find_map(|l| string_value(l, "name"));
        match (name, chapter_of_dir(dir)) {
            (Some(name), Some(n)) => {
                chapter_of_crate.insert(name.to_string(), n);
            }
            _ => failures.push(format!("chapters/{dir}/Cargo.toml: no package name or no chapter number")),
        }
    }
    for (dir, manifest) in &manifests {
        let Some(own) = chapter_of_dir(dir) else { continue };
        for (dependency, line) in dependencies(manifest) {
            let Some(&target) = chapter_of_crate.get(&dependency) else { continue };
            if target > own {
                failures.push(format!(
                    "chapters/{dir}/Cargo.toml:{line}: chapter {own} depends on `{dependency}`, chapter {target}, \
                     a later one"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} dependency(ies) against the book's order:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A chapter's Rust code loads shaders by path (`"04-froxel-fog/media.wgsl"`): none of a later
/// chapter's. Comments are skipped.
#[test]
fn chapter_code_names_only_its_own_or_earlier_shaders() {
    let mut failures = Vec::new();
    for (dir, _) in chapter_manifests() {
        let Some(own) = chapter_of_dir(&dir) else { continue };
        let crate_dir = root().join("chapters").join(&dir);
        let mut sources = Vec::new();
        files_with_extension(&crate_dir.join("src"), "rs", &mut sources);
        if crate_dir.join("build.rs").is_file() {
            sources.push(crate_dir.join("build.rs"));
        }
        for source in sources {
            let text = std::fs::read_to_string(&source).unwrap();
            let rel = source.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            for (i, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                // Each string literal ending in `.wgsl"` whose first folder is a chapter's.
                for literal in code.split('"').skip(1).step_by(2) {
                    if !literal.ends_with(".wgsl") || !literal.contains('/') {
                        continue;
                    }
                    let Some(target) = chapter_of_shader(literal) else { continue };
                    if target > own {
                        failures.push(format!(
                            "{rel}:{}: chapter {own} names \"{literal}\", a shader of chapter {target}, a later one",
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} shader path(s) against the book's order:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn chapters_are_numbered_from_their_folders() {
    assert_eq!(chapter_of_dir("common"), Some(0));
    assert_eq!(chapter_of_dir("core"), Some(0));
    assert_eq!(chapter_of_dir("04-froxel-fog"), Some(4));
    assert_eq!(chapter_of_dir("07-smoke-2d"), Some(7));
    assert_eq!(chapter_of_dir("media"), None);
    assert_eq!(chapter_of_shader("common/media/shapes.wgsl"), Some(0));
    let deps = dependencies(
        "[package]\nname = \"x\"\n[dependencies]\nfogbook-core.workspace = true\nb = { package = \"fogbook-sky\", path = \"p\" }\n\
         [dev-dependencies]\nc = \"1\"\n[target.'cfg(unix)'.dependencies]\nd = \"1\"\n[dependencies.e]\nversion = \"1\"\n[features]\nf = []\n",
    );
    let names: Vec<_> = deps.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["fogbook-core", "fogbook-sky", "c", "d", "e"]);
}
