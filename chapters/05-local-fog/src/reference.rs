//! The f64 reference of the analytic path: where a ray crosses a volume (slab test for the box,
//! unit sphere for the ellipsoid, infinite cylinder and caps for the cylinder, each in the
//! volume's local frame scaled to unit size), the closed-form optical depth of a constant or
//! height-falloff density along the crossing, and the midpoint quadrature used for edge-faded
//! volumes — each checked here against brute-force integration of `FogVolume::weight_at`, which
//! knows nothing of intersections.

use fogbook_core::media::density::{DensityTexture, NoiseModel, texture_factor_with};
use fogbook_core::media::volumes::FogVolume;
use glam::DVec3;

/// Steps of the midpoint rule for an edge-faded volume's crossing (as `FADE_STEPS` in
/// shaders/common/media/shapes.wgsl).
pub const FADE_STEPS: u32 = 32;

/// Steps of the midpoint rule along the sun's ray through an edge-faded volume, its own or a
/// caster (as `CASTER_STEPS` in shaders/common/media/casters.wgsl, and chapter 4's
/// `SLICE_FADE_STEPS`).
pub const SUN_STEPS: u32 = 8;

// ANCHOR: chord
/// The interval of t where o + t·d (d need not be unit) lies inside the volume, or `None`.
/// The line is taken to the volume's local frame and divided by its half sizes, so the shape is
/// the unit cube, sphere or cylinder; t is unchanged by that linear map.
pub fn chord(v: &FogVolume, o: DVec3, d: DVec3) -> Option<(f64, f64)> {
    let half = v.half();
    let lo = v.to_local(o) / half;
    let ld = v.to_local_dir(d) / half;
    let shape = v.shape();
    let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
    // Slabs |x| ≤ 1 on the axes a box (all three) or a cylinder (its caps, y) is bounded by.
    let slab_axes: &[usize] = if shape > 1.5 {
        &[1]
    } else if shape > 0.5 {
        &[]
    } else {
        &[0, 1, 2]
    };
    for &a in slab_axes {
        if ld[a] == 0.0 {
            if lo[a].abs() > 1.0 {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((-1.0 - lo[a]) / ld[a], (1.0 - lo[a]) / ld[a]);
        t0 = t0.max(ta.min(tb));
        t1 = t1.min(ta.max(tb));
    }
    // Quadrics: the unit sphere, or the cylinder's side x² + z² ≤ 1.
    if shape > 0.5 {
        let mask = if shape > 1.5 { DVec3::new(1.0, 0.0, 1.0) } else { DVec3::ONE };
        let (po, pd) = (lo * mask, ld * mask);
        let a = pd.length_squared();
        if a == 0.0 {
            if po.length_squared() > 1.0 {
                return None;
            }
        } else {
            // The closest point to the axis (or centre) first, then ± half the chord: no
            // cancellation between b² and a·c.
            let tm = -po.dot(pd) / a;
            let k = 1.0 - (po + pd * tm).length_squared();
            if k < 0.0 {
                return None;
            }
            let h = (k / a).sqrt();
            t0 = t0.max(tm - h);
            t1 = t1.min(tm + h);
        }
    }
    (t0 < t1).then_some((t0, t1))
}
// ANCHOR_END: chord

// ANCHOR: height_optical_depth
/// ∫ from a to b of ρ₀ e^(−k (o_y + d_y t − y₀)) dt, in closed form:
///   τ = ρ(y(a)) · L · (1 − e^(−x)) / x,   x = k d_y L,   L = b − a,
/// which is ρ₀ L for k d_y → 0 (a constant density, or a horizontal ray).
pub fn height_optical_depth(rho0: f64, k: f64, y0: f64, oy: f64, dy: f64, a: f64, b: f64) -> f64 {
    let len = b - a;
    if len <= 0.0 || rho0 <= 0.0 {
        return 0.0;
    }
    let x = k * dy * len;
    let shape = if x.abs() < 1e-8 { 1.0 - x / 2.0 } else { -(-x).exp_m1() / x };
    rho0 * (-k * (oy + dy * a - y0)).exp() * len * shape
}
// ANCHOR_END: height_optical_depth

/// Optical depth of a volume along o + t·d over [t0, t1] in closed form (constant density or
/// height falloff; the edge fade left out).
pub fn optical_depth(v: &FogVolume, o: DVec3, d: DVec3, t0: f64, t1: f64) -> f64 {
    let Some((a, b)) = chord(v, o, d) else { return 0.0 };
    let (a, b) = (a.max(t0), b.min(t1));
    height_optical_depth(v.albedo_density[3] as f64, v.emission_falloff[3] as f64, v.base_height(), o.y, d.y, a, b)
}

/// The GPU's treatment of an edge-faded volume: the midpoint rule with `steps` steps over the
/// crossing, of ρ₀ · weight.
pub fn quadrature_optical_depth(v: &FogVolume, o: DVec3, d: DVec3, t0: f64, t1: f64, steps: u32) -> f64 {
    let Some((a, b)) = chord(v, o, d) else { return 0.0 };
    let (a, b) = (a.max(t0), b.min(t1));
    if b <= a {
        return 0.0;
    }
    let h = (b - a) / steps as f64;
    let sum: f64 = (0..steps).map(|i| v.weight_at(o + d * (a + (i as f64 + 0.5) * h))).sum();
    v.albedo_density[3] as f64 * sum * h
}

// ANCHOR: textured_optical_depth
/// The optical depth of a volume whose density is multiplied by a texture (noise or a file's
/// grid, `fogbook_core::media::density::texture_factor`): the midpoint rule in `steps` steps
/// over the crossing clipped to [t0, t1], of ρ₀ · weight · texture. With `FADE_STEPS` steps it
/// is the GPU's march; with thousands, the integral it approximates. The noise itself (the
/// ground truth); `textured_optical_depth_with` takes the GPU's baked copy instead.
pub fn textured_optical_depth(
    v: &FogVolume,
    o: DVec3,
    d: DVec3,
    t0: f64,
    t1: f64,
    textures: &[&DensityTexture],
    steps: u32,
) -> f64 {
    textured_optical_depth_with(NoiseModel::Analytic, v, o, d, t0, t1, textures, steps)
}

/// `textured_optical_depth` with the noise of `model`.
#[allow(clippy::too_many_arguments)]
pub fn textured_optical_depth_with(
    model: NoiseModel,
    v: &FogVolume,
    o: DVec3,
    d: DVec3,
    t0: f64,
    t1: f64,
    textures: &[&DensityTexture],
    steps: u32,
) -> f64 {
    let Some((a, b)) = chord(v, o, d) else { return 0.0 };
    let (a, b) = (a.max(t0), b.min(t1));
    if b <= a {
        return 0.0;
    }
    let h = (b - a) / steps as f64;
    let sum: f64 = (0..steps)
        .map(|i| {
            let p = o + d * (a + (i as f64 + 0.5) * h);
            v.weight_at(p) * texture_factor_with(model, v, p, textures)
        })
        .sum();
    v.albedo_density[3] as f64 * sum * h
}
// ANCHOR_END: textured_optical_depth

/// Brute force, independent of `chord`: finds where the weight is non-zero by scanning
/// [t0, t1] in `scan` samples and bisecting each change to 1e-13 of the span (keeping the end inside), then integrates
/// ρ₀ · weight over each inside interval with Simpson's rule in `steps` intervals.
pub fn numeric_optical_depth(v: &FogVolume, o: DVec3, d: DVec3, t0: f64, t1: f64, scan: u32, steps: u32) -> f64 {
    let inside = |t: f64| v.weight_at(o + d * t) > 0.0 || strictly_inside(v, o + d * t);
    let span = t1 - t0;
    let at = |i: u32| t0 + span * i as f64 / scan as f64;
    let bisect = |mut lo: f64, mut hi: f64, lo_inside: bool| {
        while hi - lo > 1e-13 * span.max(1.0) {
            let mid = 0.5 * (lo + hi);
            if inside(mid) == lo_inside {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // The end of the bracket that is inside, where the weight is not yet 0.
        if lo_inside { lo } else { hi }
    };
    let mut intervals = Vec::new();
    let mut start = inside(t0).then_some(t0);
    for i in 1..=scan {
        let (prev, t) = (at(i - 1), at(i));
        match (start, inside(t)) {
            (None, true) => start = Some(bisect(prev, t, false)),
            (Some(s), false) => {
                intervals.push((s, bisect(prev, t, true)));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        intervals.push((s, t1));
    }
    let rho0 = v.albedo_density[3] as f64;
    intervals
        .iter()
        .map(|&(a, b)| {
            let h = (b - a) / steps as f64;
            let f = |i: u32| v.weight_at(o + d * (a + h * i as f64));
            let mut sum = f(0) + f(steps);
            for i in 1..steps {
                sum += if i % 2 == 1 { 4.0 } else { 2.0 } * f(i);
            }
            rho0 * sum * h / 3.0
        })
        .sum()
}

/// Inside the shape by its definition (for volumes whose weight is 0 inside: zero density).
fn strictly_inside(v: &FogVolume, p: DVec3) -> bool {
    let q = v.to_local(p) / v.half();
    let shape = v.shape();
    if shape > 1.5 {
        q.x * q.x + q.z * q.z < 1.0 && q.y.abs() < 1.0
    } else if shape > 0.5 {
        q.length_squared() < 1.0
    } else {
        q.abs().max_element() < 1.0
    }
}

// ANCHOR: sun_points
/// Points of the sun's transmittance per crossing that the analytic path takes: one, the
/// median scattering point (`volume_source` in analytic.wgsl).
pub const SUN_POINTS: u32 = 1;

/// The sun's share of the light a volume scatters along [a, b], per unit of albedo × sun
/// radiance × phase, as the analytic path takes it. Exactly, it is ∫ T_sun dU with
/// U(t) = 1 − e^(−τ(a, t)), the opacity in front of t, which runs from 0 to 1 − e^(−τ): the
/// midpoint rule in U with n points gives (1 − e^(−τ)) · mean_k T_sun(t_k), where
/// τ(a, t_k) = −ln(1 − (k + ½)/n · (1 − e^(−τ))), t_k placed as if the density were constant.
/// n = 1 is the single "median scattering point". (No edge fade.)
pub fn sun_scattering_points(v: &FogVolume, o: DVec3, d: DVec3, a: f64, b: f64, l: DVec3, n: u32) -> f64 {
    let tau = optical_depth(v, o, d, a, b);
    let opacity = -(-tau).exp_m1();
    let mean = (0..n)
        .map(|k| {
            let u = (k as f64 + 0.5) / n as f64 * opacity;
            let fraction = if tau > 1e-9 { -(-u).ln_1p() / tau } else { (k as f64 + 0.5) / n as f64 };
            sun_transmittance(v, o + d * (a + fraction * (b - a)), l)
        })
        .sum::<f64>()
        / n as f64;
    opacity * mean
}

/// The same without the approximation: ∫ σt(t) e^(−τ(a, t)) T_sun(p(t)) dt by the midpoint rule
/// in `steps` steps, τ(a, t) and T_sun in closed form at every step.
pub fn sun_scattering_exact(v: &FogVolume, o: DVec3, d: DVec3, a: f64, b: f64, l: DVec3, steps: u32) -> f64 {
    let h = (b - a) / steps as f64;
    (0..steps)
        .map(|i| {
            let t = a + (i as f64 + 0.5) * h;
            let p = o + d * t;
            v.albedo_density[3] as f64
                * v.weight_at(p)
                * (-optical_depth(v, o, d, a, t)).exp()
                * sun_transmittance(v, p, l)
        })
        .sum::<f64>()
        * h
}

/// The volume's own transmittance from p towards the sun (unit direction l).
pub fn sun_transmittance(v: &FogVolume, p: DVec3, l: DVec3) -> f64 {
    (-optical_depth(v, p, l, 0.0, f64::INFINITY)).exp()
}

/// The same through an edge-faded volume as the analytic path takes it: `SUN_STEPS` midpoint
/// steps along the sun's ray.
pub fn faded_sun_transmittance(v: &FogVolume, p: DVec3, l: DVec3) -> f64 {
    (-quadrature_optical_depth(v, p, l, 0.0, f64::INFINITY, SUN_STEPS)).exp()
}

/// The transmittance from p towards the sun through every volume of `volumes` (the one p lies in
/// and all the others, closed form): what the analytic path's shadows between volumes give.
pub fn sun_transmittance_through(volumes: &[FogVolume], p: DVec3, l: DVec3) -> f64 {
    (-volumes.iter().map(|v| optical_depth(v, p, l, 0.0, f64::INFINITY)).sum::<f64>()).exp()
}
// ANCHOR_END: sun_points

#[cfg(test)]
mod tests {
    use super::*;
    use fogbook_core::media::volumes::{SHAPE_BOX, SHAPE_CYLINDER, SHAPE_ELLIPSOID};

    fn volume(shape: f32, falloff: f32, fade: f32, rotation: [f32; 3]) -> FogVolume {
        let mut v = FogVolume {
            centre: [1.0, 3.0, -20.0, shape],
            half_size: [4.0, 2.5, 3.0, fade],
            albedo_density: [0.9, 0.9, 0.9, 0.3],
            emission_falloff: [0.0, 0.0, 0.0, falloff],
            ..FogVolume::AXIS_ALIGNED
        };
        v.set_rotation_deg(rotation[0], rotation[1], rotation[2]);
        v
    }

    /// Rays from the eye towards points scattered over the volume's bounding box, plus a
    /// horizontal and a vertical one (the series branch and a cap-to-cap crossing).
    fn rays() -> Vec<(DVec3, DVec3)> {
        let o = DVec3::new(0.0, 2.0, 0.0);
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut rays: Vec<(DVec3, DVec3)> = (0..40)
            .map(|_| {
                let target =
                    DVec3::new(1.0 + 10.0 * (next() - 0.5), 3.0 + 7.0 * (next() - 0.5), -20.0 + 8.0 * (next() - 0.5));
                (o, (target - o).normalize())
            })
            .collect();
        rays.push((DVec3::new(1.5, 3.2, 0.0), DVec3::new(0.0, 0.0, -1.0)));
        rays.push((DVec3::new(1.2, -5.0, -20.3), DVec3::Y));
        rays
    }

    const SHAPES: [f32; 3] = [SHAPE_BOX, SHAPE_ELLIPSOID, SHAPE_CYLINDER];

    /// The closed form against brute-force Simpson integration of the weight, for every shape,
    /// rotated or not, with and without height falloff. Simpson on a smooth exponential between
    /// bisected boundaries is good to ~1e-12; the bound 1e-9 relative leaves room for the
    /// boundaries' bisection (1e-13 of the span times the density).
    #[test]
    fn closed_form_optical_depth_matches_brute_force_integration() {
        let mut hits = 0;
        for shape in SHAPES {
            for falloff in [0.0, 0.7] {
                for rotation in [[0.0; 3], [35.0, -20.0, 50.0]] {
                    let v = volume(shape, falloff, 0.0, rotation);
                    for (o, d) in rays() {
                        let want = numeric_optical_depth(&v, o, d, 0.0, 60.0, 20_000, 2_000);
                        let got = optical_depth(&v, o, d, 0.0, 60.0);
                        assert!(
                            (got - want).abs() <= 1e-9 * want + 1e-12,
                            "shape {shape} falloff {falloff} rotation {rotation:?} ray {d}: {got} vs {want}"
                        );
                        hits += (want > 0.0) as usize;
                    }
                }
            }
        }
        assert!(hits > 300, "most rays cross the volume: {hits}");
    }

    /// A clipped segment: the surface at t1 inside the volume, the start t0 inside it too.
    #[test]
    fn clipped_segments_match_brute_force() {
        for shape in SHAPES {
            let v = volume(shape, 0.4, 0.0, [10.0, 0.0, 0.0]);
            let (o, d) = (DVec3::new(0.0, 2.0, 0.0), DVec3::new(0.05, 0.04, -1.0).normalize());
            let (a, b) = chord(&v, o, d).expect("the ray crosses the volume");
            let (t0, t1) = (a + 0.3 * (b - a), a + 0.8 * (b - a));
            let want = numeric_optical_depth(&v, o, d, t0, t1, 1_000, 2_000);
            let got = optical_depth(&v, o, d, t0, t1);
            assert!((got - want).abs() <= 1e-9 * want, "shape {shape}: {got} vs {want}");
        }
    }

    /// Two constant-density volumes' closed forms against the integral in closed form by hand:
    /// a unit-density cube crossed along its axis gives its side, a sphere its diameter.
    #[test]
    fn hand_checked_crossings() {
        let mut cube = volume(SHAPE_BOX, 0.0, 0.0, [0.0; 3]);
        cube.half_size = [1.0, 1.0, 1.0, 0.0];
        cube.centre = [0.0, 0.0, -5.0, SHAPE_BOX];
        cube.albedo_density[3] = 1.0;
        let (o, d) = (DVec3::ZERO, DVec3::new(0.0, 0.0, -1.0));
        assert!((optical_depth(&cube, o, d, 0.0, 100.0) - 2.0).abs() < 1e-12);
        let mut sphere = cube;
        sphere.centre[3] = SHAPE_ELLIPSOID;
        sphere.set_rotation_deg(30.0, 40.0, 50.0);
        // The rotation's axes are stored in f32: orthonormal to ~1e-7.
        assert!((optical_depth(&sphere, o, d, 0.0, 100.0) - 2.0).abs() < 1e-6);
        // A cylinder seen from the side at height 0: its diameter; along its axis: its height.
        let mut cylinder = cube;
        cylinder.centre[3] = SHAPE_CYLINDER;
        cylinder.half_size = [0.5, 3.0, 0.5, 0.0];
        assert!((optical_depth(&cylinder, o, d, 0.0, 100.0) - 1.0).abs() < 1e-12);
        cylinder.set_rotation_deg(0.0, 90.0, 0.0);
        assert!((optical_depth(&cylinder, o, d, 0.0, 100.0) - 6.0).abs() < 1e-6);
    }

    /// The midpoint rule over the crossing of an edge-faded volume against brute force. The fade
    /// is piecewise smooth, so the rule's error falls as 1/N²; at N = 32 it stays within 0.5 %
    /// on these rays (the largest measured is printed), which the book states.
    #[test]
    fn the_fade_quadrature_is_within_half_a_percent() {
        let mut worst = 0.0f64;
        for shape in SHAPES {
            for falloff in [0.0, 0.7] {
                let v = volume(shape, falloff, 1.0, [20.0, 10.0, 0.0]);
                for (o, d) in rays() {
                    let want = numeric_optical_depth(&v, o, d, 0.0, 60.0, 4_000, 20_000);
                    let got = quadrature_optical_depth(&v, o, d, 0.0, 60.0, FADE_STEPS);
                    if want > 1e-3 {
                        worst = worst.max((got - want).abs() / want);
                    }
                    assert!((got - want).abs() <= 5e-3 * want + 1e-4, "shape {shape} ray {d}: {got} vs {want}");
                }
            }
        }
        eprintln!("fade quadrature, {FADE_STEPS} steps: worst relative error {worst:.2e}");
    }

    /// The sun's ray through an edge-faded volume in `SUN_STEPS` midpoint steps (from the median
    /// scattering point of each ray's crossing, as the analytic path takes it) against brute
    /// force, for the three shapes, rotated, with and without falloff, at two fades and two
    /// densities, with the sun high, low and behind: the transmittance is within 0.015 (the
    /// largest error measured, and that of `FADE_STEPS` steps, are printed; the book states them).
    #[test]
    fn the_sun_ray_through_a_fade_in_eight_steps_is_close_to_exact() {
        let (mut worst, mut worst_fine, mut points) = (0.0f64, 0.0f64, 0);
        for shape in SHAPES {
            for (falloff, fade, density) in [(0.0, 0.5, 0.15), (0.7, 1.0, 0.15), (0.0, 1.0, 0.6), (0.3, 0.5, 0.6)] {
                let mut v = volume(shape, falloff, fade, [20.0, 10.0, 0.0]);
                v.albedo_density[3] = density;
                for sun in [DVec3::new(0.3, 0.8, -0.5), DVec3::new(-0.6, 0.15, 0.78), DVec3::new(0.1, 0.3, -0.95)] {
                    let l = sun.normalize();
                    for (o, d) in rays() {
                        let Some((a, b)) = chord(&v, o, d) else { continue };
                        let a = a.max(0.0);
                        let tau = quadrature_optical_depth(&v, o, d, a, b, FADE_STEPS);
                        let fraction = if tau > 1e-4 { -(0.5 * (1.0 + (-tau).exp())).ln() / tau } else { 0.5 };
                        let p = o + d * (a + fraction * (b - a));
                        let exact = (-numeric_optical_depth(&v, p, l, 0.0, 60.0, 4_000, 20_000)).exp();
                        let fine = (-quadrature_optical_depth(&v, p, l, 0.0, f64::INFINITY, FADE_STEPS)).exp();
                        worst = worst.max((faded_sun_transmittance(&v, p, l) - exact).abs());
                        worst_fine = worst_fine.max((fine - exact).abs());
                        points += 1;
                    }
                }
            }
        }
        eprintln!(
            "sun ray through a fade, {points} points: worst error in T {worst:.2e} in {SUN_STEPS} steps, \
             {worst_fine:.2e} in {FADE_STEPS}"
        );
        assert!(worst <= 0.015, "{worst}");
    }

    /// How far the analytic path's sun in-scattering (the sun's transmittance at the median
    /// scattering point alone) is from the single-scattering integral, for the three shapes,
    /// rotated, at densities whose crossings have optical depths up to about 4, with the sun
    /// high, low and behind. Measured and printed; the bounds are the book's statement: within
    /// 10 % for thin crossings (τ < 0.3) and 60 % in the worst case, a dense volume whose back is
    /// lit through a side face. Four points in opacity do not cure that case (printed too): the
    /// light comes from a thin shell at the back, which carries a few percent of the opacity.
    #[test]
    fn the_median_point_approximation_error_is_bounded() {
        let (mut worst_thin, mut worst, mut worst_four) = (0.0f64, 0.0f64, 0.0f64);
        for shape in SHAPES {
            for density in [0.02, 0.2, 0.6] {
                let mut v = volume(shape, 0.0, 0.0, [20.0, 0.0, 0.0]);
                v.albedo_density[3] = density;
                for sun in [DVec3::new(0.3, 0.8, -0.5), DVec3::new(-0.6, 0.15, 0.78), DVec3::new(0.1, 0.3, -0.95)] {
                    let l = sun.normalize();
                    for (o, d) in rays() {
                        let Some((a, b)) = chord(&v, o, d) else { continue };
                        let a = a.max(0.0);
                        let exact = sun_scattering_exact(&v, o, d, a, b, l, 400);
                        if exact < 1e-3 {
                            continue;
                        }
                        let error = |n| (sun_scattering_points(&v, o, d, a, b, l, n) - exact).abs() / exact;
                        let e = error(SUN_POINTS);
                        worst = worst.max(e);
                        worst_four = worst_four.max(error(4));
                        if optical_depth(&v, o, d, a, b) < 0.3 {
                            worst_thin = worst_thin.max(e);
                        }
                    }
                }
            }
        }
        eprintln!(
            "sun in-scattering at the median point: worst relative error {worst_thin:.4} for τ < 0.3, \
             {worst:.3} in all (with four points: {worst_four:.3})"
        );
        assert!(worst_thin <= 0.1, "{worst_thin}");
        assert!(worst <= 0.6, "{worst}");
    }
}
