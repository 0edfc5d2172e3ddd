//! Saving and loading the smoke: round trips, bad files refused, the saved velocity divergence-free.

use crate::{N, UnderTest, norm, smoke, smoke_from, smoke_n, smoke_on, steps};
use fogbook_core::Loaded;
use fogbook_core::headless::Headless;
use fogbook_smoke::Smoke;
use fogbook_smoke::fields::FieldId;

// ANCHOR: save_tests
/// A path in the system's temporary folder, unique to this process and `name`.
fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("fogbook-smoke-{}-{name}", std::process::id()))
}

/// Every field a load replaces, and the parameters, to compare before and after.
fn state(h: &Headless, s: &Loaded<Smoke>) -> (Vec<f32>, Vec<f32>, fogbook_smoke::SmokeParams) {
    (
        s.download(&h.gpu, FieldId::Fluid).unwrap(),
        s.download(&h.gpu, FieldId::Velocity).unwrap(),
        s.chapter.params.clone(),
    )
}

pub(crate) fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn saved_smoke_loads_back_identically() {
    // 20 steps of a hot plume (heat lift on, so velocity, temperature and smoke all move), saved;
    // a fresh chapter with another box and ambient loads it: every value of the fluid and the
    // velocity–temperature texture comes back bit for bit, and the parameters follow the file.
    let (h, mut s) = smoke(&["heat_lift=0.01", "emitter_temperature_k=900"]);
    steps(&h, &mut s, 20);
    let path = temp_path("round-trip.fbvol");
    {
        let (smoke, g) = s.parts().unwrap();
        smoke.save(g, &h.gpu, &path).unwrap();
    }
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert_eq!(bytes as usize, 28 + 4 * 16 + 4 * 8 * N * N * N, "the documented size");
    let (fluid, _, _) = state(&h, &s);
    // The file holds the projected velocity V = u* − ∇q, not the u* the grid keeps.
    let projected = {
        let (smoke, g) = s.parts().unwrap();
        smoke.projected_velocity(g, &h.gpu).unwrap()
    };
    assert!(projected.chunks_exact(4).any(|c| c[3] > 100.0), "the plume is hot");

    let (h2, mut fresh) = smoke(&["box_size_m=20", "ambient_temperature_k=250"]);
    let (smoke2, g2) = fresh.parts().unwrap();
    smoke2.load(g2, &h2.gpu, &path).unwrap();
    let (fluid2, velocity2, params2) = state(&h2, &fresh);
    assert_eq!(bits(&fluid2), bits(&fluid), "fluid differs after the round trip");
    assert_eq!(bits(&velocity2), bits(&projected), "velocity or temperature differs after the round trip");
    assert_eq!((params2.box_size_m, params2.ambient_temperature_k), (12.0, 293.15));
    // …and it steps on from there like the original.
    steps(&h, &mut s, 3);
    steps(&h2, &mut fresh, 3);
    let rel = |a: &[f32], b: &[f32]| norm(&a.iter().zip(b).map(|(x, y)| x - y).collect::<Vec<_>>(), 4) / norm(a, 4);
    let after = s.download(&h.gpu, FieldId::Fluid).unwrap();
    let after2 = fresh.download(&h2.gpu, FieldId::Fluid).unwrap();
    eprintln!("3 steps after loading: fluid differs from the unbroken run by {:.2e} (relative)", rel(&after, &after2));
    // The load restarts the pressure from 0 (the file holds none); three solves mostly catch up.
    assert!(rel(&after, &after2) < 0.05);
    std::fs::remove_file(&path).ok();
}

#[test]
fn bad_volume_files_are_refused_and_change_nothing() {
    let (h, mut s) = smoke(&["heat_lift=0.01"]);
    steps(&h, &mut s, 5);
    let path = temp_path("good.fbvol");
    let good = {
        let (smoke, g) = s.parts().unwrap();
        smoke.save(g, &h.gpu, &path).unwrap();
        std::fs::read(&path).unwrap()
    };
    steps(&h, &mut s, 2); // the state now differs from the file's
    let before = state(&h, &s);
    let mut wrong_magic = good.clone();
    wrong_magic[..4].copy_from_slice(b"RIFF");
    let mut wrong_version = good.clone();
    wrong_version[8..12].copy_from_slice(&7u32.to_le_bytes());
    let mut nan = good.clone();
    let at = 28 + 4 * 16;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let mut hot_box = good.clone();
    hot_box[16..20].copy_from_slice(&1000.0f32.to_le_bytes());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() - 10].to_vec(), "truncated"),
        ("header only", good[..30].to_vec(), "truncated"),
        ("empty", Vec::new(), "truncated"),
        ("wrong magic", wrong_magic, "magic"),
        ("wrong version", wrong_version, "version 7"),
        ("a NaN", nan, "non-finite"),
        ("a 1000 m box", hot_box, "box size"),
    ];
    for (what, bytes, expect) in cases {
        let bad = temp_path("bad.fbvol");
        std::fs::write(&bad, &bytes).unwrap();
        let (smoke, g) = s.parts().unwrap();
        let err = format!("{:#}", smoke.load(g, &h.gpu, &bad).unwrap_err());
        eprintln!("{what}: {err}");
        assert!(err.contains(expect), "{what}: {err}");
        assert!(state(&h, &s) == before, "{what}: the failed load changed the smoke");
        std::fs::remove_file(&bad).ok();
    }
    let (smoke, g) = s.parts().unwrap();
    let err = format!("{:#}", smoke.load(g, &h.gpu, &temp_path("missing")).unwrap_err());
    assert!(err.contains("reading"), "{err}");

    // Another grid: refused with what to do; one the device cannot hold: refused as too big.
    let (h16, mut small) = smoke_n(16, &[]);
    let (smoke, g) = small.parts().unwrap();
    let err = format!("{:#}", smoke.load(g, &h16.gpu, &path).unwrap_err());
    eprintln!("32³ file into 16³: {err}");
    assert!(err.contains("set grid_size=32"), "{err}");
    let huge = fogbook_smoke::volume_file::VolumeFile { n: 1024, box_m: 12.0, ambient_k: 293.15, fields: vec![] };
    let err = format!("{:#}", smoke.restore(g, &h16.gpu, &huge).unwrap_err());
    eprintln!("1024³: {err}");
    assert!(err.contains("too big"), "{err}");
    let small_state = state(&h16, &small);
    assert!(small_state.0.iter().all(|&v| v == 0.0) && small_state.2.grid_size == 16);
    std::fs::remove_file(&path).ok();
}
// ANCHOR_END: save_tests

// ANCHOR: saved_velocity_test
/// The largest |div u| of a cell, in units of max|u| per cell width: the divergence pass's own
/// discrete operator (walls, open top, obstacles) on the velocity now in the grid.
fn relative_divergence(h: &Headless, s: &mut Loaded<Smoke>) -> f64 {
    s.run_now(h, |_, g, p| {
        fogbook_smoke::passes::record_divergence(&h.gpu, p, &g.pipelines, &g.params_group, &mut g.fields);
    });
    let div = s.download(&h.gpu, FieldId::Divergence).unwrap();
    let u = s.download(&h.gpu, FieldId::Velocity).unwrap();
    let cell = s.chapter.params.box_size_m as f64 / s.chapter.params.grid_size as f64;
    let max_u = u.chunks_exact(4).flat_map(|c| c[..3].to_vec()).fold(0.0f64, |m, v| m.max((v as f64).abs()));
    let max_div = div.iter().fold(0.0f64, |m, v| m.max((*v as f64).abs()));
    max_div * cell / max_u
}

#[test]
fn a_saved_velocity_is_divergence_free() {
    // The production plume (MacCormack, two V-cycles, open top, turbulence) after 20 steps: the
    // grid's u* is a gradient short of divergence-free; the file's velocity, loaded into a fresh
    // chapter, is divergence-free to the solver's tolerance plus the half floats' rounding.
    let (h, mut s) = smoke_from(N, &[], &[]);
    steps(&h, &mut s, 20);
    let path = temp_path("divergence-free.fbvol");
    {
        let (smoke, g) = s.parts().unwrap();
        smoke.save(g, &h.gpu, &path).unwrap();
    }
    let before_projection = relative_divergence(&h, &mut s);
    let mut fresh = smoke_on(&h, N, &[], &[]);
    {
        let (smoke, g) = fresh.parts().unwrap();
        smoke.load(g, &h.gpu, &path).unwrap();
    }
    let saved = relative_divergence(&h, &mut fresh);
    eprintln!("max |div u|·h / max|u|: u* in the grid {before_projection:.3e}, the saved velocity {saved:.3e}");
    assert!(before_projection > 0.02, "the grid's u* should be visibly divergent: {before_projection:.3e}");
    assert!(saved < 2e-3, "the saved velocity is not divergence-free: {saved:.3e}");
    std::fs::remove_file(&path).ok();
}
// ANCHOR_END: saved_velocity_test
