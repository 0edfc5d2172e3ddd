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

// ANCHOR: jacobi_cpu
/// One Jacobi sweep of ∇²q = d in f64, exactly as `jacobi.wgsl` does it in f32:
/// q′ = (Σ₆ q_neighbour − h² d) / 6, a neighbour outside the box clamped to the cell inside
/// (Neumann walls). Returns ‖d − ∇²q‖₂ of the *input* q on the same 7-point stencil, which the
/// sweep gets for free: q′ − q = −(h²/6)(d − ∇²q), so the residual is −6/h² times the update.
pub fn jacobi_sweep(n: usize, q: &[f64], d: &[f64], h: f64, out: &mut [f64]) -> f64 {
    let (h2, mut sum) = (h * h, 0.0);
    let (down, up) = (|v: usize| v.saturating_sub(1), |v: usize| (v + 1).min(n - 1));
    for z in 0..n {
        for y in 0..n {
            let row = |y: usize, z: usize| n * (y + n * z);
            let (r, ry0, ry1, rz0, rz1) = (row(y, z), row(down(y), z), row(up(y), z), row(y, down(z)), row(y, up(z)));
            for x in 0..n {
                let s = q[r + down(x)] + q[r + up(x)] + q[ry0 + x] + q[ry1 + x] + q[rz0 + x] + q[rz1 + x];
                let next = (s - h2 * d[r + x]) / 6.0;
                let residual = -6.0 / h2 * (next - q[r + x]);
                sum += residual * residual;
                out[r + x] = next;
            }
        }
    }
    sum.sqrt()
}
// ANCHOR_END: jacobi_cpu

/// Central-difference divergence of a cell-centred velocity (x fastest), with the free-slip ghost
/// cells of `common.wgsl`: a neighbour outside the box is the cell inside with the velocity
/// component normal to that wall negated.
pub fn divergence(n: usize, u: &[[f64; 3]], h: f64) -> Vec<f64> {
    let component = |c: [usize; 3], axis: usize, step: isize| {
        let mut at = c;
        let v = c[axis] as isize + step;
        at[axis] = v.clamp(0, n as isize - 1) as usize;
        let value = u[idx(n, at[0], at[1], at[2])][axis];
        if v < 0 || v >= n as isize { -value } else { value }
    };
    let mut div = vec![0.0; n * n * n];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let c = [x, y, z];
                let sum: f64 = (0..3).map(|a| component(c, a, 1) - component(c, a, -1)).sum();
                div[idx(n, x, y, z)] = sum / (2.0 * h);
            }
        }
    }
    div
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
    fn cpu_sweep_shrinks_the_slowest_mode_by_the_rate() {
        // With the slowest mode as the right-hand side and q = 0, the residual after m sweeps is
        // exactly rate^m times the first: the mode is an eigenvector of the sweep.
        let (n, h) = (12, 0.25);
        let d: Vec<f64> = slowest_mode(n).iter().map(|&v| v as f64).collect();
        let (mut q, mut next) = (vec![0.0; n * n * n], vec![0.0; n * n * n]);
        let mut residuals = Vec::new();
        for _ in 0..20 {
            residuals.push(jacobi_sweep(n, &q, &d, h, &mut next));
            std::mem::swap(&mut q, &mut next);
        }
        let rate = jacobi_slowest_rate(n);
        for (m, r) in residuals.iter().enumerate() {
            let expected = residuals[0] * rate.powi(m as i32);
            assert!((r - expected).abs() < 1e-12 * residuals[0], "sweep {m}: {r} against {expected}");
        }
        // The free residual is the residual: compare with the direct 7-point evaluation.
        let q32: Vec<f32> = q.iter().map(|&v| v as f32).collect();
        let d32: Vec<f32> = d.iter().map(|&v| v as f32).collect();
        let direct = residual_norm(n, &q32, &d32, h);
        let free = jacobi_sweep(n, &q, &d, h, &mut next);
        assert!((direct - free).abs() < 1e-5 * free, "{direct} against {free}");
    }

    #[test]
    fn free_slip_divergence_sums_to_zero() {
        // Mirrored ghost cells make the central differences telescope: no net source in the box,
        // which is what makes the Neumann pressure equation solvable.
        let n = 10;
        let u: Vec<[f64; 3]> =
            (0..n * n * n).map(|i| [(i as f64 * 0.37).sin(), (i as f64 * 0.11).cos(), (i % 7) as f64 - 3.0]).collect();
        let div = divergence(n, &u, 0.5);
        let total: f64 = div.iter().sum();
        let scale: f64 = div.iter().map(|v| v.abs()).sum();
        assert!(total.abs() < 1e-12 * scale, "{total}");
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
