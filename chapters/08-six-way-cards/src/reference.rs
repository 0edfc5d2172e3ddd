//! f64 references for the bake, two of them.
//!
//! - `bake_frame_f64`: the same discretisation as `light::bake_frame` (cell-constant density,
//!   exact per-cell opacity; from the sides the light's optical depth to the cell's centre, from
//!   the front and back the exact integral over the cell), written independently of it: in the
//!   world's own grid, without reordering the volume into the card frame and without prefix sums
//!   (each light's optical depth is summed cell by cell, O(n⁴)). The production path must match
//!   it to f32 rounding.
//! - `march`: a brute-force ray march in continuous space of the same cell-constant volume:
//!   `steps` midpoint samples per cell along the view ray, and from each sample the exact
//!   optical depth to the light through the piecewise-constant grid. It shares no code with
//!   either bake; it converges to the exact single scattering of the volume, so it measures the
//!   bake's discretisation error, which closed forms give for a homogeneous box.

use crate::card::{Dir, ViewAxis};

/// The medium in f64 (see `light::Medium`).
#[derive(Clone, Copy, Debug)]
pub struct Medium64 {
    pub extinction: f64,
    pub cell_m: f64,
    pub albedo: f64,
}

/// Premultiplied maps of one frame (the layout of `light::FrameMaps`).
#[derive(Clone, Debug)]
pub struct Frame64 {
    pub n: usize,
    pub lit: [Vec<f64>; 6],
    pub alpha: Vec<f64>,
    pub emission: Vec<f64>,
}

/// The world cell (x, y, z) seen at image pixel (column, row), `k` cells from the camera's side.
pub fn world_cell(view: ViewAxis, n: usize, column: usize, row: usize, k: usize) -> [usize; 3] {
    let frame = view.frame();
    let card = [column, n - 1 - row, k];
    let mut w = [0; 3];
    for (a, t) in frame.iter().zip(card) {
        w[a.axis] = if a.positive { t } else { n - 1 - t };
    }
    w
}

fn index(n: usize, c: [usize; 3]) -> usize {
    c[0] + n * (c[1] + n * c[2])
}

// ANCHOR: bake_frame_f64
/// The bake of one frame in f64, in the world's grid (x fastest; `glow` likewise).
pub fn bake_frame_f64(n: usize, density: &[f32], glow: Option<&[f32]>, view: ViewAxis, m: Medium64) -> Frame64 {
    let tau = |c: [usize; 3]| m.extinction * m.cell_m * (density[index(n, c)] as f64).max(0.0);
    let mut out = Frame64 {
        n,
        lit: std::array::from_fn(|_| vec![0.0; n * n]),
        alpha: vec![0.0; n * n],
        emission: vec![0.0; n * n],
    };
    for row in 0..n {
        for column in 0..n {
            let pixel = column + row * n;
            let (mut depth_view, mut emission) = (0.0f64, 0.0f64);
            let mut lit = [0.0f64; 6];
            for k in 0..n {
                let c = world_cell(view, n, column, row, k);
                let t = tau(c);
                let weight = (1.0 - (-t).exp()) * (-depth_view).exp();
                for d in Dir::ALL {
                    // Walk from the cell towards the light, summing every cell on the way.
                    let step = d.towards_light_world(view);
                    let mut between = 0.0;
                    let mut p = [c[0] as i64, c[1] as i64, c[2] as i64];
                    loop {
                        for a in 0..3 {
                            p[a] += step[a] as i64;
                        }
                        if p.iter().any(|&x| x < 0 || x >= n as i64) {
                            break;
                        }
                        between += tau([p[0] as usize, p[1] as usize, p[2] as usize]);
                    }
                    lit[d.index()] += match d {
                        // Light along the view ray: ∫₀^τ e^{−u} e^{−u} du through the camera's
                        // face, ∫₀^τ e^{−u} e^{−(τ−u)} du through the far one.
                        Dir::Front => (-depth_view).exp() * (-between).exp() * -(-2.0 * t).exp_m1() / 2.0,
                        Dir::Back => (-depth_view).exp() * (-between).exp() * t * (-t).exp(),
                        // Across it: the depth at the cell's centre, the same all along the ray.
                        _ => weight * (-(between + 0.5 * t)).exp(),
                    };
                }
                if let Some(g) = glow {
                    emission += weight * (g[index(n, c)] as f64).clamp(0.0, 1.0);
                }
                depth_view += t;
            }
            for (map, value) in out.lit.iter_mut().zip(lit) {
                map[pixel] = m.albedo * value;
            }
            out.alpha[pixel] = 1.0 - (-depth_view).exp();
            out.emission[pixel] = emission;
        }
    }
    out
}
// ANCHOR_END: bake_frame_f64

// ANCHOR: march
/// Brute-force single scattering at one pixel (`[column, row]`): the premultiplied light scattered towards the
/// camera from a unit light shining from `dir`: midpoint ray marching with `steps` samples per
/// cell along the view ray, and from each sample the exact optical depth to the light.
pub fn march(
    n: usize,
    density: &[f32],
    view: ViewAxis,
    m: Medium64,
    dir: Dir,
    [column, row]: [usize; 2],
    steps: usize,
) -> f64 {
    // Positions in cell units, the grid spanning [0, n) on each world axis.
    let sigma_at = |p: [f64; 3]| {
        let c = p.map(|x| (x.floor().max(0.0) as usize).min(n - 1));
        m.extinction * (density[index(n, c)] as f64).max(0.0)
    };
    // The optical depth from p to the grid's face along an axis, exactly: the density is
    // constant in each cell, so the integral is a sum of σ × the length inside each cell.
    let depth_to_light = |p: [f64; 3], to_light: [f64; 3]| {
        let axis = (0..3).find(|&a| to_light[a] != 0.0).unwrap_or(0);
        let x = p[axis];
        let i = (x.floor().max(0.0) as usize).min(n - 1);
        let at = |cell: usize| {
            let mut q = p;
            q[axis] = cell as f64 + 0.5;
            sigma_at(q)
        };
        let (partial, cells) = if to_light[axis] > 0.0 { (i as f64 + 1.0 - x, i + 1..n) } else { (x - i as f64, 0..i) };
        (at(i) * partial + cells.map(at).sum::<f64>()) * m.cell_m
    };
    let frame = view.frame();
    // The pixel's centre on the camera's face, and the unit steps along away and to the light.
    let mut start = [0.0f64; 3];
    let card_pos = [column as f64 + 0.5, (n - 1 - row) as f64 + 0.5, 0.0];
    let mut away = [0.0f64; 3];
    for (a, t) in frame.iter().zip(card_pos) {
        start[a.axis] = if a.positive { t } else { n as f64 - t };
    }
    away[frame[2].axis] = if frame[2].positive { 1.0 } else { -1.0 };
    let to_light = dir.towards_light_world(view).map(|v| v as f64);
    let h = 1.0 / steps as f64; // step in cell units
    let (mut depth_view, mut radiance) = (0.0f64, 0.0f64);
    for i in 0..n * steps {
        let s = (i as f64 + 0.5) * h;
        let p: [f64; 3] = std::array::from_fn(|a| start[a] + away[a] * s);
        let sigma = sigma_at(p);
        let depth_light = depth_to_light(p, to_light);
        // Transmittance to the camera to the middle of this step, then this step's scattering.
        let dtau = sigma * h * m.cell_m;
        radiance += (-(depth_view + 0.5 * dtau)).exp() * dtau * (-depth_light).exp();
        depth_view += dtau;
    }
    m.albedo * radiance
}
// ANCHOR_END: march

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::to_card;
    use crate::light::{Medium, bake_frame};

    /// A smooth blob plus seeded noise: every optical depth from thin to thick.
    fn blob(n: usize, seed: u32) -> Vec<f32> {
        let mut state = seed.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
        let mut rand = || {
            state = state.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
            ((state >> 8) as f32) / (1u32 << 24) as f32
        };
        let c = (n as f32 - 1.0) / 2.0;
        let mut v = Vec::with_capacity(n * n * n);
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let r2 = [x, y, z].iter().map(|&i| ((i as f32 - c) / (0.35 * n as f32)).powi(2)).sum::<f32>();
                    let shape = (1.0 - r2).max(0.0);
                    // Off-centre in y, so that top and bottom light differ.
                    let lift = 0.3 + 1.7 * (y as f32 / n as f32);
                    v.push(4.0 * shape * lift * (0.5 + rand()));
                }
            }
        }
        v
    }

    fn homogeneous_box(n: usize, lo: [usize; 3], hi: [usize; 3], rho: f32) -> Vec<f32> {
        let mut v = vec![0.0; n * n * n];
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                for x in lo[0]..hi[0] {
                    v[index(n, [x, y, z])] = rho;
                }
            }
        }
        v
    }

    const M32: Medium = Medium { extinction: 2.0, cell_m: 0.1, albedo: 0.9 };
    const M64: Medium64 = Medium64 { extinction: 2.0, cell_m: 0.1, albedo: 0.9 };

    // ANCHOR: production_vs_f64
    /// The production bake (f32, prefix sums, the card frame) against the f64 bake (world grid,
    /// direct sums) on a 24³ noisy blob, every view axis, every map (measured: 2.8e-7). The
    /// tolerance: each f32 operation rounds by ≤ 6e-8 relative; a map is a sum of ≤ 24 terms,
    /// each a product of a few exponentials of sums of ≤ 24 optical depths, and the light's
    /// depth from the far side is a difference (total − prefix) that can lose a few ulps of the
    /// line's total, so ~30 roundings of values ≤ 1 bound it near 2e-6 — 2000 times below an
    /// 8-bit step. A wrong half-cell term, axis or sign is 1e-3 or more.
    #[test]
    fn production_bake_matches_the_f64_bake() {
        let n = 24;
        let rho = blob(n, 7);
        let glow: Vec<f32> = rho.iter().map(|r| (r / 4.0).min(1.0)).collect();
        let mut worst = 0.0f64;
        for view in [ViewAxis::X, ViewAxis::Y, ViewAxis::Z] {
            let got = bake_frame(n, &to_card(n, &rho, view), Some(&to_card(n, &glow, view)), M32);
            let want = bake_frame_f64(n, &rho, Some(&glow), view, M64);
            let mut planes: Vec<(&[f32], &[f64])> = vec![(&got.alpha, &want.alpha), (&got.emission, &want.emission)];
            for d in 0..6 {
                planes.push((&got.lit[d], &want.lit[d]));
            }
            for (g, w) in planes {
                for (a, b) in g.iter().zip(w) {
                    worst = worst.max((*a as f64 - b).abs());
                }
            }
        }
        eprintln!("largest |f32 bake − f64 bake|: {worst:.3e}");
        assert!(worst < 2e-6, "{worst}");
    }
    // ANCHOR_END: production_vs_f64

    /// The six maps really differ on the blob (a bake that wrote one map six times would pass
    /// the comparisons above only if the reference did the same).
    #[test]
    fn the_six_maps_differ_where_the_smoke_is_lopsided() {
        let n = 16;
        let rho = blob(n, 3);
        let f = bake_frame_f64(n, &rho, None, ViewAxis::Z, M64);
        let sum = |d: Dir| f.lit[d.index()].iter().sum::<f64>();
        // The blob is denser higher up: light from above is shadowed more.
        assert!(sum(Dir::Bottom) > 1.05 * sum(Dir::Top), "{} {}", sum(Dir::Bottom), sum(Dir::Top));
    }

    /// The brute-force march against closed forms, and the production bake against both, for a
    /// homogeneous box of D = 8 cells along the view with the light along an axis, thin cells
    /// (τ = 0.3) and thick (τ = 2.1). With σ = σ_ρ ρ, the exact single scattering is
    /// front (the camera's side): a/2 (1 − e^{−2σD}); back: a σD e^{−σD};
    /// side, h of smoke between the column and the light: a e^{−σh} (1 − e^{−σD}).
    /// The bake meets all three to f32 rounding: its front and back lights are the exact in-cell
    /// integrals, and the side light at the column's centre is exact. Taking the light at the
    /// cell's centre from the front and back as well would be × 1/cosh(τ/2) and × 2 sinh(τ/2)/τ
    /// (0.98885 and 1.00375 at τ = 0.3, 0.62352 and 1.19415 at τ = 2.1): the test allows 10⁻⁵.
    // ANCHOR: closed_form
    #[test]
    fn march_and_bake_against_closed_forms() {
        let n = 16;
        let (lo, hi) = ([4, 4, 4], [12, 12, 12]);
        let (column, row) = (6, 16 - 1 - 9); // right 6, up 9: inside the box
        let a = 0.9;
        for (rho, steps) in [(1.5f32, 64), (10.5, 512)] {
            let v = homogeneous_box(n, lo, hi, rho);
            let sigma = 2.0 * rho as f64; // 1/m
            let depth = 8.0 * 0.1; // m
            let tau = sigma * 0.1;
            let front = a / 2.0 * (1.0 - (-2.0 * sigma * depth).exp());
            let back = a * sigma * depth * (-sigma * depth).exp();
            // Light from the right (+x in view z): the smoke from the cell centre at x = 6.5 to 12.
            let side = a * (-sigma * 5.5 * 0.1).exp() * (1.0 - (-sigma * depth).exp());
            let baked = bake_frame(n, &to_card(n, &v, ViewAxis::Z), None, M32);
            let pixel = column + row * n;
            let centre_rule = [1.0 / (tau / 2.0).cosh(), 2.0 * (tau / 2.0).sinh() / tau, 1.0];
            for ((d, exact), centre) in
                [(Dir::Front, front), (Dir::Back, back), (Dir::Right, side)].into_iter().zip(centre_rule)
            {
                let marched = march(n, &v, ViewAxis::Z, M64, d, [column, row], steps);
                let bake = baked.lit[d.index()][pixel] as f64;
                eprintln!(
                    "τ {tau:.1}, {d:?}: exact {exact:.6e}, march {marched:.6e}, bake {bake:.6e} (the centre rule: × {centre:.5})"
                );
                // The march's midpoint rule: error ≈ (2τ/steps)²/24 relative, ≤ 4e-6 here.
                assert!((marched - exact).abs() < 1e-5 * exact, "τ {tau}, {d:?}: march {marched} vs {exact}");
                // f32 rounding: ~10⁻⁶ relative.
                assert!((bake - exact).abs() < 1e-5 * exact, "τ {tau}, {d:?}: bake {bake} vs {exact}");
            }
        }
    }
    // ANCHOR_END: closed_form

    // ANCHOR: bake_vs_march
    /// The production bake against the brute-force march on a voxelised sphere, every direction,
    /// a band of pixels across it. Both are exact single scattering of the same cell-constant
    /// volume along the ray through the column's centre, so what is left is the march's own
    /// midpoint rule at 16 steps a cell: ≈ (2τ/16)²/24 = 6e-5 relative for the front light with
    /// τ = 0.3 a cell, of values ≤ 0.5: 3e-5 absolute. The test allows 10⁻⁴; the light taken at
    /// each cell's centre from the front, too, would be 5e-3 off.
    #[test]
    fn bake_matches_an_independent_march_on_a_sphere() {
        let n = 16;
        let mut v = vec![0.0f32; n * n * n];
        let c = 7.5;
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let r2 = [x, y, z].iter().map(|&i| (i as f64 - c).powi(2)).sum::<f64>();
                    if r2 < 36.0 {
                        v[index(n, [x, y, z])] = 1.5;
                    }
                }
            }
        }
        for view in [ViewAxis::Z, ViewAxis::Y] {
            let baked = bake_frame(n, &to_card(n, &v, view), None, M32);
            let mut worst = 0.0f64;
            for column in (2..14).step_by(3) {
                let row = 8;
                for d in Dir::ALL {
                    let marched = march(n, &v, view, M64, d, [column, row], 16);
                    let bake = baked.lit[d.index()][column + row * n] as f64;
                    worst = worst.max((bake - marched).abs());
                }
            }
            eprintln!("view {view:?}: largest |bake − march| {worst:.3e}");
            assert!(worst < 1e-4, "{view:?}: {worst}");
        }
    }
    // ANCHOR_END: bake_vs_march
}
