//! Dependency order is book order: a file of chapter N uses only its own chapter, an earlier one
//! or the core (chapter 0: `chapters/core/`, `shaders/common/`, `shaders/core/`), never a later
//! chapter, so that the book can be read, and the code built, front to back. Checked here without
//! a GPU: the WGSL imports (`// #import DIR/FILE.wgsl`, as `fogbook_core::shaders` composes
//! them), the chapter crates' dependencies (their `Cargo.toml`), and the shader paths a chapter's
//! Rust code names. Shared WGSL lives in `shaders/common/`; a chapter's functions that a later
//! chapter or the core needs move there.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

/// Every `// #import` of every shader names a file of its own chapter, an earlier one or the core;
/// there are no exceptions, so any import that points forwards fails.
#[test]
fn wgsl_imports_only_from_its_own_or_an_earlier_chapter() {
    let files = shader_files();
    let known: std::collections::HashSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let mut failures = Vec::new();
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
                failures.push(format!(
                    "{at}: chapter {own} imports from chapter {target}, a later one (move the shared \
                     code to shaders/common/)"
                ));
            }
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
    let registered = fogbook::registry::chapters().len();
    assert_eq!(manifests.len(), registered + 1, "chapter crates under chapters/: the core and each registered one");
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

/// A registered chapter (`fogbook::registry::chapters`) and what names it: its id, its folder
/// under `chapters/` (`NN-id`), its crate (its `Cargo.toml`'s name) and the type the registry
/// makes it from.
struct Registered {
    id: String,
    folder: String,
    krate: String,
    type_name: String,
}

/// Every chapter of the registry, matched to the one folder `chapters/NN-id` whose crate it is,
/// and its type read from the registry's line for that crate.
fn registered_chapters() -> Vec<Registered> {
    let registry = std::fs::read_to_string(root().join("src/registry.rs")).unwrap();
    let manifests = chapter_manifests();
    let mut out = Vec::new();
    for chapter in fogbook::registry::chapters() {
        let id = chapter.info().id.to_string();
        let folders: Vec<_> = manifests
            .iter()
            .filter(|(dir, _)| chapter_of_dir(dir).is_some_and(|n| n > 0) && dir.get(3..) == Some(id.as_str()))
            .collect();
        assert_eq!(folders.len(), 1, "chapter `{id}`: not exactly one folder chapters/NN-{id}");
        let (folder, manifest) = folders[0];
        let krate = manifest.lines().find_map(|l| string_value(l, "name")).unwrap().to_string();
        let path = format!("{}::", krate.replace('-', "_"));
        let type_name = registry
            .split(path.as_str())
            .nth(1)
            .map(|rest| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| panic!("src/registry.rs names no type of `{krate}`"));
        out.push(Registered { id, folder: folder.clone(), krate, type_name });
    }
    let unregistered: Vec<_> = manifests
        .iter()
        .filter(|(dir, _)| chapter_of_dir(dir).is_some_and(|n| n > 0) && !out.iter().any(|c| &c.folder == dir))
        .map(|(dir, _)| dir.as_str())
        .collect();
    assert!(unregistered.is_empty(), "chapter folders the registry does not host: {unregistered:?}");
    out
}

fn camel(kebab: &str) -> String {
    kebab.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect()
}

/// The ways code or prose names a chapter, (form, whether a letter may follow it): its folder,
/// its crate in both spellings, its type as a path (`Smoke::`), "the `id` chapter", and, where the
/// id is more than one word (one word, "sky", "smoke", is also the thing itself), the id in
/// kebab, snake and Camel case (Camel also as the start of a longer name, `HeightFogParams`).
fn chapter_forms(chapter: &Registered) -> Vec<(String, bool)> {
    let mut forms = vec![
        (chapter.folder.clone(), false),
        (chapter.krate.clone(), false),
        (chapter.krate.replace('-', "_"), false),
        (format!("{}::", chapter.type_name), true),
        (format!("{} chapter", chapter.id), false),
    ];
    if chapter.id.contains('-') {
        forms.push((chapter.id.clone(), false));
        forms.push((chapter.id.replace('-', "_"), false));
        forms.push((camel(&chapter.id), true));
    }
    forms
}

/// Where `form` occurs in `line` as a name of its own: no letter or digit before it, and none after
/// it unless `open` (then no lowercase letter after it, so that `HeightFog` is found in
/// `HeightFogParams` but not in `HeightFogs`). "… chapter" forms match in any case.
fn names_form(line: &str, form: &str, open: bool) -> bool {
    let (hay, needle) = if form.ends_with(" chapter") {
        (line.to_lowercase(), form.to_lowercase())
    } else {
        (line.to_string(), form.to_string())
    };
    hay.match_indices(&needle).any(|(at, _)| {
        let before = hay[..at].chars().next_back();
        let after = hay[at + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric)
            && match after {
                None => true,
                Some(c) if open => !c.is_lowercase() || needle.ends_with("::"),
                Some(c) => !c.is_alphanumeric(),
            }
    })
}

/// The chapter numbers a line names other than 0: "chapter 4", "Chapter 4's", "chapters 1, 2 and
/// 4", "chapters 4–5", "ch04", "ch. 4".
fn chapter_numbers(line: &str) -> Vec<u32> {
    let lower = line.to_lowercase();
    let mut out = Vec::new();
    for (at, _) in lower.match_indices("ch") {
        if lower[..at].chars().next_back().is_some_and(char::is_alphanumeric) {
            continue;
        }
        let rest = &lower[at + 2..];
        let rest = match rest.strip_prefix("apters").or_else(|| rest.strip_prefix("apter")) {
            Some(r) => r,
            None => rest.strip_prefix('.').unwrap_or(rest),
        };
        let mut rest = rest.trim_start();
        loop {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() || rest[digits.len()..].chars().next().is_some_and(char::is_alphanumeric) {
                break;
            }
            out.push(digits.parse().unwrap());
            let after = rest[digits.len()..].trim_start();
            let Some(next) = [",", "and ", "or ", "&", "–", "-", "to "].iter().find_map(|s| after.strip_prefix(s))
            else {
                break;
            };
            rest = next.trim_start();
        }
    }
    out.retain(|&n| n != 0);
    out
}

/// The core's files (`chapters/core/src/**/*.rs`, `shaders/core/**/*.wgsl`, and its shared WGSL,
/// `shaders/common/**/*.wgsl`), as (path from the root, text).
fn core_files() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    files_with_extension(&root().join("chapters/core/src"), "rs", &mut paths);
    files_with_extension(&root().join("shaders/core"), "wgsl", &mut paths);
    files_with_extension(&root().join("shaders/common"), "wgsl", &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// What a line of the shared WGSL (`shaders/common/`, the file `path` from the root) says in
/// prose: its comment, less the paths of the shared files themselves (`shared`, from `shaders/`),
/// which are the core's names whatever words they hold. Its code is the shared modules'
/// interface, which chapters call by name (`height_fog_along`); the prose is where a file would
/// name a chapter ("chapter 4", `04-froxel-fog/media.wgsl`) instead of a role.
fn shared_wgsl_prose(line: &str, path: &str, shared: &[String]) -> String {
    let Some((_, comment)) = line.split_once("//") else {
        return String::new();
    };
    let dir = path.trim_start_matches("shaders/").rsplit_once('/').map_or("", |(d, _)| d);
    let is_shared =
        |p: &str| [p.to_string(), format!("common/{p}"), format!("{dir}/{p}")].iter().any(|p| shared.contains(p));
    let in_path = |c: char| c.is_alphanumeric() || "_-./".contains(c);
    let mut prose = String::new();
    let mut rest = comment;
    while let Some(start) = rest.find(in_path) {
        prose.push_str(&rest[..start]);
        let len = rest[start..].find(|c: char| !in_path(c)).unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        if !is_shared(word.trim_end_matches('.')) {
            prose.push_str(word);
        }
        rest = &rest[start + len..];
    }
    prose + rest
}

/// The core is chapter 0 and knows no chapter after it: what it shares, it describes by role
/// ("the volumetric grid", "a chapter that publishes height layers"), so that a chapter can be
/// added, removed or renumbered without the core's code or prose going stale. Any registered
/// chapter's names (`chapter_forms`) and any chapter number but 0 (`chapter_numbers`) fail; in
/// the shared WGSL, in its prose (`shared_wgsl_prose`).
#[test]
fn the_core_names_no_chapter() {
    let chapters = registered_chapters();
    assert_eq!(chapters.len() + 1, chapter_manifests().len(), "a registered chapter for each crate but the core");
    let forms: Vec<_> = chapters.iter().flat_map(chapter_forms).collect();
    let files = core_files();
    let shared: Vec<String> = files
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("shaders/").filter(|p| p.starts_with("common/")).map(String::from))
        .collect();
    let mut failures = Vec::new();
    for (path, text) in files {
        for (i, full_line) in text.lines().enumerate() {
            let prose;
            let line = if path.starts_with("shaders/common/") {
                prose = shared_wgsl_prose(full_line, &path, &shared);
                prose.as_str()
            } else {
                full_line
            };
            let mut names: Vec<String> = forms
                .iter()
                .filter(|(form, open)| names_form(line, form, *open))
                .map(|(form, _)| format!("`{form}`"))
                .collect();
            names.extend(chapter_numbers(line).iter().map(|n| format!("chapter {n}")));
            if !names.is_empty() {
                failures.push(format!("{path}:{}: names {}: {}", i + 1, names.join(", "), full_line.trim()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} line(s) of the core name a chapter (name the role instead):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The detectors themselves, on lines that do and do not name a chapter.
#[test]
fn chapter_names_are_found_in_any_form() {
    assert_eq!(chapter_numbers("chapter 4's grid"), [4]);
    assert_eq!(chapter_numbers("(Chapters 1, 2 and 4)"), [1, 2, 4]);
    assert_eq!(chapter_numbers("chapters 4–5, ch06 and ch. 7"), [4, 5, 6, 7]);
    assert!(chapter_numbers("the book's chapter 0; each 4 chapters; chapter4x; 4 chapters").is_empty());
    assert!(names_form("reads `HeightFogParams`", "HeightFog", true));
    assert!(!names_form("two HeightFogs", "HeightFog", true));
    assert!(names_form("`height_fog_on`", "height_fog", false));
    assert!(!names_form("xheight-fog", "height-fog", false));
    assert!(names_form("by `Smoke::save`", "Smoke::", true));
    assert!(names_form("The Sky chapter", "sky chapter", false));
    assert_eq!(camel("six-way-cards"), "SixWayCards");
}

/// The shared WGSL's prose: its comments, without its own file names.
#[test]
fn shared_wgsl_prose_is_its_comments_less_its_own_files() {
    let shared = ["common/height_fog_functions.wgsl".to_string(), "common/media/shapes.wgsl".to_string()];
    let prose = |line| shared_wgsl_prose(line, "shaders/common/media/casters.wgsl", &shared);
    assert_eq!(prose("fn height_fog_along(d: f32) -> f32 {"), "");
    assert_eq!(prose("let t = height_fog_along(d); // chapter 2's fog"), " chapter 2's fog");
    assert_eq!(prose("// #import common/height_fog_functions.wgsl"), " #import ");
    assert_eq!(prose("// in closed form (shapes.wgsl)."), " in closed form ().");
    assert_eq!(prose("// read by 04-froxel-fog/media.wgsl"), " read by 04-froxel-fog/media.wgsl");
}

/// Whether `path` (from the root) is one of a chapter's own files: its crate and shader folders,
/// its book pages (`book/src/chNN-…`) and figures, its tests (`tests/snake_id.rs` or
/// `tests/snake_id/`, `tests/exercises/chNN.rs`), its snapshot references and its presets.
fn own_file_of(chapter: &Registered, path: &str) -> bool {
    let (folder, id, snake) = (&chapter.folder, &chapter.id, chapter.id.replace('-', "_"));
    let number = &folder[..2];
    let prefixes = [
        format!("chapters/{folder}/"),
        format!("shaders/{folder}/"),
        format!("book/src/ch{number}-"),
        format!("book/src/figures/{id}/"),
        format!("tests/{snake}/"),
        format!("tests/snapshots/{id}/"),
        format!("benches/{id}"),
        format!("book/presets/{id}"),
    ];
    prefixes.iter().any(|p| path.starts_with(p.as_str()))
        || path == format!("tests/{snake}.rs")
        || path == format!("tests/exercises/ch{number}.rs")
}

/// Whether `text` names `chapter`: its folder, its crate in either spelling, or its id (an id of
/// more than one word anywhere on its own; a one-word id, "sky", only as a name in quotes or
/// backticks, a list `"sky,height-fog"` or a path `"sky/…"`, since the word alone is the thing).
fn names_chapter(text: &str, chapter: &Registered) -> Option<String> {
    let apart = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let on_its_own = |form: &str| {
        text.match_indices(form)
            .any(|(at, _)| apart(text[..at].chars().next_back()) && apart(text[at + form.len()..].chars().next()))
    };
    let quoted = |form: &str| {
        text.match_indices(form).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + form.len()..].chars().next();
            before.is_some_and(|c| "\"`,".contains(c)) && after.is_some_and(|c| "\"`,/".contains(c))
        })
    };
    let snake = chapter.krate.replace('-', "_");
    [chapter.folder.as_str(), chapter.krate.as_str(), snake.as_str()]
        .into_iter()
        .find(|f| on_its_own(f))
        .map(str::to_string)
        .or_else(|| {
            let id = chapter.id.as_str();
            (if id.contains('-') { on_its_own(id) } else { quoted(id) }).then(|| id.to_string())
        })
}

/// Whether `.gitignore` leaves `path` (from the root) out of the project: its `/dir` lines are
/// folders at the root, its `*suffix` lines names that end so, other lines names anywhere.
fn ignored(path: &str, rules: &[String]) -> bool {
    rules.iter().any(|rule| {
        if let Some(rooted) = rule.strip_prefix('/') {
            let rooted = rooted.trim_end_matches('/');
            path == rooted || path.starts_with(&format!("{rooted}/"))
        } else if let Some(suffix) = rule.strip_prefix('*') {
            path.ends_with(suffix)
        } else {
            path.split('/').any(|part| part == rule.trim_end_matches('/'))
        }
    })
}

/// Every text file of the project — what git keeps, so not `.git/` or what `.gitignore` leaves
/// out (`target/`, the built book, the figures) — as (path from the root, text).
fn project_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if entry.file_name() != ".git" {
                    walk(&path, out);
                }
            } else {
                out.push(path);
            }
        }
    }
    let rules: Vec<String> = std::fs::read_to_string(root().join(".gitignore"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut paths = Vec::new();
    walk(&root(), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let path = p.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            if ignored(&path, &rules) {
                return None;
            }
            Some((path, std::fs::read_to_string(&p).ok()?))
        })
        .collect()
}

const NEW_CHAPTER_PAGE: &str = "book/src/ch00-core.md";
const NEW_CHAPTER_HEADING: &str = "### What a new chapter touches";

/// The paths the page's lists under "What a new chapter touches" name: the `code spans` of their
/// items that are paths (a chapter's own folders, written with `NN-name`, are left out:
/// `own_file_of` knows them). A path ending in `/` stands for its folder.
fn new_chapter_list() -> Vec<String> {
    let page = std::fs::read_to_string(root().join(NEW_CHAPTER_PAGE)).unwrap();
    let section = page
        .split(NEW_CHAPTER_HEADING)
        .nth(1)
        .unwrap_or_else(|| panic!("{NEW_CHAPTER_PAGE} has no `{NEW_CHAPTER_HEADING}`"));
    let section = section.split("\n#").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- "))
        .flat_map(|item| item.split('`').skip(1).step_by(2))
        .filter(|span| !span.contains("NN") && !span.contains("name"))
        .filter(|span| span.contains(['/', '.']) && !span.contains([' ', '=', '[', '(', '*']))
        .map(str::to_string)
        .collect()
}

/// Adding a chapter is what chapter 0's page says it is: every file outside the chapters' own
/// folders that names a chapter (its id, folder or crate) is on the page's list "What a new
/// chapter touches", and everything on the list exists.
#[test]
fn files_that_name_a_chapter_are_on_the_new_chapter_list() {
    let chapters = registered_chapters();
    let listed = new_chapter_list();
    assert!(listed.len() >= 3, "{NEW_CHAPTER_PAGE}: the list names only {listed:?}");
    let mut failures: Vec<String> = listed
        .iter()
        .filter(|p| !root().join(p.as_str()).exists())
        .map(|p| format!("the list names `{p}`, which does not exist"))
        .collect();
    for (path, text) in project_files() {
        if chapters.iter().any(|c| own_file_of(c, &path)) {
            continue;
        }
        let covered = listed.iter().any(|l| *l == path || (l.ends_with('/') && path.starts_with(l.as_str())));
        let named: Vec<String> = chapters.iter().filter_map(|c| names_chapter(&text, c)).collect();
        if !covered && !named.is_empty() {
            failures.push(format!("{path} names {}, but is not on the list", named.join(", ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} against {NEW_CHAPTER_PAGE}'s `{NEW_CHAPTER_HEADING}`:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
