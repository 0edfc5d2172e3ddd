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
        (
            &[
                "render",
                "--chapter",
                "clouds",
                "--set",
                "noise_resolution=low",
                "--set",
                "weather_map_file=/nonexistent.png",
                "--size",
                "32x18",
                "--out",
                out,
            ],
            "/nonexistent.png",
        ),
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
        (&["error-table", "--rows", "nope"], "unknown row"),
        (&["error-table", "--rows", "height-fog,height-fog"], "listed twice"),
        (&["error-table", "--size", "0x18"], "zero"),
        (&["error-table", "--size", "big"], "WIDTHxHEIGHT"),
        (&["error-table", "--paths", "0"], "paths"),
        (&["error-table", "--per-frame", "0"], "per-frame"),
        (&["error-table", "--per-frame", "300"], "per-frame"),
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

#[test]
fn every_value_list_prints_is_accepted_by_set() {
    // Each parameter line of `list` is `NAME = VALUE [RANGE] …`: `--set NAME=VALUE` with the
    // value as printed must be accepted and leave the defaults as they were.
    use fogbook_core::params::{DynParameters, set_by_name};
    let (ok, stdout, _) = fogbook(&["list"]);
    assert!(ok);
    let mut chapters = fogbook::registry::chapters();
    let mut scene = fogbook_core::scene_settings::SceneSettings::default();
    let mut current: Option<usize> = None; // None: the scene's settings
    let (mut checked, mut colours) = (0, 0);
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("Chapter ") {
            let id = rest.rsplit_once('(').and_then(|(_, id)| id.strip_suffix(')')).expect("a chapter's id");
            current = Some(chapters.iter().position(|c| c.info().id == id).expect("a registered chapter"));
            continue;
        }
        let Some((name, rest)) = line.trim_start().split_once(" = ") else { continue };
        let Some((value, _)) = rest.split_once(" [") else { continue };
        let (name, value) = (name.trim(), value.trim());
        let params: &mut dyn DynParameters = match current {
            Some(i) => chapters[i].params(),
            None => &mut scene,
        };
        let before = params.to_ron();
        set_by_name(params, name, value).unwrap_or_else(|e| panic!("--set {name}={value} (as `list` prints it): {e}"));
        assert_eq!(params.to_ron(), before, "--set {name}={value} changed the default");
        checked += 1;
        colours += usize::from(value.matches(',').count() >= 2);
    }
    eprintln!("{checked} printed values accepted, {colours} of them colours");
    assert!(checked > 200 && colours >= 10, "parsed only {checked} values ({colours} colours) from `list`");
}

#[test]
fn every_command_and_option_says_what_it_does() {
    // Every subcommand and option has a help line; the defaults that `bake`'s help states are
    // the settings' defaults; `smoke-save`'s help names every field the file holds.
    use clap::CommandFactory;
    let cli = fogbook::cli::Cli::command();
    for sub in cli.get_subcommands() {
        assert!(sub.get_about().is_some(), "`{}` has no help line", sub.get_name());
        for arg in sub.get_arguments().filter(|a| !matches!(a.get_id().as_str(), "help" | "version")) {
            assert!(arg.get_help().is_some(), "`{} --{}` has no help line", sub.get_name(), arg.get_id());
        }
    }
    let bake = cli.find_subcommand("bake").unwrap();
    let d = fogbook_six_way::BakeSettings::default();
    let stated = [
        ("frames", d.frames.to_string()),
        ("steps_per_frame", d.steps_per_frame.to_string()),
        ("warmup", d.warmup_steps.to_string()),
        ("grid", d.grid.to_string()),
        ("layout", format!("{}x{}", d.layout[0], d.layout[1])),
        ("frame_size", d.frame_size[0].to_string()),
        ("view_axis", "z".to_string()),
        ("swizzle", d.swizzle.clone()),
        ("albedo", d.albedo.to_string()),
    ];
    for (id, default) in stated {
        let arg = bake.get_arguments().find(|a| a.get_id() == id).unwrap_or_else(|| panic!("bake --{id}"));
        let help = arg.get_help().unwrap().to_string();
        let states = ["default {d})", "default {d};", "{d} (default)"]
            .iter()
            .any(|f| help.contains(&f.replace("{d}", &default)));
        assert!(states, "bake --{id}: {help:?} should state the default {default}");
    }
    let (ok, help, _) = fogbook(&["smoke-save", "--help"]);
    assert!(ok);
    let path = std::env::temp_dir().join(format!("fogbook-help-{}.fbvol", std::process::id()));
    let (ok, _, err) =
        fogbook(&["smoke-save", "--frames", "2", "--set", "grid_size=16", "--out", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let file = fogbook_smoke::volume_file::VolumeFile::read(&path).unwrap();
    std::fs::remove_file(&path).ok();
    for field in &file.fields {
        let word = if field.name == "color" { "colour" } else { field.name.as_str() };
        assert!(
            help.contains(word),
            "`smoke-save --help` does not mention the {:?} field it writes:\n{help}",
            field.name
        );
    }
    assert!(help.contains("projected velocity"), "{help}");
}

// ANCHOR: smoke_save_against_render
/// The fields `render --chapter smoke --frames N --set …` reaches, as a volume file: the render
/// command's own two steps (`Setup::from_args`, `Headless::run`), then the smoke's snapshot.
fn rendered_smoke(sets: &[&str], frames: u32) -> fogbook_smoke::volume_file::VolumeFile {
    use fogbook_core::time::TimeControl;
    let args = fogbook::cli::SceneArgs {
        chapter: Some("smoke".into()),
        set: sets.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    let mut setup = fogbook::state::Setup::from_args(&args).unwrap();
    let view = setup.stack.find_view("density").unwrap();
    let mut headless = fogbook_core::headless::Headless::new(&setup.stack.requirements(), [32, 18]).unwrap();
    headless.prepare_stack(&mut setup.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    headless.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
    let loaded = setup.stack.chapter_mut(0).as_any_mut().downcast_mut::<fogbook_core::Loaded<fogbook_smoke::Smoke>>();
    let (smoke, state) = loaded.expect("the smoke chapter").parts().unwrap();
    smoke.snapshot(state, &headless.gpu).unwrap()
}

#[test]
fn smoke_save_and_render_reach_the_same_smoke() {
    // `smoke-save` steps in batches of 50 per submission, `render` one step a frame: with the
    // emitter's turbulence (20 steps: one batch; 57: batches of 50 and 7) and with a moving
    // sphere, the saved file holds the fields that rendering N frames reaches, bit for bit.
    let cases: [(&[&str], u32); 3] = [
        (&["grid_size=16"], 20),
        (&["grid_size=16"], 57),
        (&["grid_size=16", "turbulence=0", "sphere_enabled=true", "sphere_velocity_x=3"], 20),
    ];
    for (sets, frames) in cases {
        let path = std::env::temp_dir().join(format!("fogbook-save-vs-render-{}.fbvol", std::process::id()));
        let mut args = vec!["smoke-save".to_string(), "--frames".into(), frames.to_string()];
        for s in sets {
            args.extend(["--set".to_string(), s.to_string()]);
        }
        args.extend(["--out".to_string(), path.to_str().unwrap().to_string()]);
        let (ok, _, err) = fogbook(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(ok, "{err}");
        let saved = fogbook_smoke::volume_file::VolumeFile::read(&path).unwrap();
        std::fs::remove_file(&path).ok();
        let rendered = rendered_smoke(sets, frames);
        for (a, b) in saved.fields.iter().zip(&rendered.fields) {
            let worst = a.values.iter().zip(&b.values).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
            eprintln!("{sets:?}, {frames} steps: {} differs by {worst:e}", a.name);
            assert!(
                a.values.iter().zip(&b.values).all(|(x, y)| x.to_bits() == y.to_bits()),
                "{sets:?}, {frames} steps: smoke-save's {} differs from render's by {worst}",
                a.name
            );
        }
        assert_eq!(saved.fields.len(), 4);
    }
}
// ANCHOR_END: smoke_save_against_render

/// `error-table` end to end at a tiny size: the row is in the printed table with finite numbers,
/// and its mean |e| is what the written images give when recomputed from them (the truth's and
/// the stack's EXR, the error EXR's alpha as the mask).
#[test]
fn error_table_measures_a_row_end_to_end() {
    let dir = std::env::temp_dir().join(format!("fogbook-error-table-{}", std::process::id()));
    let started = std::time::Instant::now();
    let (ok, stdout, stderr) = fogbook(&[
        "error-table",
        "--rows",
        "height-fog",
        "--size",
        "32x18",
        "--paths",
        "16",
        "--per-frame",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    eprintln!("error-table at 32x18, 16 paths: {:.1} s", started.elapsed().as_secs_f64());
    assert!(ok, "{stderr}");
    let line = stdout.lines().find(|l| l.starts_with("| height-fog |")).unwrap_or_else(|| panic!("{stdout}"));
    let cells: Vec<&str> = line.split(" | ").collect();
    let percent = |cell: &str| cell.trim().trim_end_matches('%').trim().parse::<f64>().unwrap();
    assert_eq!(cells[2].trim(), "scene sky", "the sky's mode: {line}");
    for cell in &cells[4..8] {
        assert!(percent(cell).is_finite(), "{cell:?} in {line}");
    }
    assert_eq!(cells[9].trim(), "16", "paths per pixel: {line}");
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("table.json")).unwrap()).unwrap();
    // The height fog's paths are a few collisions long: none reaches the cap of 4 096.
    assert_eq!(table["rows"][0]["cut_share"].as_f64(), Some(0.0), "{}", table["rows"][0]);
    assert_eq!(cells[13].trim(), "0.0000 %", "paths cut: {line}");
    let stats = &table["rows"][0]["stats"];
    let (counted, mean_abs) = (stats["counted"].as_u64().unwrap(), stats["summary"]["mean_abs"].as_f64().unwrap());
    assert!(counted > 0 && counted <= 32 * 18, "{stats}");
    let bias = stats["summary"]["bias"].as_f64().unwrap();
    assert!(mean_abs > 0.0 && bias.abs() <= mean_abs, "{stats}");
    let read = |name: &str| image::open(dir.join(name)).unwrap().to_rgba32f().into_raw();
    let (truth, stack, error) =
        (read("height-fog-truth.exr"), read("height-fog-stack.exr"), read("height-fog-error.exr"));
    let y = |p: &[f32]| 0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
    let floor = 0.01 * truth.chunks(4).map(y).sum::<f64>() / (32.0 * 18.0);
    let (mut sum, mut n) = (0.0, 0);
    for ((t, s), e) in truth.chunks(4).zip(stack.chunks(4)).zip(error.chunks(4)) {
        if e[3] == 1.0 {
            sum += ((y(s) - y(t)) / y(t).max(floor)).abs();
            n += 1;
        }
    }
    assert_eq!(n, counted, "pixels counted in the error image");
    assert!(
        (sum / n as f64 - mean_abs).abs() < 1e-5 * mean_abs.max(1.0),
        "{} from the images, {mean_abs} in the table",
        sum / n as f64
    );
    for png in ["height-fog-truth.jpg", "height-fog-stack.jpg", "height-fog-error.jpg", "table.md"] {
        assert!(dir.join(png).is_file(), "{png} written");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Every row's settings, camera and medium-removing settings are accepted by its stack, and
/// the latter change something.
#[test]
fn error_table_rows_name_real_settings() {
    for row in fogbook::commands::error_table::ROWS {
        let mut setup = fogbook::state::Setup::new(&row.spec()).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        let sets: Vec<String> = row.settings.iter().map(|s| s.to_string()).collect();
        setup.apply(None, &sets, row.camera).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        let before = setup.stack.settings_key();
        for s in row.without_medium {
            setup.set(s).unwrap_or_else(|e| panic!("{}: {s}: {e}", row.name));
        }
        assert_ne!(setup.stack.settings_key(), before, "{}: removing the medium changes nothing", row.name);
        assert!(setup.stack.position(row.chapter).is_some(), "{}: its chapter is in its stack", row.name);
    }
}

/// `bench --steps N` times a simulation held still after N steps (as a paused viewer shows it);
/// without it time runs through every frame.
#[test]
fn bench_steps_then_holds_time_still() {
    let simulated = |more: &[&str]| {
        let mut args = vec!["bench", "--chapters", "smoke", "--size", "32x18", "--warmup", "1", "--frames", "2"];
        args.extend_from_slice(more);
        let (ok, stdout, stderr) = fogbook(&args);
        assert!(ok, "{args:?}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        report["chapters"][0]["simulated_frames"].as_u64().unwrap()
    };
    assert_eq!(simulated(&["--steps", "5"]), 5, "held after its 5 steps");
    assert_eq!(simulated(&[]), 3, "a running clock steps every frame, warm-up included");
}
