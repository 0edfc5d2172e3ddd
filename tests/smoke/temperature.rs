//! Temperature: buoyancy, Newton cooling, advection alongside the density, extreme temperatures.

use crate::common::*;
use crate::{EXTREME_FORCES, N, QUIET, UnderTest, bump, run_and_check_finite, smoke, smoke_n, steps};
use fogbook_core::params::set_by_name;
use fogbook_smoke::fields::{FieldId, round_f16};
use fogbook_smoke::reference::idx;
use fogbook_smoke::reference::temperature;

// ANCHOR: temperature_tests
/// A vertical column of half-width 3 cells around the box's centre axis, full height.
pub(crate) fn in_column(x: usize, z: usize) -> bool {
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
    assert!(u.optics.emission_full_k > u.optics.emission_start_k);
}
// ANCHOR_END: temperature_tests
