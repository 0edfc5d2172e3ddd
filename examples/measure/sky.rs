//! The numbers the sky's page quotes in "Why multiple scattering matters": at Bruneton's full
//! table size, eight orders standing for all of them, single scattering also by direct
//! integration with no table. Minutes on two cores.

use fogbook_sky::LutResolution;
use fogbook_sky::cpu_luts::{self, Orders};
use fogbook_sky::plots::luminance;
use fogbook_sky::reference::{Atmosphere, single_scattering_graded};

pub fn orders_at_full_size() {
    let cases = [
        (30.0, 90.0, 0.0),
        (30.0, 10.0, 90.0),
        (10.0, 10.0, 0.0),
        (5.0, 90.0, 0.0),
        (-4.0, 10.0, 180.0),
        (-4.0, 90.0, 0.0),
        (-8.0, 90.0, 0.0),
    ];
    println!("Ozone on, 8 orders:");
    report(&Atmosphere::default(), 8, &cases);
    println!("Ozone off, 4 orders:");
    let no_ozone = Atmosphere { ozone_absorption: [0.0; 3], ..Atmosphere::default() };
    report(&no_ozone, 4, &[(-4.0, 90.0, 0.0)]);
}

fn report(atm: &Atmosphere, orders: u32, cases: &[(f64, f64, f64)]) {
    let size = LutResolution::Full.scattering_size();
    let each = cpu_luts::precompute_each_order(atm, size, orders);
    let r = atm.bottom_radius + 1.0;
    for &(sun, view, azimuth) in cases {
        let (s, v, a) = (sun.to_radians(), view.to_radians(), azimuth.to_radians());
        let nu = v.cos() * s.cos() * a.cos() + v.sin() * s.sin();
        let sky =
            |n: usize| each[n - 1].sky_radiance(atm, r, v.sin(), s.sin(), nu, 0.0, Orders::All, false).inscattering;
        let table_single = sky(1);
        let all = sky(orders as usize);
        let direct = single_scattering_graded(atm, r, v.sin(), s.sin(), nu, 400, 500);
        let multiple: Vec<f64> = (0..3).map(|k| all[k] - table_single[k]).collect();
        let share: Vec<f64> = (0..3).map(|k| direct[k] / (direct[k] + multiple[k])).collect();
        let by: Vec<f64> = (2..=4.min(orders as usize))
            .map(|n| (luminance(sky(n)) - luminance(table_single)) / (luminance(all) - luminance(table_single)))
            .collect();
        let beyond4 = (luminance(all) - luminance(sky(4.min(orders as usize)))) / luminance(all);
        println!(
            "sun {sun}°, view {view}° up, {azimuth}° from the sun:\n  direct single {direct:?} (lum {:.4}), table single {table_single:?} (lum {:.4})\n  \
             all orders {all:?} (lum {:.4}); single / all (direct single + multiple) R,G,B = {:.3}, {:.3}, {:.3}\n  \
             blue/red: all {:.2}, direct single {:.2}; green/red all {:.2}\n  \
             luminance of the multiple part brought by orders 2, 2–3, 2–4: {by:.3?}; orders > 4: {:.4} of all",
            luminance(direct),
            luminance(table_single),
            luminance(all),
            share[0],
            share[1],
            share[2],
            (direct[2] + multiple[2]) / (direct[0] + multiple[0]),
            direct[2] / direct[0],
            (direct[1] + multiple[1]) / (direct[0] + multiple[0]),
            beyond4,
        );
    }
    for sun in [30.0f64, 5.0] {
        let e = each[orders as usize - 1].sun_and_sky_irradiance(atm, r, sun.to_radians().sin());
        let ratio: Vec<f64> = (0..3).map(|k| e.sky[k] / e.sun[k]).collect();
        println!("sun {sun}°: sky / sun irradiance on a horizontal surface {ratio:.3?}");
    }
}
