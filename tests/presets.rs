//! Presets round-trip, and a malformed or out-of-range file changes nothing.

use fogbook::state::Setup;
use fogbook_core::camera::CameraPose;
use fogbook_core::preset;

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("fogbook-preset-{}-{name}", std::process::id()))
}

#[test]
fn save_then_load_restores_everything() {
    let mut a = Setup::new("distance-fog").unwrap();
    a.set("falloff=atmospheric").unwrap();
    a.set("glow_exponent=32").unwrap();
    a.set("scene.sun_elevation_deg=25").unwrap();
    a.camera = CameraPose::parse("1,2,3,40,-5,50").unwrap();
    let path = temp("roundtrip.ron");
    preset::save(&path, &mut a.stack, &a.camera, &a.scene).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    insta::assert_snapshot!("preset_file", text);

    let mut b = Setup::new("distance-fog").unwrap();
    b.apply(Some(&path), &[], None).unwrap();
    assert_eq!(b.camera, a.camera);
    assert_eq!(b.scene, a.scene);
    assert_eq!(b.stack.settings_key(), a.stack.settings_key());
    let _ = std::fs::remove_file(path);
}

#[test]
fn bad_files_change_nothing() {
    let cases = [
        ("syntax.ron", "(chapter: \"distance-fog\", params: (density: ", "parse"),
        (
            "range.ron",
            "(chapter: \"distance-fog\", camera: Some((position: (9.0, 9.0, 9.0), yaw_deg: 0.0, pitch_deg: 0.0, fov_y_deg: 60.0)), params: (density: 5.0))",
            "out of range",
        ),
        ("unknown.ron", "(chapter: \"distance-fog\", params: (densty: 0.1))", "densty"),
        ("chapter.ron", "(chapter: \"smoke\", params: ())", "not \"distance-fog\""),
        ("scene.ron", "(chapter: \"distance-fog\", scene: Some((sun_elevation_deg: 1000.0)))", "out of range"),
        (
            "camera.ron",
            "(chapter: \"distance-fog\", camera: Some((position: (0.0, 1.0, 0.0), yaw_deg: 0.0, pitch_deg: 120.0, fov_y_deg: 60.0)))",
            "pitch",
        ),
    ];
    for (name, text, expected) in cases {
        let path = temp(name);
        std::fs::write(&path, text).unwrap();
        let mut s = Setup::new("distance-fog").unwrap();
        let before = (s.camera, s.scene.clone(), s.stack.settings_key());
        let err = format!("{:#}", s.apply(Some(&path), &[], None).unwrap_err());
        assert!(err.contains(expected), "{name}: {err}");
        assert_eq!((s.camera, s.scene.clone(), s.stack.settings_key()), before, "{name} changed the state");
        let _ = std::fs::remove_file(path);
    }
}

/// A stack's preset keeps its chapters and each chapter's parameters; loading one whose second
/// chapter has a bad value changes none of them; the file alone chooses the stack.
#[test]
fn stack_presets_round_trip_and_apply_atomically() {
    let mut a = Setup::new("sky,height-fog").unwrap();
    a.set("fog_density=0.04").unwrap();
    a.set("sky.exposure=12").unwrap();
    let path = temp("stack.ron");
    preset::save(&path, &mut a.stack, &a.camera, &a.scene).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("chapter: \"sky,height-fog\""), "{text}");

    // `--preset` without `--chapter`: the file says which chapters.
    let args = fogbook::cli::SceneArgs { preset: Some(path.clone()), ..Default::default() };
    let b = Setup::from_args(&args).unwrap();
    assert_eq!(b.stack.spec(), "sky,height-fog");
    let mut b = b;
    assert_eq!(b.stack.settings_key(), a.stack.settings_key());

    // The sky's block comes after the height fog's, which loads first and must be undone.
    let bad = text.replace("fog_density: 0.04", "fog_density: 0.05").replace("exposure: 12.0", "exposure: -5.0");
    assert_ne!(bad, text);
    let bad_path = temp("stack-bad.ron");
    std::fs::write(&bad_path, bad).unwrap();
    let mut c = Setup::new("sky,height-fog").unwrap();
    let before = c.stack.settings_key();
    let err = format!("{:#}", c.apply(Some(&bad_path), &[], None).unwrap_err());
    assert!(err.contains("sky") && err.contains("out of range"), "{err}");
    assert_eq!(c.stack.settings_key(), before, "a bad chapter leaves every chapter as it was");
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(bad_path);
}

/// The README's hero image is rendered from a preset in the repository: it must keep loading.
#[test]
fn the_hero_preset_loads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/hero.ron");
    let args = fogbook::cli::SceneArgs { preset: Some(path), ..Default::default() };
    let setup = Setup::from_args(&args).unwrap();
    assert_eq!(setup.stack.spec(), "sky,clouds,height-fog,froxel-fog");
}

/// The book's example presets (book/presets/) must keep loading, with the values they were
/// written with (a renamed parameter would fail here, not in a reader's terminal).
#[test]
fn the_book_presets_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/presets");
    let mut loaded = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let args = fogbook::cli::SceneArgs { preset: Some(path.clone()), ..Default::default() };
        let mut setup = Setup::from_args(&args).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        assert!(!setup.stack.chapter_mut(0).params().to_ron().is_empty());
        loaded += 1;
    }
    assert!(loaded >= 1, "no preset in {}", dir.display());
}
