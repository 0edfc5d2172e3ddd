//! Lighting: the light volume and the lit march against an f64 integral, and the smoke's shadow.

use crate::common::*;
use crate::{UnderTest, smoke_n};
use fogbook_core::Loaded;
use fogbook_core::headless::Headless;
use fogbook_smoke::Smoke;
use fogbook_smoke::fields::{FieldId, round_f16};
use fogbook_smoke::reference::lighting::{HomogeneousBox, Octaves, box_interval};

/// A camera 17 m in front of the box, looking at its lower half: rays cross smoke over sky,
/// ground and the green box that stands inside it.
const LIT_CAMERA: &str = "0,6,-5,0,-8";

/// The smoke chapter alone in a stack (as the app runs it), and typed access to it.
pub(crate) fn lit_setup(sets: &[&str]) -> (Headless, fogbook::state::Setup) {
    let mut h = headless([96, 54]);
    h.renderer.dither = false;
    let mut setup = fogbook::state::Setup::new("smoke").unwrap();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    setup.apply(None, &sets, Some(LIT_CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    (h, setup)
}

pub(crate) fn smoke_in(setup: &mut fogbook::state::Setup) -> &mut Loaded<Smoke> {
    setup.stack.chapters_mut()[0].as_any_mut().downcast_mut::<Loaded<Smoke>>().unwrap()
}

/// Renders `view` once with time paused (no step: the fields stay as uploaded).
fn render_paused(h: &mut Headless, setup: &mut fogbook::state::Setup, view: &str) -> fogbook_core::capture::FloatImage {
    let view = setup.stack.find_view(view).unwrap();
    h.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
    h.capture().unwrap().raw
}

/// Fills the box with density `rho` of colour `albedo` and invalidates the light volume.
fn fill(h: &Headless, setup: &mut fogbook::state::Setup, rho: f32, albedo: [f32; 3]) {
    let s = smoke_in(setup);
    let n = s.chapter.params.grid_size as usize;
    let cell = [albedo[0] * rho, albedo[1] * rho, albedo[2] * rho, rho].map(round_f16);
    let fluid: Vec<f32> = (0..n * n * n).flat_map(|_| cell).collect();
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    s.chapter.invalidate_light();
}

const LIT: &[&str] = &[
    "injection_rate=0",
    "injection_velocity_y=0",
    "buoyancy=0",
    "vorticity=0",
    "grid_size=32",
    "extinction=0.5",
    "extinction_color=1,0.8,0.6",
    "phase_g=0.5",
    "scattering_octaves=3",
    "octave_extinction=0.5",
    "octave_contribution=0.6",
    "octave_eccentricity=0.4",
    "ambient_intensity=1.5",
    "sun_intensity=2",
    "march_steps=384",
    "shadow_steps=96",
    "cast_shadow=false",
];

#[test]
fn the_lit_march_matches_an_f64_integral_through_homogeneous_smoke() {
    let (rho, albedo) = (0.4f32, [0.9f32, 0.7, 0.5]);
    let (mut h, mut setup) = lit_setup(LIT);
    let behind = render_paused(&mut h, &mut setup, "fluid");
    fill(&h, &mut setup, rho, albedo);
    let lit = render_paused(&mut h, &mut setup, "fluid");
    let p = smoke_in(&mut setup).chapter.params.clone();
    let scene = setup.scene.clone();
    let sun = scene.sun_direction().as_dvec3();
    let u = fogbook_smoke::SmokeUniform::new(&p, p.grid_size, sun.as_vec3().into(), 0);
    let sun_light =
        [0, 1, 2].map(|c| p.sun_intensity as f64 * scene.sun_color[c] as f64 * scene.sun_illuminance as f64);
    let sky = [0, 1, 2].map(|c| scene.ambient[c] as f64);
    let ground = [0, 1, 2].map(|c| {
        let on_ground = scene.sun_color[c] as f64 * scene.sun_illuminance as f64 * sun.y.max(0.0);
        fogbook_core::scene::GROUND_ALBEDO[c] as f64 * (on_ground + sky[c])
    });
    let model = HomogeneousBox {
        min: glam::Vec3::from(u.grid.box_min).as_dvec3(),
        side_m: u.grid.box_m as f64,
        sigma: p.extinction as f64 * rho as f64,
        tint: [0, 1, 2].map(|c| p.extinction_color[c] as f64),
        albedo: albedo.map(|a| a as f64),
        phase_g: p.phase_g as f64,
        octaves: Octaves {
            count: p.scattering_octaves,
            extinction: p.octave_extinction as f64,
            contribution: p.octave_contribution as f64,
            eccentricity: p.octave_eccentricity as f64,
        },
        towards_sun: sun,
        sun: sun_light,
        sky,
        ground,
        ambient_scale: p.ambient_intensity as f64,
    };
    let size = [lit.width, lit.height];
    let h_cell = model.side_m / p.grid_size as f64;
    let (mut worst, mut sum, mut count, mut brightest) = (0.0f64, 0.0f64, 0usize, 0.0f64);
    let mut worst_short = 0.0f64;
    for y in 0..size[1] {
        for x in 0..size[0] {
            let (o, d) = pose_ray(LIT_CAMERA, size, x, y);
            let (near, far) = box_interval(model.min, model.side_m, o, d);
            if far <= near + 0.05 {
                continue; // misses the box, or grazes an edge
            }
            let t_scene = fogbook_core::scene::ray_cast(o.as_vec3(), d.as_vec3())
                .map_or(scene.sky_distance_m as f64, |t| t as f64);
            let i = (y * size[0] + x) as usize;
            let b = [0, 1, 2].map(|c| behind.rgba[4 * i + c] as f64);
            let want = model.march(o, d, t_scene, b, 1000);
            // Chords shorter than two cells are where the light volume's outermost half cell,
            // clamped, dominates (see below); they are bounded separately.
            let short = far.min(t_scene) - near < 2.0 * h_cell;
            for c in 0..3 {
                let got = lit.rgba[4 * i + c] as f64;
                let err = (got - want[c]).abs() / want[c].max(1e-3);
                if short {
                    worst_short = worst_short.max(err);
                    continue;
                }
                worst = worst.max(err);
                sum += err;
                count += 1;
                brightest = brightest.max(want[c]);
            }
        }
    }
    let mean = sum / count as f64;
    eprintln!(
        "lit march vs f64 over {count} pixel channels: mean {mean:.2e}, worst {worst:.2e} relative; chords under two cells: worst {worst_short:.2e}"
    );
    assert!(count > 3000, "the box covers too little of the image: {count}");
    assert!(brightest > 0.05, "nothing lit: {brightest}");
    // Measured on lavapipe: mean 1.3e-3, worst 3.1e-2 (1.7e-3 on the short chords; 4.2e-3,
    // 5.8e-2 and 6.8e-2 without the clamp correction of `light_volume_at`). The worst pixels see
    // the box's edge nearest the sun, where the face the sun's path leaves by changes between
    // neighbouring cells: τ has a kink there that trilinear interpolation rounds off, by up to
    // about σρh = 0.075 of optical depth. The ambient terms alone agree to 1.4e-3.
    assert!(mean < 3e-3, "mean relative error {mean}");
    assert!(worst < 4e-2, "worst relative error {worst}");
    assert!(worst_short < 5e-3, "short chords: worst relative error {worst_short}");
}

/// The light volume's τ up and down (running column sums, light.wgsl) against an f64 integral of
/// the density the view would sample along the column: linear between cell centres, constant in
/// the outermost half cells. Random density, 16³, every cell.
#[test]
fn the_light_volume_integrates_up_and_down_exactly() {
    let n = 16usize;
    let (h, mut s) = smoke_n(n, &["extinction=0.7"]);
    let mut rng = 0x2545_f491_u32;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        rng as f64 / u32::MAX as f64
    };
    let rho: Vec<f32> = (0..n * n * n).map(|_| round_f16((3.0 * next()) as f32)).collect();
    let fluid: Vec<f32> = rho.iter().flat_map(|&r| [0.0, 0.0, 0.0, r]).collect();
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    s.run_now(&h, |s, g, p| s.compute_light(g, &h.gpu, p));
    let light = s.download(&h.gpu, FieldId::Light).unwrap();
    let p = &s.chapter.params;
    let (sigma, cell) = (p.extinction as f64, p.box_size_m as f64 / n as f64);
    let at = |x: usize, y: usize, z: usize| rho[x + n * (y + n * z)] as f64;
    let mut worst = 0.0f64;
    for z in 0..n {
        for x in 0..n {
            for y in 0..n {
                // Trapezoids between the centres, half a cell at the ends.
                let down = at(x, 0, z) / 2.0 + (1..=y).map(|k| (at(x, k - 1, z) + at(x, k, z)) / 2.0).sum::<f64>();
                let up = at(x, n - 1, z) / 2.0 + (y..n - 1).map(|k| (at(x, k, z) + at(x, k + 1, z)) / 2.0).sum::<f64>();
                let i = 4 * (x + n * (y + n * z));
                for (got, want) in [(light[i + 1], sigma * cell * up), (light[i + 2], sigma * cell * down)] {
                    // The volume is stored in half floats: 2⁻¹¹ relative, and a floor near zero.
                    worst = worst.max((got as f64 - want).abs() / (want.abs() + 1e-2));
                }
            }
        }
    }
    eprintln!("light volume τ up and down against the f64 column integral: worst {worst:.2e} relative");
    assert!(worst < 1.5e-3, "τ up/down differ from the column integral by {worst}");
}

#[test]
fn the_smoke_shadows_the_ground_by_its_transmittance_to_the_sun() {
    let (rho, tint) = (0.3f32, [1.0f64, 0.8, 0.6]);
    // No sky light: a surface's colour is then its sunlit part alone, and the shadow a ratio.
    let sets: Vec<&str> = LIT
        .iter()
        .copied()
        .filter(|s| !s.starts_with("cast_shadow"))
        // A sun on the left: the tower's long shadow then falls away from the view.
        .chain(["cast_shadow=true", "scene.ambient=0,0,0", "scene.sun_azimuth_deg=35", "scene.sun_elevation_deg=20"])
        .collect();
    let (mut h, mut setup) = lit_setup(&sets);
    // The field views show the scene nowhere; the core's scene shows through the fluid view
    // outside the box, where the ground lies in the smoke's shadow.
    let sunlit = render_paused(&mut h, &mut setup, "fluid");
    fill(&h, &mut setup, rho, [0.8; 3]);
    let shaded = render_paused(&mut h, &mut setup, "fluid");
    let p = smoke_in(&mut setup).chapter.params.clone();
    let sun = setup.scene.sun_direction().as_dvec3();
    let u = fogbook_smoke::SmokeUniform::new(&p, p.grid_size, sun.as_vec3().into(), 0);
    let (min, side) = (glam::Vec3::from(u.grid.box_min).as_dvec3(), u.grid.box_m as f64);
    let sigma = p.extinction as f64 * rho as f64;
    let h_cell = side / p.grid_size as f64;
    let (mut checked, mut worst) = (0usize, 0.0f64);
    let size = [shaded.width, shaded.height];
    for y in 0..size[1] {
        for x in 0..size[0] {
            let (o, d) = pose_ray(LIT_CAMERA, size, x, y);
            let (near, far) = box_interval(min, side, o, d);
            let Some(t) = fogbook_core::scene::ray_cast(o.as_vec3(), d.as_vec3()) else { continue };
            let hit = o + d * t as f64;
            // Only the ground outside the box, seen past it, whose way to the sun crosses it.
            if far > near || hit.y > 1e-3 {
                continue;
            }
            let (s_near, s_far) = box_interval(min, side, hit, sun);
            let tau = sigma * (s_far - s_near).max(0.0);
            let i = (y * size[0] + x) as usize;
            for c in 0..3 {
                let before = sunlit.rgba[4 * i + c] as f64;
                if before < 1e-3 || tau == 0.0 {
                    continue;
                }
                let ratio = shaded.rgba[4 * i + c] as f64 / before;
                // The entry's optical depth is read half a cell inside the box at most.
                let bound = (sigma * h_cell * tint[c]).max(1e-3);
                let got_tau = -ratio.ln();
                worst = worst.max((got_tau - tau * tint[c]).abs() / bound);
                checked += 1;
            }
        }
    }
    eprintln!("ground in the smoke's shadow: {checked} pixel channels, worst |τ error| = {worst:.2} × σρh");
    assert!(checked > 100, "too few shadowed ground pixels seen: {checked}");
    assert!(worst <= 1.0, "shadow optical depth off by {worst} cells of smoke");
}
