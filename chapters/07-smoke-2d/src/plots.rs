//! The chapter's plots for the book, computed from the f64 reference when the figures are made.

use crate::reference;
use fogbook_core::plot::{Series, line_chart};

// ANCHOR: solver_chart
/// The slowest mode's residual against sweeps at n², from q = 0: Jacobi, red–black
/// Gauss–Seidel at ω = 1 and over-relaxed at Young's optimum for the closed square, each
/// computed by the reference's sweeps, and the rates the chapter derives, μ = (1 + cos(π/n))/2
/// and μ², as straight lines.
pub fn solver_chart(n: usize, sweeps: usize) -> String {
    let (h, open) = (1.0, false);
    let f = reference::slowest_mode(n);
    let mu = reference::jacobi_slowest_rate(n);
    let optimal = reference::optimal_sor_omega(n);
    let r0 = reference::residual_norm(n, &vec![0.0; n * n], &f, h, open);
    let log = |q: &[f64]| (reference::residual_norm(n, q, &f, h, open) / r0).max(1e-12).log10();
    let history = |sweep: &dyn Fn(&mut Vec<f64>)| {
        let mut q = vec![0.0; n * n];
        let mut points = vec![(0.0, 0.0)];
        for k in 1..=sweeps {
            sweep(&mut q);
            points.push((k as f64, log(&q)));
        }
        points
    };
    let jacobi = history(&|q| *q = reference::jacobi_sweep(n, q, &f, h, open));
    let gauss_seidel = history(&|q| reference::rbgs_sweep(n, q, &f, h, open, 1.0));
    let sor = history(&|q| reference::rbgs_sweep(n, q, &f, h, open, optimal));
    let theory = |rate: f64| (0..=sweeps).step_by(sweeps / 8).map(|k| (k as f64, k as f64 * rate.log10())).collect();
    let series = [
        Series { label: "Jacobi".into(), color: "#1f77b4", points: jacobi },
        Series { label: "red–black Gauss–Seidel, ω = 1".into(), color: "#ff7f0e", points: gauss_seidel },
        Series { label: format!("red–black SOR, ω = {optimal:.3}"), color: "#2ca02c", points: sor },
        Series { label: format!("theory μ = (1 + cos(π/n))/2 = {mu:.5}"), color: "#9ecae1", points: theory(mu) },
        Series { label: format!("theory μ² = {:.5}", mu * mu), color: "#fdae6b", points: theory(mu * mu) },
    ];
    line_chart(
        &format!("The slowest pressure mode at {n}²: residual against sweeps"),
        "sweeps",
        "log10 (residual / initial)",
        (0.0, sweeps as f64),
        (-10.0, 1.0),
        &series,
    )
}
// ANCHOR_END: solver_chart

/// Every plot of the chapter as (file stem, SVG).
pub fn all() -> Vec<(&'static str, String)> {
    vec![("solver-rates", solver_chart(32, 400))]
}
