//! Criterion benches: one whole frame (scene, shadow map, chapter pass, display) per chapter,
//! and per named stack at 640×360, submitted and waited for, at 640×360 and 1920×1080. For per-pass GPU times use
//! `fogbook bench`, which reads timestamp queries; this measures what a frame costs end to end.

use criterion::{Criterion, criterion_group, criterion_main};
use fogbook::registry;
use fogbook::state::Setup;
use fogbook_core::headless::Headless;
use fogbook_core::time::TimeControl;
use fogbook_core::timing::run_now;
use fogbook_core::{Chapter, Loaded};
use std::time::Duration;

/// Under `cargo test` (run without `--bench`) every bench runs once, to show that it still works,
/// not to time it: the sky's tables are then made at a quarter of their size and only the half-size
/// precomputation is run, which keeps the check to seconds on a software driver.
fn checking_only() -> bool {
    !std::env::args().any(|a| a == "--bench")
}

fn frames(c: &mut Criterion) {
    for size in [[640u32, 360], [1920, 1080]] {
        let mut headless = Headless::new(&registry::requirements(), size).unwrap_or_else(|e| panic!("{e:#}"));
        let mut specs: Vec<String> = registry::chapters().iter().map(|c| c.info().id.to_string()).collect();
        if size[0] == 640 {
            specs.push("atmosphere".into());
        }
        for id in specs {
            let mut setup = Setup::new(&id).unwrap();
            // A stack's frame does not depend on the size of the sky's tables; quarter-size ones
            // keep its one-off precomputation short on a software driver.
            if setup.stack.position("sky").is_some() && (!setup.stack.is_single() || checking_only()) {
                setup.set("lut_resolution=quarter").unwrap();
            }
            // The clouds' full-resolution march at 1080p takes seconds on a software driver: the
            // check runs it with low-resolution noise and a few steps.
            if setup.stack.position("clouds").is_some() && checking_only() {
                setup.set("clouds.noise_resolution=low").unwrap();
                setup.set("clouds.view_steps=8").unwrap();
            }
            headless.prepare_stack(&mut setup.stack).unwrap();
            let view = setup.stack.views()[0].at;
            let mut time = TimeControl::fixed(0.0);
            let mut group = c.benchmark_group(format!("{id}/{}x{}", size[0], size[1]));
            group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
            group.bench_function("frame", |b| {
                b.iter(|| {
                    headless.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
                    headless.gpu.wait();
                })
            });
            group.finish();
        }
    }
}

/// The CPU reference itself, for scale: one fog evaluation per pixel of a 1080p frame.
fn cpu_reference(c: &mut Criterion) {
    let fog = fogbook_distance_fog::reference::ResolvedFog::new(&Default::default());
    c.bench_function("distance-fog/cpu-reference-1080p", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for i in 0..1920 * 1080 {
                acc += fog.fog_factor(std::hint::black_box(i as f64 * 1e-4));
            }
            acc
        })
    });
}

/// One smoke step (advect, vorticity, divergence, then the pressure solve: 40 Jacobi sweeps,
/// 40 red–black Gauss–Seidel sweeps, or 2 multigrid V(2,2) cycles) at 64³ and 128³, submitted
/// and waited for. Per-pass GPU times come from `fogbook bench --chapters smoke --set
/// pressure_solver=multigrid` (passes labelled "smoke: mg smooth L0 (pre)", "smoke: mg
/// restrict L1", …, "smoke: pressure rbgs red", …).
fn smoke_step(c: &mut Criterion) {
    use fogbook_smoke::params::PressureSolver;
    let headless =
        Headless::new(&fogbook_smoke::Smoke::new().requirements(), [64, 36]).unwrap_or_else(|e| panic!("{e:#}"));
    for n in [64u32, 128] {
        let mut group = c.benchmark_group(format!("smoke/step-{n}"));
        group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        for (name, solver) in [
            ("step", PressureSolver::Jacobi),
            ("step-red-black-gs", PressureSolver::RedBlackGs),
            ("step-multigrid", PressureSolver::Multigrid),
        ] {
            let mut smoke = Loaded::new(fogbook_smoke::Smoke::new());
            smoke.chapter.params.grid_size = n;
            smoke.chapter.params.pressure_iterations = 40;
            smoke.chapter.params.multigrid_cycles = 2;
            smoke.chapter.params.pressure_solver = solver;
            headless.prepare(&mut smoke).unwrap();
            let (smoke, state) = smoke.parts().unwrap();
            group.bench_function(name, |b| b.iter(|| run_now(&headless.gpu, |p| smoke.step(state, &headless.gpu, p))));
        }
        group.finish();
    }
}

/// One step of chapter 7's 2D warm-up (advect, forces, divergence, 60 pressure sweeps, project)
/// at 256² and 1024², with each solver, submitted and waited for.
fn smoke_2d_step(c: &mut Criterion) {
    use fogbook_smoke_2d::params::PressureSolver;
    let headless =
        Headless::new(&fogbook_smoke_2d::Smoke2d::new().requirements(), [64, 36]).unwrap_or_else(|e| panic!("{e:#}"));
    for n in [256u32, 1024] {
        let mut group = c.benchmark_group(format!("smoke-2d/step-{n}"));
        group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        for (name, solver) in [("step", PressureSolver::Jacobi), ("step-red-black-gs", PressureSolver::RedBlackGs)] {
            let mut smoke = Loaded::new(fogbook_smoke_2d::Smoke2d::new());
            smoke.chapter.params.grid_size = n;
            smoke.chapter.params.pressure_iterations = 60;
            smoke.chapter.params.pressure_solver = solver;
            headless.prepare(&mut smoke).unwrap();
            let (smoke, state) = smoke.parts().unwrap();
            group.bench_function(name, |b| b.iter(|| run_now(&headless.gpu, |p| smoke.step(state, &headless.gpu, p))));
        }
        group.finish();
    }
}

/// The sky's whole LUT precomputation (4 orders), submitted and waited for, at half and full
/// size. Per-pass GPU times come from `fogbook bench --chapters sky --set
/// precompute_every_frame=true`.
fn sky_precompute(c: &mut Criterion) {
    let headless = Headless::new(&fogbook_sky::Sky::new().requirements(), [64, 36]).unwrap_or_else(|e| panic!("{e:#}"));
    let resolutions = if checking_only() {
        vec![fogbook_sky::LutResolution::Half]
    } else {
        vec![fogbook_sky::LutResolution::Half, fogbook_sky::LutResolution::Full]
    };
    for resolution in resolutions {
        let mut sky = Loaded::new(fogbook_sky::Sky::new());
        sky.chapter.params.lut_resolution = resolution;
        headless.prepare(&mut sky).unwrap();
        let (sky, state) = sky.parts().unwrap();
        let mut group = c.benchmark_group(format!("sky/precompute-{resolution:?}").to_lowercase());
        group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        group.bench_function("luts", |b| b.iter(|| state.precompute_now(&sky.params, &headless.gpu)));
        group.finish();
    }
}

/// The clouds' noise textures made again (base shape, detail and its mips, weather map),
/// submitted and waited for, at full size (128³, 32³, 512²; the low size alone under `cargo
/// test`). Per-pass GPU times come from `fogbook bench --chapters sky,clouds --set
/// clouds.noise_every_frame=true`.
fn clouds_noise(c: &mut Criterion) {
    use fogbook_clouds::NoiseResolution;
    let headless =
        Headless::new(&fogbook_clouds::Clouds::new().requirements(), [64, 36]).unwrap_or_else(|e| panic!("{e:#}"));
    let resolutions =
        if checking_only() { vec![NoiseResolution::Low] } else { vec![NoiseResolution::Low, NoiseResolution::Full] };
    for resolution in resolutions {
        let mut clouds = Loaded::new(fogbook_clouds::Clouds::new());
        clouds.chapter.params.noise_resolution = resolution;
        headless.prepare(&mut clouds).unwrap();
        let (_, state) = clouds.parts().unwrap();
        let mut group = c.benchmark_group(format!("clouds/noise-{resolution:?}").to_lowercase());
        group.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
        group.bench_function("generate", |b| {
            b.iter(|| run_now(&headless.gpu, |p| state.noise.generate(&headless.gpu, p, 1, true)))
        });
        group.finish();
    }
}

criterion_group!(benches, frames, cpu_reference, smoke_step, smoke_2d_step, sky_precompute, clouds_noise);
criterion_main!(benches);
