//! Advection: semi-Lagrangian mass change, and MacCormack on the GPU against the f64 reference.

use crate::{N, QUIET, UnderTest, smoke, smoke_n, steps};
use fogbook_smoke::fields::{FieldId, round_f16};
use fogbook_smoke::reference::{
    Limiter, Rotation, advection_error, centre_velocity, idx, maccormack, maccormack_faces, semi_lagrangian,
};

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
