//! Chapter 8's six-way relighting on chapter 7's simulated smoke: a frame of the plume, baked and
//! packed by the production path, relit by the six-way blend, against an independent f64 ray
//! march of the same volume under the same light (`fogbook_six_way::validation`).

use fogbook_core::timing::run_now;
use fogbook_core::{Chapter, Loaded};
use fogbook_six_way::card::{Dir, ViewAxis, to_card};
use fogbook_six_way::light::{FrameMaps, Medium, bake_frame};
use fogbook_six_way::reference::Medium64;
use fogbook_six_way::swizzle::Swizzle;
use fogbook_six_way::validation::march::march_card;
use fogbook_six_way::validation::texture::{Storage, packed_card};
use fogbook_six_way::validation::{self, Subject, axis_light, psnr_db};
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
/// 32³ grid, where its densest cells reach τ = 1.45, every view axis: each axis light relit from
/// the f16 atlases is at least 35 dB from the march, the front and back lights, which the bake
/// integrates exactly over each cell, at least 60 dB, and every diagonal light at least 10 dB
/// below the worst axis light. Taken at the cell's centre, the front light would be 35.5 to
/// 37.1 dB here and the back light 55.4 to 57.6 (`thick_cells_measured`).
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

/// The front and back maps of a frame baked with the light taken at each cell's centre,
/// T_k (1 − e^{−τ_k}) e^{−(S_k + τ_k/2)}: the rule the bake's in-cell integrals replace. With
/// `swapped`, the in-cell integrals instead, each given to the other light (a broken bake).
/// `card` is the density in the card frame (`to_card`); the production maps' front and back are
/// recomputed first with the bake's own integrals and must agree, which checks the addressing.
fn rebaked_front_and_back(n: usize, card: &[f32], medium: Medium, maps: &mut FrameMaps, swapped: bool) {
    let plane = n * n;
    let scale = medium.extinction * medium.cell_m;
    for column in 0..plane {
        let tau = |k: usize| scale * card[column + k * plane].max(0.0);
        let line: f32 = (0..n).map(tau).sum();
        let (mut t_view, mut before) = (1.0f32, 0.0f32);
        let (mut front, mut back, mut exact_front, mut exact_back) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        for k in 0..n {
            let t = tau(k);
            let (to_front, to_back) = ((-before).exp(), (-(line - before - t).max(0.0)).exp());
            let (in_front, in_back) = (-0.5 * (-2.0 * t).exp_m1(), t * (-t).exp());
            exact_front += t_view * to_front * in_front;
            exact_back += t_view * to_back * in_back;
            if swapped {
                front += t_view * to_front * in_back;
                back += t_view * to_back * in_front;
            } else {
                let centre = -(-t).exp_m1() * (-0.5 * t).exp();
                front += t_view * to_front * centre;
                back += t_view * to_back * centre;
            }
            t_view *= (-t).exp();
            before += t;
        }
        let (right, up) = (column % n, column / n);
        let pixel = right + (n - 1 - up) * n;
        for (d, exact, value) in [(Dir::Front, exact_front, front), (Dir::Back, exact_back, back)] {
            let baked = maps.lit[d.index()][pixel];
            assert!((baked - medium.albedo * exact).abs() <= 1e-5, "{d:?} at {pixel}: {baked} vs {exact}");
            maps.lit[d.index()][pixel] = medium.albedo * value;
        }
    }
}

/// Not a check: the figures of chapter 8's "Thick cells" paragraph. The lopsided blob, and the
/// plume of `relit_simulated_smoke_matches_an_independent_march` (90 steps) on the 32³ grid at
/// chapter 7's extinction and at 4/m (the baked figure's) and on the 64³ grid, every view axis:
/// the front and back lights' PSNR for the bake, for the light taken at the cell's centre, and
/// for the in-cell integrals swapped; and the bake against a march of 64 steps a cell.
/// `cargo test --release --test relight -- --ignored --nocapture`
#[test]
#[ignore]
fn thick_cells_measured() {
    let blob = (32, validation::lopsided_blob(32), validation::blob_medium(32));
    let (plume32, medium32) = simulated(32, 90);
    let (plume64, medium64) = simulated(64, 90);
    let subjects = [
        ("blob", blob),
        ("plume 32³", (32, plume32.clone(), medium32)),
        ("plume 32³, extinction 4/m", (32, plume32, Medium { extinction: 4.0, ..medium32 })),
        ("plume 64³", (64, plume64, medium64)),
    ];
    for (name, (n, density, medium)) in subjects {
        let m64 = Medium64 { extinction: medium.extinction as f64, cell_m: medium.cell_m as f64, albedo: 1.0 };
        let tau: Vec<f32> = density.iter().map(|&rho| rho.max(0.0) * medium.extinction * medium.cell_m).collect();
        let peak = tau.iter().cloned().fold(0.0f32, f32::max);
        let thick = tau.iter().filter(|&&t| t > 1.0).count();
        eprintln!("{name}: τ up to {peak:.2} a cell, {thick} of {} cells with τ > 1", tau.len());
        for view in [ViewAxis::Z, ViewAxis::X, ViewAxis::Y] {
            let subject = Subject { n, density: &density, view, medium };
            let card = to_card(n, &density, view);
            let baked = bake_frame(n, &card, None, medium);
            let (mut centre, mut swapped) = (baked.clone(), baked.clone());
            rebaked_front_and_back(n, &card, medium, &mut centre, false);
            rebaked_front_and_back(n, &card, medium, &mut swapped, true);
            let mut line = format!("  view {view:?}:");
            for (rule, maps) in [("bake", &baked), ("centre rule", &centre), ("swapped", &swapped)] {
                let packed = packed_card(maps, &Swizzle::default(), Storage::F16).unwrap();
                let [front, back] = [Dir::Front, Dir::Back].map(|d| subject.relit_psnr(&packed, axis_light(d)));
                line += &format!(" {rule} front {front:.1} back {back:.1};");
            }
            let packed = packed_card(&baked, &Swizzle::default(), Storage::F16).unwrap();
            let [front, back] = [Dir::Front, Dir::Back]
                .map(|d| psnr_db(&packed.relit(axis_light(d)), &march_card(n, &density, view, m64, axis_light(d), 64)));
            eprintln!("{line} bake against 64 steps a cell: front {front:.1} back {back:.1}");
        }
    }
}
