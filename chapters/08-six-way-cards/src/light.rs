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
//! - the light reaching the cell from direction \\(d\\) is \\(e^{-\tau^d_k}\\), the optical depth
//!   of every cell between the cell and the light plus half the cell's own (the light is taken
//!   at the cell's centre): \\(\tau^d_k = S^d_k + \tfrac12 \tau_k\\), where \\(S^d_k\\) is the
//!   sum of \\(\tau\\) over the cells strictly between. Along each axis one exclusive prefix sum
//!   \\(P\\) gives both sides: \\(S^- = P\\) and \\(S^+ = \text{total} - P - \tau\\).
//!
//! Then the premultiplied single scattering from \\(d\\), alpha and emission are
//! \\(L_d = a \sum_k o_k T_k e^{-\tau^d_k}\\), \\(\alpha = 1 - e^{-\sum_k \tau_k}\\) and
//! \\(E = \sum_k o_k T_k g_k\\), with albedo \\(a\\) and glow \\(g\\). The phase function is left
//! out (isotropic, folded into the light's intensity): a column lit without any shadow gives
//! \\(L = a\alpha\\), because \\(\sum_k o_k T_k = 1 - \prod_k e^{-\tau_k}\\) telescopes.

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

// ANCHOR: bake_frame
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

/// One view column (`right + up * n`): the six lit sums (before the albedo), alpha, emission.
fn bake_column(s: &Sums, column: usize) -> [f32; 8] {
    let (n, tau) = (s.n, s.tau);
    let plane = n * n;
    let line_away: f32 = (0..n).map(|k| tau[column + k * plane]).sum();
    let (mut t_view, mut before_away) = (1.0f32, 0.0f32);
    let mut out = [0.0f32; 8];
    for k in 0..n {
        let c = column + k * plane;
        let half = 0.5 * tau[c];
        let weight = -(-tau[c]).exp_m1() * t_view;
        if weight > 0.0 {
            // Optical depth to the light on each side: S⁻ + τ/2 and total − S⁻ − τ/2.
            let depth = |before: f32, line: f32, positive: bool| {
                if positive { (line - before - half).max(0.0) } else { before + half }
            };
            for d in Dir::ALL {
                let (axis, positive) = d.card_side();
                let tau_light = match axis {
                    0 => depth(s.before_right[c], s.line_right[c], positive),
                    1 => depth(s.before_up[c], s.line_up[c], positive),
                    _ => depth(before_away, line_away, positive),
                };
                out[d.index()] += weight * (-tau_light).exp();
            }
            if let Some(g) = s.glow {
                out[7] += weight * g[c].clamp(0.0, 1.0);
            }
        }
        t_view *= (-tau[c]).exp();
        before_away += tau[c];
    }
    out[6] = -(-before_away).exp_m1();
    out
}
// ANCHOR_END: bake_frame

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

    #[test]
    fn unshadowed_light_gives_albedo_times_alpha() {
        // A one-cell-thick sheet facing the camera, lit from the front: nothing shadows it but
        // its own half cell.
        let n = 4;
        let mut rho = vec![0.0; 64];
        rho[1 + 4 * 2] = 3.0; // right 1, up 2, away 0
        let m = Medium { extinction: 1.0, cell_m: 0.25, albedo: 0.8 };
        let f = bake_frame(n, &rho, None, m);
        let pixel = 1 + (n - 1 - 2) * n;
        let tau = 0.75f32;
        assert!((f.alpha[pixel] - (1.0 - (-tau).exp())).abs() < 1e-6);
        let front = f.lit[Dir::Front.index()][pixel];
        assert!((front - 0.8 * f.alpha[pixel] * (-0.5 * tau).exp()).abs() < 1e-6);
    }
}
