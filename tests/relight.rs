//! Chapter 8's six-way relighting on chapter 7's simulated smoke: a frame of the plume, baked and
//! packed by the production path, relit by the six-way blend, against an independent f64 ray
//! march of the same volume under the same light (`fogbook_six_way::validation`).

use fogbook_core::timing::run_now;
use fogbook_core::{Chapter, Loaded};
use fogbook_six_way::card::{Dir, ViewAxis};
use fogbook_six_way::light::Medium;
use fogbook_six_way::validation::texture::Storage;
use fogbook_six_way::validation::{Subject, axis_light};
use fogbook_smoke::fields::FieldId;

/// The default plume on an `n`³ grid after `steps` steps on the GPU: its density and medium
/// (chapter 7's extinction, albedo 1).
fn simulated(n: usize, steps: u32) -> (Vec<f32>, Medium) {
    let mut smoke = Loaded::new(fogbook_smoke::Smoke::new());
    smoke.chapter.params.grid_size = n as u32;
    let headless = fogbook_core::headless::Headless::new(&smoke.chapter.requirements(), [16, 16]).unwrap();
    headless.prepare(&mut smoke).unwrap();
    let (chapter, state) = smoke.parts().unwrap();
    run_now(&headless.gpu, |passes| {
        for _ in 0..steps {
            chapter.step(state, &headless.gpu, passes);
        }
    });
    let fluid = state.download(&headless.gpu, FieldId::Fluid).unwrap();
    let p = &chapter.params;
    let medium = Medium { extinction: p.extinction, cell_m: p.box_size_m / n as f32, albedo: 1.0 };
    (fluid.chunks_exact(4).map(|c| c[3]).collect(), medium)
}

// ANCHOR: simulated
/// A frame of the plume as `fogbook bake` makes it (chapter 7's extinction of 1/m, 90 steps) on a
/// 32³ grid, where its densest cells reach τ = 1.45 (5 s of simulation on the software driver),
/// every view axis: each axis light relit from the f16 atlases is at least 35 dB from the march,
/// and every diagonal light at least 10 dB below the worst axis light. The thick cells are what
/// the front and back lights' exact in-cell integrals are for. (Before every batched step read
/// its own emitter noise, the same 90 steps made a denser plume, τ = 2.1, where taking the light
/// at the cell's centre put the front light at 33.0 to 35.0 dB.)
#[test]
fn relit_simulated_smoke_matches_an_independent_march() {
    let n = 32;
    let (density, medium) = simulated(n, 90);
    let peak_tau = density.iter().cloned().fold(0.0f32, f32::max) * medium.extinction * medium.cell_m;
    eprintln!("densest cell: τ = {peak_tau:.2}");
    assert!(peak_tau > 1.4, "the plume has thick cells: {peak_tau}");
    let (s, t) = (std::f64::consts::FRAC_1_SQRT_2, 1.0 / 3f64.sqrt());
    let diagonals = [[s, s, 0.0], [-s, 0.0, -s], [0.0, -s, s], [t, t, t], [-t, t, -t]];
    for view in [ViewAxis::Z, ViewAxis::X, ViewAxis::Y] {
        let subject = Subject { n, density: &density, view, medium };
        let card = subject.card(Storage::F16).unwrap();
        let axis: Vec<f64> = Dir::ALL.iter().map(|&d| subject.relit_psnr(&card, axis_light(d))).collect();
        let diagonal: Vec<f64> = diagonals.iter().map(|&l| subject.relit_psnr(&card, l)).collect();
        eprintln!("view {view:?}: PSNR (dB) axis lights (T, B, L, R, K, F) {axis:.1?}, diagonal {diagonal:.1?}");
        assert!(axis.iter().all(|&db| db >= 35.0), "{view:?}: {axis:?}");
        let worst_axis = axis.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!(diagonal.iter().all(|&db| db < worst_axis - 10.0), "{view:?}: {diagonal:?} vs {worst_axis}");
    }
}
// ANCHOR_END: simulated
