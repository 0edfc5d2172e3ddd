//! How much of the sky single scattering misses, and how fast the orders converge: the numbers
//! the book's "Why multiple scattering matters" quotes, from the CPU port of the precomputation
//! at half size with eight orders standing for "all of it". Run with `--nocapture` to see them.

use fogbook_sky::LutResolution;
use fogbook_sky::cpu_luts::{self, Orders};
use fogbook_sky::reference::Atmosphere;

/// (sun elevation, view elevation, view azimuth from the sun), degrees.
const CASES: [(f64, f64, f64); 6] = [
    (30.0, 90.0, 0.0),
    (30.0, 10.0, 90.0),
    (10.0, 10.0, 0.0),
    (5.0, 90.0, 0.0),
    (-4.0, 10.0, 180.0),
    (-8.0, 90.0, 0.0),
];

#[test]
fn single_scattering_misses_most_in_blue_in_twilight_and_order_two_adds_most_of_it() {
    let atm = Atmosphere::default();
    let orders = 8;
    let each = cpu_luts::precompute_each_order(&atm, LutResolution::Half.scattering_size(), orders);
    let all = &each[orders as usize - 1];
    let r = atm.bottom_radius + 1.0;
    for (sun, view, azimuth) in CASES {
        let (s, v, a) = (sun.to_radians(), view.to_radians(), azimuth.to_radians());
        let (mu, mu_s) = (v.sin(), s.sin());
        let nu = v.cos() * s.cos() * a.cos() + v.sin() * s.sin();
        let radiance = |luts: &cpu_luts::Luts, o| luts.sky_radiance(&atm, r, mu, mu_s, nu, 0.0, o, false).inscattering;
        let single = radiance(all, Orders::Single);
        let total = radiance(all, Orders::All);
        let share: Vec<f64> = (0..3).map(|k| single[k] / total[k]).collect();
        // Of what single scattering misses, the part orders 2, 2–3 and 2–4 bring (green).
        let missing = total[1] - single[1];
        let by: Vec<f64> = (2..=4).map(|n| (radiance(&each[n - 1], Orders::All)[1] - single[1]) / missing).collect();
        eprintln!(
            "sun {sun:>5}°, view {view:>4}° up, {azimuth:>5}° from the sun: single / all (R, G, B) = {:.2}, {:.2}, {:.2}; \
             blue / red all {:.2}, single {:.2}; orders 2, 2–3, 2–4 bring {:.3}, {:.3}, {:.3} of the rest",
            share[0],
            share[1],
            share[2],
            total[2] / total[0],
            single[2] / single[0],
            by[0],
            by[1],
            by[2]
        );
        // Scattering is strongest in blue, so blue misses the most.
        assert!(share[2] < share[0], "{sun}° {view}°: {share:?}");
        // Order 2 brings most of the rest, and four orders nearly all of it.
        assert!(by[0] > 0.6 && by[2] > 0.97, "{sun}° {view}°: {by:?}");
    }
    // Twilight, looking away from the sun: single scattering holds almost none of the blue.
    let (s, v) = ((-4.0f64).to_radians(), 10.0f64.to_radians());
    let nu = -v.cos() * s.cos() + v.sin() * s.sin();
    let single = all.sky_radiance(&atm, r, v.sin(), s.sin(), nu, 0.0, Orders::Single, false).inscattering;
    let total = all.sky_radiance(&atm, r, v.sin(), s.sin(), nu, 0.0, Orders::All, false).inscattering;
    assert!(single[2] / total[2] < 0.1, "{single:?} of {total:?}");
    // Sky light on a horizontal surface against the sun's, sun at 30° and 5°.
    for sun in [30.0f64, 5.0] {
        let e = all.sun_and_sky_irradiance(&atm, r, sun.to_radians().sin());
        eprintln!(
            "sun {sun}°: sky / sun irradiance (R, G, B) = {:.2}, {:.2}, {:.2}",
            e.sky[0] / e.sun[0],
            e.sky[1] / e.sun[1],
            e.sky[2] / e.sun[2]
        );
    }
}
