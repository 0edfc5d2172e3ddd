//! Chapter 8's six-way relighting on chapter 7's simulated smoke: a frame of the plume, baked and
//! packed by the production path, relit by the six-way blend, against an independent f64 ray
//! march of the same volume under the same light (`fogbook_six_way::validation`).

mod plume;

use fogbook_six_way::card::{Dir, ViewAxis};
use fogbook_six_way::validation::texture::Storage;
use fogbook_six_way::validation::{Subject, axis_light};
use plume::simulated;

// ANCHOR: simulated
/// A frame of the plume as `fogbook bake` makes it (chapter 7's extinction of 1/m, 90 steps) on a
/// 32³ grid, where its densest cells reach τ = 1.45, every view axis: each axis light relit from
/// the f16 atlases is at least 35 dB from the march, the front and back lights, which the bake
/// integrates exactly over each cell, at least 60 dB, and every diagonal light at least 10 dB
/// below the worst axis light. Taken at the cell's centre, the front light would be 35.5 to
/// 37.1 dB here and the back light 55.4 to 57.6 (`cargo xtask measure six-way-thick-cells`).
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
        let along_view = [axis[Dir::Front.index()], axis[Dir::Back.index()]];
        assert!(along_view.iter().all(|&db| db >= 60.0), "{view:?}: front and back {along_view:?}");
        let worst_axis = axis.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!(diagonal.iter().all(|&db| db < worst_axis - 10.0), "{view:?}: {diagonal:?} vs {worst_axis}");
    }
}
// ANCHOR_END: simulated
