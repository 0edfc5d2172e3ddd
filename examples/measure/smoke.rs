//! The numbers the smoke pages quote: advection errors of a blob in rigid rotation at 64³, the
//! pressure solvers' iterations to 10⁻⁴ at 64³, and the V-cycle's factor per cycle at 32³ and
//! 64³ — each printed, none a check (the checks at test sizes are the crate's tests).

use fogbook_smoke::SmokeParams;
use fogbook_smoke::plots::first_step_divergence;
use fogbook_smoke::reference::poisson::{
    Level, Solver, factor_per_cycle, iterations_to, noise_rhs, optimal_sor_omega, residual_history,
};
use fogbook_smoke::reference::{Limiter, Rotation, advection_error};

/// Semi-Lagrangian and MacCormack (each limiter) after one revolution at 64³, 128 steps: about 10 s.
pub fn rotation_at_64() {
    let case = Rotation::new(64, 128);
    let exact = &case.initial;
    println!("64³, 128 steps: semi-Lagrangian {:?}", advection_error(&case.semi_lagrangian(), exact));
    for l in [Limiter::Clamp, Limiter::Revert, Limiter::None] {
        println!("MacCormack {l:?}: {:?}", advection_error(&case.maccormack(l), exact));
    }
}

/// Iterations of each solver to a relative residual of 10⁻⁴ on the first step's divergence at
/// 64³, and red–black's residual after 40 sweeps for several ω: about ten minutes.
pub fn iterations_at_64() {
    let p = SmokeParams::default();
    let n = p.grid_size as usize;
    let (h, div) = first_step_divergence(&p);
    let level = Level { n, h, open_top: false };
    let omega = optimal_sor_omega(n);
    for (solver, max) in [
        (Solver::Multigrid, 20),
        (Solver::RedBlack(omega), 2000),
        (Solver::RedBlack(1.0), 30_000),
        (Solver::Jacobi, 60_000),
    ] {
        let r = residual_history(&level, &div, solver, max);
        println!(
            "{solver:?}: 1e-4 after {:?}; after 40: {:.3e}; after 2: {:.3e}",
            iterations_to(&r, 1e-4),
            r[40.min(r.len() - 1)],
            r[2]
        );
    }
    for w in [1.0, 1.5, 1.7, 1.8, omega] {
        let r = residual_history(&level, &div, Solver::RedBlack(w), 40);
        println!("ω = {w:.3}: after 40 sweeps {:.3e}, after 20 {:.3e}", r[40], r[20]);
    }
}

/// The V-cycle's residual factor per cycle on noise at 32³ and 64³, closed and open top: seconds.
pub fn v_cycle_factors() {
    for n in [32, 64] {
        for open in [false, true] {
            let l = Level { n, h: 12.0 / n as f64, open_top: open };
            let h = residual_history(&l, &noise_rhs(n, 7), Solver::Multigrid, 8);
            println!("{n}³ open {open}: {:.3} per cycle; {h:?}", factor_per_cycle(&h, 2));
        }
    }
}
