//! Obstacles: a sphere the flow goes round, switched on and off, moving, and bad settings.

use crate::{EXACT_SOLVE, N, QUIET, UnderTest, face_divergence, smoke, steps, temperature::in_column};
use fogbook_core::Loaded;
use fogbook_smoke::Smoke;
use fogbook_smoke::fields::FieldId;
use fogbook_smoke::reference::idx;

// ANCHOR: obstacle_tests
/// A sphere in the middle of the box, radius 0.15 of it (4.8 cells at 32³).
const SPHERE: &[&str] = &["sphere_enabled=true", "sphere_x=0.5", "sphere_y=0.5", "sphere_z=0.5", "sphere_radius=0.15"];

/// Whether the low c-face of texel i touches a solid cell (mask > 0.5 on either side).
fn touches_solid(mask: &[f32], i: usize, c: usize) -> bool {
    let step = [1, N, N * N][c];
    let index = [i % N, (i / N) % N, i / (N * N)][c];
    mask[i] > 0.5 || (index > 0 && mask[i - step] > 0.5)
}

/// A jet of 1 m/s upwards in a 7 × 7 column below the box's centre, and its total inflow (the
/// number of faces it sets).
fn jet_below_the_centre() -> (Vec<f32>, f64) {
    let mut u = vec![0.0f32; N * N * N * 4];
    let mut inflow = 0.0;
    for z in 0..N {
        for y in 1..N / 2 - 4 {
            for x in 0..N {
                if in_column(x, z) {
                    u[4 * idx(N, x, y, z) + 1] = 1.0;
                    inflow += 1.0;
                }
            }
        }
    }
    (u, inflow)
}

/// The total |u| through the faces that touch a solid cell of `mask`, and their number.
fn flux_through_solid_faces(mask: &[f32], v: &[f32]) -> (f64, usize) {
    let (mut through, mut faces) = (0.0f64, 0);
    for i in 0..N * N * N {
        for c in 0..3 {
            if touches_solid(mask, i, c) {
                through += v[4 * i + c].abs() as f64;
                faces += 1;
            }
        }
    }
    (through, faces)
}

#[test]
fn a_jet_at_the_sphere_goes_round_it() {
    // A jet of 1 m/s upwards in a 7 × 7 column below the sphere, projected with 20 V-cycles and
    // the sphere in place: no flow may cross the sphere's faces, and the jet must turn aside.
    let (h, mut s) = smoke(&[QUIET, EXACT_SOLVE, SPHERE].concat());
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let (u, inflow) = jet_below_the_centre();
    s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
    s.run_now(&h, |s, g, p| s.project_solved(g, &h.gpu, p));
    let mask = s.download(&h.gpu, FieldId::Solid).unwrap();
    let v = s.download(&h.gpu, FieldId::Velocity).unwrap();
    let solid_cells = mask.iter().filter(|&&m| m > 0.5).count();
    let (through, faces) = flux_through_solid_faces(&mask, &v);
    // The fluid cells' divergence after the projection (solid faces as stored), and the flow
    // beside the sphere.
    let div = face_divergence(&v, cell);
    let div_before = face_divergence(&u, cell);
    let fluid = |i: usize| mask[i] < 0.5;
    let left: f64 = div.iter().enumerate().filter(|(i, _)| fluid(*i)).map(|(_, d)| d * d).sum::<f64>().sqrt();
    let start: f64 = div_before.iter().map(|d| d * d).sum::<f64>().sqrt();
    let c = N / 2;
    let beside = (0..N)
        .map(|x| v[4 * idx(N, x, c - 6, c)].abs().max(v[4 * idx(N, x, c - 6, c) + 1].abs()))
        .fold(0.0f32, f32::max);
    let sideways = v.chunks_exact(4).map(|q| q[0].abs().max(q[2].abs())).fold(0.0f32, f32::max);
    eprintln!(
        "sphere of {solid_cells} cells: flux through its {faces} faces {:.2e} of the inflow; fluid ‖div‖ {:.2e} of the jet's; largest sideways flow {sideways:.3} m/s (below it {beside:.3})",
        through / inflow,
        left / start
    );
    assert!(solid_cells > 300, "the mask holds {solid_cells} solid cells");
    assert!(through <= 1e-5 * inflow, "flux {through} through the sphere");
    assert!(left < 2e-3 * start, "fluid divergence {left} left of {start}");
    assert!(sideways > 0.05, "the jet does not turn aside ({sideways} m/s)");
}

#[test]
fn a_sphere_switched_on_and_off_mid_run_takes_effect_at_once() {
    // Without an obstacle the passes run a variant compiled without the obstacle code; switching
    // the sphere on swaps in the variant with it, and off again swaps back. The jet above is
    // projected three times from the same start: without, with and without the sphere.
    let (h, mut s) = smoke(&[QUIET, EXACT_SOLVE, SPHERE, &["sphere_enabled=false"]].concat());
    let (u, inflow) = jet_below_the_centre();
    let project = |s: &mut Loaded<Smoke>, sphere: bool| {
        s.chapter.params.sphere_enabled = sphere;
        s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
        s.run_now(&h, |s, g, p| s.project_solved(g, &h.gpu, p));
        let with_obstacles = s.gpu.as_ref().unwrap().pipelines.with_obstacles;
        (s.download(&h.gpu, FieldId::Solid).unwrap(), s.download(&h.gpu, FieldId::Velocity).unwrap(), with_obstacles)
    };
    let (_, free, variant_before) = project(&mut s, false);
    let (mask, blocked, variant_on) = project(&mut s, true);
    let (_, free_again, variant_after) = project(&mut s, false);
    assert_eq!((variant_before, variant_on, variant_after), (false, true, false), "pipeline variants");
    let sphere = |v: &[f32]| flux_through_solid_faces(&mask, v).0 / inflow;
    eprintln!(
        "flux through the sphere's faces, of the inflow: off {:.3}, on {:.2e}, off again {:.3}",
        sphere(&free),
        sphere(&blocked),
        sphere(&free_again)
    );
    assert!(sphere(&blocked) <= 1e-5, "the sphere switched on lets {} through", sphere(&blocked));
    assert!(sphere(&free) > 0.05, "without the sphere the jet should cross its place");
    // The pressure solve starts from the last one's result, so "the same" is within its residual.
    let largest_change = free.iter().zip(&free_again).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(largest_change < 1e-3, "switched off again, the projection differs by {largest_change} m/s");
}

#[test]
fn a_moving_sphere_pushes_the_air_and_stays_finite() {
    // Still air; the sphere moves at 3 m/s along x for 20 steps (0.08 of the box): the air next
    // to it must move, the sphere's centre must follow its velocity, and nothing may blow up.
    let (h, mut s) = smoke(&[QUIET, SPHERE, &["sphere_velocity_x=3", "pressure_solver=multigrid"]].concat());
    steps(&h, &mut s, 20);
    let p = &s.chapter.params;
    let expected = 0.5 + 20.0 * 3.0 * p.time_step_s / p.box_size_m;
    let mask = s.download(&h.gpu, FieldId::Solid).unwrap();
    let v = s.download(&h.gpu, FieldId::Velocity).unwrap();
    assert!(v.iter().all(|x| x.is_finite()), "non-finite velocity");
    // The largest |u_x| on fluid faces that do not touch the sphere.
    let near = (0..N * N * N).filter(|&i| !touches_solid(&mask, i, 0)).map(|i| v[4 * i].abs()).fold(0.0f32, f32::max);
    eprintln!(
        "moving sphere: centre x {:.4} (expected {expected:.4}); largest |u_x| of the air {near:.3} m/s",
        p.sphere_x
    );
    assert!((p.sphere_x - expected).abs() < 1e-4, "the centre is at {}", p.sphere_x);
    assert!(near > 0.3, "the air barely moves: {near} m/s");
}

#[test]
fn bad_obstacle_settings_stay_finite() {
    // What the parameter table refuses, set in code: NaN centres and sizes, an infinite radius, a
    // box far outside, a zero radius; 20 steps of the default plume each.
    let cases: [fn(&mut fogbook_smoke::SmokeParams); 3] = [
        |p| (p.sphere_x, p.sphere_radius, p.sphere_velocity_y) = (f32::NAN, f32::INFINITY, f32::NAN),
        |p| (p.box_x, p.box_half_y, p.box_velocity_x) = (5.0, f32::NAN, 1e9),
        |p| (p.sphere_radius, p.box_half_x) = (0.0, 0.0),
    ];
    for set in cases {
        let (h, mut s) = smoke(&["sphere_enabled=true", "box_enabled=true"]);
        set(&mut s.chapter.params);
        steps(&h, &mut s, 20);
        for id in [FieldId::Velocity, FieldId::Fluid, FieldId::Pressure, FieldId::Solid] {
            assert!(s.download(&h.gpu, id).unwrap().iter().all(|v| v.is_finite()), "{id:?} not finite");
        }
        let p = &s.chapter.params;
        assert!(
            [p.sphere_x, p.sphere_y, p.sphere_z, p.box_x, p.box_y, p.box_z].iter().all(|v| (0.0..=1.0).contains(v))
        );
    }
}
// ANCHOR_END: obstacle_tests
