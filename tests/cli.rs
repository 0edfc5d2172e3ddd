//! The command line as a user meets it: `list` output, and bad input of every kind giving one
//! clear error line and a non-zero exit, never a panic.

use std::process::Command;

fn fogbook(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fogbook")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn list_prints_chapters_views_and_parameters() {
    let (ok, stdout, _) = fogbook(&["list"]);
    assert!(ok);
    insta::assert_snapshot!("list", stdout);
}

/// Runs a command that must fail; returns its error line.
fn fails(args: &[&str]) -> String {
    let (ok, _, stderr) = fogbook(args);
    assert!(!ok, "{args:?} should fail");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: expected one error line, got: {stderr}");
    errors[0].to_string()
}

#[test]
fn bad_input_gives_one_clear_error() {
    let out = std::env::temp_dir().join("fogbook-cli-test.png");
    let out = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["render", "--chapter", "nope", "--out", out], "unknown chapter"),
        (&["render", "--view", "nope", "--out", out], "unknown view"),
        (&["render", "--set", "nope=1", "--out", out], "unknown parameter"),
        (&["render", "--set", "density=2", "--out", out], "out of range"),
        (&["render", "--set", "density=NaN", "--out", out], "finite"),
        (&["render", "--set", "density=inf", "--out", out], "finite"),
        (&["render", "--set", "falloff=cubic", "--out", out], "linear | exponential"),
        (&["render", "--set", "density", "--out", out], "name=value"),
        (&["render", "--set", "scene.sun_elevation_deg=200", "--out", out], "out of range"),
        (&["render", "--size", "0x100", "--out", out], "zero"),
        (&["render", "--size", "100000x100", "--out", out], "exceeds"),
        (&["render", "--size", "big", "--out", out], "WIDTHxHEIGHT"),
        (&["render", "--chapter", "local-fog", "--set", "volumes[0].size_x_m=0", "--out", out], "out of range"),
        (&["render", "--chapter", "local-fog", "--set", "volumes[1].size_y_m=NaN", "--out", out], "finite"),
        (&["render", "--chapter", "local-fog", "--set", "volume_count=300", "--out", out], "out of range"),
        (&["render", "--camera", "1,2,NaN,0,0", "--out", out], "finite"),
        (&["render", "--camera", "1,2", "--out", out], "5 or 6 numbers"),
        (&["render", "--out", "/nonexistent-folder/x.png"], "does not exist"),
        (&["render", "--out", "image.jpg"], ".png or .exr"),
        (&["render", "--frames", "0", "--out", out], "frames"),
        (&["render", "--time", "NaN", "--out", out], "time"),
        (&["render", "--preset", "/nonexistent.ron", "--out", out], "preset"),
        (&["bench", "--chapters", "nope"], "unknown chapter"),
        (&["bench", "--chapters", "sky,nope"], "unknown chapter"),
        (&["render", "--chapter", "sky,nope", "--out", out], "unknown chapter"),
        (&["render", "--chapter", "sky,,height-fog", "--out", out], "empty entry"),
        (&["render", "--chapter", "sky,height-fog,sky", "--out", out], "listed twice"),
        (&["render", "--stack", "nope", "--out", out], "unknown stack"),
        (&["render", "--chapter", "sky", "--stack", "atmosphere", "--out", out], "cannot be used with"),
        (&["render", "--stack", "atmosphere", "--view", "optical-depth", "--out", out], "height-fog/optical-depth"),
        (&["render", "--stack", "atmosphere", "--set", "density=0.1", "--out", out], "no chapter of the stack"),
        (&["render", "--chapter", "smoke", "--view", "density", "--set", "grid_size=512", "--out", out], "budget"),
        (
            &["render", "--chapter", "smoke", "--view", "density", "--set", "grid_size=30", "--out", out],
            "multiple of 4",
        ),
        (&["smoke-save", "--set", "grid_size=30", "--out", out], "multiple of 4"),
        (&["smoke-save", "--set", "heat_lift=-1", "--out", out], "out of range"),
        (&["smoke-save", "--set", "heat_lift", "--out", out], "name=value"),
        (&["smoke-save", "--out", "/nonexistent-folder/x.fbvol"], "does not exist"),
    ];
    for (args, expected) in cases {
        let line = fails(args);
        assert!(line.contains(expected), "{args:?}: {line:?} should mention {expected:?}");
    }
}

#[test]
fn render_writes_png_and_exr() {
    let dir = std::env::temp_dir().join(format!("fogbook-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("fog.png");
    let exr = dir.join("fog.exr");
    let (ok, stdout, stderr) = fogbook(&[
        "render",
        "--view",
        "fog-factor",
        "--size",
        "64x36",
        "--set",
        "falloff=exponential",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("wrote"));
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (64, 36));
    let (ok, _, stderr) = fogbook(&["render", "--view", "distance", "--size", "64x36", "--out", exr.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let raw = image::open(&exr).unwrap().to_rgba32f();
    // Raw values, not colours: distances in metres, far beyond 1.
    let max = raw.pixels().map(|p| p[0]).fold(0.0f32, f32::max);
    assert_eq!(max, 4000.0, "sky pixels hold the sky distance");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn smoke_save_writes_a_volume_file() {
    let path = std::env::temp_dir().join(format!("fogbook-cli-{}.fbvol", std::process::id()));
    let (ok, stdout, stderr) = fogbook(&[
        "smoke-save",
        "--set",
        "grid_size=16",
        "--set",
        "heat_lift=0.01",
        "--frames",
        "10",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("wrote"));
    let file = fogbook_smoke::volume_file::VolumeFile::read(&path).unwrap();
    assert_eq!(file.n, 16);
    let hottest = file.field("temperature").unwrap().values.iter().cloned().fold(0.0f32, f32::max);
    assert!(hottest > 200.0, "the emitter heats: {hottest} K above ambient");
    let _ = std::fs::remove_file(path);
}

/// Without XDG_RUNTIME_DIR (a server, a container) a successful run prints no "error" line: the
/// software driver's complaint about it is not an error of ours.
#[test]
fn no_error_lines_without_a_runtime_dir() {
    let out = std::env::temp_dir().join(format!("fogbook-xdg-{}.png", std::process::id()));
    let result = Command::new(env!("CARGO_BIN_EXE_fogbook"))
        .args(["render", "--chapter", "height-fog", "--size", "32x18", "--out", out.to_str().unwrap()])
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(!stderr.to_lowercase().contains("error"), "a successful run printed: {stderr}");
    let _ = std::fs::remove_file(out);
}

/// A stack renders from the command line: a named stack, a debug view of one of its chapters
/// (`chapter/view`), parameters routed to their chapter, raw values in the EXR.
#[test]
fn render_a_stack_and_one_of_its_views() {
    let dir = std::env::temp_dir().join(format!("fogbook-cli-stack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exr = dir.join("tau.exr");
    let (ok, stdout, stderr) = fogbook(&[
        "render",
        "--stack",
        "atmosphere",
        "--view",
        "height-fog/optical-depth",
        "--set",
        "lut_resolution=quarter",
        "--set",
        "height-fog.fog_density=0.5",
        "--set",
        "height_falloff=0",
        "--size",
        "32x18",
        "--out",
        exr.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("sky,height-fog / height-fog/optical-depth"), "{stdout}");
    // Constant density 0.5 /m: τ = 0.5 · d, and sky pixels end at the sky distance (4000 m).
    let raw = image::open(&exr).unwrap().to_rgba32f();
    let max = raw.pixels().map(|p| p[0]).fold(0.0f32, f32::max);
    assert!((max - 2000.0).abs() < 1.0, "largest τ {max}, expected 0.5 × 4000 m");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--set name=value` must reach exactly one field: names are unique within each chapter, and
/// every chapter and view name is unique too.
#[test]
fn names_are_unique() {
    let mut chapter_ids = std::collections::HashSet::new();
    for mut chapter in fogbook::registry::chapters() {
        let id = chapter.info().id;
        assert!(chapter_ids.insert(id), "chapter {id} twice");
        let mut names = std::collections::HashSet::new();
        for (p, _) in chapter.params().defaults() {
            assert!(names.insert(p.name), "{id}: parameter {} twice", p.name);
        }
        let mut views = std::collections::HashSet::new();
        for v in chapter.views() {
            assert!(views.insert(v.name), "{id}: view {} twice", v.name);
        }
    }
}

/// The viewer's presets name real parameters with valid values (it applies them when it opens a
/// chapter), and change something: the point is a better first picture.
#[test]
fn viewer_presets_apply() {
    for mut chapter in fogbook::registry::chapters() {
        let before = chapter.params().to_ron();
        fogbook::registry::apply_viewer_preset(chapter.as_mut()).unwrap();
        if !fogbook::registry::viewer_preset(chapter.info().id).is_empty() {
            assert_ne!(chapter.params().to_ron(), before, "{}", chapter.info().id);
        }
    }
}
