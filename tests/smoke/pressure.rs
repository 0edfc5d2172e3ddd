//! The pressure solvers against theory and the f64 reference: Jacobi, red–black Gauss–Seidel, multigrid.

use crate::{N, QUIET, UnderTest, smoke, smoke_n, steps};
use fogbook_smoke::fields::FieldId;
use fogbook_smoke::reference::poisson::{
    self, Level, factor_per_cycle, gauss_seidel_slowest_rate, hierarchy, noise_rhs, v_cycle_with,
};
use fogbook_smoke::reference::{jacobi_slowest_rate, residual_norm, slowest_mode};

#[test]
fn jacobi_residual_falls_at_the_theoretical_rate_of_the_slowest_mode() {
    let (h, mut s) = smoke(QUIET);
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let div = slowest_mode(N);
    s.upload(&h.gpu, FieldId::Divergence, &div).unwrap();
    s.upload(&h.gpu, FieldId::Pressure, &vec![0.0; N * N * N]).unwrap();
    let r0 = residual_norm(N, &vec![0.0; N * N * N], &div, cell);
    let theory = jacobi_slowest_rate(N);
    let mut done = 0;
    for k in [10u32, 40, 160] {
        s.run_now(&h, |s, g, p| s.jacobi(g, &h.gpu, p, k - done));
        done = k;
        let q = s.download(&h.gpu, FieldId::Pressure).unwrap();
        let measured = (residual_norm(N, &q, &div, cell) / r0).powf(1.0 / k as f64);
        eprintln!("after {k} sweeps: rate {measured:.6} per sweep, theory {theory:.6}");
        assert!(
            (measured - theory).abs() < 2e-4,
            "{k} sweeps: measured {measured}, theory (2 + cos(π/n))/3 = {theory}"
        );
    }
}

#[test]
fn red_black_gauss_seidel_falls_at_the_squared_jacobi_rate() {
    // Young (1954): on a red–black ordered 7-point problem a Gauss–Seidel sweep keeps μ² where a
    // Jacobi sweep keeps μ, μ = (2 + cos(π/n)) / 3 for the slowest mode. That analysis pairs each
    // mode with its checkerboard twin; our walls (a ghost copies the cell inside) break the
    // pairing in the wall cells, so the measured decay 1 − rate comes within 10 % of 1 − μ²
    // (measured: 0.96–0.97 of it at 32³ over sweeps 10–160) rather than exactly. The GPU sweep must
    // match the f64 CPU sweep itself closely. Jacobi (1 − μ ≈ (1 − μ²)/2) or a sweep that
    // skipped a colour fail both checks.
    let (h, mut s) = smoke(&[QUIET, &["pressure_solver=red-black-gs", "sor_omega=1"]].concat());
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let div = slowest_mode(N);
    let theory = gauss_seidel_slowest_rate(N);
    let level = Level { n: N, h: cell, open_top: false };
    let div64: Vec<f64> = div.iter().map(|&v| v as f64).collect();
    s.upload(&h.gpu, FieldId::Divergence, &div).unwrap();
    s.upload(&h.gpu, FieldId::Pressure, &vec![0.0; N * N * N]).unwrap();
    let mut q_cpu = vec![0.0; N * N * N];
    let (mut gpu, mut cpu) = (Vec::new(), Vec::new());
    let mut done = 0;
    for k in [10u32, 40, 160] {
        s.chapter.params.pressure_iterations = k - done;
        s.run_now(&h, |s, g, p| s.solve(g, &h.gpu, p));
        for _ in done..k {
            poisson::rbgs_sweep(&level, &mut q_cpu, &div64, 1.0);
        }
        done = k;
        let q = s.download(&h.gpu, FieldId::Pressure).unwrap();
        gpu.push(residual_norm(N, &q, &div, cell));
        cpu.push(level.residual_norm(&q_cpu, &div64));
    }
    for (w, (from, to)) in [(1, (10, 40)), (2, (10, 160))] {
        let rate = |r: &[f64]| (r[w] / r[0]).powf(1.0 / (to - from) as f64);
        let (g, c) = (rate(&gpu), rate(&cpu));
        let speed = (1.0 - c) / (1.0 - theory);
        eprintln!(
            "red–black GS, sweeps {from}–{to}: GPU {g:.6}, CPU {c:.6} per sweep; theory μ² = {theory:.6}; decay {speed:.3} of the theory's"
        );
        assert!((g - c).abs() < 2e-5, "sweeps {from}–{to}: GPU {g} against CPU {c}");
        assert!((0.9..1.1).contains(&speed), "sweeps {from}–{to}: CPU rate {c}, theory {theory}");
    }
}

/// The GPU's relative residuals ‖f − ∇²q‖ / ‖f‖ (f64, on the downloaded q) after each of
/// `cycles` V-cycles from q = 0, on the noise right-hand side of `reference::poisson`, with
/// that right-hand side as the GPU stores it. V(`pre`,`post`) cycles.
fn gpu_multigrid_history(
    n: usize,
    open: bool,
    cycles: usize,
    (pre, post): (usize, usize),
) -> (Vec<f64>, Vec<f64>, Level) {
    let top = if open { "top_boundary=open" } else { "top_boundary=closed" };
    let (pre, post) = (format!("multigrid_pre_sweeps={pre}"), format!("multigrid_post_sweeps={post}"));
    let solver = ["pressure_solver=multigrid", "multigrid_cycles=1", top, &pre, &post];
    let (h, mut s) = smoke_n(n, &[QUIET, &solver].concat());
    let cell = s.chapter.params.box_size_m as f64 / n as f64;
    let level = Level { n, h: cell, open_top: open };
    let rhs32: Vec<f32> = noise_rhs(n, 7).iter().map(|&v| v as f32).collect();
    let rhs: Vec<f64> = rhs32.iter().map(|&v| v as f64).collect();
    s.upload(&h.gpu, FieldId::Divergence, &rhs32).unwrap();
    s.upload(&h.gpu, FieldId::Pressure, &vec![0.0; n * n * n]).unwrap();
    let f0 = poisson::norm(&rhs);
    let mut history = vec![1.0];
    let mut q = Vec::new();
    for _ in 0..cycles {
        s.run_now(&h, |s, g, p| s.solve(g, &h.gpu, p));
        q = s.download(&h.gpu, FieldId::Pressure).unwrap().iter().map(|&v| v as f64).collect();
        history.push(level.residual_norm(&q, &rhs) / f0);
    }
    (history, q, level)
}

#[test]
fn one_gpu_v_cycle_matches_the_cpu_reference() {
    // 16³, closed and open top, V(2,2) and V(2,1): the f32 GPU cycle against the f64 CPU cycle
    // on the same input.
    for (open, (pre, post)) in [(false, (2, 2)), (true, (2, 2)), (false, (2, 1)), (true, (2, 1))] {
        let (history, gpu, level) = gpu_multigrid_history(16, open, 1, (pre, post));
        let rhs: Vec<f64> = noise_rhs(16, 7).iter().map(|&v| v as f32 as f64).collect();
        let mut cpu = vec![0.0; level.cells()];
        v_cycle_with(&hierarchy(level), &mut cpu, &rhs, pre, post);
        let diff: Vec<f64> = gpu.iter().zip(&cpu).map(|(a, b)| a - b).collect();
        let rel = poisson::norm(&diff) / poisson::norm(&cpu);
        let cpu_residual = level.residual_norm(&cpu, &rhs) / poisson::norm(&rhs);
        eprintln!(
            "16³ open {open}: one V({pre},{post}) cycle, GPU − CPU {rel:.2e} (relative); residual GPU {:.4e}, CPU {cpu_residual:.4e}",
            history[1]
        );
        assert!(rel < 1e-5, "open {open}: GPU V-cycle differs from the CPU by {rel}");
        assert!((history[1] / cpu_residual - 1.0).abs() < 1e-3, "open {open}: residuals differ");
    }
}

#[test]
fn gpu_multigrid_converges_as_fast_as_the_reference() {
    // 32³, closed box: residual reduction per V(2,2) cycle over cycles 2–4 (before f32 rounding
    // sets a floor), GPU and CPU. Measured: 0.114 on both; over cycles 3–9 the CPU keeps 0.149
    // per cycle at 32³ and 64³ alike (0.16–0.17 under an open top). The textbook's ≈ 0.1 is for vertex-centred
    // grids with full weighting; cell-centred averaging restriction is a little weaker. Bound:
    // 0.2, which V(1,1) (0.29) and a cycle with a broken smoother or transfer fail.
    let cycles = 4;
    let (gpu, _, level) = gpu_multigrid_history(N, false, cycles, (2, 2));
    let rhs: Vec<f64> = noise_rhs(N, 7).iter().map(|&v| v as f32 as f64).collect();
    let cpu = poisson::residual_history(&level, &rhs, poisson::Solver::Multigrid, cycles);
    let (f_gpu, f_cpu) = (factor_per_cycle(&gpu, 1), factor_per_cycle(&cpu, 1));
    eprintln!("32³ V(2,2): GPU {gpu:?}\n  CPU {cpu:?}\n  factor per cycle GPU {f_gpu:.3}, CPU {f_cpu:.3}");
    assert!(f_cpu < 0.2 && f_gpu < 0.2, "factors GPU {f_gpu}, CPU {f_cpu}");
    assert!((f_gpu - f_cpu).abs() < 0.01, "GPU {f_gpu} against CPU {f_cpu}");
}

/// ‖∇·w − ∇²q‖ / ‖∇·w‖ of the last pressure solve after `n_steps` steps of the default plume.
fn plume_residual(sets: &[&str], n_steps: u32) -> f64 {
    plume_residual_n(N, sets, n_steps)
}

fn plume_residual_n(n: usize, sets: &[&str], n_steps: u32) -> f64 {
    let (h, mut s) = smoke_n(n, sets);
    steps(&h, &mut s, n_steps);
    let cell = s.chapter.params.box_size_m as f64 / n as f64;
    let q: Vec<f64> = s.download(&h.gpu, FieldId::Pressure).unwrap().iter().map(|&v| v as f64).collect();
    let d: Vec<f64> = s.download(&h.gpu, FieldId::Divergence).unwrap().iter().map(|&v| v as f64).collect();
    let open = s.chapter.params.top_boundary == fogbook_smoke::params::TopBoundary::Open;
    Level { n, h: cell, open_top: open }.residual_norm(&q, &d) / poisson::norm(&d)
}

/// The performance section's number: what one warm-started V-cycle per step leaves at 128³ with
/// MacCormack advection (60 steps of the default plume; several minutes on lavapipe).
#[test]
#[ignore = "the book's number: the residual one warm-started V-cycle leaves at 128³ (minutes on lavapipe)"]
fn one_warm_started_v_cycle_at_128() {
    let sets = ["pressure_solver=multigrid", "multigrid_cycles=1", "advection=maccormack"];
    let one = plume_residual_n(128, &sets, 60);
    let two = plume_residual_n(128, &["pressure_solver=multigrid", "multigrid_cycles=2", "advection=maccormack"], 60);
    let one_v21 = plume_residual_n(128, &[&sets[..], &["multigrid_post_sweeps=1"]].concat(), 60);
    eprintln!(
        "128³, 60 steps, MacCormack: residual left by 1 V(2,2) cycle per step {one:.2e}, by 2 {two:.2e}, by 1 V(2,1) {one_v21:.2e}"
    );
    assert!(two < one && one < 0.05 && one_v21 < 0.05, "{one} {two} {one_v21}");
}

#[test]
fn the_faster_solvers_in_the_step_leave_less_residual_than_jacobi() {
    // The default plume, 60 steps at 32³, each solver warm-started from the last step's pressure
    // inside the step itself: the residual its last solve leaves, relative to the divergence.
    let jacobi = plume_residual(&[], 60);
    let rbgs = plume_residual(&["pressure_solver=red-black-gs"], 60);
    let mg = plume_residual(&["pressure_solver=multigrid"], 60);
    let mg_open = plume_residual(&["pressure_solver=multigrid", "top_boundary=open"], 60);
    eprintln!(
        "residual after 60 steps: Jacobi (40 sweeps) {jacobi:.2e}, red–black GS (40) {rbgs:.2e}, multigrid (2 V-cycles) {mg:.2e}, open top {mg_open:.2e}"
    );
    assert!(rbgs < jacobi, "red–black GS {rbgs} against Jacobi {jacobi}");
    assert!(mg < 0.1 * jacobi && mg_open < 0.1 * jacobi, "multigrid {mg} (open {mg_open}) against Jacobi {jacobi}");
}
