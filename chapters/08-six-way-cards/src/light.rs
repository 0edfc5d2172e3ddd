//! The production bake of one flipbook frame, in f32: the smoke seen along the card's `away`
//! axis, lit in turn from each of the six axis directions.
//!
//! The density is constant in each cell (chapter 7's cell-centred field), so a cell of density
//! \\(\rho\\) and side \\(\Delta x\\) has the optical depth \\(\tau = \sigma \rho \Delta x\\),
//! with \\(\sigma\\) the extinction per unit density (chapter 7's `extinction`, 1/m). Along a
//! view column of cells \\(k = 0, 1, \ldots\\) (the camera's side first):
//!
//! - the cell lets through \\(e^{-\tau_k}\\) and scatters or absorbs \\(o_k = 1 - e^{-\tau_k}\\)
//!   of what reaches it (exact for a constant cell, Hillaire's energy-conserving step);
//! - what reaches it from the camera's side is \\(T_k = \prod_{j<k} e^{-\tau_j}\\);
//! - \\(S^d_k\\) is the optical depth of the cells strictly between the cell and the light from
//!   direction \\(d\\). Along each axis one exclusive prefix sum \\(P\\) gives both sides:
//!   \\(S^- = P\\) and \\(S^+ = \text{total} - P - \tau\\).
//!
//! The light scattered towards the camera by cell k, per unit albedo, is \\(T_k e^{-S^d_k}
//! f_d(\tau_k)\\), with the cell's own part \\(f_d\\) integrated over the view ray through the
//! column's centre, s from 0 (the camera's face) to \\(\Delta x\\):
//!
//! - from a side (top, bottom, left, right) the light crosses the view ray at right angles, so
//!   every point of the ray inside the cell is half a cell from the cell's face on the light's
//!   side: \\(f = \int_0^{\Delta x} \sigma e^{-\sigma s} e^{-\tau/2} ds = o \, e^{-\tau/2}\\);
//! - from the front the light comes in through the camera's face and travels away from the
//!   camera, against the scattered light: both cross s of the cell,
//!   \\(f = \int_0^{\Delta x} \sigma e^{-2\sigma s} ds = (1 - e^{-2\tau})/2\\);
//! - from the back the light comes in through the far face and travels towards the camera with
//!   the scattered light: together they cross the whole cell wherever it scatters,
//!   \\(f = \int_0^{\Delta x} \sigma e^{-\sigma s} e^{-\sigma(\Delta x - s)} ds = \tau e^{-\tau}\\).
//!
//! Then the premultiplied single scattering from \\(d\\), alpha and emission are
//! \\(L_d = a \sum_k T_k e^{-S^d_k} f_d(\tau_k)\\), \\(\alpha = 1 - e^{-\sum_k \tau_k}\\) and
//! \\(E = \sum_k o_k T_k g_k\\), with albedo \\(a\\) and glow \\(g\\). The phase function is left
//! out (isotropic, folded into the light's intensity). Along the view column the front and back
//! sums telescope, whatever the densities: \\(L_F = a (1 - e^{-2\tau_c})/2 = a \alpha (2 - \alpha)/2\\)
//! and \\(L_K = a \tau_c e^{-\tau_c}\\), with \\(\tau_c = \sum_k \tau_k\\) the column's depth: the
//! exact single scattering of the cell-constant volume. The side lights keep the light's depth at
//! the column's centre, \\(S + \tau/2\\): their light crosses the view ray at right angles, so
//! its depth does not change along the ray inside a cell but across the cell's width, by the
//! cell's τ from one face to the other. At the centre, where the texel stands for the column and
//! where the reference march looks, it is exact; no closed form along the column changes that.

use crate::card::Dir;

/// The medium of a bake: what turns density into optical depth and scattering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Medium {
    /// σ: extinction per unit density (1/m).
    pub extinction: f32,
    /// Δx: the side of a cell (m).
    pub cell_m: f32,
    /// a: the single-scattering albedo (the fraction of extinction that scatters).
    pub albedo: f32,
}

/// One frame's maps at the grid's resolution, premultiplied by alpha: `n` × `n` texels, row 0 at
/// the top (the card's +up side), column 0 on the left.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameMaps {
    pub n: usize,
    /// The six lit maps, in the order of `Dir::ALL`.
    pub lit: [Vec<f32>; 6],
    pub alpha: Vec<f32>,
    pub emission: Vec<f32>,
}

impl FrameMaps {
    pub fn zero(n: usize) -> Self {
        let z = || vec![0.0; n * n];
        Self { n, lit: std::array::from_fn(|_| z()), alpha: z(), emission: z() }
    }
}

// ANCHOR: prefix
/// Exclusive prefix sums of `tau` along one card axis (`stride` 1: right, `n`: up), and the
/// total of each line: `before[c]` is the sum over the cells of c's line that come before c.
fn prefix_sums(tau: &[f32], n: usize, stride: usize) -> (Vec<f32>, Vec<f32>) {
    let mut before = vec![0.0; tau.len()];
    let mut total = vec![0.0; tau.len()];
    for start in 0..tau.len() {
        // A line starts at every cell whose coordinate along the axis is 0.
        if !(start / stride).is_multiple_of(n) {
            continue;
        }
        let mut sum = 0.0f32;
        for t in 0..n {
            let c = start + t * stride;
            before[c] = sum;
            sum += tau[c];
        }
        for t in 0..n {
            total[start + t * stride] = sum;
        }
    }
    (before, total)
}
// ANCHOR_END: prefix

/// Bakes one frame from the density in the card frame (`card::to_card`: right fastest, then up,
/// then away) and, for emission, the glow g in 0..1 per cell. The columns are independent: they
/// run on every core (each column's arithmetic is the same however they are split, so the result
/// is too).
pub fn bake_frame(n: usize, density: &[f32], glow: Option<&[f32]>, medium: Medium) -> FrameMaps {
    let scale = medium.extinction * medium.cell_m;
    let tau: Vec<f32> = density.iter().map(|&rho| scale * rho.max(0.0)).collect();
    let (before_right, line_right) = prefix_sums(&tau, n, 1);
    let (before_up, line_up) = prefix_sums(&tau, n, n);
    let sums = Sums {
        n,
        tau: &tau,
        before_right: &before_right,
        line_right: &line_right,
        before_up: &before_up,
        line_up: &line_up,
        glow,
    };
    let columns = in_parallel(n * n, |column| bake_column(&sums, column));
    let mut out = FrameMaps::zero(n);
    for (column, values) in columns.iter().enumerate() {
        let (right, up) = (column % n, column / n);
        let pixel = right + (n - 1 - up) * n;
        for (map, value) in out.lit.iter_mut().zip(&values[..6]) {
            map[pixel] = medium.albedo * value;
        }
        out.alpha[pixel] = values[6];
        out.emission[pixel] = values[7];
    }
    out
}

/// The optical depths of a frame and their prefix sums along right and up.
struct Sums<'a> {
    n: usize,
    tau: &'a [f32],
    before_right: &'a [f32],
    line_right: &'a [f32],
    before_up: &'a [f32],
    line_up: &'a [f32],
    glow: Option<&'a [f32]>,
}

// ANCHOR: bake_column
/// One view column (`right + up * n`): the six lit sums (before the albedo), alpha, emission.
fn bake_column(s: &Sums, column: usize) -> [f32; 8] {
    let (n, tau) = (s.n, s.tau);
    let plane = n * n;
    let line_away: f32 = (0..n).map(|k| tau[column + k * plane]).sum();
    let (mut t_view, mut before_away) = (1.0f32, 0.0f32);
    let mut out = [0.0f32; 8];
    for k in 0..n {
        let c = column + k * plane;
        let t = tau[c];
        if t > 0.0 {
            // The side lights: the light's depth to the ray through the cell, S + τ/2 (S⁻ = P,
            // S⁺ = total − P − τ), the same all along the ray inside the cell.
            let weight = -(-t).exp_m1() * t_view;
            let half = 0.5 * t;
            let side = |before: f32, line: f32, positive: bool| {
                let to_light = if positive { (line - before - half).max(0.0) } else { before + half };
                weight * (-to_light).exp()
            };
            for d in Dir::ALL {
                let (axis, positive) = d.card_side();
                out[d.index()] += match axis {
                    0 => side(s.before_right[c], s.line_right[c], positive),
                    1 => side(s.before_up[c], s.line_up[c], positive),
                    // Along the view: the exact integral over the cell of the light entering
                    // it after the cells strictly between, S.
                    _ if positive => t_view * (-(line_away - before_away - t).max(0.0)).exp() * t * (-t).exp(),
                    _ => t_view * (-before_away).exp() * (-0.5 * (-2.0 * t).exp_m1()),
                };
            }
            if let Some(g) = s.glow {
                out[7] += weight * g[c].clamp(0.0, 1.0);
            }
        }
        t_view *= (-t).exp();
        before_away += t;
    }
    out[6] = -(-before_away).exp_m1();
    out
}
// ANCHOR_END: bake_column

/// `f(0..count)`, split over the machine's cores (in order on the browser, which has no threads).
fn in_parallel<T: Copy + Default + Send>(count: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get()).min(count.max(1));
        if threads > 1 {
            let chunk = count.div_ceil(threads);
            let mut out = vec![T::default(); count];
            std::thread::scope(|scope| {
                for (i, slice) in out.chunks_mut(chunk).enumerate() {
                    let f = &f;
                    scope.spawn(move || {
                        for (j, v) in slice.iter_mut().enumerate() {
                            *v = f(i * chunk + j);
                        }
                    });
                }
            });
            return out;
        }
    }
    (0..count).map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_sums_are_exclusive_with_line_totals() {
        let n = 3;
        let tau: Vec<f32> = (0..27).map(|i| i as f32).collect();
        let (before, total) = prefix_sums(&tau, n, n);
        // The line through right 1, away 2: cells 1 + 3·up + 18.
        assert_eq!([before[19], before[22], before[25]], [0.0, 19.0, 41.0]);
        assert_eq!(total[22], 19.0 + 22.0 + 25.0);
    }

    // ANCHOR: one_cell_test
    #[test]
    fn one_cell_is_lit_by_its_closed_forms() {
        // A one-cell sheet facing the camera: nothing shadows it but the cell itself. From the
        // front and the back the in-cell integrals, (1 − e^{−2τ})/2 = α(2 − α)/2 and τe^{−τ};
        // from the sides the light at the centre, α e^{−τ/2}.
        let n = 4;
        let mut rho = vec![0.0; 64];
        rho[1 + 4 * 2] = 3.0; // right 1, up 2, away 0
        let m = Medium { extinction: 1.0, cell_m: 0.25, albedo: 0.8 };
        let f = bake_frame(n, &rho, None, m);
        let pixel = 1 + (n - 1 - 2) * n;
        let tau = 0.75f32;
        let alpha = 1.0 - (-tau).exp();
        assert!((f.alpha[pixel] - alpha).abs() < 1e-6);
        let lit = |d: Dir| f.lit[d.index()][pixel];
        assert!((lit(Dir::Front) - 0.8 * alpha * (2.0 - alpha) / 2.0).abs() < 1e-6, "{}", lit(Dir::Front));
        assert!((lit(Dir::Back) - 0.8 * tau * (-tau).exp()).abs() < 1e-6, "{}", lit(Dir::Back));
        for d in [Dir::Top, Dir::Bottom, Dir::Left, Dir::Right] {
            assert!((lit(d) - 0.8 * alpha * (-0.5 * tau).exp()).abs() < 1e-6, "{d:?} {}", lit(d));
        }
    }
    // ANCHOR_END: one_cell_test

    #[test]
    fn front_and_back_telescope_along_any_column() {
        // Along the view the bake is exact, whatever the densities: the front light of a column
        // of total depth τ_c is a(1 − e^{−2τ_c})/2 and the back light aτ_c e^{−τ_c}. A column of
        // thin, thick and empty cells (τ from 2·10⁻⁴ to 3).
        let n = 8;
        let depths = [0.3f32, 0.0002, 3.0, 0.0, 1.2, 0.05, 0.0007, 2.1];
        let mut rho = vec![0.0; n * n * n];
        for (k, &t) in depths.iter().enumerate() {
            rho[5 + n * 6 + n * n * k] = t / 0.5; // right 5, up 6
        }
        let m = Medium { extinction: 2.0, cell_m: 0.25, albedo: 0.7 };
        let f = bake_frame(n, &rho, None, m);
        let pixel = 5 + (n - 1 - 6) * n;
        let total: f64 = depths.iter().map(|&t| t as f64).sum();
        let front = 0.7 * (1.0 - (-2.0 * total).exp()) / 2.0;
        let back = 0.7 * total * (-total).exp();
        let (got_front, got_back) = (f.lit[Dir::Front.index()][pixel] as f64, f.lit[Dir::Back.index()][pixel] as f64);
        assert!((got_front - front).abs() < 1e-6, "front {got_front} vs {front}");
        assert!((got_back - back).abs() < 1e-6, "back {got_back} vs {back}");
    }
}
