//! Presets round-trip, and a malformed or out-of-range file changes nothing.

use fogbook::registry;
use fogbook::state::Setup;
use fogbook_core::camera::CameraPose;
use fogbook_core::params::{DynParameters, ParamKind, ParamValue, collect, set_by_name};
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
        // What the preset set survives writing: each chapter's RON, read into a fresh chapter,
        // gives back every parameter the visitor lists (not the RON against itself).
        for i in 0..setup.stack.len() {
            let chapter = setup.stack.chapter_mut(i);
            let id = chapter.info().id;
            let written = collect(chapter.params());
            let defaults = collect(&mut *registry::find(id).unwrap().params());
            assert_ne!(written, defaults, "{}: the preset sets something in {id}", path.display());
            assert_round_trip(id, chapter.params());
        }
        loaded += 1;
    }
    assert!(loaded >= 1, "no preset in {}", dir.display());
}

/// Writes `params` as RON, reads it into a fresh chapter `id` and asserts that every parameter
/// the visitor lists came back with its value.
fn assert_round_trip(id: &str, params: &mut dyn DynParameters) {
    let text = params.to_ron();
    let written = collect(params);
    let mut fresh = registry::find(id).unwrap();
    fresh.params().load_ron(&text).unwrap_or_else(|e| panic!("{id}: its own RON does not load: {e}\n{text}"));
    let read = collect(fresh.params());
    assert_eq!(read.len(), written.len(), "{id}");
    for ((info, want), (_, got)) in written.iter().zip(&read) {
        assert_eq!(got, want, "{id}.{}: written {want}, read back {got}\n{text}", info.name);
    }
}

/// A valid value of parameter `kind` other than `default`, as CLI text (None for text fields).
fn other_value(kind: &ParamKind, default: &ParamValue) -> Option<String> {
    Some(match (kind, default) {
        (ParamKind::Float { min, max, .. }, ParamValue::Float(d)) => {
            // An odd point of the range (an exact decimal in f32 is not needed: RON writes the
            // shortest text that reads back as the same f32).
            let v = [0.29f32, 0.73].into_iter().map(|f| min + (max - min) * f).find(|v| v != d)?;
            format!("{v}")
        }
        (ParamKind::Int { min, max }, ParamValue::Int(d)) => {
            format!("{}", [*min, *max, min + (max - min) / 2].into_iter().find(|v| v != d)?)
        }
        (ParamKind::Bool, ParamValue::Bool(d)) => format!("{}", !d),
        (ParamKind::Choice { options }, ParamValue::Choice(d)) => options.iter().find(|o| *o != d)?.to_string(),
        (ParamKind::Color { alpha, max }, ParamValue::Color(d)) => {
            let c = [0.31 * max.min(1.0), 0.52 * max.min(1.0), 0.73 * max.min(1.0), 0.61];
            if c == *d {
                return None;
            }
            if *alpha { format!("{},{},{},{}", c[0], c[1], c[2], c[3]) } else { format!("{},{},{}", c[0], c[1], c[2]) }
        }
        _ => return None,
    })
}

/// Every chapter's parameters, each moved off its default (one at a time, so that no two
/// settings conflict), survive `to_ron` and `load_ron`: a field that serialisation drops or
/// mangles comes back as its default or not at all.
#[test]
fn every_parameter_of_every_chapter_round_trips_through_ron() {
    let mut moved = 0;
    for mut chapter in registry::chapters() {
        let id = chapter.info().id;
        let defaults = collect(chapter.params());
        assert_round_trip(id, chapter.params());
        for (info, default) in &defaults {
            let Some(value) = other_value(&info.kind, default) else { continue };
            let mut c = registry::find(id).unwrap();
            if set_by_name(c.params(), info.name, &value).is_err() {
                continue;
            }
            let now = collect(c.params());
            let changed = now.iter().find(|(i, _)| i.name == info.name).map(|(_, v)| v);
            assert_ne!(changed, Some(default), "{id}.{} = {value} changed nothing", info.name);
            assert_round_trip(id, c.params());
            moved += 1;
        }
    }
    eprintln!("{moved} parameters moved off their defaults and round-tripped");
    assert!(moved > 100, "only {moved} parameters round-tripped");
}
