//! The froxel fog page's table of the grid against the reference march.

use crate::common::render;

/// The page's figures of the grid against the reference march, measured: the 95th percentile and
/// the largest |ΔY| / Y of the `reference-error` view at the figures' 640×360 and the default grid,
/// for the default scene, the tower's shaft close up and the dusk lights.
pub fn grid_against_the_reference() {
    let dusk = [
        "scene.sun_illuminance=0",
        "scene.ambient=0.02,0.025,0.04",
        "scene.point_lights=4",
        "scene.spot_lights=2",
        "constant_density=0.01",
    ];
    let cases: [(&str, &[&str], Option<&str>); 3] = [
        ("default", &[], None),
        ("shaft close up", &[], Some("0,2,0,-9,0,14")),
        ("dusk lights", &dusk, Some("30,5,-80,-18,3,60")),
    ];
    for (name, sets, camera) in cases {
        let error = render("froxel-fog", "reference-error", sets, camera, [640, 360]).raw;
        let mut e: Vec<f32> =
            (0..360).flat_map(|y| (0..640).map(move |x| (x, y))).map(|(x, y)| error.pixel(x, y)[0]).collect();
        e.sort_by(f32::total_cmp);
        let at = |q: f64| e[((e.len() - 1) as f64 * q) as usize];
        println!(
            "{name}: median {:.4}, 95th percentile {:.4}, 99th {:.4}, largest {:.4}",
            at(0.5),
            at(0.95),
            at(0.99),
            at(1.0)
        );
    }
}
