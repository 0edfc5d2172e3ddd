//! The pressure equation ∇²q = f on the cell-centred grid in f64: the stencil with its ghost
//! cells, Jacobi and red–black Gauss–Seidel sweeps as the shaders do them, the residual, and
//! the theory of the sweeps' convergence on the slowest modes.

/// q of cell (i, j) or of a ghost (common.wgsl's `q_at`).
pub fn q_at(n: usize, q: &[f64], i: i64, j: i64, open: bool) -> f64 {
    let m = n as i64;
    let inside = q[(i.clamp(0, m - 1) + m * j.clamp(0, m - 1)) as usize];
    if open && j >= m { -inside } else { inside }
}

// ANCHOR: stencil
/// Σ of the neighbours and the diagonal d of cell (i, j) (poisson.wgsl): h² ∇²q = Σ − d q.
pub fn stencil(n: usize, q: &[f64], i: i64, j: i64, open: bool) -> (f64, f64) {
    let top = open && j == n as i64 - 1;
    let mut sum = q_at(n, q, i - 1, j, open) + q_at(n, q, i + 1, j, open) + q_at(n, q, i, j - 1, open);
    if !top {
        sum += q_at(n, q, i, j + 1, open);
    }
    (sum, if top { 5.0 } else { 4.0 })
}
// ANCHOR_END: stencil

/// One Jacobi sweep (jacobi.wgsl).
pub fn jacobi_sweep(n: usize, q: &[f64], f: &[f64], h: f64, open: bool) -> Vec<f64> {
    let mut out = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            let (sum, d) = stencil(n, q, i as i64, j as i64, open);
            out[i + n * j] = (sum - h * h * f[i + n * j]) / d;
        }
    }
    out
}

/// One red–black Gauss–Seidel sweep with over-relaxation ω (rbgs.wgsl): red cells, then black.
pub fn rbgs_sweep(n: usize, q: &mut [f64], f: &[f64], h: f64, open: bool, omega: f64) {
    for colour in 0..2 {
        let old = q.to_vec();
        for j in 0..n {
            for i in 0..n {
                if (i + j) % 2 == colour {
                    let (sum, d) = stencil(n, &old, i as i64, j as i64, open);
                    let k = i + n * j;
                    q[k] += omega * ((sum - h * h * f[k]) / d - q[k]);
                }
            }
        }
    }
}

/// ‖f − ∇²q‖₂ on the solvers' stencil.
pub fn residual_norm(n: usize, q: &[f64], f: &[f64], h: f64, open: bool) -> f64 {
    let mut sum = 0.0;
    for j in 0..n {
        for i in 0..n {
            let (s, d) = stencil(n, q, i as i64, j as i64, open);
            let r = f[i + n * j] - (s - d * q[i + n * j]) / (h * h);
            sum += r * r;
        }
    }
    sum.sqrt()
}

// ANCHOR: theory
/// The slowest mode of the closed square, cos(π(i + ½)/n), constant in y: with the ghosts
/// copying the cells inside it is an eigenvector of the discrete Laplacian, with eigenvalue
/// −(2 − 2cos(π/n))/h².
pub fn slowest_mode(n: usize) -> Vec<f64> {
    let pi = std::f64::consts::PI;
    (0..n * n).map(|k| (pi * ((k % n) as f64 + 0.5) / n as f64).cos()).collect()
}

/// The diagonal mode cos(π(i + ½)/n) cos(π(j + ½)/n), eigenvalue −(4 − 4cos(π/n))/h².
pub fn diagonal_mode(n: usize) -> Vec<f64> {
    let pi = std::f64::consts::PI;
    let c = |i: usize| (pi * (i as f64 + 0.5) / n as f64).cos();
    (0..n * n).map(|k| c(k % n) * c(k / n)).collect()
}

/// A Jacobi sweep is q ← q + (h²/4)(∇²q − f): the error of a mode with Laplacian eigenvalue
/// −λ/h² shrinks by 1 − λ/4 per sweep. For the slowest mode λ = 2 − 2cos(π/n):
/// (1 + cos(π/n)) / 2. For the diagonal mode λ = 4 − 4cos(π/n): cos(π/n).
pub fn jacobi_slowest_rate(n: usize) -> f64 {
    (1.0 + (std::f64::consts::PI / n as f64).cos()) / 2.0
}

pub fn jacobi_diagonal_rate(n: usize) -> f64 {
    (std::f64::consts::PI / n as f64).cos()
}

/// Young (1954): for a red–black ordered 5-point problem a Gauss–Seidel sweep keeps μ² where a
/// Jacobi sweep keeps μ.
pub fn gauss_seidel_slowest_rate(n: usize) -> f64 {
    jacobi_slowest_rate(n).powi(2)
}

/// Young's optimal over-relaxation, 2 / (1 + √(1 − μ²)) with μ the slowest Jacobi rate: then the
/// error shrinks by ω − 1 a sweep. (2 / (1 + sin(π/n)), the usual formula, is the same thing for
/// the Dirichlet model problem, where μ = cos(π/n).)
pub fn optimal_sor_omega(n: usize) -> f64 {
    let mu = jacobi_slowest_rate(n);
    2.0 / (1.0 + (1.0 - mu * mu).sqrt())
}
// ANCHOR_END: theory

#[cfg(test)]
mod tests {
    use super::*;

    /// The modes are eigenvectors of the sweep: one Jacobi sweep on f = ∇²-image of zero, from
    /// q = mode, multiplies it by the rate exactly.
    #[test]
    fn the_modes_shrink_at_their_rates() {
        let n = 16;
        let zero = vec![0.0; n * n];
        for (mode, rate) in [(slowest_mode(n), jacobi_slowest_rate(n)), (diagonal_mode(n), jacobi_diagonal_rate(n))] {
            let next = jacobi_sweep(n, &mode, &zero, 1.0, false);
            for (a, b) in next.iter().zip(&mode) {
                assert!((a - rate * b).abs() < 1e-12, "{a} vs {}", rate * b);
            }
        }
    }
}
