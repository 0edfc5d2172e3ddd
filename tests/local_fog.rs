//! Chapter 5 on the GPU against its f64 reference, and its handling of bad input.
//!
//! The optical-depth view (raw floats) is compared per pixel with the closed form evaluated in
//! f64 along rays built from the camera pose alone, up to the GPU's own surface distance (the
//! volumes float in the air, so the distance only decides which are hidden behind the boxes).

mod common;

use common::*;
use fogbook_core::Chapter;
use fogbook_core::fog_volume_density::NoiseModel::Baked;
use fogbook_core::fog_volumes::FogVolume;
use fogbook_core::params::set_by_name;
use fogbook_local_fog::reference::{optical_depth, textured_optical_depth_with};
use fogbook_local_fog::{LocalFog, LocalFogParams};
use glam::DVec3;

const SIZE: [u32; 2] = [160, 90];
const CAMERA: &str = "-2,3.5,-14,0,-3,50";

/// One volume in front of the camera, no edge fade (its closed form), with `extra` settings
/// (which may grow the list with `volume_count` and then set the new volumes).
fn settings<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut s = vec![
        "volume_count=1",
        "volumes[0].x_m=-2",
        "volumes[0].y_m=3.5",
        "volumes[0].z_m=-30",
        "volumes[0].size_x_m=9",
        "volumes[0].size_y_m=4",
        "volumes[0].size_z_m=7",
        "volumes[0].yaw_deg=0",
        "volumes[0].falloff=0",
        "volumes[0].edge_fade_m=0",
        "volumes[0].density=0.2",
    ];
    s.extend_from_slice(extra);
    s
}

/// τ of every volume along the pose's ray through pixel (x, y), up to distance d.
fn reference_tau(volumes: &[FogVolume], o: DVec3, v: DVec3, d: f64) -> f64 {
    volumes.iter().map(|vol| optical_depth(vol, o, v, 0.0, d)).sum()
}

/// A unit vector perpendicular to v and another to both.
fn perpendiculars(v: DVec3) -> [DVec3; 2] {
    let a = v.cross(DVec3::Y).normalize();
    [a, a.cross(v)]
}

/// Holds the optical-depth view to the f64 closed form; returns (worst relative error over
/// pixels with τ > 1e-3 off the silhouettes, pixels inside a volume, pixels on a silhouette).
fn check(extra: &[&str]) -> (f64, usize, usize) {
    let sets = settings(extra);
    let img = render("local-fog", "optical-depth", &sets, Some(CAMERA), SIZE).raw;
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), SIZE).raw;
    let (params, _) = typed_settings::<LocalFogParams>(&sets);
    let volumes = params.fog_volumes();
    let (mut worst, mut inside, mut silhouette) = (0.0f64, 0, 0);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (o, v) = pose_ray(CAMERA, SIZE, x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let got = img.pixel(x, y)[0] as f64;
            let want = reference_tau(&volumes, o, v, d);
            // The GPU's ray is the f32 camera basis: its direction is good to a few 1e-7. Where
            // τ changes faster than 1e-4 relative under a 1e-6 rad turn of the ray (at a
            // silhouette, where the crossing shrinks to nothing), that change is added to the bound.
            let turned = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                .map(|w| (reference_tau(&volumes, o, w, d) - want).abs())
                .fold(0.0f64, f64::max);
            // 1e-4 relative with an absolute floor of 1e-6 in τ (the chapter's bound).
            let bound = 1e-4 * want + 1e-6;
            let on_silhouette = turned > bound;
            silhouette += on_silhouette as usize;
            let err = (got - want).abs();
            assert!(
                err <= bound + turned,
                "{extra:?} ({x},{y}) d={d:.3}: GPU {got}, CPU {want} (error {err:.3e}, turn {turned:.3e})"
            );
            if want > 1e-3 {
                inside += 1;
                if !on_silhouette {
                    worst = worst.max(err / want);
                }
            }
        }
    }
    eprintln!(
        "{extra:?}: worst relative error {worst:.2e} off the silhouettes; {inside} pixels inside, {silhouette} on a silhouette"
    );
    assert!(inside > 800, "{extra:?}: the volume covers too little of the image ({inside} pixels)");
    assert!(silhouette * 10 < inside, "{extra:?}: {silhouette} silhouette pixels of {inside}");
    (worst, inside, silhouette)
}

// ANCHOR: optical_depth_test
/// A box, a sphere and a cylinder, each rotated, with constant density and with a height
/// falloff; and two overlapping volumes, whose optical depths add.
#[test]
fn optical_depth_matches_the_closed_form() {
    let rotated = ["volumes[0].yaw_deg=30", "volumes[0].pitch_deg=10", "volumes[0].roll_deg=-15"];
    let cases: Vec<Vec<&str>> = vec![
        ["volumes[0].shape=box"].iter().chain(&rotated).copied().collect(),
        vec!["volumes[0].shape=box", "volumes[0].falloff=0.6"],
        vec!["volumes[0].shape=ellipsoid", "volumes[0].size_x_m=7", "volumes[0].size_y_m=7", "volumes[0].size_z_m=7"],
        ["volumes[0].shape=ellipsoid", "volumes[0].falloff=0.5"].iter().chain(&rotated).copied().collect(),
        ["volumes[0].shape=cylinder"].iter().chain(&rotated).copied().collect(),
        vec!["volumes[0].shape=cylinder", "volumes[0].falloff=0.4", "volumes[0].roll_deg=70"],
        // Overlapping: a sphere inside the box's right half.
        vec![
            "volume_count=2",
            "volumes[1].edge_fade_m=0",
            "volumes[1].x_m=0",
            "volumes[1].y_m=4",
            "volumes[1].z_m=-29",
            "volumes[1].size_x_m=6",
            "volumes[1].size_y_m=6",
            "volumes[1].size_z_m=6",
            "volumes[1].falloff=0.3",
            "volumes[1].density=0.3",
        ],
    ];
    let mut worst = 0.0f64;
    for case in &cases {
        worst = worst.max(check(case).0);
    }
    eprintln!("optical depth, all cases: worst relative error {worst:.2e}");
}
// ANCHOR_END: optical_depth_test

/// Nothing non-finite reaches the frame: every view of the default scene, from outside and from
/// inside a volume, and of a volume at the parameters' limits (densest, steepest falloff, 1 km
/// long, turned on end 100–1100 m up, so that it reaches 500 m below its reference height, where
/// its density would be e^5000 times larger), seen from below, alone and injected into chapter
/// 4's froxels.
#[test]
fn no_view_writes_a_non_finite_value() {
    const EXTREME: &[&str] = &[
        "volumes[0].pitch_deg=90",
        "volumes[0].size_z_m=1000",
        "volumes[0].falloff=10",
        "volumes[0].density=10",
        "volumes[0].y_m=600",
    ];
    const BELOW: &str = "-6,2,-22,0,85,60";
    for view in fogbook_local_fog::VIEWS {
        for (camera, sets) in [(CAMERA, &[][..]), ("-6,1,-22,0,0,60", &[][..]), (BELOW, EXTREME)] {
            for fade in ["volumes[0].edge_fade_m=0", "volumes[0].edge_fade_m=1"] {
                let sets: Vec<&str> = sets.iter().copied().chain([fade]).collect();
                let img = render("local-fog", view.name, &sets, Some(camera), [64, 36]).raw;
                let (_, _, non_finite) = img.red_stats();
                assert_eq!(non_finite, 0, "{} from {camera} with {sets:?}", view.name);
            }
        }
    }
    let grid = ["froxel-fog.grid_width=64", "froxel-fog.grid_height=36", "froxel-fog.grid_depth=32"];
    for view in ["final", "froxel-fog/density-slice", "froxel-fog/inscattering"] {
        let sets: Vec<&str> = EXTREME.iter().chain(&grid).copied().collect();
        let img = render("froxel-fog,local-fog", view, &sets, Some(BELOW), [64, 36]).raw;
        assert_eq!(img.red_stats().2, 0, "{view} with chapter 4");
    }
}

/// A NaN, zero or negative size, a NaN position or 300 volumes is refused with a message naming
/// the parameter and the value kept; so is a list of 300 volumes, or one with a NaN or a zero
/// size, given whole (`set_volumes`) or in a preset, keeping the volumes in use; a volume past
/// the list's end is refused too.
#[test]
fn bad_input_is_refused_and_the_state_kept() {
    use fogbook_core::params::DynParameters;
    use fogbook_local_fog::VolumeParams;
    // ANCHOR: bad_input_test
    let mut chapter = LocalFog::new();
    let before = chapter.params.clone();
    for (name, value) in [
        ("volumes[0].size_x_m", "0"),
        ("volumes[0].size_y_m", "-2"),
        ("volumes[1].size_z_m", "NaN"),
        ("volumes[2].x_m", "nan"),
        ("volumes[3].x_m", "1"),
        ("volume_count", "300"),
    ] {
        let e = set_by_name(&mut chapter.params, name, value).expect_err(value);
        eprintln!("{name}={value}: {e}");
        assert!(e.to_string().contains(name), "the message names the parameter: {e}");
    }
    assert_eq!(chapter.params, before, "every refused value left the parameters as they were");

    let kept = chapter.params.volumes.clone();
    let e = chapter.set_volumes(vec![kept[0].clone(); 300]).unwrap_err();
    assert!(e.contains("300"), "{e}");
    let nan = VolumeParams { y_m: f32::NAN, ..kept[0].clone() };
    let flat = VolumeParams { size_z_m: 0.0, ..kept[1].clone() };
    for bad in [nan, flat] {
        let e = chapter.set_volumes(vec![kept[2].clone(), bad]).unwrap_err();
        eprintln!("{e}");
        assert!(e.contains("volumes[1]"), "the message names the volume: {e}");
        assert_eq!(chapter.status(), Some(e));
        assert_eq!(chapter.params.volumes, kept, "the volumes in use are kept");
    }
    // ANCHOR_END: bad_input_test
    // The same in a preset: 300 volumes, a NaN.
    let mut too_many = chapter.params.clone();
    too_many.volumes = vec![kept[0].clone(); 300];
    let text = too_many.to_ron();
    let e = chapter.params.load_ron(&text).unwrap_err();
    assert!(e.to_string().contains("volume_count = 300"), "{e}");
    let text = before.to_ron().replacen("y_m: 1.25", "y_m: NaN", 1);
    assert!(text.contains("NaN"));
    let e = chapter.params.load_ron(&text).unwrap_err();
    assert!(e.to_string().contains("volumes[0].y_m"), "{e}");
    assert_eq!(chapter.params.volumes, kept);
    // A good list replaces them and clears the message.
    chapter.set_volumes(vec![kept[2].clone()]).unwrap();
    assert_eq!(chapter.volumes(), vec![kept[2].to_fog_volume()]);
    assert_eq!(chapter.status(), None);
}

/// The list's editing operations, as the viewer's panel and `--set` use them: `volume_count`
/// grows the list with new default volumes and cuts it; presets keep the list; `--set` reaches
/// volume i by `volumes[i].field`, through a stack too.
#[test]
fn the_list_grows_shrinks_and_round_trips() {
    use fogbook_core::params::DynParameters;
    use fogbook_local_fog::VolumeParams;
    let mut p = LocalFogParams::default();
    set_by_name(&mut p, "volume_count", "5").unwrap();
    assert_eq!(p.volumes.len(), 5);
    assert_eq!(p.volumes[4], VolumeParams::default());
    set_by_name(&mut p, "volumes[4].density", "0.7").unwrap();
    set_by_name(&mut p, "volumes[4].shape", "cylinder").unwrap();
    let text = p.to_ron();
    let mut q = LocalFogParams { volumes: vec![], ..Default::default() };
    q.load_ron(&text).unwrap();
    assert_eq!(q, p);
    assert_eq!(q.fog_volumes().len(), 5);
    set_by_name(&mut q, "volume_count", "256").unwrap();
    assert_eq!(q.fog_volumes().len(), 256);
    set_by_name(&mut q, "volume_count", "1").unwrap();
    assert_eq!(q.volumes, p.volumes[..1]);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    setup.set("local-fog.volumes[2].density=0.05").unwrap();
    setup.set("volumes[1].phase_g=-0.3").unwrap();
    let e = setup.set("local-fog.volumes[7].density=0.05").unwrap_err();
    assert!(e.to_string().contains("volumes[7].density"), "{e}");
}

/// The snapshot comparison must notice the volumes breaking, each change in the view that shows
/// it: the `final` image with a 10 % denser mist or the mist's height falloff ignored (its
/// bottom's density everywhere), the `optical-depth` view with the smoke column turned 5°, and
/// the `inscattering` view with the sphere's phase g 0.4 instead of 0.5. (In `final` the column
/// turned 5° moves only 0.14 % of the pixels by more than 2 steps: grey smoke over a grey sky.)
#[test]
fn snapshot_comparison_rejects_small_changes_to_a_volume() {
    let tolerance = fogbook::registry::find("local-fog").unwrap().book().snapshot_tolerance;
    for (view, change) in [
        ("final", "volumes[0].density=0.66"),
        ("final", "volumes[0].falloff=0"),
        ("optical-depth", "volumes[2].roll_deg=15"),
        ("inscattering", "volumes[1].phase_g=0.4"),
    ] {
        let base = render("local-fog", view, &[] as &[&str], None, SNAPSHOT_SIZE).display;
        let changed = render("local-fog", view, &[change], None, SNAPSHOT_SIZE).display;
        let d = image_diff(&base, &changed, tolerance);
        eprintln!("{view} with {change}: {d:?}");
        assert!(!d.passes, "{view} with {change} passes the snapshot comparison: {d:?}");
    }
}

/// With chapter 4 in the stack, the grid draws the volumes up to its far end f and this chapter
/// from f on: the `path` view per pixel against the crossings computed on the CPU (blue where a
/// crossing starts before f, orange where one ends beyond it), for the default volumes and a grid
/// ending at 30 m, which cuts the sphere (about 27–35 m away), draws the mist and leaves the
/// cylinder (about 57–63 m) beyond.
/// Pixels whose classification changes under a 1e-6 rad turn of the ray, or with a crossing's end
/// within 1 mm of f, are left out (they are counted and must be few).
#[test]
fn the_grid_draws_volumes_up_to_its_far_end_and_this_chapter_beyond() {
    use fogbook_local_fog::reference::chord;
    const FAR: f64 = 30.0;
    let sets = [
        "froxel-fog.grid_width=64",
        "froxel-fog.grid_height=36",
        "froxel-fog.grid_depth=32",
        "froxel-fog.fog_distance_m=30",
    ];
    // The default camera, spelled out.
    let camera = "0,2,0,0,-2,60";
    let img = render("froxel-fog,local-fog", "local-fog/path", &sets, Some(camera), [160, 90]).raw;
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(camera), [160, 90]).raw;
    let volumes = LocalFogParams::default().fog_volumes();
    // ANCHOR: handover_classify
    let classify = |o: DVec3, v: DVec3, d: f64| {
        let (mut froxel, mut analytic, mut near_edge) = (false, false, false);
        for vol in &volumes {
            if let Some((a, b)) = chord(vol, o, v) {
                let (a, b) = (a.max(0.0), b.min(d));
                if b > a {
                    froxel |= a < FAR;
                    analytic |= b > FAR;
                    near_edge |= (a - FAR).abs() < 1e-3 || (b - FAR).abs() < 1e-3;
                }
            }
        }
        (froxel, analytic, near_edge)
    };
    // ANCHOR_END: handover_classify
    let (mut counts, mut skipped) = ([0usize; 4], 0);
    for y in 0..90 {
        for x in 0..160 {
            let (o, v) = pose_ray(camera, [160, 90], x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let (froxel, analytic, near_edge) = classify(o, v, d);
            let stable = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                .all(|w| {
                    let c = classify(o, w, d);
                    (c.0, c.1) == (froxel, analytic)
                });
            if near_edge || !stable {
                skipped += 1;
                continue;
            }
            // ANCHOR: handover_test
            let p = img.pixel(x, y);
            let (f, a) = (froxel as u8 as f32, analytic as u8 as f32);
            let want = [0.2 * f + 1.0 * a, 0.45 * f + 0.55 * a, 1.0 * f + 0.1 * a];
            assert!(
                (0..3).all(|c| (p[c] - want[c]).abs() < 1e-6),
                "({x},{y}): GPU {:?}, CPU froxel {froxel} analytic {analytic}",
                &p[..3]
            );
            counts[froxel as usize * 2 + analytic as usize] += 1;
        }
    }
    eprintln!(
        "path: none {}, analytic {}, froxel {}, both {}; {skipped} skipped",
        counts[0], counts[1], counts[2], counts[3]
    );
    assert!(counts[1] > 100 && counts[2] > 100 && counts[3] > 20, "every path occurs: {counts:?}");
    assert!(skipped * 50 < 160 * 90, "{skipped} pixels left out");
    // ANCHOR_END: handover_test
}

/// The in-scattering against the closed form where it is exact: ambient light alone (the sun
/// off, no emission), where every volume's source per unit extinction is albedo × L_amb, so the
/// radiance is albedo × L_amb × (1 − e^(−τ)) whatever the densities' profiles and overlaps. A
/// rotated cylinder with falloff; a box and a sphere overlapping, with different falloffs. Each
/// channel per pixel within 1e-4 relative plus 1e-6, plus the silhouette allowance of
/// `optical_depth_matches_the_closed_form`.
#[test]
fn ambient_inscattering_matches_the_closed_form() {
    let ambient = fogbook_core::scene_settings::SceneSettings::default().ambient;
    let albedo = [0.8, 0.6, 0.4];
    let cases: [&[&str]; 2] = [
        &["volumes[0].shape=cylinder", "volumes[0].falloff=0.4", "volumes[0].roll_deg=30", "volumes[0].yaw_deg=20"],
        &[
            "volume_count=2",
            "volumes[0].falloff=0.3",
            "volumes[1].shape=ellipsoid",
            "volumes[1].edge_fade_m=0",
            "volumes[1].falloff=0",
            "volumes[1].x_m=0",
            "volumes[1].y_m=4",
            "volumes[1].z_m=-29",
            "volumes[1].size_x_m=6",
            "volumes[1].size_y_m=6",
            "volumes[1].size_z_m=6",
            "volumes[1].density=0.3",
            "volumes[1].albedo=0.8,0.6,0.4",
        ],
    ];
    for extra in cases {
        let mut sets = settings(extra);
        sets.extend(["volume_sun_scale=0", "volumes[0].emission=0,0,0", "volumes[0].albedo=0.8,0.6,0.4"]);
        let img = render("local-fog", "inscattering", &sets, Some(CAMERA), SIZE).raw;
        let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), SIZE).raw;
        let (params, _) = typed_settings::<LocalFogParams>(&sets);
        let volumes = params.fog_volumes();
        // ANCHOR: ambient_test
        let radiance = |tau: f64, c: usize| albedo[c] * ambient[c] as f64 * -(-tau).exp_m1();
        let (mut worst, mut inside) = (0.0f64, 0);
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                let (o, v) = pose_ray(CAMERA, SIZE, x, y);
                let d = distance.pixel(x, y)[0] as f64;
                let tau = reference_tau(&volumes, o, v, d);
                let turned: Vec<f64> = perpendiculars(v)
                    .iter()
                    .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                    .map(|w| reference_tau(&volumes, o, w, d))
                    .collect();
                for c in 0..3 {
                    let want = radiance(tau, c);
                    let slack = turned.iter().map(|&t| (radiance(t, c) - want).abs()).fold(0.0, f64::max);
                    let got = img.pixel(x, y)[c] as f64;
                    let err = (got - want).abs();
                    assert!(
                        err <= 1e-4 * want + 1e-6 + slack,
                        "{extra:?} ({x},{y}) channel {c}: GPU {got}, CPU {want} (τ {tau})"
                    );
                    if want > 1e-3 && slack <= 1e-4 * want {
                        worst = worst.max(err / want);
                    }
                }
                inside += (tau > 1e-3) as usize;
            }
        }
        // ANCHOR_END: ambient_test
        eprintln!("{extra:?}: ambient in-scattering, worst relative error {worst:.2e} on {inside} pixels");
        assert!(inside > 800, "{inside}");
    }
}

/// `n` volumes scattered over the view of `CAMERA` (shapes, sizes, rotations and materials
/// mixed; a few around and behind the eye, which the bounds must not lose), as settings.
fn scattered_volumes(n: usize) -> Vec<String> {
    let mut seed = 0x2545_f491u32;
    let mut next = |lo: f32, hi: f32| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        lo + (hi - lo) * (seed as f32 / u32::MAX as f32)
    };
    let mut s = vec![format!("volume_count={n}")];
    for i in 0..n {
        let near = i % 8 == 0; // around the eye, at (−2, 3.5, −14)
        let (x, z) = if near { (next(-6.0, 2.0), next(-18.0, -8.0)) } else { (next(-30.0, 30.0), next(-90.0, -16.0)) };
        let fields = [
            ("shape", ["box", "ellipsoid", "cylinder"][i % 3].to_string()),
            ("x_m", x.to_string()),
            ("y_m", next(0.5, 9.0).to_string()),
            ("z_m", z.to_string()),
            ("size_x_m", next(0.3, 9.0).to_string()),
            ("size_y_m", next(0.3, 6.0).to_string()),
            ("size_z_m", next(0.3, 9.0).to_string()),
            ("yaw_deg", next(-180.0, 180.0).to_string()),
            ("pitch_deg", next(-40.0, 40.0).to_string()),
            ("density", next(0.02, 0.5).to_string()),
            ("falloff", next(0.0, 0.5).to_string()),
            ("edge_fade_m", next(0.0, 1.0).to_string()),
            ("phase_g", next(-0.5, 0.8).to_string()),
        ];
        s.extend(fields.iter().map(|(f, v)| format!("volumes[{i}].{f}={v}")));
    }
    s
}

/// Culling changes nothing: 48 scattered volumes drawn with the binned lists and with every
/// volume tested everywhere (`culling=false`, `volume_culling=false`: the same shaders, every
/// bit set) give bit-identical images — this chapter's analytic pass (its colour), and chapter
/// 4's froxels with the volumes injected (the colour, and a slice's extinction). And it culls:
/// on average a tile tests under a fifth of the volumes.
#[test]
fn culling_changes_no_pixel() {
    let volumes = scattered_volumes(48);
    let with = |extra: &[&str]| -> Vec<String> {
        volumes.iter().cloned().chain(extra.iter().map(|s| s.to_string())).collect()
    };
    let grid = [
        "froxel-fog.grid_width=64",
        "froxel-fog.grid_height=36",
        "froxel-fog.grid_depth=32",
        "froxel-fog.fog_distance_m=40",
    ];
    // ANCHOR: culling_test
    let cases: [(&str, &str, Vec<&str>); 3] = [
        ("local-fog", "final", vec![]),
        ("froxel-fog,local-fog", "final", grid.to_vec()),
        ("froxel-fog,local-fog", "froxel-fog/density-slice", [&grid[..], &["froxel-fog.slice=25"]].concat()),
    ];
    for (stack, view, extra) in cases {
        let on = with(&extra);
        let off = with(&[&extra[..], &["local-fog.culling=false"]].concat());
        let off = if stack.starts_with("froxel") { with_more(off, "froxel-fog.volume_culling=false") } else { off };
        let a = render(stack, view, &on.iter().map(String::as_str).collect::<Vec<_>>(), Some(CAMERA), SIZE).raw;
        let b = render(stack, view, &off.iter().map(String::as_str).collect::<Vec<_>>(), Some(CAMERA), SIZE).raw;
        let differ = a.rgba.iter().zip(&b.rgba).filter(|(x, y)| x.to_bits() != y.to_bits()).count();
        let (lo, hi, _) = a.red_stats();
        eprintln!("{stack} {view}: {differ} values differ (red {lo:.3e}..{hi:.3e})");
        assert!(hi > lo, "{stack} {view} shows nothing");
        assert_eq!(differ, 0, "{stack} {view}: culling changed {differ} values");
    }
    let tiles = render(
        "local-fog",
        "tile-volumes",
        &with(&[]).iter().map(String::as_str).collect::<Vec<_>>(),
        Some(CAMERA),
        SIZE,
    )
    .raw;
    let mean = tiles.rgba.chunks_exact(4).map(|p| p[0] as f64).sum::<f64>() / (SIZE[0] * SIZE[1]) as f64;
    eprintln!("volumes per tile: mean {mean:.2} of 48");
    assert!(mean > 1.0 && mean < 48.0 / 5.0, "{mean}");
    // ANCHOR_END: culling_test
}

fn with_more(mut sets: Vec<String>, more: &str) -> Vec<String> {
    sets.push(more.to_string());
    sets
}

/// Chapter 4's grid for the froxel tests: 64×36 columns, 32 slices from 1 m to `far`, no
/// medium of its own, no jitter.
fn froxel_grid(far: &str) -> Vec<String> {
    let mut s: Vec<String> =
        ["grid_width=64", "grid_height=36", "grid_depth=32", "constant_density=0", "layer_density=0"]
            .iter()
            .map(|s| format!("froxel-fog.{s}"))
            .collect();
    s.push(format!("froxel-fog.fog_distance_m={far}"));
    s
}

/// A slab wider than the view, from the ground to 80 m up (its falloff's reference height y₀ is
/// the ground), `thickness` m thick, its near face `near` m in front of the eye (along −z), as
/// settings of volume 0.
fn slab(near: f64, thickness: f64, extra: &[&str]) -> Vec<String> {
    let mut s = vec!["volume_count=1".to_string()];
    for (f, v) in [
        ("shape", "box".to_string()),
        ("x_m", "0".into()),
        ("y_m", "40".into()),
        ("z_m", format!("{}", -(near + thickness / 2.0))),
        ("size_x_m", "400".into()),
        ("size_y_m", "80".into()),
        ("size_z_m", format!("{thickness}")),
        ("yaw_deg", "0".into()),
        ("density", "0.2".into()),
        ("falloff", "0".into()),
        ("edge_fade_m", "0".into()),
    ] {
        s.push(format!("volumes[0].{f}={v}"));
    }
    s.extend(extra.iter().map(|e| format!("volumes[0].{e}")));
    s
}

/// The froxel path's error for a large volume (the book derives it): a volume enters each froxel
/// as its exact optical depth along the column's ray through the slice, so a column's
/// transmittance is exact and the only error left is the reconstruction across columns — the
/// composite's bilinear blend of the four nearest columns. So chapter 4's `transmittance` view
/// must lie within the range of the f64 closed form along those four columns' rays (plus 1e-4),
/// for a 6 m slab of constant density 0.2 /m 20–26 m ahead, and with a height falloff; the
/// error against the pixel's own ray is reported. (With the density sampled at one point per
/// froxel instead, the error is up to σ (Δ_a + Δ_b) / 2 in τ, Δ the slices' lengths at the
/// faces — 0.7 here — and this test fails.)
#[test]
fn froxel_path_is_exact_per_column_and_blends_columns() {
    const CAMERA_UP: &str = "0,2,0,0,35,60"; // only sky: every ray crosses the whole slab
    let grid = [64u32, 36];
    // A noise-textured slab has no closed form: the media pass integrates each slice's piece of
    // the crossing by the midpoint rule in 8 steps, and the reference does the same in f64 over
    // chapter 4's slices (1–100 m, 32 of them), so the same bound holds.
    const NOISE: &[&str] = &["density_source=noise", "noise_frequency=0.4", "noise_contrast=0.8"];
    let slices = fogbook_froxel_fog::reference::Slices::new(1.0, 100.0, 32);
    for extra in [&[][..], &["falloff=0.03"][..], NOISE] {
        let sets: Vec<String> = froxel_grid("100").into_iter().chain(slab(20.0, 6.0, extra)).collect();
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let img = render("froxel-fog,local-fog", "froxel-fog/transmittance", &sets, Some(CAMERA_UP), SIZE).raw;
        let (params, _) = typed_settings::<LocalFogParams>(
            &sets.iter().filter(|s| !s.starts_with("froxel")).copied().collect::<Vec<_>>(),
        );
        let volume = params.fog_volumes()[0];
        let textured = !extra.is_empty() && extra[0].starts_with("density_source");
        let t = |o: DVec3, v: DVec3| {
            if textured {
                // The noise as the GPU reads it, baked (its own error is `check_textured`'s).
                let per_slice =
                    |k| textured_optical_depth_with(Baked, &volume, o, v, slices.begin(k), slices.end(k), &[], 8);
                (-(0..32).map(per_slice).sum::<f64>()).exp()
            } else {
                (-optical_depth(&volume, o, v, 0.0, 100.0)).exp()
            }
        };
        let (mut worst_pixel, mut worst_outside) = (0.0f64, 0.0f64);
        // ANCHOR: froxel_error_test
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                // The four columns the composite blends (clamped at the grid's border).
                let u = (x as f64 + 0.5) / SIZE[0] as f64 * grid[0] as f64 - 0.5;
                let w = (y as f64 + 0.5) / SIZE[1] as f64 * grid[1] as f64 - 0.5;
                let cols = |c: f64, n: u32| {
                    [c.floor().clamp(0.0, n as f64 - 1.0) as u32, (c.floor() + 1.0).clamp(0.0, n as f64 - 1.0) as u32]
                };
                let mut range = (f64::INFINITY, f64::NEG_INFINITY);
                for i in cols(u, grid[0]) {
                    for j in cols(w, grid[1]) {
                        let (o, v) = pose_ray(CAMERA_UP, grid, i, j);
                        let c = t(o, v);
                        range = (range.0.min(c), range.1.max(c));
                    }
                }
                let got = img.pixel(x, y)[0] as f64;
                let (o, v) = pose_ray(CAMERA_UP, SIZE, x, y);
                worst_pixel = worst_pixel.max((got - t(o, v)).abs());
                let outside = (range.0 - got).max(got - range.1).max(0.0);
                worst_outside = worst_outside.max(outside);
                assert!(outside <= 1e-4 + 1e-4 * got, "{extra:?} ({x},{y}): {got} outside the columns' {range:?}");
            }
        }
        // ANCHOR_END: froxel_error_test
        eprintln!(
            "{extra:?}: froxel transmittance vs the pixel's ray: worst {worst_pixel:.2e}; outside the columns' range by {worst_outside:.1e}"
        );
    }
}

/// A volume moved across the grid's far end f (40 m) in steps of 1 % of f changes no pixel by
/// more than 2 % from one step to the next: a 3 m slab of constant density and one with a height
/// falloff, lit by the sun (with the volume's phase g = 0.6 and its self-shadowing, which both
/// paths have) and the ambient light, its near face from 35.6 m (all of it in the
/// grid along every ray of the view, 2°–12° up) to 40.4 m (all beyond) in front of the eye; and
/// the constant slab again in the shadow of another volume, a 2 m thick layer of 0.05 /m far
/// above it towards the sun (wide enough that its shadow covers the whole view evenly, a
/// transmittance of 0.56): both paths shadow one volume by another, so it does not pop either
/// (with the froxels lit by the unshadowed sun, it stepped by 6.9 %). One stack is prepared once
/// and drawn at every step.
#[test]
fn a_volume_crossing_the_far_end_does_not_pop() {
    use fogbook_core::time::TimeControl;
    const CAMERA_LOW: &str = "0,2,0,0,7,10"; // rays 2°–12° above the horizon: only sky
    let size = [96u32, 54];
    let mut h = headless(size);
    // The layer over the slab: 200 m wide, 15 m up, along the sun's ray from the view's patch of
    // the slab (its shadow's optical depth is 2 m / sin(10°) · 0.05 /m wherever it falls).
    let sun = fogbook_core::scene_settings::SceneSettings::default().sun_direction().as_dvec3();
    let layer = DVec3::new(0.0, 5.0, -38.0) + sun * (10.0 / sun.y);
    let shade = [
        "volume_count=2".to_string(),
        "volumes[1].shape=box".into(),
        format!("volumes[1].x_m={}", layer.x),
        format!("volumes[1].y_m={}", layer.y),
        format!("volumes[1].z_m={}", layer.z),
        "volumes[1].size_x_m=200".into(),
        "volumes[1].size_y_m=2".into(),
        "volumes[1].size_z_m=200".into(),
        "volumes[1].yaw_deg=0".into(),
        "volumes[1].density=0.05".into(),
        "volumes[1].falloff=0".into(),
        "volumes[1].edge_fade_m=0".into(),
        "volumes[1].density_source=constant".into(),
    ];
    for (extra, shaded) in [(&[][..], false), (&["falloff=0.1"][..], false), (&[][..], true)] {
        let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
        let mut base: Vec<String> = froxel_grid("40");
        // Sunlit, with the volume's own phase g (the grid's is 0) and without the scene's shadow
        // map, whose edges move over the slab as it moves.
        let light = ["froxel-fog.volume_shadows=false", "local-fog.volume_scene_shadows=false", "froxel-fog.phase_g=0"];
        base.extend(light.iter().map(|s| s.to_string()).chain(["volumes[0].phase_g=0.6".to_string()]));
        setup.apply(None, &base, Some(CAMERA_LOW)).unwrap();
        h.prepare_stack(&mut setup.stack).unwrap();
        let view = setup.stack.find_view("final").unwrap();
        let mut last: Option<Vec<f32>> = None;
        let mut worst = (0.0f32, 0.0f64);
        // ANCHOR: no_pop_test
        for step in 0..=12 {
            let near = 35.6 + 0.4 * step as f64;
            for s in slab(near, 3.0, extra) {
                setup.set(&s).unwrap();
            }
            for s in shade.iter().filter(|_| shaded) {
                setup.set(s).unwrap();
            }
            let mut time = TimeControl::fixed(0.0);
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
            let img = h.capture().unwrap().raw.rgba;
            if let Some(prev) = &last {
                for (a, b) in prev.chunks_exact(4).zip(img.chunks_exact(4)) {
                    for c in 0..3 {
                        let change = (b[c] - a[c]).abs() / a[c].abs().max(1e-6);
                        if change > worst.0 {
                            worst = (change, near);
                        }
                    }
                }
            }
            last = Some(img);
        }
        eprintln!(
            "{extra:?} shaded {shaded}: largest change of a pixel between steps {:.3} % (near face at {:.1} m)",
            100.0 * worst.0,
            worst.1
        );
        assert!(
            worst.0 <= 0.02,
            "{extra:?} shaded {shaded}: a pixel changed by {:.2} % at {:.1} m",
            100.0 * worst.0,
            worst.1
        );
        // ANCHOR_END: no_pop_test
    }
}

/// A thin volume does not flicker under temporal accumulation: a wall of fog 0.3 m thick (τ 0.3,
/// a tenth of the 3 m slices around it) 20 m ahead, in chapter 4's grid with jitter and history
/// on, in a static view. Over 8 frames after 8 of warm-up, its in-scattering (chapter 4's
/// `inscattering` view) averaged over its inside (pixels against the sky whose neighbours a
/// column away see it too; at the silhouette the jitter across the columns moves it by design)
/// changes from one frame to the next by at most 2 % of its mean luminance, and no pixel there by
/// more than 10 %.
#[test]
fn a_thin_volume_does_not_flicker() {
    use fogbook_core::time::TimeControl;
    const CAMERA_WALL: &str = "0,6,0,0,10,60"; // above the scene's boxes, the wall against the sky
    let size = [96u32, 54];
    let mut sets: Vec<String> = froxel_grid("60");
    sets.extend(["froxel-fog.temporal=true".to_string(), "volume_count=1".to_string()]);
    if let Ok(extra) = std::env::var("EXTRA") {
        sets.extend(extra.split(' ').map(String::from));
    }
    for (f, v) in [("shape", "box"), ("x_m", "0"), ("y_m", "12"), ("z_m", "-20"), ("size_x_m", "16")] {
        sets.push(format!("volumes[0].{f}={v}"));
    }
    for (f, v) in [
        ("size_y_m", "8"),
        ("size_z_m", "0.3"),
        ("yaw_deg", "0"),
        ("density", "1"),
        ("edge_fade_m", "0"),
        ("falloff", "0"),
    ] {
        sets.push(format!("volumes[0].{f}={v}"));
    }
    let mut h = headless(size);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    setup.apply(None, &sets, Some(CAMERA_WALL)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("froxel-fog/inscattering").unwrap();
    let own: Vec<&String> = sets.iter().filter(|s| !s.starts_with("froxel")).collect();
    let (params, _) = typed_settings::<LocalFogParams>(&own);
    let volume = params.fog_volumes()[0];
    let column = 1.2 * 2.0 * (30f64.to_radians().tan()) / 36.0; // a column's width at unit distance, and some
    let inside: Vec<bool> = (0..size[0] * size[1])
        .map(|i| {
            let (o, v) = pose_ray(CAMERA_WALL, size, i % size[0], i / size[0]);
            let [a, b] = perpendiculars(v);
            [a, -a, b, -b, DVec3::ZERO]
                .iter()
                .all(|&p| fogbook_local_fog::reference::chord(&volume, o, (v + p * column).normalize()).is_some())
        })
        .collect();
    let luminance = |p: &[f32]| 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
    let mut time = TimeControl::fixed(0.0);
    let mut frames: Vec<Vec<f32>> = Vec::new();
    for f in 0..16 {
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        if f >= 8 {
            let raw = h.capture().unwrap().raw.rgba;
            frames.push(raw.chunks_exact(4).map(luminance).collect());
        }
    }
    // ANCHOR: flicker_test
    let count = inside.iter().filter(|&&i| i).count();
    let means: Vec<f64> = frames
        .iter()
        .map(|f| f.iter().zip(&inside).filter(|(_, i)| **i).map(|(l, _)| *l as f64).sum::<f64>() / count as f64)
        .collect();
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    let (mut worst_mean, mut worst_pixel) = (0.0f64, 0.0f64);
    for (pair, m) in frames.windows(2).zip(means.windows(2)) {
        worst_mean = worst_mean.max((m[1] - m[0]).abs() / mean);
        for (i, (a, b)) in pair[0].iter().zip(&pair[1]).enumerate() {
            if inside[i] {
                worst_pixel = worst_pixel.max((b - a).abs() as f64 / mean);
            }
        }
    }
    eprintln!(
        "thin volume: {count} pixels, mean luminance {mean:.4}; largest change between frames: of the mean {:.3} %, of a pixel {:.2} %",
        100.0 * worst_mean,
        100.0 * worst_pixel
    );
    assert!(count > 300 && mean > 1e-3, "{count} {mean}");
    assert!(worst_mean <= 0.02, "the thin volume flickers by {:.2} % of its mean", 100.0 * worst_mean);
    // A pixel at the edge of a scene object's shadow on the wall changes more: the jitter moves
    // the shadow lookups across the edge (as it does in chapter 4's own fog).
    assert!(worst_pixel <= 0.1, "a pixel of the thin volume flickers by {:.2} % of its mean", 100.0 * worst_pixel);
    // ANCHOR_END: flicker_test
}

/// The viewer's panel takes the volumes as a list: it draws the count, the selected volume's
/// fields only (one `x_m`, not one per volume), and its Delete button removes the selected volume.
#[test]
fn the_panel_edits_the_volumes_as_a_list() {
    use egui::epaint::Shape;
    fn texts(shapes: &[Shape], out: &mut Vec<(String, egui::Pos2)>) {
        for s in shapes {
            match s {
                Shape::Text(t) => out.push((t.galley.text().to_string(), t.pos + t.galley.rect.center().to_vec2())),
                Shape::Vec(v) => texts(v, out),
                _ => {}
            }
        }
    }
    let ctx = egui::Context::default();
    let mut params = LocalFogParams::default();
    let frame = |events: Vec<egui::Event>, params: &mut LocalFogParams| {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(600.0, 2000.0))),
            events,
            ..Default::default()
        };
        let out = ctx.run_ui(input, |ui| {
            fogbook_core::ui::param_panel(ui, params);
        });
        let mut found = Vec::new();
        texts(&out.shapes.into_iter().map(|c| c.shape).collect::<Vec<_>>(), &mut found);
        found
    };
    frame(vec![], &mut params);
    let shown = frame(vec![], &mut params);
    let count = |name: &str| shown.iter().filter(|(t, _)| t == name).count();
    assert_eq!(count("3 volumes (at most 256)"), 1, "{shown:?}");
    assert_eq!(count("x_m"), 1, "only the selected volume's fields");
    assert_eq!(count("volume 0"), 1);
    let at = shown.iter().find(|(t, _)| t == "Delete").expect("a Delete button").1;
    let click = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    frame(vec![egui::Event::PointerMoved(at), click(true)], &mut params);
    frame(vec![click(false)], &mut params);
    assert_eq!(params.volumes.len(), 2, "Delete removed the selected volume");
    // (Compared by shape and place: drawing egui's colour pickers rounds the colours.)
    let first = &params.volumes[0];
    assert_eq!((first.shape, first.x_m, first.z_m), (fogbook_local_fog::Shape::Ellipsoid, 8.0, -30.0), "volume 0 went");
}

/// A smoke volume file of an n³ grid whose density varies smoothly across the box plus a
/// cell-to-cell ripple (so that the trilinear kinks matter), written with the core's writer (the
/// format chapter 7's `save` writes). Returns its path.
fn smoke_file(name: &str, n: u32) -> std::path::PathBuf {
    use fogbook_core::volume_file::{VolumeField, VolumeFile};
    let cells = (n as usize).pow(3);
    let density = (0..cells)
        .map(|i| {
            let (x, y, z) = (i % n as usize, (i / n as usize) % n as usize, i / (n * n) as usize);
            let ripple = if (x + 2 * y + 3 * z) % 3 == 0 { 0.6 } else { 0.0 };
            (1.0 + (x as f32 * 0.4).sin() * (z as f32 * 0.3).cos() + y as f32 / n as f32 + ripple).max(0.0)
        })
        .collect();
    let file = VolumeFile {
        n,
        box_m: 8.0,
        ambient_k: 293.15,
        fields: vec![
            VolumeField { name: "density".into(), components: 1, values: density },
            VolumeField { name: "temperature".into(), components: 1, values: vec![0.0; cells] },
        ],
    };
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    file.write(&path).unwrap();
    path
}

/// A preset of chapter 5 whose first volume reads the density file `path` (the list's other
/// settings come from `settings`).
fn file_preset(name: &str, path: &std::path::Path) -> std::path::PathBuf {
    let preset = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let text = format!(
        "(chapter: \"local-fog\", params: (volumes: [(density_source: file, density_file: {:?})]))",
        path.display().to_string()
    );
    std::fs::write(&preset, text).unwrap();
    preset
}

const TEXTURE_SIZE: [u32; 2] = [80, 45];

/// Holds the optical-depth view of a textured volume to the f64 integral of the same field (the
/// midpoint rule in 4096 steps, of ρ₀ · weight · texture, the noise by the core's f64 copy of the
/// GPU's baked noise, the file's grid trilinear in f64), per pixel. The bound, derived: the GPU
/// runs the midpoint rule in `FADE_STEPS` = 32 steps in f32, so |GPU − I| ≤ |M₃₂ − I| + |GPU −
/// M₃₂|; the first term is computed here in f64 for each pixel; the second is f32 rounding:
/// sample points good to ~30 m · 2⁻²⁴ ≈ 2e-6 m, times the texture's steepest slope (≈ 5 /m for
/// the noise below) and the sum's rounding, under 1e-4 relative, bounded by 3e-4 · I + 1e-5; at
/// silhouettes the change of M₃₂ under a 1e-6 rad turn of the ray is added, as in `check`.
/// Separately, the bake's own error: I against the integral of the noise itself (the ground
/// truth, `periodic_fbm` in f64), reported and held under `BAKE_TAU_ERROR` of τ. Returns the
/// capture, the worst |GPU − I| / I, the worst |M₃₂ − I| / I and the worst bake error over pixels
/// with I > 1e-3 off the silhouettes.
fn check_textured(
    label: &str,
    file: Option<&std::path::Path>,
    extra: &[&str],
    start_s: f64,
) -> (fogbook_core::headless::Capture, f64, f64, f64) {
    use fogbook_core::fog_volume_density::{DensityTexture, NoiseModel};
    use fogbook_local_fog::reference::FADE_STEPS;
    let sets = settings(extra);
    let preset = file.map(|f| file_preset(&format!("{label}.ron").replace(' ', "-"), f));
    let (cap, time) =
        render_at("local-fog", "optical-depth", preset.as_deref(), &sets, Some(CAMERA), TEXTURE_SIZE, start_s);
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), TEXTURE_SIZE).raw;
    let (mut params, _) = typed_settings::<LocalFogParams>(&sets);
    let grid = file.map(|path| {
        params.volumes[0].density_source = fogbook_local_fog::DensitySource::File;
        params.volumes[0].density_file = path.display().to_string();
        DensityTexture::load(path).unwrap()
    });
    let volume = params.fog_volumes_at(time)[0];
    let textures: Vec<&DensityTexture> = grid.iter().collect();
    let gpu_steps = FADE_STEPS;
    let tau = |o, v, d, steps| textured_optical_depth_with(NoiseModel::Baked, &volume, o, v, 0.0, d, &textures, steps);
    let (mut worst, mut worst_rule, mut worst_f32, mut worst_bake, mut inside, mut silhouette) =
        (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0, 0);
    for y in 0..TEXTURE_SIZE[1] {
        for x in 0..TEXTURE_SIZE[0] {
            let (o, v) = pose_ray(CAMERA, TEXTURE_SIZE, x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let got = cap.raw.pixel(x, y)[0] as f64;
            // ANCHOR: textured_test
            let exact = tau(o, v, d, 4096);
            let rule = tau(o, v, d, gpu_steps);
            let turned = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                .map(|w| (tau(o, w, d, gpu_steps) - rule).abs())
                .fold(0.0f64, f64::max);
            let rounding = 3e-4 * exact + 1e-5;
            let on_silhouette = turned > rounding;
            silhouette += on_silhouette as usize;
            let bound = (rule - exact).abs() + rounding + turned;
            let err = (got - exact).abs();
            assert!(
                err <= bound,
                "{label} ({x},{y}): GPU {got}, f64 integral {exact}, 32-step rule {rule} (error {err:.3e} > {bound:.3e})"
            );
            // ANCHOR_END: textured_test
            if exact > 1e-3 && !on_silhouette {
                inside += 1;
                worst = worst.max(err / exact);
                worst_rule = worst_rule.max((rule - exact).abs() / exact);
                worst_f32 = worst_f32.max((got - rule).abs() / exact);
                if file.is_none() && x % 2 == 0 && y % 2 == 0 {
                    let truth = textured_optical_depth_with(NoiseModel::Analytic, &volume, o, v, 0.0, d, &[], 4096);
                    worst_bake = worst_bake.max((exact - truth).abs() / truth);
                }
            }
        }
    }
    eprintln!(
        "{label}: worst error {worst:.2e} of τ (the 32-step rule's own {worst_rule:.2e}, the GPU's from the rule {worst_f32:.2e}; the bake's against the noise itself {worst_bake:.2e}); {inside} pixels inside, {silhouette} on a silhouette"
    );
    assert!(inside > 400, "{label}: the volume covers too little of the image ({inside} pixels)");
    assert!(worst_bake <= BAKE_TAU_ERROR, "{label}: the baked noise is {worst_bake:.2e} of τ from the noise itself");
    (cap, worst, worst_rule, worst_bake)
}

/// The most the baked noise may move a volume's optical depth from the noise's own, relative
/// (measured: see the book's table).
const BAKE_TAU_ERROR: f64 = 3e-3;

/// A box of density 0.2 /m (5×4×5 m, volume 0 of `settings`) and, 9 m from it towards the sun
/// (unit `sun`), a slab of 0.15 /m (12×2×12 m) that shadows it; no scene shadows.
fn shadowing_slab_settings(sun: DVec3) -> Vec<String> {
    let big = DVec3::new(-2.0, 3.5, -30.0) + sun * 9.0;
    [
        "volume_scene_shadows=false".to_string(),
        "volumes[0].size_x_m=5".to_string(),
        "volumes[0].size_z_m=5".to_string(),
        "volume_count=2".to_string(),
        format!("volumes[1].x_m={}", big.x),
        format!("volumes[1].y_m={}", big.y),
        format!("volumes[1].z_m={}", big.z),
        "volumes[1].size_x_m=12".to_string(),
        "volumes[1].size_y_m=2".to_string(),
        "volumes[1].size_z_m=12".to_string(),
        "volumes[1].yaw_deg=0".to_string(),
        "volumes[1].falloff=0".to_string(),
        "volumes[1].edge_fade_m=0".to_string(),
        "volumes[1].density=0.15".to_string(),
    ]
    .into()
}

/// The book's sun-grid figures (`sun-grid-slab`, `per-pixel-sun-slab`) spell this slab out in
/// literals, as figures must: they must be the same slab, to the centimetre, for the default sun.
#[test]
fn the_sun_grid_figures_show_the_shadow_tests_slab() {
    let want =
        shadowing_slab_settings(fogbook_core::scene_settings::SceneSettings::default().sun_direction().as_dvec3());
    let book = fogbook::registry::find("local-fog").unwrap().book();
    for name in ["sun-grid-slab", "per-pixel-sun-slab"] {
        let figure = book.figures.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no figure {name}"));
        for setting in &want {
            let (key, value) = setting.split_once('=').unwrap();
            let got = figure.settings.iter().find_map(|s| s.strip_prefix(key)?.strip_prefix('='));
            let got = got.unwrap_or_else(|| panic!("{name} does not set {key}"));
            match (value.parse::<f64>(), got.parse::<f64>()) {
                (Ok(w), Ok(g)) => assert!((w - g).abs() <= 0.01, "{name}: {key}={got}, the test's slab has {value}"),
                _ => assert_eq!(got, value, "{name}: {key}"),
            }
        }
    }
}

/// Shadows between volumes: a small box under a large one, on the sun's side of it. The
/// `sun-transmittance` view (the nearest crossed volume's transmittance towards the sun at its
/// median scattering point) against the f64 closed form through every volume from that point,
/// per pixel (within 1e-4, plus what a 1e-5 rad turn of the ray changes at a silhouette or a
/// shadow's edge; taken at every pixel, `block_sun=false`); the big box must darken the small one,
/// and with `volume_shadows=false` the view is the small box's own transmittance again.
#[test]
fn a_volume_in_the_shadow_of_another_gets_less_sun() {
    use fogbook_local_fog::reference::{chord, sun_transmittance_through};
    let scene = fogbook_core::scene_settings::SceneSettings::default();
    let sun = scene.sun_direction().as_dvec3();
    let over = shadowing_slab_settings(sun);
    let over: Vec<&str> = over.iter().map(String::as_str).collect();
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), TEXTURE_SIZE).raw;
    let (mut shadowed, mut worst) = (0, 0.0f64);
    for between in [true, false] {
        let flag = format!("volume_shadows={between}");
        let sets = settings(&[over.as_slice(), &[flag.as_str(), "block_sun=false", "sun_grid=false"]].concat());
        let img = render("local-fog", "sun-transmittance", &sets, Some(CAMERA), TEXTURE_SIZE).raw;
        let (params, _) = typed_settings::<LocalFogParams>(&sets);
        let volumes = params.fog_volumes();
        // ANCHOR: volume_shadow_test
        // The f64 value along one ray: the nearest crossing's median scattering point.
        let want = |o: DVec3, v: DVec3, d: f64| -> (f64, f64) {
            let nearest = volumes
                .iter()
                .filter_map(|vol| chord(vol, o, v).map(|(a, b)| (vol, a.max(0.0), b.min(d))))
                .filter(|(_, a, b)| b > a)
                .min_by(|x, y| x.1.total_cmp(&y.1));
            let Some((vol, a, b)) = nearest else { return (1.0, 1.0) };
            let tau = optical_depth(vol, o, v, a, b);
            let fraction = if tau > 1e-4 { -(0.5 * (1.0 + (-tau).exp())).ln() / tau } else { 0.5 };
            let p = o + v * (a + (b - a) * fraction);
            let own = sun_transmittance_through(std::slice::from_ref(vol), p, sun);
            let all = if between { sun_transmittance_through(&volumes, p, sun) } else { own };
            (all, own)
        };
        for y in 0..TEXTURE_SIZE[1] {
            for x in 0..TEXTURE_SIZE[0] {
                let (o, v) = pose_ray(CAMERA, TEXTURE_SIZE, x, y);
                let d = distance.pixel(x, y)[0] as f64;
                let (t, own) = want(o, v, d);
                let turned = perpendiculars(v)
                    .iter()
                    .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-5)).normalize()))
                    .map(|w| (want(o, w, d).0 - t).abs())
                    .fold(0.0f64, f64::max);
                let got = img.pixel(x, y)[0] as f64;
                let err = (got - t).abs();
                assert!(err <= 1e-4 + turned, "shadows {between} ({x},{y}): GPU {got}, f64 {t} (own {own})");
                if turned < 1e-4 {
                    worst = worst.max(err);
                }
                shadowed += (between && t < 0.9 * own) as usize;
            }
        }
        // ANCHOR_END: volume_shadow_test
    }
    eprintln!(
        "volume shadows: {shadowed} pixels darkened below 0.9 of their own transmittance; worst error {worst:.1e}"
    );
    assert!(shadowed > 80, "the big box shadows too little of the small one: {shadowed} pixels");
}

/// Through an edge-faded volume the sun's ray has no closed form: the `sun-transmittance` view
/// (at every pixel, `block_sun=false`) of a rotated, faded box against the f64 reference taken as
/// the GPU takes it — the median point from `FADE_STEPS` midpoint steps along the view ray, the
/// volume's own transmittance from `SUN_STEPS` along the sun's — within 1e-4, plus what a 1e-5 rad
/// turn of the ray changes at a silhouette. (How far `SUN_STEPS` is from exact: the reference's
/// `the_sun_ray_through_a_fade_in_eight_steps_is_close_to_exact`.)
#[test]
fn a_faded_volume_is_lit_through_its_fade_in_sun_steps() {
    use fogbook_local_fog::reference::{FADE_STEPS, chord, faded_sun_transmittance, quadrature_optical_depth};
    let sun = fogbook_core::scene_settings::SceneSettings::default().sun_direction().as_dvec3();
    let extra = [
        "volumes[0].edge_fade_m=1.2",
        "volumes[0].yaw_deg=30",
        "volumes[0].falloff=0.2",
        "volume_shadows=false",
        "volume_scene_shadows=false",
        "block_sun=false",
        "sun_grid=false",
    ];
    let sets = settings(&extra);
    let img = render("local-fog", "sun-transmittance", &sets, Some(CAMERA), TEXTURE_SIZE).raw;
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), TEXTURE_SIZE).raw;
    let (params, _) = typed_settings::<LocalFogParams>(&sets);
    let volume = params.fog_volumes()[0];
    let want = |o: DVec3, v: DVec3, d: f64| -> f64 {
        let Some((a, b)) = chord(&volume, o, v).map(|(a, b)| (a.max(0.0), b.min(d))) else { return 1.0 };
        if b <= a {
            return 1.0;
        }
        let tau = quadrature_optical_depth(&volume, o, v, a, b, FADE_STEPS);
        let fraction = if tau > 1e-4 { -(0.5 * (1.0 + (-tau).exp())).ln() / tau } else { 0.5 };
        faded_sun_transmittance(&volume, o + v * (a + (b - a) * fraction), sun)
    };
    let (mut worst, mut lit) = (0.0f64, 0);
    for y in 0..TEXTURE_SIZE[1] {
        for x in 0..TEXTURE_SIZE[0] {
            let (o, v) = pose_ray(CAMERA, TEXTURE_SIZE, x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let t = want(o, v, d);
            let turned = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-5)).normalize()))
                .map(|w| (want(o, w, d) - t).abs())
                .fold(0.0f64, f64::max);
            let got = img.pixel(x, y)[0] as f64;
            let err = (got - t).abs();
            assert!(err <= 1e-4 + turned, "({x},{y}): GPU {got}, f64 {t}");
            if turned < 1e-4 && t < 1.0 {
                worst = worst.max(err);
                lit += 1;
            }
        }
    }
    eprintln!("faded volume's own sun transmittance: worst error {worst:.1e} over {lit} pixels");
    assert!(lit > 400, "the volume covers too little of the image: {lit} pixels");
}

// ANCHOR: block_sun_test
/// The sun's transmittance at the corners of 8×8-pixel blocks (`block_sun=true`) against the same
/// at every pixel (`block_sun=false`): the `sun-transmittance` view and the final colour of the chapter's
/// default volumes (edge fades, a falloff, the cylinder shadowing the box) from the default camera,
/// and of the sharp-edged slab over a box of `a_volume_in_the_shadow_of_another_gets_less_sun`
/// (no fade: the worst case for a shadow's edge), at 320×180, where a block spans up to a metre.
/// Measured: T_sun within 0.084 and 0.097 (the corners may differ by up to 0.2 for a block to be
/// interpolated), the colour within 0.09 % and 2.7 % of its peak; the bounds leave a margin.
#[test]
fn the_sun_at_block_corners_stays_close_to_every_pixel() {
    sun_shortcut_stays_close_to_every_pixel(&["block_sun=true", "sun_grid=false"], [(0.15, 2e-3), (0.15, 0.04)]);
}
// ANCHOR_END: block_sun_test

/// (worst, mean over the pixels that differ, how many differ, peak of `off`) of the largest
/// channel difference between `view` rendered with the settings `on` and with `off`.
fn view_difference(
    view: &str,
    on: &[&str],
    off: &[&str],
    camera: Option<&str>,
    size: [u32; 2],
) -> (f64, f64, usize, f64) {
    let a = render("local-fog", view, on, camera, size).raw;
    let b = render("local-fog", view, off, camera, size).raw;
    let (mut worst, mut sum, mut changed, mut peak) = (0.0f64, 0.0f64, 0, 0.0f64);
    for (p, q) in a.rgba.chunks(4).zip(b.rgba.chunks(4)) {
        let e = (0..3).map(|c| (p[c] - q[c]).abs() as f64).fold(0.0, f64::max);
        peak = peak.max((0..3).map(|c| q[c] as f64).fold(0.0, f64::max));
        worst = worst.max(e);
        sum += e;
        changed += (e > 0.0) as usize;
    }
    (worst, sum / changed.max(1) as f64, changed, peak)
}

// ANCHOR: sun_shortcut_check
/// A shortcut for the sun's transmittance (`on`: the blocks' corners or the grid) against rays
/// per pixel (`block_sun=false`, `sun_grid=false`), at 320×180: the `sun-transmittance` view and
/// the final colour of the chapter's default volumes from the default camera and of the
/// sharp-edged slab over a box of `a_volume_in_the_shadow_of_another_gets_less_sun`, each held to
/// its (T_sun, colour as a share of its peak) bound.
fn sun_shortcut_stays_close_to_every_pixel(on: &[&str], bounds: [(f64, f64); 2]) {
    const SIZE_320: [u32; 2] = [320, 180];
    let sun = fogbook_core::scene_settings::SceneSettings::default().sun_direction().as_dvec3();
    let slab = shadowing_slab_settings(sun);
    let slab = settings(&slab.iter().map(String::as_str).collect::<Vec<_>>());
    let cases = [("default volumes", vec![], None), ("slab over a box", slab, Some(CAMERA))];
    for ((name, sets, camera), (bound_t, bound_colour)) in cases.into_iter().zip(bounds) {
        let with: Vec<&str> = [sets.as_slice(), on].concat();
        let off: Vec<&str> = [sets.as_slice(), &["block_sun=false", "sun_grid=false"]].concat();
        let (t_worst, t_mean, t_changed, _) = view_difference("sun-transmittance", &with, &off, camera, SIZE_320);
        let (c_worst, c_mean, c_changed, c_peak) = view_difference("final", &with, &off, camera, SIZE_320);
        eprintln!(
            "{on:?}, {name}: T_sun worst {t_worst:.2e}, mean {t_mean:.2e} over {t_changed} changed pixels; \
             final colour worst {:.2e}, mean {:.2e} of its peak over {c_changed} pixels",
            c_worst / c_peak,
            c_mean / c_peak
        );
        assert!(t_changed > 0, "{on:?}, {name}: the shortcut changed nothing");
        assert!(t_worst <= bound_t, "{on:?}, {name}: T_sun differs by {t_worst}");
        assert!(c_worst <= bound_colour * c_peak, "{on:?}, {name}: the colour differs by {c_worst} of {c_peak}");
    }
}
// ANCHOR_END: sun_shortcut_check

// ANCHOR: sun_grid_test
/// Each volume's grid of the sun's transmittance (`sun_grid=true`, 16³ points over its box,
/// trilinear between them) against the same at every pixel (`sun_grid=false`): the
/// `sun-transmittance` view and the final colour of the chapter's default volumes (edge fades,
/// a falloff, the cylinder shadowing the box) from the default camera, and of the sharp-edged
/// slab over a box of `a_volume_in_the_shadow_of_another_gets_less_sun` (no fade: a shadow's
/// edge, which the grid blurs over a cell), at 320×180. Measured: T_sun within 0.060 and 0.154
/// (mean 0.005 and 0.010 where they differ), the colour within 0.013 % and 2.0 % of its peak;
/// the bounds leave a margin.
#[test]
fn the_sun_grid_stays_close_to_every_pixel() {
    sun_shortcut_stays_close_to_every_pixel(&["sun_grid=true"], [(0.1, 1e-3), (0.25, 0.04)]);
}
// ANCHOR_END: sun_grid_test

/// The grid is filled again whenever what it holds changes — the shadows between volumes
/// switched, a volume moved, the sun turned: after each change the `sun-transmittance` view with
/// the grid stays as close to the per-pixel one as `the_sun_grid_stays_close_to_every_pixel` holds
/// it (measured: 0.053 at worst). A grid filled once and kept (the refill turned off once to see
/// it) is off by 0.80, 0.84 and 0.88 after the first, third and fourth change; the second puts
/// the first state back.
#[test]
fn the_sun_grid_follows_the_volumes_and_the_sun() {
    use fogbook_core::time::TimeControl;
    let mut h = headless(TEXTURE_SIZE);
    let mut setup = fogbook::state::Setup::new("local-fog").unwrap();
    setup.apply(None, &["block_sun=false".to_string()], None).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("sun-transmittance").unwrap();
    let mut time = TimeControl::fixed(0.0);
    let mut capture = |setup: &mut fogbook::state::Setup, change: &str| {
        setup.set(change).unwrap();
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 2);
        h.capture().unwrap().raw
    };
    let worst = |a: &fogbook_core::capture::FloatImage, b: &fogbook_core::capture::FloatImage| {
        a.rgba.chunks(4).zip(b.rgba.chunks(4)).map(|(p, q)| (p[0] - q[0]).abs() as f64).fold(0.0, f64::max)
    };
    capture(&mut setup, "sun_grid=true");
    let mut stale = Vec::new();
    for change in ["volume_shadows=false", "volume_shadows=true", "volumes[0].x_m=1", "scene.sun_azimuth_deg=160"] {
        let grid = capture(&mut setup, change);
        let per_pixel = capture(&mut setup, "sun_grid=false");
        let off = worst(&grid, &per_pixel);
        eprintln!("after {change}: the grid is within {off:.3} of every pixel");
        if off > 0.1 {
            stale.push(format!("{change}: {off:.3}"));
        }
        capture(&mut setup, "sun_grid=true");
    }
    assert!(stale.is_empty(), "the grid is stale after {stale:?}");
}

/// Shadows between volumes in chapter 4's froxels: the box and the slab over it of
/// `a_volume_in_the_shadow_of_another_gets_less_sun`, injected into a 64×36×32 grid (1–100 m, no
/// medium of its own, no ambient or local light, no scene shadow map, no jitter). The media pass
/// lights the box in each froxel at the middle q of its piece of the slice along the column's
/// ray, by its own transmittance towards the sun times the casters'; nothing else in the froxel's
/// in-scattering S changes with `volume_shadows`, so S with it on over S with it off (the
/// `inscattering-slice` view at one pixel per column, three slices through the box) is the slab's
/// transmittance towards the sun from q, which the f64 closed form gives. The froxel path's known
/// error: the transmittance is stored in f16 (rgba16float, 2⁻¹¹ of it) in both frames, so
/// 1.5·10⁻³ of the ratio, plus what a 10⁻⁵ rad turn of the column's ray changes at a silhouette or
/// a shadow's edge. Froxels the slab itself reaches are left out (they mix the two volumes' light).
#[test]
fn the_froxels_shadow_a_volume_by_the_others() {
    use fogbook_local_fog::reference::{chord, sun_transmittance_through};
    let scene = fogbook_core::scene_settings::SceneSettings::default();
    let sun = scene.sun_direction().as_dvec3();
    let grid = [64u32, 36];
    let slices = fogbook_froxel_fog::reference::Slices::new(1.0, 100.0, 32);
    let mut base = shadowing_slab_settings(sun);
    base.extend(froxel_grid("100"));
    base.extend(
        ["volume_shadows=false", "ambient_scale=0", "local_light_scale=0", "phase_g=0"]
            .iter()
            .map(|s| format!("froxel-fog.{s}")),
    );
    let (params, _) = typed_settings::<LocalFogParams>(&settings(
        &base.iter().filter(|s| !s.starts_with("froxel")).map(String::as_str).collect::<Vec<_>>(),
    ));
    let volumes = params.fog_volumes();
    let (receiver, caster) = (volumes[0], volumes[1]);
    let (mut checked, mut shadowed, mut worst) = (0, 0, 0.0f64);
    for k in 18..=20u32 {
        let slice_view = |between: bool| {
            let mut sets = base.clone();
            sets.push(format!("local-fog.volume_shadows={between}"));
            sets.push(format!("froxel-fog.slice={k}"));
            let sets = settings(&sets.iter().map(String::as_str).collect::<Vec<_>>());
            render("froxel-fog,local-fog", "froxel-fog/inscattering-slice", &sets, Some(CAMERA), grid).raw
        };
        let (on, off) = (slice_view(true), slice_view(false));
        let (begin, end) = (slices.begin(k), slices.end(k));
        // ANCHOR: froxel_volume_shadow_test
        // The caster's transmittance from the middle of the box's piece of the slice (None where
        // the box misses the slice or the slab reaches it).
        let want = |o: DVec3, v: DVec3| -> Option<f64> {
            let (a, b) = chord(&receiver, o, v)?;
            let (lo, hi) = (a.max(begin), b.min(end));
            let slab_in = chord(&caster, o, v).is_some_and(|(c, d)| c.max(begin) < d.min(end));
            (hi > lo && !slab_in).then(|| sun_transmittance_through(&[caster], o + v * (0.5 * (lo + hi)), sun))
        };
        for y in 0..grid[1] {
            for x in 0..grid[0] {
                let (o, v) = pose_ray(CAMERA, grid, x, y);
                let Some(t) = want(o, v) else { continue };
                let mut turned = 0.0f64;
                for w in perpendiculars(v).iter().flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-5)).normalize())) {
                    // A turn that leaves the box or meets the slab is an edge: anything goes.
                    turned = turned.max(want(o, w).map_or(1.0, |u| (u - t).abs()));
                }
                let (s_on, s_off) = (on.pixel(x, y)[0] as f64, off.pixel(x, y)[0] as f64);
                if s_off < 1e-9 {
                    continue;
                }
                let got = s_on / s_off;
                let err = (got - t).abs();
                assert!(
                    err <= 1.5e-3 * t + 1e-4 + turned,
                    "slice {k} column ({x},{y}): S on/off {got}, f64 transmittance through the slab {t}"
                );
                checked += 1;
                if turned < 1e-4 {
                    worst = worst.max(err);
                }
                shadowed += (t < 0.9) as usize;
            }
        }
        // ANCHOR_END: froxel_volume_shadow_test
    }
    eprintln!("froxel shadows between volumes: {checked} froxels, {shadowed} below 0.9; worst error {worst:.1e}");
    assert!(shadowed > 40, "the slab shadows too few of the box's froxels: {shadowed} of {checked}");
}

// ANCHOR: shared_density_test
/// The density grids and the baked noise are the stack's, one set the core owns
/// (`Renderer::fog_density`) and both chapters bind: in a stack of chapters 4 and 5 with a noise
/// volume and a volume read from a file, three frames bake the noise once and upload the grid
/// once (when each chapter owned a set, both happened twice), and the frames that follow do
/// neither. The counters are this thread's, so tests running beside it do not disturb them.
#[test]
fn a_stack_bakes_the_noise_and_uploads_a_grid_once() {
    use fogbook_core::fog_volume_textures::{DensityWork, work_on_this_thread};
    use fogbook_core::time::TimeControl;
    let file = smoke_file("shared-density.fbvol", 8);
    let preset = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-density.ron");
    let text = format!(
        "(chapter: \"froxel-fog,local-fog\", params: {{\"local-fog\": (volumes: [(density_source: noise), \
         (x_m: 3.0, z_m: -24.0, density_source: file, density_file: {:?})])}})",
        file.display().to_string()
    );
    std::fs::write(&preset, text).unwrap();
    let mut h = headless(TEXTURE_SIZE);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    let sets: Vec<String> =
        fogbook_froxel_fog::FroxelFog::test_settings().iter().map(|s| format!("froxel-fog.{s}")).collect();
    setup.apply(Some(&preset), &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("final").unwrap();
    let mut time = TimeControl::fixed(0.0);
    let before = work_on_this_thread();
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 3);
    let after = work_on_this_thread();
    let work = DensityWork {
        noise_bakes: after.noise_bakes - before.noise_bakes,
        grid_uploads: after.grid_uploads - before.grid_uploads,
    };
    eprintln!("three frames of the stack: {work:?}");
    assert_eq!(work, DensityWork { noise_bakes: 1, grid_uploads: 1 });
    let img = h.capture().unwrap().raw;
    assert!(img.rgba.iter().all(|c| c.is_finite()), "a non-finite pixel");
}
// ANCHOR_END: shared_density_test

/// The shadow casters' masks are the stack's too, binned once a frame by the core
/// (`Renderer::fog_casters`) and bound by both chapters: in a stack of chapters 4 and 5 the first
/// frame bins once, frames that change nothing bin no more, and each change of a volume, the
/// sun's direction or the switch bins once (when each chapter binned its own list, twice).
#[test]
fn a_stack_bins_the_shadow_casters_once_per_change() {
    use fogbook_core::fog_volume_casters::binnings_on_this_thread;
    use fogbook_core::time::TimeControl;
    let mut h = headless(TEXTURE_SIZE);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    let mut sets: Vec<String> =
        fogbook_froxel_fog::FroxelFog::test_settings().iter().map(|s| format!("froxel-fog.{s}")).collect();
    sets.extend(
        ["local-fog.volume_count=2", "local-fog.volumes[1].y_m=9", "local-fog.volume_shadows=true"].map(String::from),
    );
    setup.apply(None, &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("final").unwrap();
    let mut time = TimeControl::fixed(0.0);
    let mut binnings = |setup: &mut fogbook::state::Setup, change: Option<&str>, frames: u32| {
        if let Some(c) = change {
            setup.set(c).unwrap();
        }
        let before = binnings_on_this_thread();
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
        binnings_on_this_thread() - before
    };
    assert_eq!(binnings(&mut setup, None, 2), 1, "the first frames bin once");
    assert_eq!(binnings(&mut setup, None, 2), 0, "nothing changed");
    assert_eq!(binnings(&mut setup, Some("local-fog.volumes[0].x_m=1"), 2), 1, "a volume moved");
    assert_eq!(binnings(&mut setup, Some("scene.sun_elevation_deg=40"), 2), 1, "the sun moved");
    assert_eq!(binnings(&mut setup, Some("local-fog.volume_shadows=false"), 2), 1, "the switch changed");
}

/// The GPU's bake is the texture the f64 reference reads (`baked_noise_texels`): the same noise,
/// in f32 there and f64 here, each rounded to f16, so no texel differs by more than one f16 step
/// (2⁻¹¹ below 1); it bakes on the first noise volume and not again.
#[test]
fn the_gpu_bakes_the_noise_the_reference_reads() {
    use fogbook_core::fog_volume_density::{NOISE_BAKE_SIDE, baked_noise_texels};
    use fogbook_core::fog_volume_textures::DensityTextureSlots;
    let gpu = fogbook_core::gpu::GpuContext::headless(&Default::default()).unwrap();
    let mut slots = DensityTextureSlots::new(&gpu.device, &fogbook_core::shaders::ShaderStore::discover());
    let (plain, _) = typed_settings::<LocalFogParams>(&settings(&[]));
    let (noisy, _) = typed_settings::<LocalFogParams>(&settings(&["volumes[0].density_source=noise"]));
    assert!(!slots.update(&gpu, &[], &plain.fog_volumes()), "baked without a noise volume");
    assert!(slots.update(&gpu, &[], &noisy.fog_volumes()), "no bake for a noise volume");
    assert!(!slots.update(&gpu, &[], &noisy.fog_volumes()), "baked again");
    assert_eq!(slots.noise_texture().size().width, NOISE_BAKE_SIDE);
    let bytes = fogbook_core::capture::read_texture(&gpu, slots.noise_texture()).unwrap();
    let f16 = |b: u16| {
        let (sign, exp, mant) = (if b >> 15 == 1 { -1.0 } else { 1.0 }, ((b >> 10) & 31) as i32, (b & 1023) as f64);
        sign * if exp == 0 { mant * 2f64.powi(-24) } else { (1.0 + mant / 1024.0) * 2f64.powi(exp - 15) }
    };
    let (mut worst, mut equal) = (0.0f64, 0usize);
    let texels = baked_noise_texels();
    for (i, want) in texels.iter().enumerate() {
        let got = f16(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]));
        let step = 2f64.powi((want.abs() as f64).log2().floor().max(-14.0) as i32 - 10);
        let e = (got - *want as f64).abs();
        assert!(e <= step * 1.001, "texel {i}: GPU {got}, f64 {want}");
        worst = worst.max(e);
        equal += (e == 0.0) as usize;
    }
    eprintln!("bake: {equal} of {} texels equal, worst {worst:.1e}", texels.len());
    assert!(equal as f64 > 0.99 * texels.len() as f64, "only {equal} texels equal");
}

/// Noise (rotated box, scrolling, at 2 s and at 2.5 s) and a 16³ smoke file (rotated box): the
/// optical depth per pixel against the f64 integral. The two times must give different images:
/// the scroll reaches the GPU.
#[test]
fn textured_optical_depth_matches_the_f64_integral() {
    const NOISE: &[&str] = &[
        "volumes[0].yaw_deg=30",
        "volumes[0].pitch_deg=10",
        "volumes[0].roll_deg=-15",
        "volumes[0].density_source=noise",
        "volumes[0].noise_frequency=0.6",
        "volumes[0].noise_octaves=3",
        "volumes[0].noise_contrast=0.9",
        "volumes[0].scroll_x_mps=1.5",
        "volumes[0].scroll_z_mps=-0.7",
        "volumes[0].texture_scale=1.5",
    ];
    let (early, ..) = check_textured("noise at 2 s", None, NOISE, 2.0);
    let (late, ..) = check_textured("noise at 2.5 s", None, NOISE, 2.5);
    let changed = (0..TEXTURE_SIZE[1])
        .flat_map(|y| (0..TEXTURE_SIZE[0]).map(move |x| (x, y)))
        .filter(|&(x, y)| (early.raw.pixel(x, y)[0] - late.raw.pixel(x, y)[0]).abs() > 1e-2)
        .count();
    assert!(changed > 300, "the scroll changed only {changed} pixels");
    let file = smoke_file("textured-16.fbvol", 16);
    let rotated = ["volumes[0].yaw_deg=-20", "volumes[0].roll_deg=12", "volumes[0].texture_scale=0.8"];
    check_textured("16 cube file", Some(&file), &rotated, 0.0);
}

// ANCHOR: scroll_test
/// The noise moves with its scroll velocity, in the volume's own axes: the field at t + Δ at p is
/// the field at t at p − R · u · Δ (R the volume's rotation, u the velocity), to the f32 rounding
/// of the wrapped offset; and it is not the same field unshifted.
#[test]
fn the_scroll_shifts_the_noise_by_velocity_times_time() {
    use fogbook_core::fog_volume_density::texture_factor;
    let sets = settings(&[
        "volumes[0].yaw_deg=40",
        "volumes[0].density_source=noise",
        "volumes[0].noise_frequency=0.8",
        "volumes[0].scroll_x_mps=2",
        "volumes[0].scroll_y_mps=-0.5",
        "volumes[0].scroll_z_mps=1",
    ]);
    let (params, _) = typed_settings::<LocalFogParams>(&sets);
    let (t, dt) = (1234.5, 0.75);
    let (a, b) = (params.fog_volumes_at(t)[0], params.fog_volumes_at(t + dt)[0]);
    let [x, y, z] = a.axes();
    let shift = (x * 2.0 + y * -0.5 + z * 1.0) * dt;
    let (mut worst, mut moved) = (0.0f64, 0.0f64);
    for i in 0..400 {
        let f = i as f64;
        let p = a.centre() + DVec3::new((f * 0.37).sin() * 3.0, (f * 0.11).cos() * 1.5, (f * 0.23).sin() * 2.5);
        let later = texture_factor(&b, p, &[]);
        worst = worst.max((later - texture_factor(&a, p - shift, &[])).abs());
        moved = moved.max((later - texture_factor(&a, p, &[])).abs());
    }
    eprintln!("scroll: worst mismatch {worst:.2e}, unshifted difference up to {moved:.2}");
    assert!(worst < 1e-4, "the field at t + Δ is not the field at t shifted: {worst}");
    assert!(moved > 0.1, "the field did not move: {moved}");
}
// ANCHOR_END: scroll_test

// ANCHOR: bad_file_test
/// A missing file, a truncated one, one with the wrong magic, one holding a NaN, and five
/// distinct files: each is
/// refused with one message that says what is wrong, and the volume list in use is kept — given
/// whole (`set_volumes`) or edited in place (`--set`, the panel, a preset: `sync_files`).
#[test]
fn bad_density_files_are_refused_and_the_state_kept() {
    use fogbook_local_fog::{DensitySource, VolumeParams};
    let good = smoke_file("good-4.fbvol", 4);
    let bytes = std::fs::read(&good).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let truncated = dir.join("truncated-4.fbvol");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    let magic = dir.join("magic-4.fbvol");
    std::fs::write(&magic, [b"NOTAVOL\0".as_slice(), &bytes[8..]].concat()).unwrap();
    let nan = dir.join("nan-4.fbvol");
    std::fs::write(&nan, [&bytes[..bytes.len() - 4], &f32::NAN.to_le_bytes()].concat()).unwrap();
    let missing = dir.join("no-such-file.fbvol");
    let with_file = |path: &std::path::Path| VolumeParams {
        density_source: DensitySource::File,
        density_file: path.display().to_string(),
        ..VolumeParams::default()
    };
    let mut chapter = LocalFog::new();
    chapter.set_volumes(vec![with_file(&good), VolumeParams::default()]).unwrap();
    let kept = chapter.params.volumes.clone();
    assert_eq!(chapter.density_files(), vec![good.display().to_string()]);
    let five: Vec<VolumeParams> = (0..5).map(|i| with_file(&dir.join(format!("f{i}.fbvol")))).collect();
    for (list, expect) in [
        (vec![with_file(&missing)], "no-such-file.fbvol"),
        (vec![with_file(&truncated)], "truncated"),
        (vec![with_file(&magic)], "magic"),
        (vec![with_file(&nan)], "non-finite"),
        (five, "at most 4 textures"),
    ] {
        let e = chapter.set_volumes(list).unwrap_err();
        assert!(e.contains(expect) && e.contains("keeping the 2 volumes in use"), "{e}");
        assert_eq!(chapter.status(), Some(e));
        assert_eq!(chapter.params.volumes, kept, "the volumes in use are kept");
        assert_eq!(chapter.density_files(), vec![good.display().to_string()], "and their grid");
    }
    // A NaN in the texture's parameters is refused by their ranges, the value kept.
    let e = set_by_name(&mut chapter.params, "volumes[0].noise_frequency", "NaN").unwrap_err();
    assert!(e.to_string().contains("volumes[0].noise_frequency"), "{e}");
    assert_eq!(chapter.params.volumes, kept);
    // Edited in place: the second volume switched to a file with no path, then to a bad one.
    set_by_name(&mut chapter.params, "volumes[1].density_source", "file").unwrap();
    chapter.sync_files();
    let e = chapter.status().unwrap();
    assert!(e.contains("density_file is empty"), "{e}");
    assert_eq!(chapter.params.volumes, kept);
    chapter.params.volumes[1] = with_file(&truncated);
    chapter.sync_files();
    assert!(chapter.status().unwrap().contains("truncated"));
    assert_eq!(chapter.params.volumes, kept);
    // A good change goes through and clears the message.
    chapter.params.volumes[1] = with_file(&good);
    chapter.sync_files();
    assert_eq!(chapter.status(), None);
    assert_eq!(chapter.params.volumes[1].density_file, good.display().to_string());
}
// ANCHOR_END: bad_file_test
