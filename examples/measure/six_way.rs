//! The six-way page's thick-cell numbers: how the bake's in-cell integrals of the front and back
//! lights compare with the light taken at each cell's centre, on the blob and the simulated plume.

use crate::plume::simulated;
use fogbook_six_way::card::{Dir, ViewAxis, to_card};
use fogbook_six_way::light::{FrameMaps, Medium, bake_frame};
use fogbook_six_way::reference::Medium64;
use fogbook_six_way::swizzle::Swizzle;
use fogbook_six_way::validation::march::march_card;
use fogbook_six_way::validation::texture::{Storage, packed_card};
use fogbook_six_way::validation::{self, Subject, axis_light, psnr_db};

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

/// The numbers of the six-way page's "Thick cells" paragraph. The lopsided blob, and the
/// plume of `relit_simulated_smoke_matches_an_independent_march` (90 steps) on the 32³ grid at
/// chapter 7's extinction and at 4/m (the baked figure's) and on the 64³ grid, every view axis:
/// the front and back lights' PSNR for the bake, for the light taken at the cell's centre, and
/// for the in-cell integrals swapped; and the bake against a march of 64 steps a cell.
pub fn thick_cells() {
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
        println!("{name}: τ up to {peak:.2} a cell, {thick} of {} cells with τ > 1", tau.len());
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
            println!("{line} bake against 64 steps a cell: front {front:.1} back {back:.1}");
        }
    }
}
