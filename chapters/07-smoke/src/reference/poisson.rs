//! f64 references of the faster pressure solvers, on the discretisation of `jacobi.wgsl`:
//! red–black Gauss–Seidel with over-relaxation (SOR), and a geometric multigrid V-cycle
//! (Briggs, Henson and McCormick 2000, *A Multigrid Tutorial*; Trottenberg, Oosterlee and
//! Schüller 2001, *Multigrid*). The GPU passes (`rbgs.wgsl`, `restrict.wgsl`, `prolong.wgsl`)
//! do the same arithmetic in f32, in the same order.

use super::idx;

// ANCHOR: level
/// One grid of the pressure equation ∇²q = f: n³ cells of size h, Neumann walls (a ghost cell
/// copies its neighbour inside), and with `open_top` a Dirichlet face q = 0 above the top row
/// (the ghost holds −q). Row-major, x fastest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub n: usize,
    pub h: f64,
    pub open_top: bool,
}

impl Level {
    pub fn cells(&self) -> usize {
        self.n * self.n * self.n
    }

    /// Σ of the six neighbours (ghosts by the boundary rules) and the diagonal d of the stencil:
    /// h² ∇²q = Σ − d q, with d = 6, or 7 in the top row under an open top (the ghost there is
    /// −q, which moves one q from the sum to the diagonal).
    pub fn stencil(&self, q: &[f64], x: usize, y: usize, z: usize) -> (f64, f64) {
        let n = self.n;
        let (down, up) = (|v: usize| v.saturating_sub(1), |v: usize| (v + 1).min(n - 1));
        let top = self.open_top && y == n - 1;
        let above = if top { 0.0 } else { q[idx(n, x, up(y), z)] };
        let sum = q[idx(n, down(x), y, z)]
            + q[idx(n, up(x), y, z)]
            + q[idx(n, x, down(y), z)]
            + above
            + q[idx(n, x, y, down(z))]
            + q[idx(n, x, y, up(z))];
        (sum, if top { 7.0 } else { 6.0 })
    }

    /// r = f − ∇²q in every cell.
    pub fn residual(&self, q: &[f64], f: &[f64]) -> Vec<f64> {
        let (n, h2) = (self.n, self.h * self.h);
        let mut r = vec![0.0; self.cells()];
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let (sum, d) = self.stencil(q, x, y, z);
                    let i = idx(n, x, y, z);
                    r[i] = f[i] - (sum - d * q[i]) / h2;
                }
            }
        }
        r
    }

    /// ‖f − ∇²q‖₂.
    pub fn residual_norm(&self, q: &[f64], f: &[f64]) -> f64 {
        norm(&self.residual(q, f))
    }
}
// ANCHOR_END: level

pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

// ANCHOR: rbgs_cpu
/// One red–black Gauss–Seidel sweep in place: first every red cell ((x + y + z) even), then
/// every black one. A cell's six neighbours all have the other colour, so the cells of one colour
/// are independent (one GPU pass each) and the black half already sees the new red values.
/// Each update is over-relaxed by ω: q ← q + ω ((Σ − h² f) / d − q); ω = 1 is plain
/// Gauss–Seidel, 1 < ω < 2 successive over-relaxation (SOR).
pub fn rbgs_sweep(level: &Level, q: &mut [f64], f: &[f64], omega: f64) {
    let (n, h2) = (level.n, level.h * level.h);
    for colour in 0..2 {
        for z in 0..n {
            for y in 0..n {
                let first = (y + z + colour) % 2;
                for x in (first..n).step_by(2) {
                    let (sum, d) = level.stencil(q, x, y, z);
                    let i = idx(n, x, y, z);
                    q[i] += omega * ((sum - h2 * f[i]) / d - q[i]);
                }
            }
        }
    }
}
// ANCHOR_END: rbgs_cpu

// ANCHOR: sor_omega
/// Young's optimal over-relaxation (1954), ω = 2 / (1 + √(1 − μ²)) with μ the slowest Jacobi
/// rate: the slowest mode then keeps ω − 1 a sweep. For the closed n³ box (Neumann walls) μ =
/// (2 + cos(π/n)) / 3: 1.945 at 64³, 1.972 at 128³.
pub fn optimal_sor_omega(n: usize) -> f64 {
    young_omega(super::jacobi_slowest_rate(n))
}

/// The same with the open top, where q = 0 on the top face makes the slowest mode a quarter wave
/// up the box: μ = (2 + cos(π/(2n))) / 3, ω = 1.972 at 64³ and 1.986 at 128³.
pub fn optimal_sor_omega_open_top(n: usize) -> f64 {
    young_omega((2.0 + (std::f64::consts::PI / (2 * n) as f64).cos()) / 3.0)
}

/// The textbook 2 / (1 + sin(π/n)): Young's formula for the box with q = 0 on every wall, where
/// μ = cos(π/n) (1.906 at 64³). Not this solver's problem; kept to show how far off it is.
pub fn dirichlet_sor_omega(n: usize) -> f64 {
    2.0 / (1.0 + (std::f64::consts::PI / n as f64).sin())
}

fn young_omega(mu: f64) -> f64 {
    2.0 / (1.0 + (1.0 - mu * mu).sqrt())
}

/// Residual kept per red–black Gauss–Seidel sweep (ω = 1) by the slowest mode of a closed n³
/// box: GS squares the Jacobi eigenvalue (Young 1954, consistent ordering), ((2 + cos(π/n)) / 3)².
pub fn gauss_seidel_slowest_rate(n: usize) -> f64 {
    super::jacobi_slowest_rate(n).powi(2)
}
// ANCHOR_END: sor_omega

// ANCHOR: levels
/// Cells per side of each multigrid level, finest first: n, ⌈n/2⌉, … down to 2 (or a grid of 1
/// or 2 cells). A side that is odd is rounded up: its coarse grid's last cell has one child
/// instead of two and reaches half a coarse cell beyond the box, which slows the cycle a little
/// but keeps it working for every size.
pub fn level_sizes(n: usize) -> Vec<usize> {
    let mut sizes = vec![n.max(1)];
    while *sizes.last().unwrap() > 2 {
        let m = sizes.last().unwrap().div_ceil(2);
        sizes.push(m);
    }
    sizes
}

/// The hierarchy of a fine grid: level l has h · 2^l.
pub fn hierarchy(fine: Level) -> Vec<Level> {
    level_sizes(fine.n)
        .into_iter()
        .enumerate()
        .map(|(l, n)| Level { n, h: fine.h * (1u64 << l) as f64, open_top: fine.open_top })
        .collect()
}
// ANCHOR_END: levels

// ANCHOR: transfer_cpu
/// Restriction by cell-centred averaging: each coarse cell gets the mean of the fine residual
/// over its (up to 8) children.
pub fn restrict(fine: &Level, r: &[f64], coarse: &Level) -> Vec<f64> {
    let (nf, nc) = (fine.n, coarse.n);
    let mut out = vec![0.0; coarse.cells()];
    for z in 0..nc {
        for y in 0..nc {
            for x in 0..nc {
                let (mut sum, mut count) = (0.0, 0.0);
                for c in 0..8 {
                    let (fx, fy, fz) = (2 * x + (c & 1), 2 * y + ((c >> 1) & 1), 2 * z + ((c >> 2) & 1));
                    if fx < nf && fy < nf && fz < nf {
                        sum += r[idx(nf, fx, fy, fz)];
                        count += 1.0;
                    }
                }
                out[idx(nc, x, y, z)] = sum / count;
            }
        }
    }
    out
}

/// The two coarse cells a fine cell interpolates from along one axis, and the weight of the
/// first: a fine centre lies a quarter of a coarse cell from its parent's centre, so the parent
/// weighs ¾ and the next coarse cell on that side ¼. Beyond the walls the ghost rules hold:
/// returns the sign of the far cell (−1 above an open top: q = 0 on the face).
fn parents(i: usize, nc: usize, open_end: bool) -> (usize, usize, f64) {
    let p = (i / 2).min(nc - 1);
    if i.is_multiple_of(2) {
        (p, p.saturating_sub(1), 1.0)
    } else if p + 1 < nc {
        (p, p + 1, 1.0)
    } else {
        (p, p, if open_end { -1.0 } else { 1.0 })
    }
}

/// Trilinear prolongation of the coarse correction e, added to the fine q.
pub fn prolong_add(coarse: &Level, e: &[f64], fine: &Level, q: &mut [f64]) {
    let (nf, nc) = (fine.n, coarse.n);
    for z in 0..nf {
        let (z0, z1, sz) = parents(z, nc, false);
        for y in 0..nf {
            let (y0, y1, sy) = parents(y, nc, fine.open_top);
            for x in 0..nf {
                let (x0, x1, sx) = parents(x, nc, false);
                let mut v = 0.0;
                for c in 0..8 {
                    let (bx, by, bz) = (c & 1, (c >> 1) & 1, (c >> 2) & 1);
                    let w = |far: usize, s: f64| if far == 1 { 0.25 * s } else { 0.75 };
                    let cx = if bx == 1 { x1 } else { x0 };
                    let cy = if by == 1 { y1 } else { y0 };
                    let cz = if bz == 1 { z1 } else { z0 };
                    v += w(bx, sx) * w(by, sy) * w(bz, sz) * e[idx(nc, cx, cy, cz)];
                }
                q[idx(nf, x, y, z)] += v;
            }
        }
    }
}
// ANCHOR_END: transfer_cpu

// ANCHOR: vcycle_cpu
/// Smoothing sweeps before and after the coarse-grid correction by default: a V(2,2) cycle.
/// (Measured on 16³ noise: V(1,1) keeps 0.29 of the residual per cycle, V(2,1) 0.20, V(2,2) 0.15,
/// V(3,3) 0.10.) `v_cycle_with` takes any other V(ν₁,ν₂).
pub const PRE_SMOOTH: usize = 2;
pub const POST_SMOOTH: usize = 2;
/// Gauss–Seidel sweeps that solve the coarsest grid (at most 2³ cells: 8 sweeps keep about
/// 0.45⁸ ≈ 2 · 10⁻³ of its slowest mode).
pub const COARSE_SWEEPS: usize = 8;

/// One V(2,2) cycle on `levels[0]` (Briggs et al. 2000, ch. 3): smooth, restrict the residual,
/// correct from the next coarser level (recursively, starting from zero), prolong, smooth.
/// The smoother is red–black Gauss–Seidel with ω = 1.
pub fn v_cycle(levels: &[Level], q: &mut [f64], f: &[f64]) {
    v_cycle_with(levels, q, f, PRE_SMOOTH, POST_SMOOTH);
}

/// One V(`pre`,`post`) cycle: `v_cycle` with `pre` sweeps before the coarse-grid correction and
/// `post` after it, on every level but the coarsest.
pub fn v_cycle_with(levels: &[Level], q: &mut [f64], f: &[f64], pre: usize, post: usize) {
    let level = &levels[0];
    if levels.len() == 1 {
        for _ in 0..COARSE_SWEEPS {
            rbgs_sweep(level, q, f, 1.0);
        }
        return;
    }
    for _ in 0..pre {
        rbgs_sweep(level, q, f, 1.0);
    }
    let coarse = &levels[1];
    let fc = restrict(level, &level.residual(q, f), coarse);
    let mut e = vec![0.0; coarse.cells()];
    v_cycle_with(&levels[1..], &mut e, &fc, pre, post);
    prolong_add(coarse, &e, level, q);
    for _ in 0..post {
        rbgs_sweep(level, q, f, 1.0);
    }
}
// ANCHOR_END: vcycle_cpu

/// Work of one V-cycle in fine-grid sweeps: each level costs (pre + post + 1 for the residual and
/// transfers) sweeps of its size, the coarsest its solve.
pub fn v_cycle_work(levels: &[Level]) -> f64 {
    let fine = levels[0].cells() as f64;
    levels
        .iter()
        .enumerate()
        .map(|(l, level)| {
            let sweeps = if l + 1 == levels.len() { COARSE_SWEEPS } else { PRE_SMOOTH + POST_SMOOTH + 1 };
            sweeps as f64 * level.cells() as f64 / fine
        })
        .sum()
}

/// Which solver a residual history is for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solver {
    Jacobi,
    /// Red–black Gauss–Seidel with this ω.
    RedBlack(f64),
    Multigrid,
}

/// ‖f − ∇²q‖₂ / ‖f‖₂ from q = 0 after each of `iterations` sweeps (V-cycles for multigrid),
/// starting with 1 for none.
pub fn residual_history(level: &Level, f: &[f64], solver: Solver, iterations: usize) -> Vec<f64> {
    let f0 = norm(f);
    let mut q = vec![0.0; level.cells()];
    let mut next = q.clone();
    let levels = hierarchy(*level);
    let mut out = vec![level.residual_norm(&q, f) / f0];
    for _ in 0..iterations {
        match solver {
            Solver::Jacobi => {
                let (n, h2) = (level.n, level.h * level.h);
                for z in 0..n {
                    for y in 0..n {
                        for x in 0..n {
                            let (sum, d) = level.stencil(&q, x, y, z);
                            next[idx(n, x, y, z)] = (sum - h2 * f[idx(n, x, y, z)]) / d;
                        }
                    }
                }
                std::mem::swap(&mut q, &mut next);
            }
            Solver::RedBlack(omega) => rbgs_sweep(level, &mut q, f, omega),
            Solver::Multigrid => v_cycle(&levels, &mut q, f),
        }
        out.push(level.residual_norm(&q, f) / f0);
    }
    out
}

/// Iterations until the relative residual first reaches `target`, if within the history.
pub fn iterations_to(history: &[f64], target: f64) -> Option<usize> {
    history.iter().position(|&r| r <= target)
}

/// A compatible right-hand side for tests: seeded noise in −1..1 with its mean removed (a closed
/// box needs Σf = 0; an open top does not, but it does no harm).
pub fn noise_rhs(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut v: Vec<f64> = (0..n * n * n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.iter_mut().for_each(|x| *x -= mean);
    v
}

/// Residual reduction per V-cycle: the geometric mean over cycles `skip..` of a history from
/// `residual_history` (the first cycles, which remove the smooth part fast, are skipped).
pub fn factor_per_cycle(history: &[f64], skip: usize) -> f64 {
    let k = history.len() - 1 - skip;
    (history[history.len() - 1] / history[skip]).powf(1.0 / k as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(n: usize, open_top: bool) -> Level {
        Level { n, h: 12.0 / n as f64, open_top }
    }

    #[test]
    fn level_sizes_halve_down_to_two_cells() {
        assert_eq!(level_sizes(64), vec![64, 32, 16, 8, 4, 2]);
        assert_eq!(level_sizes(20), vec![20, 10, 5, 3, 2]);
        assert_eq!(level_sizes(100), vec![100, 50, 25, 13, 7, 4, 2]);
        assert_eq!(level_sizes(2), vec![2]);
        assert_eq!(level_sizes(1), vec![1]);
        assert_eq!(level_sizes(0), vec![1]);
    }

    #[test]
    fn transfers_keep_constants_and_averages() {
        // Restricting a constant gives the constant; prolonging a constant under Neumann walls
        // adds the constant everywhere (the weights sum to 1).
        for n in [8, 10, 5] {
            let (f, c) = (level(n, false), level(n.div_ceil(2), false));
            let r = vec![3.0; f.cells()];
            assert!(restrict(&f, &r, &c).iter().all(|v| (v - 3.0).abs() < 1e-14));
            let mut q = vec![1.0; f.cells()];
            prolong_add(&c, &vec![2.0; c.cells()], &f, &mut q);
            assert!(q.iter().all(|v| (v - 3.0).abs() < 1e-14), "n = {n}");
        }
        // A linear coarse field is reproduced exactly inside (trilinear interpolation).
        let (f, c) = (level(8, false), level(4, false));
        let e: Vec<f64> = (0..c.cells()).map(|i| (i % 4) as f64).collect();
        let mut q = vec![0.0; f.cells()];
        prolong_add(&c, &e, &f, &mut q);
        for x in 1..7 {
            // fine centre x sits at coarse coordinate (x − 0.5) / 2.
            assert!((q[idx(8, x, 3, 3)] - (x as f64 - 0.5) / 2.0).abs() < 1e-14, "x = {x}");
        }
    }

    #[test]
    fn gauss_seidel_squares_the_jacobi_rate() {
        // From a random start, the error left after many sweeps is the slowest mode; each sweep
        // then keeps the squared Jacobi factor.
        let n = 12;
        let l = level(n, false);
        let f = vec![0.0; l.cells()];
        let mut q = noise_rhs(n, 3);
        for _ in 0..150 {
            rbgs_sweep(&l, &mut q, &f, 1.0);
        }
        let r0 = l.residual_norm(&q, &f);
        rbgs_sweep(&l, &mut q, &f, 1.0);
        let rate = l.residual_norm(&q, &f) / r0;
        let theory = gauss_seidel_slowest_rate(n);
        assert!((rate - theory).abs() < 2e-3, "measured {rate}, theory {theory}");
    }

    #[test]
    fn v_cycle_converges_fast_on_closed_and_open_boxes_of_any_size() {
        for (n, open, bound) in [(16, false, 0.2), (16, true, 0.25), (20, false, 0.25), (12, true, 0.25)] {
            let l = level(n, open);
            let f = noise_rhs(n, 7);
            let h = residual_history(&l, &f, Solver::Multigrid, 8);
            let factor = factor_per_cycle(&h, 2);
            eprintln!("{n}³ open {open}: {factor:.3} per V(2,2) cycle; {h:?}");
            assert!(factor < bound, "{n}³ open {open}: {factor}");
        }
    }
}
