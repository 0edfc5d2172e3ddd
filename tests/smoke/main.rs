//! Chapter 7: the smoke solver on the GPU against theory and the CPU (f64 where useful).
//! Grids of 32³ keep these fast on a software driver.

mod advection;
mod bad_input;
#[path = "../common/mod.rs"]
mod common;
mod lighting;
mod medium;
mod obstacles;
mod plume;
mod pressure;
mod projection;
mod reproducibility;
mod save;
mod temperature;

use common::*;
use fogbook_core::Loaded;
use fogbook_core::headless::Headless;
use fogbook_core::params::set_by_name;
use fogbook_core::timing::{PassRecorder, run_now};
use fogbook_smoke::fields::FieldId;
use fogbook_smoke::reference::divergence;
use fogbook_smoke::{Smoke, SmokeGpu};

pub(crate) const N: usize = 32;

/// A smoke chapter with GPU state on a fresh headless device, with `sets` applied.
pub(crate) fn smoke(sets: &[&str]) -> (Headless, Loaded<Smoke>) {
    smoke_n(N, sets)
}

// The textbook solver these tests were written for (`fogbook_smoke::TEXTBOOK`): a laminar plume
// in a closed box, advected semi-Lagrangian and projected by Jacobi sweeps. The chapter's
// defaults are the production settings (see `the_default_plume_is_turbulent`); each test names
// what it changes from there.
use fogbook_smoke::TEXTBOOK;

/// The same on an n³ grid.
pub(crate) fn smoke_n(n: usize, sets: &[&str]) -> (Headless, Loaded<Smoke>) {
    smoke_from(n, TEXTBOOK, sets)
}

/// An n³ smoke chapter with `base` and then `sets` applied.
pub(crate) fn smoke_from(n: usize, base: &[&str], sets: &[&str]) -> (Headless, Loaded<Smoke>) {
    let h = headless([64, 36]);
    let s = smoke_on(&h, n, base, sets);
    (h, s)
}

/// The same on an existing device.
pub(crate) fn smoke_on(h: &Headless, n: usize, base: &[&str], sets: &[&str]) -> Loaded<Smoke> {
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
pub(crate) trait UnderTest {
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
pub(crate) const QUIET: &[&str] = &[
    "injection_rate=0",
    "injection_velocity_y=0",
    "buoyancy=0",
    "vorticity=0",
    "velocity_dissipation=0",
    "density_dissipation=0",
];

pub(crate) fn steps(h: &Headless, s: &mut Loaded<Smoke>, n: u32) {
    for _ in 0..n {
        s.run_now(h, |s, g, p| s.step(g, &h.gpu, p));
    }
}

pub(crate) fn norm(v: &[f32], components: usize) -> f64 {
    v.chunks_exact(components)
        .map(|c| c[..3.min(components)].iter().map(|x| (*x as f64).powi(2)).sum::<f64>())
        .sum::<f64>()
        .sqrt()
}

/// A smooth bump: φ = exp(−|x − c|² / (2 σ²)) in cells.
pub(crate) fn bump(x: usize, y: usize, z: usize, sigma: f64) -> f64 {
    let c = (N as f64 - 1.0) / 2.0;
    let r2 = (x as f64 - c).powi(2) + (y as f64 - c).powi(2) + (z as f64 - c).powi(2);
    (-r2 / (2.0 * sigma * sigma)).exp()
}

/// Multigrid, 20 V-cycles: a projection solved to the f32 floor.
pub(crate) const EXACT_SOLVE: &[&str] = &["pressure_solver=multigrid", "multigrid_cycles=20"];

/// The faces' divergence (CPU, f64, `reference::divergence`) of a downloaded velocity texture.
pub(crate) fn face_divergence(v: &[f32], cell: f64) -> Vec<f64> {
    let faces: Vec<[f64; 3]> = v.chunks_exact(4).map(|c| [c[0] as f64, c[1] as f64, c[2] as f64]).collect();
    divergence(N, &faces, cell)
}

/// Forces far beyond any sensible setting.
pub(crate) const EXTREME_FORCES: &[&str] = &[
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
pub(crate) fn run_and_check_finite(h: &Headless, s: &mut Loaded<Smoke>, hundreds: u32) {
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
