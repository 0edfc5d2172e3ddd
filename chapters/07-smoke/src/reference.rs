//! CPU references for the smoke solver, in f64: the Jacobi convergence rate of the slowest
//! pressure mode, the exact dissipation law, and the discrete operators used to check the
//! projection identities.

// ANCHOR: jacobi_rate
/// Residual reduction per Jacobi sweep of the slowest mode of a closed n³ box (Neumann walls):
/// the mode cos(π(i + ½)/n) is an eigenvector of the sweep with eigenvalue (2 + cos(π/n)) / 3.
pub fn jacobi_slowest_rate(n: usize) -> f64 {
    (2.0 + (std::f64::consts::PI / n as f64).cos()) / 3.0
}

/// Sweeps needed to reduce that mode tenfold.
pub fn sweeps_per_decade(n: usize) -> f64 {
    (0.1f64).ln() / jacobi_slowest_rate(n).ln()
}
// ANCHOR_END: jacobi_rate

/// Total density after `steps` steps of ρ ← ρ / (1 + k dt) with no sources and no motion.
pub fn dissipated_total(total0: f64, k: f64, dt: f64, steps: u32) -> f64 {
    total0 / (1.0 + k * dt).powi(steps as i32)
}

/// Index of cell (x, y, z) in an n³ array, x fastest.
pub fn idx(n: usize, x: usize, y: usize, z: usize) -> usize {
    x + n * (y + n * z)
}

/// Residual ‖d − ∇²q‖₂ on the 7-point stencil with Neumann walls (ghost = neighbour inside), h = 1.
pub fn residual_norm(n: usize, q: &[f32], d: &[f32], h: f64) -> f64 {
    let at = |x: isize, y: isize, z: isize| {
        let c = |v: isize| v.clamp(0, n as isize - 1) as usize;
        q[idx(n, c(x), c(y), c(z))] as f64
    };
    let mut sum = 0.0;
    for z in 0..n as isize {
        for y in 0..n as isize {
            for x in 0..n as isize {
                let lap = (at(x + 1, y, z)
                    + at(x - 1, y, z)
                    + at(x, y + 1, z)
                    + at(x, y - 1, z)
                    + at(x, y, z + 1)
                    + at(x, y, z - 1)
                    - 6.0 * at(x, y, z))
                    / (h * h);
                let r = d[idx(n, x as usize, y as usize, z as usize)] as f64 - lap;
                sum += r * r;
            }
        }
    }
    sum.sqrt()
}

/// The slowest Neumann mode of the pressure equation along x: cos(π(x + ½)/n), constant in y, z.
pub fn slowest_mode(n: usize) -> Vec<f32> {
    let mut v = vec![0.0f32; n * n * n];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                v[idx(n, x, y, z)] = (std::f64::consts::PI * (x as f64 + 0.5) / n as f64).cos() as f32;
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowest_mode_is_an_eigenvector_of_the_sweep() {
        // One CPU Jacobi sweep on q with right-hand side 0 scales the mode by the rate.
        let n = 12;
        let q = slowest_mode(n);
        let zero = vec![0.0f32; n * n * n];
        let at = |x: isize, y: isize, z: isize| {
            let c = |v: isize| v.clamp(0, n as isize - 1) as usize;
            q[idx(n, c(x), c(y), c(z))] as f64
        };
        let rate = jacobi_slowest_rate(n);
        for (x, y, z) in [(0, 0, 0), (5, 3, 7), (11, 11, 11)] {
            let (x, y, z) = (x as isize, y as isize, z as isize);
            let next = (at(x + 1, y, z)
                + at(x - 1, y, z)
                + at(x, y + 1, z)
                + at(x, y - 1, z)
                + at(x, y, z + 1)
                + at(x, y, z - 1))
                / 6.0;
            assert!((next - rate * at(x, y, z)).abs() < 1e-6);
        }
        assert!(residual_norm(n, &zero, &zero, 1.0) == 0.0);
    }

    #[test]
    fn slow_convergence_numbers_match_the_reference() {
        // About 23 000 sweeps per decade at 128³.
        let s = sweeps_per_decade(128);
        assert!((s - 22_900.0).abs() < 300.0, "{s}");
    }

    #[test]
    fn dissipation_law() {
        assert!((dissipated_total(1.0, 1.0, 0.5, 2) - 1.0 / 2.25).abs() < 1e-15);
    }
}
