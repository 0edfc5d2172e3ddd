//! Chapter 4's answer keys: each reads its number from the page's "Try this" and computes it
//! from the chapter's CPU reference or the core.

#[allow(unused_imports)]
use super::{close, numbers_after, page_answer};
use fogbook_core::camera::CameraPose;
use fogbook_core::scene_settings::SceneSettings;
use fogbook_froxel_fog::FroxelFogParams;
use fogbook_froxel_fog::reference::{self, Slices};
use glam::DVec3;

const PAGE: &str = "ch04-froxel-fog.md";

/// Try this exercise `start` of the page, its line breaks and indents made single spaces.
fn exercise(start: &str) -> String {
    page_answer(PAGE, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The default grid's slices with another near distance.
fn default_slices(near: f64) -> Slices {
    let p = FroxelFogParams::default();
    Slices::new(near, p.fog_distance_m as f64, p.grid_depth)
}

/// How much longer each slice (after slice 0) is than the one before, in per cent.
fn growth_percent(s: &Slices) -> f64 {
    (s.end(2) - s.begin(2)) / (s.end(1) - s.begin(1)) * 100.0 - 100.0
}

/// Try this 1: where the slices go with `near_m` at 0.1 and 10 m.
#[test]
fn near_distance_moves_the_slices() {
    let answer = exercise("1. Render `slices` with `near_m=0.1`");
    let growth = numbers_after(&answer, "longer than the last by ");
    let against = numbers_after(&answer, "against ");
    assert_eq!((growth.len(), against.len()), (2, 2), "Try this 1 gives two growths and two comparisons: {answer}");
    let default = FroxelFogParams::default().near_m as f64;
    let (fine, coarse, usual) = (default_slices(0.1), default_slices(10.0), default_slices(default));
    close(growth_percent(&fine), growth[0], 0.05, "slice growth at near_m = 0.1 (%)");
    close(growth_percent(&coarse), growth[1], 0.05, "slice growth at near_m = 10 (%)");
    close(growth_percent(&usual), against[0], 0.05, "slice growth at the default near_m (%)");
    let within = |s: &Slices, z: f64| (0..s.count).filter(|&k| s.begin(k) < z).count() as f64;
    close(
        within(&fine, 10.0),
        numbers_after(&answer, "At 0.1, ")[0],
        0.0,
        "slices beginning within 10 m, near_m = 0.1",
    );
    close(within(&usual, 10.0), against[1], 0.0, "slices beginning within 10 m, default near_m");
    close(coarse.end(0), numbers_after(&answer, "spans 0 to ")[0], 0.05, "end of slice 0 at near_m = 10 (m)");
}

/// Try this 2: the naive step S·Δ against the energy-conserving one in a constant medium.
#[test]
fn naive_steps_overshoot_the_closed_form() {
    let answer = exercise("2. Replace `step_integral(s.rgb, s.a, len)`");
    let sigma_t = numbers_after(&answer, "`dense-haze`'s ")[0];
    let by = numbers_after(&answer, "by ");
    assert_eq!(by.len(), 2, "Try this 2 gives the overshoot at two slice counts: {answer}");
    let p = FroxelFogParams::default();
    let far = p.fog_distance_m as f64;
    let overshoot = |count: u32, sigma_t: f64| {
        let slices = Slices::new(p.near_m as f64, far, count);
        let naive = reference::integrate_column_riemann(&slices, far, |_| (sigma_t, sigma_t));
        naive / reference::homogeneous_inscattering(1.0, sigma_t, sigma_t, far)
    };
    close((overshoot(p.grid_depth, sigma_t) - 1.0) * 100.0, by[0], 0.05, "naive overshoot, default slices (%)");
    close((overshoot(32, sigma_t) - 1.0) * 100.0, by[1], 0.05, "naive overshoot, the plot's 32 slices (%)");
    // Where the plot's naive curve passes the medium's own radiance L·a = 1: bisection.
    let coarse = Slices::new(p.near_m as f64, far, 32);
    let naive = |s: f64| reference::integrate_column_riemann(&coarse, far, |_| (s, s));
    let (mut lo, mut hi) = (1e-4, 0.5);
    assert!(naive(lo) < 1.0 && naive(hi) > 1.0);
    for _ in 0..60 {
        let m = 0.5 * (lo + hi);
        if naive(m) > 1.0 { hi = m } else { lo = m }
    }
    close(lo, numbers_after(&answer, "from σt = ")[0], 5e-5, "extinction where the naive column passes 1 (1/m)");
}

/// The ray through the centre of pixel (x, y) of a `size` image, from the camera pose alone (as
/// the chapter's tests build it).
fn pose_ray(pose: &CameraPose, size: [u32; 2], x: f64, y: f64) -> DVec3 {
    let forward = pose.forward().as_dvec3();
    let right = forward.cross(DVec3::Y).normalize();
    let up = right.cross(forward);
    let tan_half = ((pose.fov_y_deg as f64).to_radians() / 2.0).tan();
    let aspect = size[0] as f64 / size[1] as f64;
    let ndc_x = (x + 0.5) / size[0] as f64 * 2.0 - 1.0;
    let ndc_y = 1.0 - (y + 0.5) / size[1] as f64 * 2.0;
    (forward + right * (ndc_x * tan_half * aspect) + up * (ndc_y * tan_half)).normalize()
}

/// The worst and the mean across-column error of the composite's transmittance in chapter 2's
/// layer, as `height_fog_matches_chapter_two_within_the_slice_error` forms it: the slice
/// holding the pixel's depth finished with the four nearest columns' exact integrals, each
/// weighted bilinearly, against chapter 2's closed form along the pixel's own ray.
fn across_column_error(camera: &str, grid: [u32; 2], size: [u32; 2]) -> (f64, f64) {
    use fogbook_height_fog::reference::Layer;
    let layer = Layer { density: 0.02, falloff: 0.2, height: 0.0 };
    let slices = Slices::new(FroxelFogParams::default().near_m as f64, 1000.0, 32);
    let pose = CameraPose::parse(camera).unwrap();
    let eye = pose.eye().as_dvec3();
    let sky = SceneSettings::default().sky_distance_m as f64;
    let (mut worst, mut sum) = (0.0f64, 0.0);
    for y in 0..size[1] {
        for x in 0..size[0] {
            let dir = pose_ray(&pose, size, x as f64, y as f64);
            let surface = fogbook_core::scene::ray_cast(pose.eye(), dir.as_vec3()).map_or(sky, |t| t as f64);
            let d = surface.min(slices.far);
            let want = (-layer.optical_depth(eye.y, dir.y, 0.0, surface)).exp();
            let beyond = (-layer.optical_depth(eye.y, dir.y, d, surface)).exp();
            let begin = slices.begin(slices.locate(d).0);
            // The composite's bilinear weights: grid coordinate uv · (X, Y) − ½, clamped.
            let u = (x as f64 + 0.5) / size[0] as f64 * grid[0] as f64 - 0.5;
            let v = (y as f64 + 0.5) / size[1] as f64 * grid[1] as f64 - 0.5;
            let (mut before, mut tau_partial) = (0.0, 0.0);
            for (cu, wu) in [(u.floor(), 1.0 - (u - u.floor())), (u.floor() + 1.0, u - u.floor())] {
                for (cv, wv) in [(v.floor(), 1.0 - (v - v.floor())), (v.floor() + 1.0, v - v.floor())] {
                    let (i, j) = (cu.clamp(0.0, grid[0] as f64 - 1.0), cv.clamp(0.0, grid[1] as f64 - 1.0));
                    let col = pose_ray(&pose, grid, i, j);
                    before += wu * wv * (-layer.optical_depth(eye.y, col.y, 0.0, begin)).exp();
                    tau_partial += wu * wv * layer.optical_depth(eye.y, col.y, begin, d);
                }
            }
            let columns = before * (-tau_partial).exp() * beyond;
            worst = worst.max((columns - want).abs());
            sum += (columns - want).abs();
        }
    }
    (worst, sum / (size[0] * size[1]) as f64)
}

/// Try this 3: the across-column error looking down from 20 m, on the default grid and at 256×144.
#[test]
fn finer_columns_shrink_the_across_column_error() {
    let answer = exercise("3. Render the height-fog test's view");
    let worst = numbers_after(&answer, "largest across-column error in T is ");
    let mean = numbers_after(&answer, "the mean ");
    assert_eq!(
        (worst.len(), mean.len()),
        (2, 2),
        "Try this 3 gives the worst and the mean error at two grids: {answer}"
    );
    let (camera, image) = ("0,20,0,0,-20,60", [1280, 720]);
    let p = FroxelFogParams::default();
    let (default_worst, default_mean) = across_column_error(camera, [p.grid_width, p.grid_height], image);
    let (fine_worst, fine_mean) = across_column_error(camera, [256, 144], image);
    close(default_worst, worst[0], 5e-4, "worst across-column error, default columns");
    close(fine_worst, worst[1], 5e-4, "worst across-column error, 256×144");
    close(default_mean, mean[0], 5e-6, "mean across-column error, default columns");
    close(fine_mean, mean[1], 5e-6, "mean across-column error, 256×144");
    close(default_mean / fine_mean, numbers_after(&answer, "0.00028, ")[0], 0.05, "how many times less");
    let spacing: f64 = 256.0 / p.grid_width as f64;
    close(spacing, numbers_after(&answer, "the square of the ")[0], 0.05, "how much finer the columns are");
    let tests = across_column_error(camera, [64, 36], image).0;
    close(tests, numbers_after(&answer, "the largest is ")[0], 5e-3, "worst across-column error, the tests' 64×36");
}

/// The cosine between the default view's centre and the default sun.
fn cos_view_sun() -> f64 {
    let forward = CameraPose::default().forward().as_dvec3();
    forward.dot(SceneSettings::default().sun_direction().as_dvec3())
}

/// Try this 4: backward scattering, g = −0.6, towards the view's centre and away from the sun.
#[test]
fn backward_scattering_dims_the_sunward_fog() {
    use reference::henyey_greenstein as hg;
    let answer = exercise("4. Set `phase_g=-0.6`");
    let phase = numbers_after(&answer, "the phase function is ");
    assert_eq!(phase.len(), 2, "Try this 4 gives the phase function at g = 0.6 and −0.6: {answer}");
    let cos = cos_view_sun();
    close(
        cos.acos().to_degrees(),
        numbers_after(&answer, "centre, ")[0],
        0.5,
        "angle from the view's centre to the sun (°)",
    );
    let g = FroxelFogParams::default().phase_g as f64;
    close(hg(g, cos), phase[0], 5e-4, "phase at the default g towards the view's centre (1/sr)");
    close(hg(-g, cos), phase[1], 5e-5, "phase at −g towards the view's centre (1/sr)");
    close(hg(g, cos) / hg(-g, cos), numbers_after(&answer, "−0.6, ")[0], 0.5, "how many times less");
    close(hg(-g, -1.0), numbers_after(&answer, "reaches ")[0], 5e-3, "backward peak at −g (1/sr)");
}

/// Try this 6: the spot lights' cones seen from the side, at g from −0.6 to 0.9.
#[test]
fn forward_scattering_hides_the_cones_from_the_side() {
    use reference::henyey_greenstein as hg;
    let answer = exercise("6. At dusk");
    let side = numbers_after(&answer, "Henyey–Greenstein gives ");
    assert_eq!(side.len(), 2, "Try this 6 gives the phase at 90° for two g: {answer}");
    close(hg(-0.6, 0.0), side[0], 5e-4, "phase at 90°, g = −0.6 (1/sr)");
    close(hg(0.9, 0.0), side[1], 5e-5, "phase at 90°, g = 0.9 (1/sr)");
    close(hg(0.0, 0.0), numbers_after(&answer, "against ")[0], 5e-4, "isotropic phase (1/sr)");
    close(hg(0.9, 1.0), numbers_after(&answer, "cone, ")[0], 0.05, "phase straight ahead, g = 0.9 (1/sr)");
}

/// Try this 7: how long a moving light's trail lasts at two history weights.
#[test]
fn the_trail_fades_as_the_blend_predicts() {
    let answer = exercise("7. Set `temporal=true`");
    let frames = numbers_after(&answer, "is left after ");
    let seconds = numbers_after(&answer, "that is ");
    let sweep = numbers_after(&answer, "sweeps ");
    assert_eq!((frames.len(), seconds.len(), sweep.len()), (2, 2, 2), "Try this 7: two blends: {answer}");
    let fraction = numbers_after(&answer, "Less than ")[0] / 100.0;
    let default = FroxelFogParams::default().history_blend as f64;
    // 60 Hz and the orbit of 90°/s the exercise sets.
    let (hz, orbit_deg_s) = (60.0, 90.0);
    for (i, blend) in [default, 0.5].into_iter().enumerate() {
        let k = reference::frames_to_fade(blend, fraction);
        close(k as f64, frames[i], 0.0, &format!("frames until below 1 % at blend {blend:.2}"));
        close(k as f64 / hz, seconds[i], 0.005, &format!("seconds at 60 Hz, blend {blend:.2}"));
        close(k as f64 / hz * orbit_deg_s, sweep[i], 0.05, &format!("degrees of orbit, blend {blend:.2}"));
    }
}

/// Try this 8: where the slices and the columns grow past half the noise's coarsest cell.
#[test]
fn the_grid_undersamples_fine_noise() {
    let answer = exercise("8. Turn `noise_amount` to 1");
    let cell = numbers_after(&answer, "coarsest cells are ")[0];
    let p = FroxelFogParams::default();
    let slices = default_slices(p.near_m as f64);
    let first = (1..slices.count).find(|&k| slices.end(k) - slices.begin(k) > cell / 2.0).unwrap();
    close(first as f64, numbers_after(&answer, "from slice ")[0], 0.0, "first slice longer than half a cell");
    close(slices.begin(first), numbers_after(&answer, "on, ")[0], 0.05, "where it begins (m)");
    // A column's width at distance z, on a 16:9 screen with the default camera's field of view.
    let tan_half = (CameraPose::default().fov_y_deg as f64 / 2.0).to_radians().tan();
    let width_per_m = 2.0 * tan_half * 16.0 / 9.0 / p.grid_width as f64;
    close(
        cell / 2.0 / width_per_m,
        numbers_after(&answer, "wide at ")[0],
        0.5,
        "where columns are half a cell wide (m)",
    );
}
