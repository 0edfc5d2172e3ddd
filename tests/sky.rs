//! Chapter 3 on the GPU against the CPU references (f64): the transmittance LUT texel by texel;
//! single scattering from the 4D texture against its direct integral (PSNR); the second order of
//! scattering from the precomputed textures against a brute-force integral over the sphere; the
//! scene's sun light against the exact transmittance; no NaN anywhere.

mod common;

use common::*;
use fogbook::state::Setup;
use fogbook_core::scene_settings::SceneSettings;
use fogbook_core::time::TimeControl;
use fogbook_core::{Loaded, StackView};
use fogbook_sky::reference::{
    Atmosphere, SecondOrderQuality, TRANSMITTANCE_SIZE, second_order_scattering, single_scattering_graded,
    transmittance_r_mu,
};
use fogbook_sky::{SUN_ANGULAR_RADIUS, Sky, SkyParams};
use glam::DVec3;

#[test]
fn transmittance_lut_matches_the_f64_integral() {
    let h = headless([64, 36]);
    let mut sky = single_order_quarter_sky(&h);
    let (sky, state) = sky.parts().unwrap();
    let lut = state.read_lut(&sky.params, &h.gpu, "transmittance").unwrap();
    // Six 3D textures of 64 × 32 × 8 rgba32float texels at quarter size, the transmittance
    // LUT and three irradiance textures.
    assert_eq!(state.lut_bytes(), 6 * 64 * 32 * 8 * 16 + 256 * 64 * 16 + 3 * 64 * 16 * 16);
    let atm = Atmosphere::default();
    let [w, hh] = TRANSMITTANCE_SIZE;
    let mut worst = 0.0f64;
    for y in 0..hh {
        for x in 0..w {
            let (u, v) = ((x as f64 + 0.5) / w as f64, (y as f64 + 0.5) / hh as f64);
            let (r, mu) = transmittance_r_mu(&atm, u, v);
            let want = atm.transmittance_to_top(r, mu, 500);
            let got = lut.pixel(x, y);
            for k in 0..3 {
                // Compared as optical depth τ = −ln T. In f32 the radius of a sample (6.4e6 m)
                // is rounded to 0.5 m, which shifts its altitude by up to 0.25 m: 2e-4 of the
                // Mie scale height, so τ may differ by up to 2e-4 of itself.
                let (tau_gpu, tau_cpu) = (-(got[k] as f64).ln(), -want[k].ln());
                let err = (tau_gpu - tau_cpu).abs();
                // Near the top of the atmosphere r and the distances nearly cancel in f32 as well:
                // an absolute 1e-5 there.
                assert!(err <= 2e-4 * tau_cpu + 1e-5, "texel ({x},{y}) ch {k}: τ GPU {tau_gpu} CPU {tau_cpu}");
                worst = worst.max(err / tau_cpu.max(1e-9));
            }
        }
    }
    eprintln!("transmittance LUT: worst relative error of τ {worst:.2e} over {} texels", w * hh);
}

#[test]
fn going_back_to_an_earlier_atmosphere_swaps_its_tables_back_in() {
    let h = headless([16, 9]);
    let mut sky = single_order_quarter_sky(&h);
    let (sky, state) = sky.parts().unwrap();
    let a = sky.params.clone();
    let b = SkyParams { ozone: false, ..a.clone() };
    let c = SkyParams { mie_scattering: a.mie_scattering * 2.0, ..a.clone() };
    let transmittance =
        |state: &fogbook_sky::Gpu, p: &SkyParams| state.current_lut(p, &h.gpu, "transmittance").unwrap().rgba;
    let mut update = |p: &SkyParams| {
        state.update_luts_now(p, &h.gpu);
        (state.lut_computations(), transmittance(state, p))
    };
    let (n, ta) = update(&a);
    assert_eq!(n, 1);
    let (n, tb) = update(&b);
    assert_eq!(n, 2);
    assert_ne!(ta, tb, "ozone changes the transmittance");
    // Back and forth between two atmospheres: no computation, the right tables.
    assert_eq!(update(&a), (2, ta.clone()));
    assert_eq!(update(&b), (2, tb.clone()));
    assert_eq!(update(&b).0, 2, "an unchanged atmosphere computes nothing");
    // A third atmosphere pushes out the older of the two.
    assert_eq!(update(&c).0, 3);
    assert_eq!(update(&b), (3, tb));
    assert_eq!(update(&a), (4, ta));
}

/// The sky with one order of scattering and quarter-size tables, prepared on `h`.
fn single_order_quarter_sky(h: &fogbook_core::headless::Headless) -> Loaded<Sky> {
    let mut sky = Loaded::new(Sky::new());
    sky.chapter.params.scattering_orders = 1;
    sky.chapter.params.lut_resolution = fogbook_sky::LutResolution::Quarter;
    h.prepare(&mut sky).unwrap();
    sky
}

/// Sky parameters and scene settings from `name=value` settings.
fn settings(sets: &[&str]) -> (SkyParams, SceneSettings) {
    typed_settings(sets)
}

/// The viewer's radius as the sky shader computes it.
fn viewer_radius(atm: &Atmosphere, params: &SkyParams, origin: DVec3) -> f64 {
    atm.bottom_radius + (origin.y + params.camera_altitude_m as f64).max(1.0)
}

#[test]
fn single_scattering_from_the_4d_texture_matches_its_direct_integral() {
    // Single scattering at Bruneton's full texture size against the f64 integral along each
    // pixel's ray (no table): his "separate textures" test asks for 47 dB.
    let size = [64, 36];
    for (camera, sets) in [
        ("0,2,0,-20,45,70", &["scene.sun_elevation_deg=20"][..]),
        ("0,2,0,160,40,70", &["scene.sun_elevation_deg=3"]),
        ("0,2,0,20,40,70", &["scene.sun_elevation_deg=-4", "ozone=false"]),
        ("0,2,0,60,12,70", &["scene.sun_elevation_deg=30"]),
    ] {
        let mut all = vec!["scattering_orders=1"];
        all.extend_from_slice(sets);
        let img = render("sky", "single-scattering", &all, Some(camera), size).raw;
        let (params, scene) = settings(&all);
        let atm = Atmosphere::from_params(&params);
        let sun = scene.sun_direction().as_dvec3();
        let exposure = params.exposure as f64;
        let (mut sq_err, mut peak, mut n) = (0.0f64, 0.0f64, 0usize);
        for y in 0..size[1] {
            for x in 0..size[0] {
                let (o, d) = pose_ray(camera, size, x, y);
                let r = viewer_radius(&atm, &params, o);
                // Sky only (the ground and the scene are lit, not scattered light), away from the
                // sun's disc.
                if fogbook_core::scene::ray_cast(o.as_vec3(), d.as_vec3()).is_some()
                    || atm.hits_ground(r, d.y)
                    || d.dot(sun) > (4.0 * SUN_ANGULAR_RADIUS as f64).cos()
                {
                    continue;
                }
                n += 1;
                let want = single_scattering_graded(&atm, r, d.y, sun.y, d.dot(sun), 200, 200);
                let got = img.pixel(x, y);
                for k in 0..3 {
                    let w = want[k] * exposure;
                    sq_err += (got[k] as f64 - w).powi(2);
                    peak = peak.max(w);
                }
            }
        }
        assert!(n > 800, "{n} sky pixels");
        let psnr = 10.0 * (peak * peak / (sq_err / (3 * n) as f64)).log10();
        eprintln!("single scattering {camera} {sets:?}: PSNR {psnr:.1} dB over {n} pixels");
        assert!(psnr >= 40.0, "PSNR {psnr:.1} dB");
    }
}

#[test]
fn second_order_from_the_textures_matches_a_brute_force_integral() {
    // With two orders precomputed, the multiple-scattering view is the second order alone.
    // The brute force integrates the first order arriving from 20 × 40 directions at each of
    // 24 points of the ray (Bruneton: 16 × 32, from the texture); no table is involved.
    let size = [16, 9];
    let camera = "0,2,0,150,25,80";
    let sets = ["scattering_orders=2", "scene.sun_elevation_deg=25"];
    let img = render("sky", "multiple-scattering", &sets, Some(camera), size).raw;
    let (params, scene) = settings(&sets);
    let atm = Atmosphere::from_params(&params);
    let sun = scene.sun_direction().as_dvec3();
    let q = SecondOrderQuality { view_steps: 24, rings: 20, single_steps: 32, sun_samples: 48 };
    let mut worst = 0.0f64;
    // Sky rays only: on the ground the view adds the ground's light.
    for (x, y) in [(1, 1), (8, 0), (14, 3), (12, 6), (4, 5)] {
        let (o, d) = pose_ray(camera, size, x, y);
        let r = viewer_radius(&atm, &params, o);
        assert!(!atm.hits_ground(r, d.y));
        let want = second_order_scattering(&atm, r, d.y, sun.y, d.dot(sun), SUN_ANGULAR_RADIUS as f64, q);
        let got = img.pixel(x, y);
        let rel: Vec<f64> = (0..3).map(|k| got[k] as f64 / (want[k] * params.exposure as f64) - 1.0).collect();
        eprintln!("second order at pixel ({x},{y}), view zenith cos {:.3}: GPU/brute force − 1 = {rel:.4?}", d.y);
        worst = rel.iter().fold(worst, |w, e| w.max(e.abs()));
    }
    // Measured −10 % (zenith) to +0.5 %: Bruneton's 16 × 32 uniform directions and the texture's
    // interpolation (32 × 64 directions on the GPU move these by +2…+6 %). The brute force's
    // rings are graded towards the horizon, within 2.5 % of four times as many; with uniform
    // rings it read 5 % low, which hid half of this. A lost ground term or phase function is a
    // factor, far beyond 12 %.
    assert!(worst < 0.12, "worst relative difference {worst:.3}");
}

#[test]
fn the_scene_is_lit_by_the_sun_through_the_atmosphere() {
    // The lighting pass writes sun_color = exposure × E_sun × T(sun) / π over the frame uniform.
    let mut h = headless([32, 18]);
    for elevation in [60.0f32, 10.0, 2.0, -1.0] {
        // Read from the frame uniform, where the scene (and every later stage) sees it.
        let mut setup = Setup::new("sky").unwrap();
        setup.scene.sun_elevation_deg = elevation;
        setup.apply(None, &["lut_resolution=quarter".into(), "scattering_orders=2".into()], None).unwrap();
        h.prepare_stack(&mut setup.stack).unwrap();
        let first = StackView::default();
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), first, 1);
        let frame = h.renderer.frame.read_uniform(&h.gpu).unwrap();
        let [dir, sun_color, ambient] = [frame.sun_dir, frame.sun_color, frame.ambient];
        let atm = Atmosphere::default();
        let mu_s = (elevation as f64).to_radians().sin();
        let t = if atm.hits_ground(atm.bottom_radius + 1.0, mu_s) {
            [0.0; 3]
        } else {
            atm.transmittance_to_top(atm.bottom_radius + 1.0, mu_s, 2000)
        };
        let scale = fogbook_sky::SkyParams::default().exposure as f64 / std::f64::consts::PI;
        eprintln!("sun at {elevation}°: sun colour {sun_color:?}, ambient {ambient:?}");
        assert_eq!(dir[3], 1.0);
        assert!((dir[1] - mu_s as f32).abs() < 1e-6);
        for k in 0..3 {
            let want = atm.solar_irradiance[k] * t[k] * scale;
            if want == 0.0 {
                assert!(sun_color[k] == 0.0, "{elevation}°: the sun is set, yet {sun_color:?}");
                continue;
            }
            // As optical depth: the LUT is bilinear in a parameterisation that is not, which
            // shows most at grazing sun (τ = 5 in blue at 2°: GPU / f64 = 1.0038).
            let tau = -t[k].ln();
            let err = (sun_color[k] as f64 / want).ln().abs();
            assert!(err <= 1e-3 * tau + 1e-3, "{elevation}° ch {k}: {sun_color:?}, ln(GPU / f64) = {err:.2e}");
            assert!(ambient[k].is_finite() && ambient[k] > 0.0, "{elevation}°: ambient {ambient:?}");
        }
        // Blue sky light.
        assert!(ambient[2] > ambient[0]);
    }
}

#[test]
fn every_view_is_finite_from_the_ground_to_space_and_below_the_horizon() {
    let mut h = headless([48, 27]);
    for sets in [
        &["scene.sun_elevation_deg=-12"][..],
        &["scene.sun_elevation_deg=90"],
        &["camera_altitude_m=10000000"],
        &["camera_altitude_m=59000", "scene.sun_elevation_deg=0"],
        &["ozone=false", "mie_g=-0.999", "ground_albedo=1"],
        &["mie_g=0.999", "scattering_orders=1", "horizon_blend_deg=2"],
        &["atmosphere_height_km=1", "rayleigh_scale_height_km=0.1", "mie_scattering=1000"],
    ] {
        // One chapter per atmosphere, so the LUTs are computed once for all its views.
        let mut setup = Setup::new("sky").unwrap();
        let mut all = vec!["lut_resolution=quarter".to_string()];
        all.extend(sets.iter().map(|s| s.to_string()));
        setup.apply(None, &all, None).unwrap();
        h.prepare_stack(&mut setup.stack).unwrap();
        let views = setup.stack.views().len();
        for camera in ["0,2,0,0,10,60", "0,2,0,0,-89,60", "0,2,0,0,89,60", "0,2,0,0,0,1"] {
            let pose = fogbook_core::camera::CameraPose::parse(camera).unwrap();
            for view in 0..views {
                let view = setup.stack.views()[view].at;
                h.run(&mut setup.stack, &pose, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
                let c = h.capture().unwrap();
                assert_eq!(c.raw.red_stats().2, 0, "{sets:?} {camera:?} view {view:?}");
            }
        }
    }
}
