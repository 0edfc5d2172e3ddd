//! Chapter 7: the smoke solver on the GPU against theory and the CPU (f64 where useful).
//! Grids of 32³ keep these fast on a software driver.

mod common;

use common::*;
use fogbook_core::headless::Headless;
use fogbook_core::params::set_by_name;
use fogbook_core::timing::{PassRecorder, run_now};
use fogbook_core::{Chapter, Loaded};
use fogbook_smoke::fields::{FieldId, round_f16, round_f16_toward_zero};
use fogbook_smoke::reference::poisson::{
    self, Level, factor_per_cycle, gauss_seidel_slowest_rate, hierarchy, noise_rhs, v_cycle_with,
};
use fogbook_smoke::reference::temperature;
use fogbook_smoke::reference::{
    Limiter, Rotation, advection_error, centre_velocity, dissipated_total, divergence, idx, jacobi_slowest_rate,
    maccormack, maccormack_faces, mirror_asymmetry, residual_norm, semi_lagrangian, slowest_mode,
};
use fogbook_smoke::{Smoke, SmokeGpu};

const N: usize = 32;

/// A smoke chapter with GPU state on a fresh headless device, with `sets` applied.
fn smoke(sets: &[&str]) -> (Headless, Loaded<Smoke>) {
    smoke_n(N, sets)
}

// The textbook solver these tests were written for (`fogbook_smoke::TEXTBOOK`): a laminar plume
// in a closed box, advected semi-Lagrangian and projected by Jacobi sweeps. The chapter's
// defaults are the production settings (see `the_default_plume_is_turbulent`); each test names
// what it changes from there.
use fogbook_smoke::TEXTBOOK;

/// The same on an n³ grid.
fn smoke_n(n: usize, sets: &[&str]) -> (Headless, Loaded<Smoke>) {
    smoke_from(n, TEXTBOOK, sets)
}

/// An n³ smoke chapter with `base` and then `sets` applied.
fn smoke_from(n: usize, base: &[&str], sets: &[&str]) -> (Headless, Loaded<Smoke>) {
    let h = headless([64, 36]);
    let s = smoke_on(&h, n, base, sets);
    (h, s)
}

/// The same on an existing device.
fn smoke_on(h: &Headless, n: usize, base: &[&str], sets: &[&str]) -> Loaded<Smoke> {
    let mut s = Loaded::new(Smoke::new());
    set_by_name(&mut s.chapter.params, "grid_size", &n.to_string()).unwrap();
    for a in base.iter().chain(sets) {
        let (k, v) = a.split_once('=').unwrap();
        set_by_name(&mut s.chapter.params, k, v).unwrap();
    }
    h.prepare(&mut s).unwrap();
    s
}

/// What the tests do with a smoke chapter and its GPU state.
trait UnderTest {
    /// Records what `f` records, submits it and waits.
    fn run_now(&mut self, h: &Headless, f: impl FnOnce(&mut Smoke, &mut SmokeGpu, &mut PassRecorder));
    fn download(&self, gpu: &fogbook_core::gpu::GpuContext, id: FieldId) -> anyhow::Result<Vec<f32>>;
    fn upload(&self, gpu: &fogbook_core::gpu::GpuContext, id: FieldId, values: &[f32]) -> anyhow::Result<()>;
}

impl UnderTest for Loaded<Smoke> {
    fn run_now(&mut self, h: &Headless, f: impl FnOnce(&mut Smoke, &mut SmokeGpu, &mut PassRecorder)) {
        let (smoke, state) = self.parts().unwrap();
        run_now(&h.gpu, |passes| f(smoke, state, passes));
    }
    fn download(&self, gpu: &fogbook_core::gpu::GpuContext, id: FieldId) -> anyhow::Result<Vec<f32>> {
        self.gpu.as_ref().expect("GPU state").download(gpu, id)
    }
    fn upload(&self, gpu: &fogbook_core::gpu::GpuContext, id: FieldId, values: &[f32]) -> anyhow::Result<()> {
        self.gpu.as_ref().expect("GPU state").upload(gpu, id, values)
    }
}

/// No sources, no forces, no motion: a field left alone except for what a test adds.
const QUIET: &[&str] = &[
    "injection_rate=0",
    "injection_velocity_y=0",
    "buoyancy=0",
    "vorticity=0",
    "velocity_dissipation=0",
    "density_dissipation=0",
];

fn steps(h: &Headless, s: &mut Loaded<Smoke>, n: u32) {
    for _ in 0..n {
        s.run_now(h, |s, g, p| s.step(g, &h.gpu, p));
    }
}

fn norm(v: &[f32], components: usize) -> f64 {
    v.chunks_exact(components)
        .map(|c| c[..3.min(components)].iter().map(|x| (*x as f64).powi(2)).sum::<f64>())
        .sum::<f64>()
        .sqrt()
}

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

/// A smooth bump: φ = exp(−|x − c|² / (2 σ²)) in cells.
fn bump(x: usize, y: usize, z: usize, sigma: f64) -> f64 {
    let c = (N as f64 - 1.0) / 2.0;
    let r2 = (x as f64 - c).powi(2) + (y as f64 - c).powi(2) + (z as f64 - c).powi(2);
    (-r2 / (2.0 * sigma * sigma)).exp()
}

/// Multigrid, 20 V-cycles: a projection solved to the f32 floor.
const EXACT_SOLVE: &[&str] = &["pressure_solver=multigrid", "multigrid_cycles=20"];

/// The faces' divergence (CPU, f64, `reference::divergence`) of a downloaded velocity texture.
fn face_divergence(v: &[f32], cell: f64) -> Vec<f64> {
    let faces: Vec<[f64; 3]> = v.chunks_exact(4).map(|c| [c[0] as f64, c[1] as f64, c[2] as f64]).collect();
    divergence(N, &faces, cell)
}

fn norm64(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[test]
fn a_gradient_field_projects_to_nearly_zero() {
    // u = ∇φ on the faces, (φ_i − φ_{i−1}) / h, φ a bump well inside the box; the wall faces 0
    // (the ghost copies the cell: ∂φ/∂n = 0 there).
    let (h, mut s) = smoke(&[QUIET, EXACT_SOLVE].concat());
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let mut u = vec![0.0f32; N * N * N * 4];
    let phi = |x: isize, y: isize, z: isize| {
        let c = |v: isize| v.clamp(0, N as isize - 1) as usize;
        bump(c(x), c(y), c(z), 4.0) * 10.0
    };
    for z in 0..N as isize {
        for y in 0..N as isize {
            for x in 0..N as isize {
                let i = 4 * idx(N, x as usize, y as usize, z as usize);
                u[i] = ((phi(x, y, z) - phi(x - 1, y, z)) / cell) as f32;
                u[i + 1] = ((phi(x, y, z) - phi(x, y - 1, z)) / cell) as f32;
                u[i + 2] = ((phi(x, y, z) - phi(x, y, z - 1)) / cell) as f32;
            }
        }
    }
    s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
    let before = norm(&s.download(&h.gpu, FieldId::Velocity).unwrap(), 4);
    s.run_now(&h, |s, g, p| s.project_solved(g, &h.gpu, p));
    let after = norm(&s.download(&h.gpu, FieldId::Velocity).unwrap(), 4);
    eprintln!("‖∇φ‖ = {before:.4}, after projection {after:.3e} ({:.2e} of it)", after / before);
    // On the staggered grid the divergence of the face gradient is the compact Laplacian the
    // solver inverts: an exact solve removes the gradient entirely, up to the half-precision
    // rounding of the stored velocity: measured 1.6e-4 (on the collocated grid, 2.79 % remained).
    assert!(after < 5e-4 * before, "‖u‖ went from {before} to {after}");
}

#[test]
fn uniform_flow_into_the_walls_projects_away() {
    // Closed box: a uniform flow (1, 0, 0) has nowhere to go. On the staggered grid the wall
    // faces are closed, so its divergence lives in the two columns of cells at the x walls, and
    // the projection must remove the flow everywhere, the faces next to the walls included.
    // (On the collocated grid, with mirrored ghost cells, half of it stayed in the wall cells.)
    let (h, mut s) = smoke(&[QUIET, EXACT_SOLVE].concat());
    let mut u = vec![0.0f32; N * N * N * 4];
    for (i, c) in u.chunks_exact_mut(4).enumerate() {
        c[0] = if i % N == 0 { 0.0 } else { 1.0 }; // the wall face x = 0 is closed
    }
    s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
    s.run_now(&h, |s, g, p| s.project_solved(g, &h.gpu, p));
    let div = s.download(&h.gpu, FieldId::Divergence).unwrap();
    let wall_cells = div
        .iter()
        .enumerate()
        .filter(|(_, d)| d.abs() > 1e-3)
        .map(|(i, _)| i % N)
        .collect::<std::collections::BTreeSet<_>>();
    assert_eq!(wall_cells.into_iter().collect::<Vec<_>>(), vec![0, N - 1], "divergence only at the x walls");
    let v = s.download(&h.gpu, FieldId::Velocity).unwrap();
    let mut by_x = vec![0.0f64; N];
    for (i, c) in v.chunks_exact(4).enumerate() {
        by_x[i % N] = by_x[i % N].max(c[0].abs() as f64);
    }
    eprintln!(
        "uniform flow after an exact projection, largest |u_x| per x face column: {:?}",
        by_x.iter().map(|v| format!("{v:.2e}")).collect::<Vec<_>>()
    );
    let worst = by_x.iter().cloned().fold(0.0, f64::max);
    eprintln!("largest normal flow left: {worst:.2e} of the inflow (wall faces: {:.2e}, {:.2e})", by_x[1], by_x[N - 1]);
    assert!(by_x[0] == 0.0, "the wall face holds {}", by_x[0]);
    // Measured: at most 5.1e-6 (collocated: 0.5 in the wall cells).
    assert!(worst <= 1e-4, "normal flow {worst} left");
}

#[test]
fn an_exact_projection_leaves_no_divergence() {
    // Seeded noise in every face: the hardest field for a mismatched discretisation, since a
    // velocity that alternates from face to face is mostly what a wide Laplacian cannot see.
    // After a projection solved to the f32 floor, what divergence is left comes from the
    // half-precision rounding of the stored velocity. The GPU's divergence pass must also agree
    // with the f64 CPU reference on the same faces.
    let (h, mut s) = smoke(&[QUIET, EXACT_SOLVE].concat());
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let noise = noise_rhs(N, 11);
    let mut u = vec![0.0f32; N * N * N * 4];
    for (i, c) in u.chunks_exact_mut(4).enumerate() {
        for a in 0..3 {
            c[a] = round_f16(noise[(i * 3 + a) % noise.len()] as f32);
        }
    }
    s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
    let before = face_divergence(&u, cell);
    s.run_now(&h, |s, g, p| s.project_solved(g, &h.gpu, p));
    let gpu_before: Vec<f64> = s.download(&h.gpu, FieldId::Divergence).unwrap().iter().map(|&v| v as f64).collect();
    let pass = norm64(&gpu_before.iter().zip(&before).map(|(a, b)| a - b).collect::<Vec<_>>()) / norm64(&before);
    let projected = s.download(&h.gpu, FieldId::Velocity).unwrap();
    let after = face_divergence(&projected, cell);
    let rel = norm64(&after) / norm64(&before);
    // The same field's divergence after rounding each face of the exact projection: the floor.
    eprintln!("noise: ‖div‖ after / before an exact projection {rel:.2e}; GPU divergence pass − CPU {pass:.1e}");
    assert!(pass < 1e-6, "the divergence pass differs from the reference by {pass}");
    // Measured: 1.8e-4.
    assert!(rel < 1e-3, "‖div‖ left: {rel} of the initial");
}

#[test]
fn a_divergence_free_field_comes_back_unchanged() {
    // u = ∇ × A with A = (0, 0, ψ), ψ on the cells' z-edges (corners in x and y), 0 on the walls:
    // u_x = (ψ(i, j+1) − ψ(i, j)) / h on the x-face, u_y = −(ψ(i+1, j) − ψ(i, j)) / h on the
    // y-face. The face divergence of this discrete curl is exactly 0 (every ψ appears twice with
    // opposite signs), and the wall faces come out closed.
    let (h, mut s) = smoke(&[QUIET, EXACT_SOLVE].concat());
    let psi = |x: usize, y: usize, z: usize| {
        if x == 0 || y == 0 || x >= N || y >= N {
            return 0.0;
        }
        // The edge at (x, y) lies between cells x − 1 and x: the bump there, halfway.
        let c = (N as f64 - 1.0) / 2.0;
        let r2 = (x as f64 - 0.5 - c).powi(2) + (y as f64 - 0.5 - c).powi(2) + (z as f64 - c).powi(2);
        (-r2 / 18.0).exp() * 5.0
    };
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let mut u = vec![0.0f32; N * N * N * 4];
    for z in 0..N {
        for y in 0..N {
            for x in 0..N {
                let i = 4 * idx(N, x, y, z);
                u[i] = ((psi(x, y + 1, z) - psi(x, y, z)) / cell) as f32;
                u[i + 1] = (-(psi(x + 1, y, z) - psi(x, y, z)) / cell) as f32;
            }
        }
    }
    let div = face_divergence(&u, cell);
    s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
    let before = s.download(&h.gpu, FieldId::Velocity).unwrap();
    s.run_now(&h, |s, g, p| s.project_solved(g, &h.gpu, p));
    let after = s.download(&h.gpu, FieldId::Velocity).unwrap();
    let diff: Vec<f32> = before.iter().zip(&after).map(|(a, b)| a - b).collect();
    let rel = norm(&diff, 4) / norm(&before, 4);
    eprintln!(
        "divergence-free field (‖div‖ of the f32 faces {:.1e} of ‖u‖/h) changed by {rel:.2e} (relative)",
        norm64(&div) * cell / norm(&u, 4)
    );
    // Left: the f16 rounding of the stored velocity (rounded, its divergence is not exactly zero).
    assert!(rel < 2e-3, "changed by {rel}");
}

#[test]
fn density_dissipation_follows_the_exact_law() {
    let k = 2.0f32;
    let mut sets = QUIET.to_vec();
    let k_set = format!("density_dissipation={k}");
    sets.push(&k_set);
    let (h, mut s) = smoke(&sets);
    let mut fluid = vec![0.0f32; N * N * N * 4];
    for (i, c) in fluid.chunks_exact_mut(4).enumerate() {
        c[3] = round_f16(((i * 7919) % 1000) as f32 / 1000.0);
    }
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    let total0: f64 = fluid.chunks_exact(4).map(|c| c[3] as f64).sum();
    let n_steps = 30;
    steps(&h, &mut s, n_steps);
    let got = s.download(&h.gpu, FieldId::Fluid).unwrap();
    let total: f64 = got.chunks_exact(4).map(|c| c[3] as f64).sum();
    // Cell by cell, the GPU does ρ ← f16(ρ · keep) with keep = f32(1 / (1 + k dt)). Vulkan lets
    // the f16 store round to nearest even or toward zero (lavapipe truncates): reproduce both.
    let keep = (1.0 / (1.0 + k as f64 * s.chapter.params.time_step_s as f64)) as f32;
    let emulate = |round: fn(f32) -> f32| {
        let mut field = fluid.clone();
        for _ in 0..n_steps {
            for c in field.chunks_exact_mut(4) {
                c[3] = round(c[3] * keep);
            }
        }
        field.chunks_exact(4).map(|c| c[3] as f64).sum::<f64>()
    };
    let (nearest, toward_zero) = (emulate(round_f16), emulate(round_f16_toward_zero));
    let exact = dissipated_total(total0, k as f64, s.chapter.params.time_step_s as f64, n_steps);
    let drift = total / exact - 1.0;
    eprintln!(
        "Σρ after {n_steps} steps: GPU {total:.4}; emulated with f16 round-to-nearest {nearest:.4}, toward zero {toward_zero:.4}; exact law {exact:.4}; GPU drift {drift:.2e}"
    );
    assert!(total == nearest || total == toward_zero, "the GPU must match the step cell by cell");
    // Each step's rounding loses at most one f16 ulp (2⁻¹⁰ relative) per cell.
    assert!(drift.abs() <= n_steps as f64 * 2f64.powi(-10), "drift {drift:.2e} beyond the rounding bound");
}

#[test]
fn mirror_symmetric_injection_stays_symmetric() {
    let (h, mut s) = smoke(&[]);
    steps(&h, &mut s, 60);
    for id in [FieldId::Fluid, FieldId::Velocity] {
        let f = s.download(&h.gpu, id).unwrap();
        let c = 4;
        let mut worst = 0.0f64;
        let mut scale = 0.0f64;
        for z in 0..N {
            for y in 0..N {
                for x in 0..N {
                    let a = &f[c * idx(N, x, y, z)..][..c];
                    let b = &f[c * idx(N, N - 1 - x, y, z)..][..c];
                    // Under x → −x the x velocity changes sign; everything else is even. It lives
                    // on the x-faces: face x mirrors to face N − x (face N is the closed wall).
                    let mirrored_face = if x == 0 { 0.0 } else { f[c * idx(N, N - x, y, z)] as f64 };
                    for k in 0..c {
                        let other = if id == FieldId::Velocity && k == 0 { -mirrored_face } else { b[k] as f64 };
                        worst = worst.max((a[k] as f64 - other).abs());
                        scale = scale.max(a[k].abs() as f64);
                    }
                }
            }
        }
        eprintln!("{id:?}: largest asymmetry {worst:.3e} of {scale:.3}");
        assert!(scale > 0.1, "{id:?}: something moved");
        assert!(worst <= 1e-2 * scale, "{id:?}: asymmetry {worst} against {scale}");
    }
}

#[test]
fn stepping_is_bit_reproducible() {
    let run = || {
        let (h, mut s) = smoke(&[]);
        steps(&h, &mut s, 25);
        [FieldId::Velocity, FieldId::Pressure, FieldId::Fluid, FieldId::Divergence]
            .map(|id| s.download(&h.gpu, id).unwrap())
    };
    let (a, b) = (run(), run());
    for (x, y) in a.iter().zip(&b) {
        assert!(x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits()), "two runs of 25 steps differ");
    }
}

/// Forces far beyond any sensible setting.
const EXTREME_FORCES: &[&str] = &[
    "vorticity=5",
    "buoyancy=50",
    "injection_velocity_y=50",
    "injection_velocity_x=-50",
    "injection_rate=100",
    "time_step_s=0.1",
    "pressure_iterations=4",
    "injection_radius=0.5",
];

/// Runs `hundreds` × 100 steps, then checks that every field is finite.
fn run_and_check_finite(h: &Headless, s: &mut Loaded<Smoke>, hundreds: u32) {
    for _ in 0..hundreds {
        s.run_now(h, |s, g, p| {
            for _ in 0..100 {
                s.step(g, &h.gpu, p);
            }
        });
    }
    for id in [FieldId::Velocity, FieldId::Pressure, FieldId::Fluid, FieldId::Divergence] {
        let f = s.download(&h.gpu, id).unwrap();
        assert!(f.iter().all(|v| v.is_finite()), "{id:?} holds a non-finite value after {hundreds}00 steps");
    }
}

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

/// Why smoke gathers under a closed lid faster than the emitter adds it: semi-Lagrangian advection
/// does not conserve mass even in a divergence-free flow. A cell takes the value at x − Δt u(x);
/// over the box the new total is the old one divided by the Jacobian of that backward map,
/// det(I − Δt ∇u) = 1 − Δt ∇·u + Δt² (the sum of ∇u's principal 2 × 2 minors) − …, and the
/// second-order term is not zero where ∇·u is. In a pure strain (the flow at a stagnation point,
/// as under the lid where the plume stops and spreads) det = 1 − s² with s = aΔt, a gain of
/// 1/(1 − s²) each step; in a rigid rotation det = 1 + s², a loss. On a smooth blob in the f64
/// reference both come out as predicted.
#[test]
fn semi_lagrangian_steps_gain_mass_in_a_strain_and_lose_it_in_a_rotation() {
    let n = 40;
    let centre = (n - 1) as f64 / 2.0;
    let sigma = 3.5;
    let mut blob = vec![0.0; n * n * n];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let r2 = [x, y, z].iter().map(|&c| (c as f64 - centre).powi(2)).sum::<f64>();
                blob[idx(n, x, y, z)] = (-r2 / (2.0 * sigma * sigma)).exp();
            }
        }
    }
    let total = |f: &[f64]| f.iter().sum::<f64>();
    let s = 0.15; // a Δt: the strain or rotation rate times the step
    let field = |flow: fn(f64, [f64; 2]) -> [f64; 3]| {
        let mut d = vec![[0.0; 3]; n * n * n];
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    d[idx(n, x, y, z)] = flow(s, [x as f64 - centre, y as f64 - centre]);
                }
            }
        }
        d
    };
    let strain: fn(f64, [f64; 2]) -> [f64; 3] = |s, [x, y]| [-s * x, s * y, 0.0];
    let rotation: fn(f64, [f64; 2]) -> [f64; 3] = |s, [x, y]| [-s * y, s * x, 0.0];
    for (name, flow, predicted) in
        [("strain", strain, 1.0 / (1.0 - s * s)), ("rotation", rotation, 1.0 / (1.0 + s * s))]
    {
        let ratio = total(&semi_lagrangian(n, &blob, &field(flow))) / total(&blob);
        eprintln!("{name}, aΔt = {s}: total × {ratio:.5} in one step, 1/det of the backward map {predicted:.5}");
        assert!((ratio / predicted - 1.0).abs() < 1e-3, "{name}: × {ratio:.5}, predicted × {predicted:.5}");
        assert!((ratio - 1.0).abs() > 0.02, "{name}: the change is the effect, not noise");
    }
}

/// The rotating blob of `reference::Rotation` (32³, one turn in 64 steps) advected by the GPU with
/// `advection`: the velocity u = ω × r is uploaded before every step (nothing else moves it: no
/// forces, no sources, no pressure sweeps, so q stays 0), the blob goes in all four fluid
/// channels. Returns the GPU's density after the turn and the case, with its initial field and
/// displacements rounded as the GPU stores and uses them.
fn gpu_rotation(advection: &str) -> (Vec<f64>, Rotation) {
    let set = format!("advection={advection}");
    let mut sets = QUIET.to_vec();
    sets.extend([set.as_str(), "pressure_iterations=0"]);
    let (h, mut s) = smoke(&sets);
    let mut case = Rotation::new(N, 64);
    let dt = s.chapter.params.time_step_s;
    let cell = s.chapter.params.box_size_m / N as f32;
    let mut u = vec![0.0f32; N * N * N * 4];
    for (i, d) in case.faces.iter_mut().enumerate() {
        for a in 0..3 {
            // Face velocities in m/s as stored (half precision); the GPU moves dt · u / box per step.
            u[4 * i + a] = round_f16((d[a] * cell as f64 / dt as f64) as f32);
            d[a] = (dt * u[4 * i + a] / cell) as f64;
        }
    }
    // The smoke is traced with the faces' mean at each centre, as the GPU interpolates them.
    case.displacement = centre_velocity(N, &case.faces);
    let fluid: Vec<f32> = case.initial.iter().flat_map(|v| [round_f16(*v as f32); 4]).collect();
    case.initial = fluid.chunks_exact(4).map(|c| c[3] as f64).collect();
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    for _ in 0..case.steps {
        s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
        steps(&h, &mut s, 1);
    }
    let got = s.download(&h.gpu, FieldId::Fluid).unwrap();
    assert!(got.iter().all(|v| v.is_finite()));
    (got.chunks_exact(4).map(|c| c[3] as f64).collect(), case)
}

#[test]
fn gpu_maccormack_matches_the_cpu_reference_and_creates_no_new_extrema() {
    let (gpu, case) = gpu_rotation("maccormack");
    let cpu = case.run(|f| maccormack(N, f, &case.displacement, Limiter::Clamp));
    let (gpu_sl, case_sl) = gpu_rotation("semi-lagrangian");
    let cpu_sl = case_sl.run(|f| semi_lagrangian(N, f, &case_sl.displacement));
    let exact = &case.initial;
    let total: f64 = cpu.iter().sum();
    let diff = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>();
    let (mc_diff, sl_diff) = (diff(&gpu, &cpu) / total, diff(&gpu_sl, &cpu_sl) / cpu_sl.iter().sum::<f64>());
    let (e_gpu, e_cpu) = (advection_error(&gpu, exact), advection_error(&cpu, exact));
    let (e_gpu_sl, e_cpu_sl) = (advection_error(&gpu_sl, exact), advection_error(&cpu_sl, exact));
    eprintln!("MacCormack after one turn: GPU {e_gpu:?}\n  CPU {e_cpu:?}\n  GPU − CPU: {mc_diff:.4} (L1, relative)");
    eprintln!("semi-Lagrangian: GPU {e_gpu_sl:?}\n  CPU {e_cpu_sl:?}\n  GPU − CPU: {sl_diff:.4}");
    assert!(mc_diff < 0.05, "GPU MacCormack differs from the CPU by {mc_diff} (L1, relative)");
    assert!(e_gpu.l1 < 0.5 * e_gpu_sl.l1, "GPU: MacCormack L1 {} against semi-Lagrangian {}", e_gpu.l1, e_gpu_sl.l1);
    let initial_max = exact.iter().cloned().fold(0.0, f64::max);
    assert!(
        e_gpu.max <= initial_max && e_gpu.min >= 0.0,
        "new extrema on the GPU: {e_gpu:?}, initial max {initial_max}"
    );
}

#[test]
fn gpu_maccormack_advects_the_face_velocities_like_the_f64_reference() {
    // One MacCormack step of a staggered velocity along itself, 16³, no pressure solve and no
    // sources: every face component traced from its own face with the velocity interpolated
    // there (the 13 shared reads of packed_velocity.wgsl), forward, back, corrected, limited;
    // closed and open top. A smooth swirl with a shear, up to 1.8 cells a step, so departures
    // cross cells and reach the walls. Measured on lavapipe: worst 2.4·10⁻³ cells a step
    // (f16 storage); with one wrong neighbour in a face's velocity 0.13, and without the halving
    // towards a wall 0.34. Bound: 1 % of the largest displacement.
    let n = 16;
    for top in ["closed", "open"] {
        let set = format!("top_boundary={top}");
        // The emitter, which pulls the velocity inside it, shrunk into a corner where no face is.
        let emitter_away =
            ["injection_radius=0.01", "injection_offset_x=-0.5", "injection_offset_y=-0.12", "injection_offset_z=-0.5"];
        let solve = ["pressure_solver=jacobi", "pressure_iterations=0", "advection=maccormack", "turbulence=0", &set];
        let sets = [QUIET, &emitter_away, &solve].concat();
        let (h, mut s) = smoke_n(n, &sets);
        let dt = s.chapter.params.time_step_s as f64;
        let cell = s.chapter.params.box_size_m as f64 / n as f64;
        // Displacement per step in cells, as stored in f16 (m/s on the GPU).
        let mut u = vec![0.0f32; n * n * n * 4];
        let mut cells = vec![[0.0f64; 3]; n * n * n];
        for (i, d) in cells.iter_mut().enumerate() {
            let (x, y, z) =
                ((i % n) as f64 / n as f64, ((i / n) % n) as f64 / n as f64, (i / (n * n)) as f64 / n as f64);
            let tau = std::f64::consts::TAU;
            let want = [
                1.13 * (tau * y + 0.3).sin() * (0.5 * tau * z + 0.2).cos() + 0.29,
                1.37 * (tau * x + 0.1).sin() + 0.41 * (tau * z + 0.7).cos(),
                0.87 * (tau * (x + y) + 0.5).cos() - 0.19,
            ];
            let at = [i % n, (i / n) % n, i / (n * n)];
            for a in 0..3 {
                // The wall faces (index 0 along their axis) hold 0, as the projection leaves them.
                let stored = if at[a] == 0 { 0.0 } else { round_f16((want[a] * cell / dt) as f32) };
                u[4 * i + a] = stored;
                d[a] = stored as f64 * dt / cell;
            }
        }
        s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
        steps(&h, &mut s, 1);
        let got = s.download(&h.gpu, FieldId::Velocity).unwrap();
        let cpu = maccormack_faces(n, &cells, top == "open");
        let largest = cells.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
        let mut worst = 0.0f64;
        for (i, want) in cpu.iter().enumerate() {
            for a in 0..3 {
                let gpu = got[4 * i + a] as f64 * dt / cell;
                worst = worst.max((gpu - want[a]).abs());
            }
        }
        eprintln!("{top} top: MacCormack faces, GPU − f64 worst {worst:.2e} cells a step (largest {largest:.2})");
        assert!(worst < 0.01 * largest, "{top} top: the GPU's face advection is off by {worst} (largest {largest})");
    }
}

/// What the plume does at the top of the box.
#[derive(Debug)]
struct AtTheTop {
    /// Σρ over the box at each checkpoint.
    totals: Vec<f64>,
    /// At the last checkpoint: mean v_y of the top layer (m/s), projected (u − ∇q).
    mean_vy: f64,
    /// At the last checkpoint: smoke-weighted mean v_y of the top layer, Σρ v_y / Σρ (m/s).
    smoke_vy: f64,
}

/// The default plume with `time_step_s = 0.05` and `top_boundary = top`, at each checkpoint.
fn plume_at_the_top(top: &str, checkpoints: &[u32]) -> AtTheTop {
    let set = format!("top_boundary={top}");
    let (h, mut s) = smoke(&[set.as_str(), "time_step_s=0.05"]);
    let mut done = 0;
    let mut totals = Vec::new();
    for &k in checkpoints {
        steps(&h, &mut s, k - done);
        done = k;
        let fluid = s.download(&h.gpu, FieldId::Fluid).unwrap();
        totals.push(fluid.chunks_exact(4).map(|c| c[3] as f64).sum());
    }
    // Finish the projection the next step would start with (0 sweeps: the last solve's q), then
    // read the top layer.
    let fluid = s.download(&h.gpu, FieldId::Fluid).unwrap();
    s.run_now(&h, |s, g, p| s.project(g, &h.gpu, p, 0));
    let u = s.download(&h.gpu, FieldId::Velocity).unwrap();
    assert!(u.iter().chain(&fluid).all(|v| v.is_finite()), "{top}: non-finite values");
    let top: Vec<usize> = (0..N * N).map(|i| idx(N, i % N, N - 1, i / N)).collect();
    let mean_vy = top.iter().map(|&i| u[4 * i + 1] as f64).sum::<f64>() / top.len() as f64;
    let rho: f64 = top.iter().map(|&i| fluid[4 * i + 3] as f64).sum();
    let flux: f64 = top.iter().map(|&i| fluid[4 * i + 3] as f64 * u[4 * i + 1] as f64).sum();
    AtTheTop { totals, mean_vy, smoke_vy: flux / rho.max(1e-12) }
}

#[test]
fn an_open_top_lets_the_plume_out() {
    // 32³, Δt = 0.05 s: the plume reaches the top after about 60 steps.
    let checkpoints = [40, 80, 120, 160];
    let closed = plume_at_the_top("closed", &checkpoints);
    let open = plume_at_the_top("open", &checkpoints);
    eprintln!("after {checkpoints:?} steps:\n  closed {closed:?}\n  open   {open:?}");
    let [.., c120, c160] = closed.totals[..] else { unreachable!() };
    let [.., o120, o160] = open.totals[..] else { unreachable!() };
    // Closed, the smoke accumulates; open, what the emitter adds leaves through the top.
    assert!(c160 > 1.2 * c120, "closed: Σρ {c120} → {c160} should keep growing");
    assert!((o160 / o120 - 1.0).abs() < 0.1, "open: Σρ {o120} → {o160} should have levelled off");
    assert!(o160 < 0.5 * c160, "open Σρ {o160} against closed {c160}");
    // The smoke in the top layer moves up and out…
    assert!(open.smoke_vy > 2.0, "open: smoke at the top moves at {} m/s", open.smoke_vy);
    // …while the layer as a whole carries almost no net flow: the air is incompressible and the
    // top is the only open face, so what leaves with the plume comes back in beside it.
    assert!(open.mean_vy.abs() < 0.1 * open.smoke_vy, "open: net v_y {} at the top", open.mean_vy);
}

/// Mirror asymmetry (`reference::mirror_asymmetry`) of the density after `n_steps` steps of the
/// default, mirror-symmetric plume with `sets`.
fn plume_asymmetry(sets: &[&str], n_steps: u32) -> (f64, Vec<f32>) {
    let (h, mut s) = smoke(sets);
    steps(&h, &mut s, n_steps);
    let fluid = s.download(&h.gpu, FieldId::Fluid).unwrap();
    assert!(fluid.iter().all(|v| v.is_finite()));
    let rho: Vec<f64> = fluid.chunks_exact(4).map(|c| c[3] as f64).collect();
    (mirror_asymmetry(N, &rho), fluid)
}

#[test]
fn emitter_turbulence_breaks_the_mirror_symmetry_and_is_seeded() {
    let (calm, _) = plume_asymmetry(&[], 60);
    let (turbulent, a) = plume_asymmetry(&["turbulence=1"], 60);
    let (half, _) = plume_asymmetry(&["turbulence=0.3"], 60);
    let (_, again) = plume_asymmetry(&["turbulence=1"], 60);
    let (other_seed, b) = plume_asymmetry(&["turbulence=1", "turbulence_seed=2"], 60);
    eprintln!(
        "density asymmetry after 60 steps: turbulence 0: {calm:.2e}; 0.3: {half:.4}; 1: {turbulent:.4} (seed 2: {other_seed:.4})"
    );
    assert!(calm < 1e-3, "without turbulence the plume must stay symmetric: {calm}");
    assert!(turbulent > 0.05, "turbulence 1 leaves the plume nearly symmetric: {turbulent}");
    assert!(half > 10.0 * calm, "turbulence 0.3: {half} against {calm}");
    assert!(a.iter().zip(&again).all(|(x, y)| x.to_bits() == y.to_bits()), "the same seed must repeat bit for bit");
    assert!(a != b, "another seed must give another plume");
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

// ANCHOR: temperature_tests
/// A vertical column of half-width 3 cells around the box's centre axis, full height.
fn in_column(x: usize, z: usize) -> bool {
    let c = N as isize / 2;
    (x as isize - c).abs() <= 3 && (z as isize - c).abs() <= 3
}

/// One step of a still box holding a column at `excess_k` with smoke density `rho`; returns the
/// vertical velocity in the column's middle after the step's forces and after the projection,
/// and the acceleration the f64 formula predicts.
fn column_after_one_step(sets: &[&str], excess_k: f32, rho: f32) -> (f64, f64, f64) {
    let mut all = QUIET.to_vec();
    all.extend(["cooling_rate=0", "pressure_solver=multigrid", "multigrid_cycles=12"]);
    all.extend(sets);
    let (h, mut s) = smoke(&all);
    let mut t = vec![0.0f32; N * N * N];
    let mut fluid = vec![0.0f32; N * N * N * 4];
    for z in 0..N {
        for y in 0..N {
            for x in 0..N {
                if in_column(x, z) {
                    t[idx(N, x, y, z)] = excess_k;
                    fluid[4 * idx(N, x, y, z) + 3] = rho;
                }
            }
        }
    }
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    s.upload(&h.gpu, FieldId::Temperature, &t).unwrap();
    steps(&h, &mut s, 1);
    let mid = 4 * idx(N, N / 2, N / 2, N / 2) + 1;
    let forced = s.download(&h.gpu, FieldId::Velocity).unwrap()[mid] as f64;
    // The step ended with the pressure solve; finish its projection (u − ∇q) and read again.
    s.run_now(&h, |s, g, p| s.project(g, &h.gpu, p, 0));
    let projected = s.download(&h.gpu, FieldId::Velocity).unwrap()[mid] as f64;
    let p = &s.chapter.params;
    let a = temperature::buoyant_acceleration(p.buoyancy as f64, p.heat_lift as f64, rho as f64, excess_k as f64);
    (forced, projected, a * p.time_step_s as f64)
}

#[test]
fn a_hot_column_rises_and_a_cold_heavy_one_sinks() {
    // Fedkiw, Stam and Jensen's f = −α ρ + β (T − T_amb), over one step of 1/60 s at 32³:
    // (hot, no smoke) 300 K above ambient with β = 0.01 m/s²/K: +3 m/s², +0.05 m/s;
    // (cold and heavy) 50 K below with density 1 and −α = −2 m/s²: −2.5 m/s², −0.042 m/s.
    // The step adds exactly dt · f (stored in half precision). The projection then takes out
    // the mean flow, which a closed box cannot carry: in a column covering A = 49 of the
    // 1024 cells of a layer, (1 − A/1024) ≈ 0.95 of dt · f stays.
    let keep = 1.0 - 49.0 / (N * N) as f64;
    for (name, sets, excess, rho) in
        [("hot", ["heat_lift=0.01", "buoyancy=0"], 300.0, 0.0), ("cold", ["heat_lift=0.01", "buoyancy=-2"], -50.0, 1.0)]
    {
        let (forced, projected, expected) = column_after_one_step(&sets, excess, rho);
        eprintln!(
            "{name} column: dt·f = {expected:+.5} m/s; after the forces {forced:+.5}, after the projection {projected:+.5} ({:.3} of dt·f)",
            projected / expected
        );
        assert!((forced / expected - 1.0).abs() < 1e-3, "{name}: the step added {forced}, the formula {expected}");
        assert!(
            projected.signum() == expected.signum() && (projected / expected - keep).abs() < 0.05,
            "{name}: projected {projected} against {keep} × {expected}"
        );
    }
    // Without heat lift the hot column stays put.
    let (forced, _, _) = column_after_one_step(&["heat_lift=0", "buoyancy=0"], 300.0, 0.0);
    assert_eq!(forced, 0.0);
}

#[test]
fn temperature_cools_exponentially_towards_ambient() {
    // No flow; k = 5/s, Δt = 0.05 s: T − T_amb must follow exp(−k t) (Newton's law). Each step
    // stores half precision, losing at most one f16 ulp (2⁻¹⁰ relative) per cell and step. A
    // semi-implicit step 1/(1 + k Δt) would be 71 % too warm after 20 steps.
    let (k, dt) = (5.0f64, 0.05f64);
    let (h, mut s) = smoke(&[QUIET, &["cooling_rate=5", "time_step_s=0.05", "injection_radius=0.01"]].concat());
    let t0: Vec<f32> = (0..N * N * N).map(|i| round_f16(((i * 7919) % 1000) as f32)).collect();
    s.upload(&h.gpu, FieldId::Temperature, &t0).unwrap();
    let total0: f64 = t0.iter().map(|&v| v as f64).sum();
    let mut done = 0;
    for n in [5u32, 10, 20] {
        steps(&h, &mut s, n - done);
        done = n;
        let t = s.download(&h.gpu, FieldId::Temperature).unwrap();
        let total: f64 = t.iter().map(|&v| v as f64).sum();
        let law = temperature::cooled(total0, k, n as f64 * dt);
        let worst = t
            .iter()
            .zip(&t0)
            .filter(|(_, a)| **a >= 100.0)
            .map(|(b, a)| (*b as f64 / temperature::cooled(*a as f64, k, n as f64 * dt) - 1.0).abs())
            .fold(0.0, f64::max);
        eprintln!(
            "after {n} steps: Σ(T − T_amb) {total:.1}, exp(−k t) law {law:.1} ({:+.2e}); worst cell {worst:.2e}",
            total / law - 1.0
        );
        let bound = n as f64 * 2f64.powi(-10);
        assert!((total / law - 1.0).abs() <= bound && worst <= bound, "after {n} steps: {total} against {law}");
    }
}

/// A bump (σ = 3 cells, 100 K at its peak) in both the density and the temperature (the
/// velocity's fourth channel, which the per-step velocity upload keeps), carried by a uniform
/// flow of (0.3, 0.2, 0.1) cells per step. Returns the initial field, the density and the
/// temperature after `steps_taken` steps.
fn carry_temperature(advection: &str, steps_taken: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let set = format!("advection={advection}");
    let mut sets = QUIET.to_vec();
    // No cooling, and an emitter too small to cover a cell centre: nothing adds or removes heat.
    sets.extend([set.as_str(), "pressure_iterations=0", "cooling_rate=0", "injection_radius=0.01"]);
    let (h, mut s) = smoke(&sets);
    let dt = s.chapter.params.time_step_s;
    let cell = s.chapter.params.box_size_m / N as f32;
    let mut blob = vec![0.0f32; N * N * N];
    for z in 0..N {
        for y in 0..N {
            for x in 0..N {
                blob[idx(N, x, y, z)] = round_f16(100.0 * bump(x, y, z, 3.0) as f32);
            }
        }
    }
    let fluid: Vec<f32> = blob.iter().flat_map(|v| [0.0, 0.0, 0.0, *v]).collect();
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    let flow = [0.3f32, 0.2, 0.1].map(|c| round_f16(c * cell / dt));
    let mut u: Vec<f32> = blob.iter().flat_map(|t| [flow[0], flow[1], flow[2], *t]).collect();
    for _ in 0..steps_taken {
        s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
        steps(&h, &mut s, 1);
        for (c, t) in u.chunks_exact_mut(4).zip(s.download(&h.gpu, FieldId::Temperature).unwrap()) {
            c[3] = t;
        }
    }
    let rho = s.download(&h.gpu, FieldId::Fluid).unwrap().chunks_exact(4).map(|c| c[3]).collect();
    (blob, rho, u.chunks_exact(4).map(|c| c[3]).collect())
}

#[test]
fn advection_carries_temperature_exactly_like_density_and_keeps_its_total() {
    // Both schemes, 8 steps: the temperature must come out bit for bit as the density (same
    // sample, same limiter), and with nothing added or removed its total must stay put. A
    // uniform flow away from the walls is where semi-Lagrangian advection conserves: the
    // trilinear weights every cell hands out sum to 1. (A rotation is a poorer test: the blob of
    // `gpu_rotation` loses 13 % in 16 steps where its tail meets the walls.)
    for advection in ["semi-lagrangian", "maccormack"] {
        let (t0, rho, t) = carry_temperature(advection, 8);
        let sum = |v: &[f32]| v.iter().map(|&x| x as f64).sum::<f64>();
        let drift = sum(&t) / sum(&t0) - 1.0;
        let moved = t.iter().zip(&t0).map(|(a, b)| (a - b).abs() as f64).sum::<f64>() / sum(&t0);
        eprintln!("{advection}: Σ(T − T_amb) drift over 8 steps {drift:+.2e}; L1 change of the field {moved:.3}");
        assert!(rho.iter().zip(&t).all(|(a, b)| a.to_bits() == b.to_bits()), "{advection}: temperature ≠ density");
        assert!(moved > 0.3, "{advection}: the bump did not move ({moved})");
        // Each step's half-precision store loses at most one ulp (2⁻¹⁰ relative) per cell;
        // lavapipe truncates, so the total drifts down by about half of that.
        assert!(drift.abs() <= 8.0 * 2f64.powi(-10), "{advection}: total drifted by {drift}");
    }
}

#[test]
fn extreme_temperatures_stay_finite() {
    // The hottest and the coldest emitter, the largest heat lift, no cooling, the largest glow,
    // with the extreme forces of the long run; 200 steps each at 16³ (like the long run), then the
    // fluid view rendered.
    let hot = ["emitter_temperature_k=6000", "ambient_temperature_k=1", "heat_lift=1", "cooling_rate=0"];
    let cold = ["emitter_temperature_k=1", "ambient_temperature_k=2000", "heat_lift=1", "buoyancy=-50"];
    for case in [&hot, &cold] {
        let settings: Vec<&str> = EXTREME_FORCES.iter().chain(case.iter()).copied().collect();
        let (h, mut s) = smoke_n(16, &settings);
        run_and_check_finite(&h, &mut s, 2);
        let t = s.download(&h.gpu, FieldId::Temperature).unwrap();
        assert!(t.iter().all(|v| v.is_finite() && v.abs() <= 6000.0), "temperature out of range");
    }
    let mut sets: Vec<String> = EXTREME_FORCES.iter().chain(hot.iter()).map(|s| s.to_string()).collect();
    sets.extend(["grid_size=16".into(), "emission=50".into(), "emission_start_k=1".into(), "emission_full_k=1".into()]);
    let mut h = headless([64, 36]);
    let image = render_with(&mut h, "smoke", "fluid", &sets, None, 30);
    assert!(image.raw.rgba.iter().all(|v| v.is_finite()), "the glowing fluid view holds a non-finite pixel");
    // Rates the table refuses, and what a program might set anyway.
    let mut p = fogbook_smoke::SmokeParams::default();
    assert!(set_by_name(&mut p, "cooling_rate", "-1").is_err());
    for k in [-5.0, f32::NAN, f32::NEG_INFINITY] {
        assert_eq!(fogbook_smoke::temperature_keep(k, 0.1), 1.0, "cooling rate {k}");
    }
    p.emitter_temperature_k = f32::INFINITY;
    assert_eq!(fogbook_smoke::emitter_excess_k(&p), 0.0);
    p.emission_full_k = p.emission_start_k; // an empty ramp must not divide by zero
    let u = fogbook_smoke::SmokeUniform::new(&p, 32, [0.0, 1.0, 0.0], 0);
    assert!(u.emission_full_k > u.emission_start_k);
}
// ANCHOR_END: temperature_tests

// ANCHOR: save_tests
/// A path in the system's temporary folder, unique to this process and `name`.
fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("fogbook-smoke-{}-{name}", std::process::id()))
}

/// Every field a load replaces, and the parameters, to compare before and after.
fn state(h: &Headless, s: &Loaded<Smoke>) -> (Vec<f32>, Vec<f32>, fogbook_smoke::SmokeParams) {
    (
        s.download(&h.gpu, FieldId::Fluid).unwrap(),
        s.download(&h.gpu, FieldId::Velocity).unwrap(),
        s.chapter.params.clone(),
    )
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn saved_smoke_loads_back_identically() {
    // 20 steps of a hot plume (heat lift on, so velocity, temperature and smoke all move), saved;
    // a fresh chapter with another box and ambient loads it: every value of the fluid and the
    // velocity–temperature texture comes back bit for bit, and the parameters follow the file.
    let (h, mut s) = smoke(&["heat_lift=0.01", "emitter_temperature_k=900"]);
    steps(&h, &mut s, 20);
    let path = temp_path("round-trip.fbvol");
    {
        let (smoke, g) = s.parts().unwrap();
        smoke.save(g, &h.gpu, &path).unwrap();
    }
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert_eq!(bytes as usize, 28 + 4 * 16 + 4 * 8 * N * N * N, "the documented size");
    let (fluid, _, _) = state(&h, &s);
    // The file holds the projected velocity V = u* − ∇q, not the u* the grid keeps.
    let projected = {
        let (smoke, g) = s.parts().unwrap();
        smoke.projected_velocity(g, &h.gpu).unwrap()
    };
    assert!(projected.chunks_exact(4).any(|c| c[3] > 100.0), "the plume is hot");

    let (h2, mut fresh) = smoke(&["box_size_m=20", "ambient_temperature_k=250"]);
    let (smoke2, g2) = fresh.parts().unwrap();
    smoke2.load(g2, &h2.gpu, &path).unwrap();
    let (fluid2, velocity2, params2) = state(&h2, &fresh);
    assert_eq!(bits(&fluid2), bits(&fluid), "fluid differs after the round trip");
    assert_eq!(bits(&velocity2), bits(&projected), "velocity or temperature differs after the round trip");
    assert_eq!((params2.box_size_m, params2.ambient_temperature_k), (12.0, 293.15));
    // …and it steps on from there like the original.
    steps(&h, &mut s, 3);
    steps(&h2, &mut fresh, 3);
    let rel = |a: &[f32], b: &[f32]| norm(&a.iter().zip(b).map(|(x, y)| x - y).collect::<Vec<_>>(), 4) / norm(a, 4);
    let after = s.download(&h.gpu, FieldId::Fluid).unwrap();
    let after2 = fresh.download(&h2.gpu, FieldId::Fluid).unwrap();
    eprintln!("3 steps after loading: fluid differs from the unbroken run by {:.2e} (relative)", rel(&after, &after2));
    // The load restarts the pressure from 0 (the file holds none); three solves mostly catch up.
    assert!(rel(&after, &after2) < 0.05);
    std::fs::remove_file(&path).ok();
}

#[test]
fn bad_volume_files_are_refused_and_change_nothing() {
    let (h, mut s) = smoke(&["heat_lift=0.01"]);
    steps(&h, &mut s, 5);
    let path = temp_path("good.fbvol");
    let good = {
        let (smoke, g) = s.parts().unwrap();
        smoke.save(g, &h.gpu, &path).unwrap();
        std::fs::read(&path).unwrap()
    };
    steps(&h, &mut s, 2); // the state now differs from the file's
    let before = state(&h, &s);
    let mut wrong_magic = good.clone();
    wrong_magic[..4].copy_from_slice(b"RIFF");
    let mut wrong_version = good.clone();
    wrong_version[8..12].copy_from_slice(&7u32.to_le_bytes());
    let mut nan = good.clone();
    let at = 28 + 4 * 16;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let mut hot_box = good.clone();
    hot_box[16..20].copy_from_slice(&1000.0f32.to_le_bytes());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() - 10].to_vec(), "truncated"),
        ("header only", good[..30].to_vec(), "truncated"),
        ("empty", Vec::new(), "truncated"),
        ("wrong magic", wrong_magic, "magic"),
        ("wrong version", wrong_version, "version 7"),
        ("a NaN", nan, "non-finite"),
        ("a 1000 m box", hot_box, "box size"),
    ];
    for (what, bytes, expect) in cases {
        let bad = temp_path("bad.fbvol");
        std::fs::write(&bad, &bytes).unwrap();
        let (smoke, g) = s.parts().unwrap();
        let err = format!("{:#}", smoke.load(g, &h.gpu, &bad).unwrap_err());
        eprintln!("{what}: {err}");
        assert!(err.contains(expect), "{what}: {err}");
        assert!(state(&h, &s) == before, "{what}: the failed load changed the smoke");
        std::fs::remove_file(&bad).ok();
    }
    let (smoke, g) = s.parts().unwrap();
    let err = format!("{:#}", smoke.load(g, &h.gpu, &temp_path("missing")).unwrap_err());
    assert!(err.contains("reading"), "{err}");

    // Another grid: refused with what to do; one the device cannot hold: refused as too big.
    let (h16, mut small) = smoke_n(16, &[]);
    let (smoke, g) = small.parts().unwrap();
    let err = format!("{:#}", smoke.load(g, &h16.gpu, &path).unwrap_err());
    eprintln!("32³ file into 16³: {err}");
    assert!(err.contains("set grid_size=32"), "{err}");
    let huge = fogbook_smoke::volume_file::VolumeFile { n: 1024, box_m: 12.0, ambient_k: 293.15, fields: vec![] };
    let err = format!("{:#}", smoke.restore(g, &h16.gpu, &huge).unwrap_err());
    eprintln!("1024³: {err}");
    assert!(err.contains("too big"), "{err}");
    let small_state = state(&h16, &small);
    assert!(small_state.0.iter().all(|&v| v == 0.0) && small_state.2.grid_size == 16);
    std::fs::remove_file(&path).ok();
}
// ANCHOR_END: save_tests

// ANCHOR: saved_velocity_test
/// The largest |div u| of a cell, in units of max|u| per cell width: the divergence pass's own
/// discrete operator (walls, open top, obstacles) on the velocity now in the grid.
fn relative_divergence(h: &Headless, s: &mut Loaded<Smoke>) -> f64 {
    s.run_now(h, |_, g, p| {
        fogbook_smoke::passes::record_divergence(&h.gpu, p, &g.pipelines, &g.params_group, &mut g.fields);
    });
    let div = s.download(&h.gpu, FieldId::Divergence).unwrap();
    let u = s.download(&h.gpu, FieldId::Velocity).unwrap();
    let cell = s.chapter.params.box_size_m as f64 / s.chapter.params.grid_size as f64;
    let max_u = u.chunks_exact(4).flat_map(|c| c[..3].to_vec()).fold(0.0f64, |m, v| m.max((v as f64).abs()));
    let max_div = div.iter().fold(0.0f64, |m, v| m.max((*v as f64).abs()));
    max_div * cell / max_u
}

#[test]
fn a_saved_velocity_is_divergence_free() {
    // The production plume (MacCormack, two V-cycles, open top, turbulence) after 20 steps: the
    // grid's u* is a gradient short of divergence-free; the file's velocity, loaded into a fresh
    // chapter, is divergence-free to the solver's tolerance plus the half floats' rounding.
    let (h, mut s) = smoke_from(N, &[], &[]);
    steps(&h, &mut s, 20);
    let path = temp_path("divergence-free.fbvol");
    {
        let (smoke, g) = s.parts().unwrap();
        smoke.save(g, &h.gpu, &path).unwrap();
    }
    let before_projection = relative_divergence(&h, &mut s);
    let mut fresh = smoke_on(&h, N, &[], &[]);
    {
        let (smoke, g) = fresh.parts().unwrap();
        smoke.load(g, &h.gpu, &path).unwrap();
    }
    let saved = relative_divergence(&h, &mut fresh);
    eprintln!("max |div u|·h / max|u|: u* in the grid {before_projection:.3e}, the saved velocity {saved:.3e}");
    assert!(before_projection > 0.02, "the grid's u* should be visibly divergent: {before_projection:.3e}");
    assert!(saved < 2e-3, "the saved velocity is not divergence-free: {saved:.3e}");
    std::fs::remove_file(&path).ok();
}
// ANCHOR_END: saved_velocity_test

// ANCHOR: batched_steps_test
/// Every field of the smoke, for comparisons bit for bit.
fn every_field(h: &Headless, s: &Loaded<Smoke>) -> Vec<(FieldId, Vec<f32>)> {
    [FieldId::Velocity, FieldId::Pressure, FieldId::Fluid, FieldId::Divergence, FieldId::Solid]
        .into_iter()
        .map(|id| (id, s.download(&h.gpu, id).unwrap()))
        .collect()
}

/// The largest difference between two states, and the field it is in.
fn largest_difference(a: &[(FieldId, Vec<f32>)], b: &[(FieldId, Vec<f32>)]) -> (f32, Option<FieldId>) {
    let mut worst = (0.0f32, None);
    for ((id, x), (_, y)) in a.iter().zip(b) {
        let d = x
            .iter()
            .zip(y)
            .map(|(p, q)| if p.to_bits() == q.to_bits() { 0.0 } else { (p - q).abs().max(f32::MIN_POSITIVE) })
            .fold(0.0, f32::max);
        if d > worst.0 {
            worst = (d, Some(*id));
        }
    }
    worst
}

#[test]
fn batched_steps_reach_the_state_of_single_steps() {
    // `smoke-save` and `bake` record many steps into one submission (`Smoke::steps`); the viewer,
    // `render --frames` and the figures submit one step a frame. The emitter's noise clock and a
    // moving obstacle change the parameter block every step: each step must read its own.
    let cases: [(&str, &[&str]); 2] =
        [("turbulence", &[]), ("a moving sphere", &["turbulence=0", "sphere_enabled=true", "sphere_velocity_x=3"])];
    for (what, sets) in cases {
        let (h, mut single) = smoke_from(16, &[], sets);
        steps(&h, &mut single, 20);
        let reference = every_field(&h, &single);
        for batch in [7, 50] {
            let mut batched = smoke_on(&h, 16, &[], sets);
            {
                let (smoke, g) = batched.parts().unwrap();
                smoke.steps_in_batches(g, &h.gpu, 20, batch);
            }
            let (diff, field) = largest_difference(&reference, &every_field(&h, &batched));
            eprintln!("{what}, 20 steps in batches of {batch}: largest difference {diff:e} ({field:?})");
            assert!(diff == 0.0, "{what}: batches of {batch} differ from single steps by {diff} in {field:?}");
            assert!(h.gpu.take_rewrites().is_empty(), "{what}: a buffer was written twice before one submission");
        }
    }
}
// ANCHOR_END: batched_steps_test

// ---- Lighting: the light volume and the lit march against an f64 integral ----

use fogbook_smoke::reference::lighting::{HomogeneousBox, Octaves, box_interval};

/// A camera 17 m in front of the box, looking at its lower half: rays cross smoke over sky,
/// ground and the green box that stands inside it.
const LIT_CAMERA: &str = "0,6,-5,0,-8";

/// The smoke chapter alone in a stack (as the app runs it), and typed access to it.
fn lit_setup(sets: &[&str]) -> (Headless, fogbook::state::Setup) {
    let mut h = headless([96, 54]);
    h.renderer.dither = false;
    let mut setup = fogbook::state::Setup::new("smoke").unwrap();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    setup.apply(None, &sets, Some(LIT_CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    (h, setup)
}

fn smoke_in(setup: &mut fogbook::state::Setup) -> &mut Loaded<Smoke> {
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
        min: glam::Vec3::from(u.box_min).as_dvec3(),
        side_m: u.box_m as f64,
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
    let (min, side) = (glam::Vec3::from(u.box_min).as_dvec3(), u.box_m as f64);
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

// ---- The default plume: turbulent, against the textbook settings ----

/// Root-mean-square wavenumber of the density, √(Σ|∇ρ|² / Σρ²) in radians per cell (forward
/// differences): how much of the field's variation is at small scales. A smooth column has a
/// small one; rolls and billows raise it.
fn rms_wavenumber(n: usize, rho: &[f64]) -> f64 {
    let (mut grad, mut total) = (0.0, 0.0);
    for z in 0..n - 1 {
        for y in 0..n - 1 {
            for x in 0..n - 1 {
                let c = rho[idx(n, x, y, z)];
                let d = [rho[idx(n, x + 1, y, z)] - c, rho[idx(n, x, y + 1, z)] - c, rho[idx(n, x, y, z + 1)] - c];
                grad += d.iter().map(|v| v * v).sum::<f64>();
                total += c * c;
            }
        }
    }
    (grad / total.max(1e-30)).sqrt()
}

/// Mirror asymmetry and rms wavenumber of the density after `n_steps` from `base`.
fn plume_measures(base: &[&str], n_steps: u32) -> (f64, f64) {
    let (h, mut s) = smoke_from(N, base, &[]);
    steps(&h, &mut s, n_steps);
    let fluid = s.download(&h.gpu, FieldId::Fluid).unwrap();
    assert!(fluid.iter().all(|v| v.is_finite()));
    let rho: Vec<f64> = fluid.chunks_exact(4).map(|c| c[3] as f64).collect();
    (mirror_asymmetry(N, &rho), rms_wavenumber(N, &rho))
}

#[test]
fn the_default_plume_is_turbulent() {
    // The measure: the density's left–right mirror asymmetry, Σ|ρ(x) − ρ(n−1−x)| / Σ(ρ + ρ'),
    // 0 for a plume symmetric about the emitter's plane, after two seconds (120 steps).
    let (textbook, textbook_k) = plume_measures(TEXTBOOK, 120);
    let (default, default_k) = plume_measures(&[], 120);
    eprintln!(
        "after 120 steps at {N}³: asymmetry {textbook:.2e} (textbook settings) → {default:.3} (defaults); rms wavenumber {textbook_k:.3} → {default_k:.3} rad/cell"
    );
    assert!(textbook < 1e-3, "the textbook plume should be symmetric: {textbook}");
    assert!(default > 0.1, "the default plume should have broken its symmetry: {default}");
    assert!(default_k > textbook_k, "the default plume should have more small-scale structure");
}

#[test]
fn a_closed_box_keeps_its_smoke_in_a_swirl() {
    // Conservation: a closed box, no injection, no dissipation, a divergence-free swirl (the discrete
    // curl of a bump, as above) carrying a density bump for 40 steps. Semi-Lagrangian advection
    // is not conservative, so the total drifts; the drift measures how much.
    let (h, mut s) =
        smoke(&[QUIET, &["pressure_solver=multigrid", "multigrid_cycles=2", "injection_radius=0.01"]].concat());
    let cell = s.chapter.params.box_size_m as f64 / N as f64;
    let psi = |x: usize, y: usize, z: usize| {
        if x == 0 || y == 0 || x >= N || y >= N {
            return 0.0;
        }
        let c = (N as f64 - 1.0) / 2.0;
        let r2 = (x as f64 - 0.5 - c).powi(2) + (y as f64 - 0.5 - c).powi(2) + (z as f64 - c).powi(2);
        (-r2 / 50.0).exp() * 40.0
    };
    let mut u = vec![0.0f32; N * N * N * 4];
    let mut fluid = vec![0.0f32; N * N * N * 4];
    for z in 0..N {
        for y in 0..N {
            for x in 0..N {
                let i = idx(N, x, y, z);
                u[4 * i] = ((psi(x, y + 1, z) - psi(x, y, z)) / cell) as f32;
                u[4 * i + 1] = (-(psi(x + 1, y, z) - psi(x, y, z)) / cell) as f32;
                let b = (-(((x as f64 - 20.0).powi(2) + (y as f64 - 16.0).powi(2) + (z as f64 - 16.0).powi(2)) / 18.0))
                    .exp();
                fluid[4 * i + 3] = round_f16(b as f32);
            }
        }
    }
    let top = u.chunks_exact(4).map(|c| c[0].abs().max(c[1].abs())).fold(0.0, f32::max);
    s.upload(&h.gpu, FieldId::Velocity, &u).unwrap();
    s.upload(&h.gpu, FieldId::Fluid, &fluid).unwrap();
    let total = |f: &[f32]| f.chunks_exact(4).map(|c| c[3] as f64).sum::<f64>();
    let t0 = total(&fluid);
    steps(&h, &mut s, 40);
    let t1 = total(&s.download(&h.gpu, FieldId::Fluid).unwrap());
    eprintln!("swirl of up to {top:.2} m/s, 40 steps: Σρ {t0:.2} → {t1:.2} ({:+.2e})", t1 / t0 - 1.0);
    // Measured: −4.6 % (a loss: the bump is smeared over cells where the swirl's interpolated
    // velocity diverges). A leak through the walls or an unclosed face would take far more.
    assert!((t1 / t0 - 1.0).abs() < 0.08, "Σρ {t0} → {t1}");
}

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

/// Figures step the smoke without drawing until their last frame (`Headless::run_warmed`); the
/// state must be the one drawing every frame gives. With turbulence on, it is not unless the
/// parameter block written for drawing keeps the noise clock of the step recorded before it in
/// the same submission (before, drawing moved the clock on by one step).
#[test]
fn warming_up_without_drawing_gives_the_drawn_state() {
    let sets = ["grid_size=16", "turbulence=1"];
    let download = |drawn: bool| {
        let (mut h, mut setup) = lit_setup(&sets);
        let view = setup.stack.find_view("density").unwrap();
        let mut time = fogbook_core::time::TimeControl::fixed(0.0);
        if drawn {
            h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 8);
        } else {
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 8);
        }
        smoke_in(&mut setup).download(&h.gpu, FieldId::Fluid).unwrap()
    };
    let (drawn, warmed) = (download(true), download(false));
    assert!(drawn.iter().any(|&v| v > 0.0), "the emitter added no smoke");
    let differing = bits(&drawn).iter().zip(bits(&warmed)).filter(|(a, b)| **a != *b).count();
    assert_eq!(differing, 0, "stepping without drawing changed {differing} of {} values", drawn.len());
}
