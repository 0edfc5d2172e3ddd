//! CPU references for the smoke solver, in f64: the Jacobi convergence rate of the slowest
//! pressure mode, the exact dissipation law, and the discrete operators used to check the
//! projection identities; `poisson` holds the faster pressure solvers' references, `temperature`
//! the buoyancy and cooling of the temperature field, `lighting` the lit ray march.

pub mod lighting;
pub mod poisson;
pub mod temperature;

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

/// Divergence of a staggered (MAC) velocity (x fastest), as `divergence_at` in common.wgsl:
/// `u[i][a]` is the component along axis a on the low a-face of cell i; the faces on the walls
/// (index 0 and n along their axis) are closed, whatever `u` holds there. Per cell, the net flux
/// out through its six faces over h.
pub fn divergence(n: usize, u: &[[f64; 3]], h: f64) -> Vec<f64> {
    let face = |c: [usize; 3], axis: usize, high: bool| {
        let mut at = c;
        if high {
            at[axis] += 1;
        }
        if at[axis] == 0 || at[axis] >= n { 0.0 } else { u[idx(n, at[0], at[1], at[2])][axis] }
    };
    let mut div = vec![0.0; n * n * n];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let c = [x, y, z];
                let sum: f64 = (0..3).map(|a| face(c, a, true) - face(c, a, false)).sum();
                div[idx(n, x, y, z)] = sum / h;
            }
        }
    }
    div
}

/// The velocity at the cell centres of a staggered field (layout of `divergence`): per axis the
/// mean of the cell's two faces, the wall faces 0. It is what a trilinear sample of the faces
/// gives at a centre, and what the GPU traces the smoke with.
pub fn centre_velocity(n: usize, u: &[[f64; 3]]) -> Vec<[f64; 3]> {
    let mut out = vec![[0.0; 3]; n * n * n];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let c = [x, y, z];
                for a in 0..3 {
                    let low = if c[a] == 0 { 0.0 } else { u[idx(n, x, y, z)][a] };
                    let mut hi = c;
                    hi[a] += 1;
                    let high = if hi[a] >= n { 0.0 } else { u[idx(n, hi[0], hi[1], hi[2])][a] };
                    out[idx(n, x, y, z)][a] = 0.5 * (low + high);
                }
            }
        }
    }
    out
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

/// Trilinear sample of a scalar n³ field (x fastest) at `p` in cell units (cell centres at
/// integers), clamped to the outermost centres as `clamp_uv` in common.wgsl does. Returns the
/// value and the smallest and largest of the 8 cells it read (the MacCormack limiter's range).
pub fn sample_with_range(n: usize, f: &[f64], p: [f64; 3]) -> (f64, f64, f64) {
    let top = (n - 1) as f64;
    let mut base = [0usize; 3];
    let mut t = [0.0; 3];
    for a in 0..3 {
        let c = if p[a].is_finite() { p[a].clamp(0.0, top) } else { 0.0 };
        // The lower corner stays at n − 2 so that the 8 cells exist; at c = n − 1 the weight of
        // the lower one is 0 (the GPU filter reads the same 8 cells).
        base[a] = (c.floor() as usize).min(n.saturating_sub(2));
        t[a] = c - base[a] as f64;
    }
    let (mut value, mut lo, mut hi) = (0.0, f64::INFINITY, f64::NEG_INFINITY);
    for corner in 0..8 {
        let o = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
        let mut w = 1.0;
        let mut at = [0usize; 3];
        for a in 0..3 {
            at[a] = (base[a] + o[a]).min(n - 1);
            w *= if o[a] == 1 { t[a] } else { 1.0 - t[a] };
        }
        let v = f[idx(n, at[0], at[1], at[2])];
        value += w * v;
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (value, lo, hi)
}

/// One semi-Lagrangian step (Stam 1999): every cell takes the value at the point one step
/// upstream, `cell − displacement` (the displacement u Δt / h per cell, in cells).
pub fn semi_lagrangian(n: usize, f: &[f64], displacement: &[[f64; 3]]) -> Vec<f64> {
    let mut out = vec![0.0; f.len()];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let i = idx(n, x, y, z);
                let d = displacement[i];
                let from = [x as f64 - d[0], y as f64 - d[1], z as f64 - d[2]];
                out[i] = sample_with_range(n, f, from).0;
            }
        }
    }
    out
}

/// What the MacCormack limiter does with a corrected value outside the range of the 8 cells the
/// forward step read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limiter {
    /// Use the semi-Lagrangian value instead.
    Revert,
    /// Clamp the corrected value into the range (what `maccormack.wgsl` does).
    Clamp,
    /// No limiter (unstable near sharp features; for comparison only).
    None,
}

// ANCHOR: advection_cpu
/// One MacCormack step (Selle et al. 2008) with the same trace as the GPU:
/// φ̂ = A(φ) forward, φ̌ = A⁻¹(φ̂) back (the same step along −u), then
/// φ′ = φ̂ + (φ − φ̌) / 2, limited to the range of the 8 cells φ̂'s sample read.
pub fn maccormack(n: usize, f: &[f64], displacement: &[[f64; 3]], limiter: Limiter) -> Vec<f64> {
    let forward = semi_lagrangian(n, f, displacement);
    let mut out = vec![0.0; f.len()];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let i = idx(n, x, y, z);
                let d = displacement[i];
                let (cx, cy, cz) = (x as f64, y as f64, z as f64);
                let back = sample_with_range(n, &forward, [cx + d[0], cy + d[1], cz + d[2]]).0;
                let corrected = forward[i] + 0.5 * (f[i] - back);
                let (_, lo, hi) = sample_with_range(n, f, [cx - d[0], cy - d[1], cz - d[2]]);
                let outside = !(corrected >= lo && corrected <= hi);
                out[i] = match limiter {
                    Limiter::Revert if outside => forward[i],
                    Limiter::Clamp if outside => corrected.clamp(lo, hi),
                    _ => corrected,
                };
            }
        }
    }
    out
}
// ANCHOR_END: advection_cpu

// ANCHOR: maccormack_faces_cpu
/// u_c at `p` (cell units, cell centres at integers) from the c-faces of a staggered field
/// (layout of `divergence`: u[i][c] on the low c-face of cell i, at i − ½ along c), as
/// `face_sampled` in common.wgsl interpolates it: trilinear on the face lattice, clamped to the
/// stored faces, and falling linearly to the wall's 0 between the last stored face and the wall
/// (unless the top is open and c is y). Also returns the range of the 8 faces read, the wall's 0
/// included past the last stored face (the MacCormack limiter's range).
pub fn face_sample_with_range(n: usize, u: &[[f64; 3]], p: [f64; 3], c: usize, open_top: bool) -> (f64, f64, f64) {
    let component: Vec<f64> = u.iter().map(|v| v[c]).collect();
    let mut q = p;
    q[c] += 0.5;
    let (v, mut lo, mut hi) = sample_with_range(n, &component, q);
    if c == 1 && open_top {
        return (v, lo, hi);
    }
    let beyond = (p[c] - (n as f64 - 1.5)).clamp(0.0, 1.0);
    if p[c] > n as f64 - 1.5 {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    (v * (1.0 - beyond), lo, hi)
}

/// One MacCormack step of a staggered velocity along itself (Selle et al. 2008, each face
/// component from its own face), as maccormack.wgsl and maccormack_correct.wgsl do it: the
/// velocity at the face p by `face_sample_with_range` per component, the departure p − u(p)
/// (u in cells per step) kept in the box, φ̂ forward, φ̌ = φ̂ at p + u(p), φ′ = φ̂ + (φ − φ̌)/2
/// clamped to the range of the faces φ̂'s sample read; wall faces (index 0 along c) stay 0.
pub fn maccormack_faces(n: usize, u: &[[f64; 3]], open_top: bool) -> Vec<[f64; 3]> {
    let box_clamp = |p: [f64; 3]| p.map(|x| x.clamp(-0.5, n as f64 - 0.5));
    // Where the c-face of cell i traces to, back (start) and forward (to); None on a wall face.
    let traces = |i: usize, c: usize| -> Option<([f64; 3], [f64; 3])> {
        let mut p = [(i % n) as f64, ((i / n) % n) as f64, (i / (n * n)) as f64];
        if p[c] == 0.0 {
            return None;
        }
        p[c] -= 0.5;
        let v = [0, 1, 2].map(|a| face_sample_with_range(n, u, p, a, open_top).0);
        Some((box_clamp([p[0] - v[0], p[1] - v[1], p[2] - v[2]]), box_clamp([p[0] + v[0], p[1] + v[1], p[2] + v[2]])))
    };
    let mut forward = vec![[0.0; 3]; u.len()];
    for (i, out) in forward.iter_mut().enumerate() {
        for c in 0..3 {
            if let Some((start, _)) = traces(i, c) {
                out[c] = face_sample_with_range(n, u, start, c, open_top).0;
            }
        }
    }
    let mut out = vec![[0.0; 3]; u.len()];
    for (i, o) in out.iter_mut().enumerate() {
        for c in 0..3 {
            let Some((start, to)) = traces(i, c) else { continue };
            let back = face_sample_with_range(n, &forward, to, c, open_top).0;
            let corrected = forward[i][c] + 0.5 * (u[i][c] - back);
            let (_, lo, hi) = face_sample_with_range(n, u, start, c, open_top);
            o[c] = corrected.clamp(lo, hi);
        }
    }
    out
}
// ANCHOR_END: maccormack_faces_cpu

// ANCHOR: rotation_case
/// The rigid-rotation test of advection: a smooth Gaussian blob on an n³ grid, σ = n/10 cells
/// wide, a quarter of the box from the centre, turned about the box's z axis once in
/// `steps` steps. After one revolution the exact solution is the initial field.
pub struct Rotation {
    pub n: usize,
    pub steps: usize,
    /// The velocity on the staggered grid, as displacement per step in cells (u Δt / h with
    /// u = Ω × r taken at each face; `divergence`'s layout), the wall faces 0.
    pub faces: Vec<[f64; 3]>,
    /// The displacement of each cell centre per step, in cells: the mean of its faces
    /// (`centre_velocity`), what the smoke is traced with.
    pub displacement: Vec<[f64; 3]>,
    pub initial: Vec<f64>,
}

impl Rotation {
    pub fn new(n: usize, steps: usize) -> Self {
        let c = (n as f64 - 1.0) / 2.0;
        let sigma = n as f64 / 10.0;
        let radius = n as f64 / 4.0;
        let omega_dt = std::f64::consts::TAU / steps as f64;
        let mut faces = vec![[0.0; 3]; n * n * n];
        let mut initial = vec![0.0; n * n * n];
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let (rx, ry) = (x as f64 - c, y as f64 - c);
                    let i = idx(n, x, y, z);
                    // u_x on an x-face depends on y only, u_y on a y-face on x only: the face
                    // values equal those at the cell centre, except on the walls.
                    let wall = |v: usize, f: f64| if v == 0 { 0.0 } else { f };
                    faces[i] = [wall(x, -omega_dt * ry), wall(y, omega_dt * rx), 0.0];
                    let r2 = (rx - radius).powi(2) + ry.powi(2) + (z as f64 - c).powi(2);
                    initial[i] = (-r2 / (2.0 * sigma * sigma)).exp();
                }
            }
        }
        let displacement = centre_velocity(n, &faces);
        Self { n, steps, faces, displacement, initial }
    }

    /// The field after one revolution with `step` applied `steps` times.
    pub fn run(&self, step: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
        (0..self.steps).fold(self.initial.clone(), |f, _| step(&f))
    }

    pub fn semi_lagrangian(&self) -> Vec<f64> {
        self.run(|f| semi_lagrangian(self.n, f, &self.displacement))
    }

    pub fn maccormack(&self, limiter: Limiter) -> Vec<f64> {
        self.run(|f| maccormack(self.n, f, &self.displacement, limiter))
    }
}

/// Peak, extremes and error of an advected field against the exact one.
#[derive(Clone, Copy, Debug)]
pub struct AdvectionError {
    /// Largest value, as a fraction of the exact field's.
    pub peak: f64,
    pub min: f64,
    pub max: f64,
    /// Σ|φ − φ_exact| / Σ|φ_exact|.
    pub l1: f64,
}

pub fn advection_error(f: &[f64], exact: &[f64]) -> AdvectionError {
    let max = f.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = f.iter().cloned().fold(f64::INFINITY, f64::min);
    let exact_max = exact.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let diff: f64 = f.iter().zip(exact).map(|(a, b)| (a - b).abs()).sum();
    let total: f64 = exact.iter().map(|v| v.abs()).sum();
    AdvectionError { peak: max / exact_max, min, max, l1: diff / total }
}
// ANCHOR_END: rotation_case

// ANCHOR: asymmetry
/// Left–right asymmetry of a scalar n³ field (x fastest) under the mirror x → n − 1 − x:
/// Σ|ρ − ρ_mirror| / Σ(ρ + ρ_mirror), 0 for a mirror-symmetric field, 1 for one whose every
/// value sits where its mirror image is empty (for ρ ≥ 0). An empty field counts as symmetric.
pub fn mirror_asymmetry(n: usize, rho: &[f64]) -> f64 {
    let (mut diff, mut total) = (0.0, 0.0);
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let (a, b) = (rho[idx(n, x, y, z)], rho[idx(n, n - 1 - x, y, z)]);
                diff += (a - b).abs();
                total += a.abs() + b.abs();
            }
        }
    }
    if total > 0.0 { diff / total } else { 0.0 }
}
// ANCHOR_END: asymmetry

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_asymmetry_is_0_for_symmetric_and_1_for_one_sided_fields() {
        let n = 6;
        let mut sym = vec![0.0; n * n * n];
        let mut one_sided = vec![0.0; n * n * n];
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let d = (x as f64 - 2.5).abs();
                    sym[idx(n, x, y, z)] = (-(d * d) - y as f64).exp();
                    one_sided[idx(n, x, y, z)] = if x < 3 { 1.0 + y as f64 } else { 0.0 };
                }
            }
        }
        assert!(mirror_asymmetry(n, &sym) < 1e-15);
        assert!((mirror_asymmetry(n, &one_sided) - 1.0).abs() < 1e-15);
        assert_eq!(mirror_asymmetry(n, &vec![0.0; n * n * n]), 0.0);
        // A symmetric field plus an equal amount on one side: half of the smoke is unmatched.
        let (ts, to) = (sym.iter().sum::<f64>(), one_sided.iter().sum::<f64>());
        let mixed: Vec<f64> = sym.iter().zip(&one_sided).map(|(a, b)| a + b * ts / to).collect();
        assert!((mirror_asymmetry(n, &mixed) - 0.5).abs() < 1e-12, "{}", mirror_asymmetry(n, &mixed));
    }

    #[test]
    fn maccormack_beats_semi_lagrangian_on_a_rotating_blob_without_new_extrema() {
        let case = Rotation::new(32, 64);
        let exact = &case.initial;
        let sl = advection_error(&case.semi_lagrangian(), exact);
        let revert = advection_error(&case.maccormack(Limiter::Revert), exact);
        let clamp = advection_error(&case.maccormack(Limiter::Clamp), exact);
        let free = advection_error(&case.maccormack(Limiter::None), exact);
        eprintln!("32³, 64 steps per turn: semi-Lagrangian {sl:?}");
        eprintln!("MacCormack, revert: {revert:?}");
        eprintln!("MacCormack, clamp: {clamp:?}");
        eprintln!("MacCormack, no limiter: {free:?}");
        // Measured (the rotation given on the faces, the wall faces closed): L1 0.593
        // (semi-Lagrangian), 0.267 (clamp), 0.276 (revert); peaks 39 %, 91 %, 80 %.
        assert!(clamp.l1 < 0.5 * sl.l1, "L1 {} against {}", clamp.l1, sl.l1);
        assert!(clamp.peak > 2.0 * sl.peak && clamp.peak >= revert.peak);
        for e in [revert, clamp] {
            assert!(e.max <= 1.0 + 1e-12 && e.min >= -1e-12, "new extrema: {e:?}");
        }
    }

    #[test]
    fn sampling_reads_the_eight_cells_around_the_point() {
        let n = 4;
        let f: Vec<f64> = (0..64).map(|i| i as f64).collect();
        let (v, lo, hi) = sample_with_range(n, &f, [1.5, 1.0, 2.0]);
        assert!((v - (idx(n, 1, 1, 2) as f64 + 0.5)).abs() < 1e-12);
        assert_eq!((lo, hi), (idx(n, 1, 1, 2) as f64, idx(n, 2, 2, 3) as f64));
        // Clamped at the walls, and safe for any input.
        assert_eq!(sample_with_range(n, &f, [-5.0, -1.0, -2.0]).0, 0.0);
        assert_eq!(sample_with_range(n, &f, [9.0, 9.0, 9.0]).0, 63.0);
        assert!(sample_with_range(n, &f, [f64::NAN, 0.0, 0.0]).0.is_finite());
    }

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
    fn closed_wall_divergence_sums_to_zero() {
        // Closed wall faces make the face differences telescope: no net source in the box, which
        // is what makes the Neumann pressure equation solvable.
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
