//! Culling: the binned lists change no pixel, and a tile tests few volumes.

use crate::common::*;
use crate::{CAMERA, SIZE};

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
