//! Shadows between volumes and the sun through a fade, in the analytic pass and in the froxels.

use crate::common::*;
use crate::{CAMERA, TEXTURE_SIZE, froxel_grid, perpendiculars, settings, shadowing_slab_settings};
use fogbook_local_fog::LocalFogParams;
use fogbook_local_fog::reference::optical_depth;
use glam::DVec3;

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
