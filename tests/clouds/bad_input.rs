//! Bad input: nothing non-finite in any view, from the ground to 100 km, at any coverage.

use crate::common::*;
use crate::{draw, stack};

/// Nothing non-finite reaches the frame: from the ground, inside the layer, above it, at 10 and
/// 100 km; the sun below the horizon; coverage 0 and 1; the real-time mode; alone and under the sky. One stack per
/// case list, its settings and camera changed between frames (the sky's tables are made once).
#[test]
fn no_view_writes_a_non_finite_value() {
    let cameras = ["0,0,0,0,10,70", "0,2500,0,0,0,70", "0,10000,0,0,-10,70", "0,100000,0,0,-30,70"];
    let extremes: [&[&str]; 5] = [
        &["scene.sun_elevation_deg=-10"],
        &["mode=realtime", "neighbourhood_margin=0", "coverage=1"],
        &["coverage=0"],
        &["coverage=1", "extinction=1", "powder=true"],
        &["density_model=slab", "layer_bottom_m=0", "scene.sun_elevation_deg=-2"],
    ];
    let mut h = headless([48, 27]);
    for (spec, prefix) in [("clouds", ""), ("sky,clouds", "clouds/")] {
        let mut setup = stack(&h, spec);
        // The shadow map too: its sun is clamped to 3° when lower or set.
        let views = ["final".to_string(), format!("{prefix}light-transmittance"), format!("{prefix}cloud-shadow")];
        let views: Vec<&str> = views.iter().map(String::as_str).collect();
        for camera in cameras {
            for extra in extremes {
                let mut sets = vec!["noise_resolution=low", "view_steps=16", "light_steps=3"];
                if spec != "clouds" {
                    sets.push("sky.lut_resolution=quarter");
                }
                sets.extend_from_slice(extra);
                // The march's result, the one view that divides by the cloud's opacity, the map.
                for (view, image) in views.iter().zip(draw(&mut h, &mut setup, &sets, camera, &views)) {
                    let bad = image.rgba.iter().filter(|v| !v.is_finite()).count();
                    assert_eq!(bad, 0, "{spec} {view} from {camera} with {extra:?}");
                }
            }
        }
    }
}
