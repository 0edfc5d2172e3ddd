//! Bad input: extreme parameters stay finite, grids beyond the budget are refused.

use crate::common::*;
use crate::{EXTREME_FORCES, N, UnderTest, run_and_check_finite, smoke, smoke_from, smoke_n, steps};
use fogbook_core::params::set_by_name;
use fogbook_core::{Chapter, Loaded};
use fogbook_smoke::Smoke;
use fogbook_smoke::fields::FieldId;

/// At 16³, where a step is eight times cheaper than at 32³ on a software driver; the jet still
/// crosses seven cells a step.
#[test]
fn a_long_run_with_extreme_parameters_stays_finite() {
    let (h, mut s) = smoke_n(16, EXTREME_FORCES);
    run_and_check_finite(&h, &mut s, 20);
}

/// The production defaults with every force, the emitter, the turbulence, the temperature and
/// both obstacles (one of them moving) at their extremes, at 16³, for `hundreds` × 100 steps.
fn everything_extreme_stays_finite(hundreds: u32) {
    let extreme = [
        EXTREME_FORCES,
        &[
            "turbulence=1",
            "multigrid_cycles=1",
            "heat_lift=1",
            "emitter_temperature_k=6000",
            "sphere_enabled=true",
            "sphere_velocity_x=20",
            "box_enabled=true",
        ],
    ]
    .concat();
    let (h, mut s) = smoke_from(16, &[], &extreme);
    run_and_check_finite(&h, &mut s, hundreds);
}

#[test]
fn a_thousand_steps_at_16_with_everything_extreme_stay_finite() {
    everything_extreme_stays_finite(10);
}

/// The same for 10⁴ steps: 250 s on lavapipe (2 cores), too long for every run; passed when
/// the obstacles and the staggered grid landed.
#[test]
#[ignore = "10⁴ steps take about four minutes on lavapipe: run with --ignored"]
fn ten_thousand_steps_at_16_with_everything_extreme_stay_finite() {
    everything_extreme_stays_finite(100);
}

#[test]
fn grids_beyond_the_budget_or_device_are_refused() {
    let h = headless([64, 36]);
    let mut s = Loaded::new(Smoke::new());
    set_by_name(&mut s.chapter.params, "grid_size", "512").unwrap();
    let err = h.prepare(&mut s).unwrap_err().to_string();
    assert!(err.contains("budget") || err.contains("largest 3D texture"), "{err}");
    set_by_name(&mut s.chapter.params, "grid_size", "30").unwrap();
    assert!(h.prepare(&mut s).unwrap_err().to_string().contains("multiple of 4"));
    // A running chapter keeps its grid when asked for one it cannot have.
    let (h, mut s) = smoke(&[]);
    s.chapter.params.grid_size = 512;
    steps(&h, &mut s, 1);
    assert_eq!(s.chapter.params.grid_size, N as u32);
    assert!(s.chapter.status().unwrap().contains("keeping 32³"));
}

#[test]
fn every_new_option_at_its_extreme_stays_finite_and_bounded() {
    // MacCormack, an open top and full turbulence together, with the extreme forces of the long
    // run above, for 300 steps.
    let options = ["advection=maccormack", "top_boundary=open", "turbulence=1", "turbulence_seed=1000000"];
    let settings: Vec<&str> = options.iter().chain(EXTREME_FORCES).copied().collect();
    let (h, mut s) = smoke(&settings);
    run_and_check_finite(&h, &mut s, 3);
    // The limiter keeps the smoke non-negative whatever the flow does.
    let fluid = s.download(&h.gpu, FieldId::Fluid).unwrap();
    let lowest = fluid.iter().cloned().fold(f32::INFINITY, f32::min);
    assert!(lowest >= 0.0, "negative smoke {lowest}");
}

#[test]
fn the_faster_solvers_stay_finite_at_their_extremes() {
    // The largest over-relaxation, and multigrid under an open top, each with the extreme forces
    // above for 100 steps; then no sweeps and no cycles at all. Values the parameter table
    // refuses (ω = 2 would not converge) are refused, and a NaN set in code falls back to ω = 1.
    let cases: [&[&str]; 4] = [
        &["pressure_solver=red-black-gs", "sor_omega=1.99"],
        &["pressure_solver=multigrid", "multigrid_cycles=4", "top_boundary=open"],
        &["pressure_solver=red-black-gs", "pressure_iterations=0"],
        &["pressure_solver=multigrid", "multigrid_cycles=0"],
    ];
    for case in cases {
        let settings: Vec<&str> = EXTREME_FORCES.iter().chain(case).copied().collect();
        let (h, mut s) = smoke(&settings);
        run_and_check_finite(&h, &mut s, 1);
    }
    let mut p = fogbook_smoke::SmokeParams::default();
    assert!(set_by_name(&mut p, "sor_omega", "2").is_err() && set_by_name(&mut p, "sor_omega", "NaN").is_err());
    p.sor_omega = f32::NAN;
    assert_eq!(fogbook_smoke::multigrid::Solve::new(&p, 32).omega, 1.0);
}
