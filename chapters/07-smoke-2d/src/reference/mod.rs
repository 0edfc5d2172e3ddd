//! The whole 2D step in f64 on the CPU, pass for pass as the shaders compute it (same grid, same
//! boundary rules, same order of operations), for the tests: a GPU step from the same initial
//! state must land within the rounding of its f16 storage of this one. `poisson` holds the
//! pressure solvers and their theory (the slowest modes and their rates), `measure` the test
//! problems (the rotating blob) and measures (L1 error, mirror asymmetry).

mod measure;
mod poisson;

pub use measure::*;
pub use poisson::*;

use crate::Smoke2dUniform;
use crate::params::{Advection, PressureSolver};

/// The fields of one grid. Velocity texels are n × (n + 1) (x fastest): `u`, `v` and `t`
/// (T − T_amb, rows below n only) as in the GPU's velocity texture; `dye` and `q`, `div` n × n.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub n: usize,
    pub u: Vec<f64>,
    pub v: Vec<f64>,
    pub t: Vec<f64>,
    pub dye: Vec<[f64; 4]>,
    pub q: Vec<f64>,
    pub div: Vec<f64>,
}

/// The step's settings in f64, from the GPU's parameter block (so both see the same values).
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub n: usize,
    pub h: f64,
    pub dt: f64,
    pub velocity_keep: f64,
    pub density_keep: f64,
    pub temperature_keep: f64,
    pub vorticity: f64,
    pub emitter_centre: [f64; 2],
    pub emitter_radius: f64,
    pub emitter_rate: f64,
    pub emitter_velocity: [f64; 2],
    pub buoyancy: f64,
    pub heat_lift: f64,
    pub emitter_color: [f64; 3],
    pub emitter_excess_k: f64,
    pub turbulence: f64,
    pub turbulence_seed: u32,
    pub step_index: u32,
    pub open_top: bool,
    pub omega: f64,
    pub advection: Advection,
    pub solver: PressureSolver,
    pub sweeps: u32,
}

impl Config {
    pub fn new(u: &Smoke2dUniform, solver: PressureSolver, sweeps: u32) -> Self {
        let f = |v: f32| v as f64;
        Self {
            n: u.grid_n as usize,
            h: f(u.cell_m),
            dt: f(u.dt_s),
            velocity_keep: f(u.velocity_keep),
            density_keep: f(u.density_keep),
            temperature_keep: f(u.temperature_keep),
            vorticity: f(u.vorticity),
            emitter_centre: u.emitter_centre.map(f),
            emitter_radius: f(u.emitter_radius),
            emitter_rate: f(u.emitter_rate),
            emitter_velocity: u.emitter_velocity.map(f),
            buoyancy: f(u.buoyancy),
            heat_lift: f(u.heat_lift),
            emitter_color: u.emitter_color.map(f),
            emitter_excess_k: f(u.emitter_excess_k),
            turbulence: f(u.turbulence),
            turbulence_seed: u.turbulence_seed,
            step_index: u.step_index,
            open_top: u.top_boundary == 1,
            omega: f(u.sor_omega),
            advection: if u.advection == 1 { Advection::MacCormack } else { Advection::SemiLagrangian },
            solver,
            sweeps,
        }
    }
}

impl State {
    pub fn zero(n: usize) -> Self {
        let faces = n * (n + 1);
        Self {
            n,
            u: vec![0.0; faces],
            v: vec![0.0; faces],
            t: vec![0.0; faces],
            dye: vec![[0.0; 4]; n * n],
            q: vec![0.0; n * n],
            div: vec![0.0; n * n],
        }
    }

    /// From the GPU's layouts (`fields::FieldId`): velocity texels (u, v, T, 0), dye texels,
    /// pressure values.
    pub fn from_gpu(n: usize, velocity: &[f32], dye: &[f32], q: &[f32]) -> Self {
        let mut s = Self::zero(n);
        for (k, c) in velocity.chunks_exact(4).enumerate() {
            (s.u[k], s.v[k], s.t[k]) = (c[0] as f64, c[1] as f64, c[2] as f64);
        }
        for (k, c) in dye.chunks_exact(4).enumerate() {
            s.dye[k] = [c[0], c[1], c[2], c[3]].map(|x| x as f64);
        }
        s.q = q.iter().map(|&x| x as f64).collect();
        s
    }

    /// The velocity texels in the GPU's layout.
    pub fn velocity_texels(&self) -> Vec<f32> {
        (0..self.u.len()).flat_map(|k| [self.u[k] as f32, self.v[k] as f32, self.t[k] as f32, 0.0]).collect()
    }

    pub fn dye_texels(&self) -> Vec<f32> {
        self.dye.iter().flat_map(|d| d.map(|x| x as f32)).collect()
    }

    fn face(&self, i: usize, j: usize) -> usize {
        i + self.n * j
    }

    // ANCHOR: faces
    /// u on the low x-face of cell (i, j): 0 on the side walls, copied beyond the bottom and top.
    pub fn u_at(&self, i: i64, j: i64) -> f64 {
        let n = self.n as i64;
        if i <= 0 || i >= n {
            return 0.0;
        }
        self.u[self.face(i as usize, j.clamp(0, n - 1) as usize)]
    }

    /// v on the low y-face of cell (i, j): 0 on the bottom wall and on a closed top.
    pub fn v_at(&self, i: i64, j: i64, open_top: bool) -> f64 {
        let n = self.n as i64;
        if j <= 0 || (j >= n && !open_top) {
            return 0.0;
        }
        self.v[self.face(i.clamp(0, n - 1) as usize, j.min(n) as usize)]
    }
    // ANCHOR_END: faces

    fn t_at(&self, i: i64, j: i64) -> f64 {
        let n = self.n as i64;
        self.t[self.face(i.clamp(0, n - 1) as usize, j.clamp(0, n - 1) as usize)]
    }

    fn dye_at(&self, i: i64, j: i64) -> [f64; 4] {
        let n = self.n as i64;
        self.dye[(i.clamp(0, n - 1) + n * j.clamp(0, n - 1)) as usize]
    }
}

fn lerp_at(x: [f64; 2]) -> ([i64; 2], [f64; 2]) {
    let b = [x[0].floor(), x[1].floor()];
    ([b[0] as i64, b[1] as i64], [x[0] - b[0], x[1] - b[1]])
}

fn mix(a: f64, b: f64, t: f64) -> f64 {
    a * (1.0 - t) + b * t
}

fn bilerp(a: f64, b: f64, c: f64, d: f64, f: [f64; 2]) -> f64 {
    mix(mix(a, b, f[0]), mix(c, d, f[0]), f[1])
}

fn clamp_to_domain(n: usize, p: [f64; 2]) -> [f64; 2] {
    p.map(|x| x.clamp(0.0, n as f64))
}

/// Bilinear samples of each field at a point p (cell units), as common.wgsl's `sample_*`.
impl State {
    pub fn sample_u(&self, p: [f64; 2]) -> f64 {
        let p = clamp_to_domain(self.n, p);
        let ([x, y], f) = lerp_at([p[0], p[1] - 0.5]);
        bilerp(self.u_at(x, y), self.u_at(x + 1, y), self.u_at(x, y + 1), self.u_at(x + 1, y + 1), f)
    }

    pub fn sample_v(&self, p: [f64; 2], open: bool) -> f64 {
        let p = clamp_to_domain(self.n, p);
        let ([x, y], f) = lerp_at([p[0] - 0.5, p[1]]);
        bilerp(
            self.v_at(x, y, open),
            self.v_at(x + 1, y, open),
            self.v_at(x, y + 1, open),
            self.v_at(x + 1, y + 1, open),
            f,
        )
    }

    fn centre_lerp(&self, p: [f64; 2]) -> ([i64; 2], [f64; 2]) {
        let top = self.n as f64 - 1.0;
        lerp_at([(p[0] - 0.5).clamp(0.0, top), (p[1] - 0.5).clamp(0.0, top)])
    }

    pub fn sample_t(&self, p: [f64; 2]) -> f64 {
        let ([x, y], f) = self.centre_lerp(p);
        bilerp(self.t_at(x, y), self.t_at(x + 1, y), self.t_at(x, y + 1), self.t_at(x + 1, y + 1), f)
    }

    pub fn sample_dye(&self, p: [f64; 2]) -> [f64; 4] {
        let ([x, y], f) = self.centre_lerp(p);
        let (a, b, c, d) = (self.dye_at(x, y), self.dye_at(x + 1, y), self.dye_at(x, y + 1), self.dye_at(x + 1, y + 1));
        [0, 1, 2, 3].map(|k| bilerp(a[k], b[k], c[k], d[k], f))
    }

    pub fn velocity_at_point(&self, p: [f64; 2], open: bool) -> [f64; 2] {
        [self.sample_u(p), self.sample_v(p, open)]
    }

    /// (min, max) of the four samples behind each bilinear sample (MacCormack's limiter).
    fn u_range(&self, p: [f64; 2]) -> (f64, f64) {
        let p = clamp_to_domain(self.n, p);
        let ([x, y], _) = lerp_at([p[0], p[1] - 0.5]);
        range4([self.u_at(x, y), self.u_at(x + 1, y), self.u_at(x, y + 1), self.u_at(x + 1, y + 1)])
    }

    fn v_range(&self, p: [f64; 2], open: bool) -> (f64, f64) {
        let p = clamp_to_domain(self.n, p);
        let ([x, y], _) = lerp_at([p[0] - 0.5, p[1]]);
        range4([
            self.v_at(x, y, open),
            self.v_at(x + 1, y, open),
            self.v_at(x, y + 1, open),
            self.v_at(x + 1, y + 1, open),
        ])
    }

    fn t_range(&self, p: [f64; 2]) -> (f64, f64) {
        let ([x, y], _) = self.centre_lerp(p);
        range4([self.t_at(x, y), self.t_at(x + 1, y), self.t_at(x, y + 1), self.t_at(x + 1, y + 1)])
    }

    fn dye_range(&self, p: [f64; 2], k: usize) -> (f64, f64) {
        let ([x, y], _) = self.centre_lerp(p);
        range4([self.dye_at(x, y)[k], self.dye_at(x + 1, y)[k], self.dye_at(x, y + 1)[k], self.dye_at(x + 1, y + 1)[k]])
    }
}

fn range4(a: [f64; 4]) -> (f64, f64) {
    (a[0].min(a[1]).min(a[2].min(a[3])), a[0].max(a[1]).max(a[2].max(a[3])))
}

/// Which samples of velocity texel (i, j) are unknowns (common.wgsl's `*_is_free`).
fn u_is_free(n: usize, i: usize, j: usize) -> bool {
    i >= 1 && i < n && j < n
}
fn v_is_free(n: usize, i: usize, j: usize, open: bool) -> bool {
    i < n && j >= 1 && (j < n || (j == n && open))
}

fn u_position(i: usize, j: usize) -> [f64; 2] {
    [i as f64, j as f64 + 0.5]
}
fn v_position(i: usize, j: usize) -> [f64; 2] {
    [i as f64 + 0.5, j as f64]
}
fn centre_position(i: usize, j: usize) -> [f64; 2] {
    [i as f64 + 0.5, j as f64 + 0.5]
}

// ANCHOR: advect
/// Semi-Lagrangian advection (advect.wgsl): each sample traced back from where it lives.
pub fn advect(s: &State, c: &Config) -> State {
    let (n, open) = (s.n, c.open_top);
    let back = |p: [f64; 2]| {
        let u = s.velocity_at_point(p, open);
        clamp_to_domain(n, [p[0] - c.dt * u[0] / c.h, p[1] - c.dt * u[1] / c.h])
    };
    let mut out = State { q: s.q.clone(), div: s.div.clone(), ..State::zero(n) };
    for j in 0..=n {
        for i in 0..n {
            let k = s.face(i, j);
            if u_is_free(n, i, j) {
                out.u[k] = s.sample_u(back(u_position(i, j)));
            }
            if v_is_free(n, i, j, open) {
                out.v[k] = s.sample_v(back(v_position(i, j)), open);
            }
            if j < n {
                let from = back(centre_position(i, j));
                out.t[k] = s.sample_t(from);
                out.dye[i + n * j] = s.sample_dye(from);
            }
        }
    }
    out
}
// ANCHOR_END: advect

/// MacCormack advection with Selle et al.'s clamp (maccormack.wgsl): the forward step from
/// `advect`, the backward step from it, half the difference added back, clamped.
pub fn maccormack(s: &State, c: &Config) -> State {
    let (n, open) = (s.n, c.open_top);
    let forward = advect(s, c);
    let step = c.dt / c.h;
    let shifted = |p: [f64; 2], sign: f64| {
        let u = s.velocity_at_point(p, open);
        clamp_to_domain(n, [p[0] + sign * step * u[0], p[1] + sign * step * u[1]])
    };
    let mut out = State { q: s.q.clone(), div: s.div.clone(), ..State::zero(n) };
    for j in 0..=n {
        for i in 0..n {
            let k = s.face(i, j);
            if u_is_free(n, i, j) {
                let p = u_position(i, j);
                let back = forward.sample_u(shifted(p, 1.0));
                let (lo, hi) = s.u_range(shifted(p, -1.0));
                out.u[k] = (forward.u[k] + 0.5 * (s.u[k] - back)).clamp(lo, hi);
            }
            if v_is_free(n, i, j, open) {
                let p = v_position(i, j);
                let back = forward.sample_v(shifted(p, 1.0), open);
                let (lo, hi) = s.v_range(shifted(p, -1.0), open);
                out.v[k] = (forward.v[k] + 0.5 * (s.v[k] - back)).clamp(lo, hi);
            }
            if j < n {
                let p = centre_position(i, j);
                let (ahead, behind) = (shifted(p, 1.0), shifted(p, -1.0));
                let (lo, hi) = s.t_range(behind);
                out.t[k] = (forward.t[k] + 0.5 * (s.t[k] - forward.sample_t(ahead))).clamp(lo, hi);
                let back = forward.sample_dye(ahead);
                let cell = i + n * j;
                out.dye[cell] = [0, 1, 2, 3].map(|m| {
                    let (lo, hi) = s.dye_range(behind, m);
                    (forward.dye[cell][m] + 0.5 * (s.dye[cell][m] - back[m])).clamp(lo, hi)
                });
            }
        }
    }
    out
}

// ANCHOR: pcg
/// The emitter noise of forces.wgsl, bit for bit in its integer part.
fn pcg(v: u32) -> u32 {
    let state = v.wrapping_mul(747796405).wrapping_add(2891336453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277803737);
    (word >> 22) ^ word
}
// ANCHOR_END: pcg

fn lattice_noise(seed: u32, p: [i64; 2], t: u32) -> [f64; 3] {
    let mut h = pcg(seed ^ pcg(t ^ pcg((p[0] as i32 as u32) ^ pcg(p[1] as i32 as u32))));
    [0; 3].map(|_| {
        h = pcg(h);
        (h >> 8) as f64 / 8388607.5 - 1.0
    })
}

fn emitter_noise(c: &Config, p_radii: [f64; 2]) -> [f64; 3] {
    let p = p_radii.map(|x| x * 2.0);
    let base = p.map(|x| x.floor() as i64);
    let f = [p[0] - p[0].floor(), p[1] - p[1].floor()];
    let s = f.map(|f| f * f * (3.0 - 2.0 * f));
    let (t0, ft) = (c.step_index / 8, (c.step_index % 8) as f64 / 8.0);
    let mut out = [0.0; 3];
    for corner in 0..4 {
        let o = [corner & 1, (corner >> 1) & 1];
        let w = (if o[0] == 1 { s[0] } else { 1.0 - s[0] }) * (if o[1] == 1 { s[1] } else { 1.0 - s[1] });
        let at = [base[0] + o[0] as i64, base[1] + o[1] as i64];
        let (a, b) =
            (lattice_noise(c.turbulence_seed, at, t0), lattice_noise(c.turbulence_seed, at, t0.wrapping_add(1)));
        for k in 0..3 {
            out[k] += w * mix(a[k], b[k], ft);
        }
    }
    out
}

fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn to_emitter(c: &Config, p: [f64; 2]) -> [f64; 2] {
    let r = c.emitter_radius.max(1e-6);
    [(p[0] / c.n as f64 - c.emitter_centre[0]) / r, (p[1] / c.n as f64 - c.emitter_centre[1]) / r]
}

fn emitter_weight(c: &Config, p: [f64; 2]) -> f64 {
    let d = to_emitter(c, p);
    1.0 - smoothstep(0.5, 1.0, (d[0] * d[0] + d[1] * d[1]).sqrt())
}

fn emitter_velocity(c: &Config, p: [f64; 2]) -> [f64; 3] {
    let [ux, uy] = c.emitter_velocity;
    if c.turbulence <= 0.0 {
        return [ux, uy, 1.0];
    }
    let noise = emitter_noise(c, to_emitter(c, p));
    let speed = (ux * ux + uy * uy).sqrt().max(1.0);
    [
        ux + c.turbulence * speed * noise[0],
        uy + c.turbulence * speed * noise[1],
        (1.0 + c.turbulence * noise[2]).max(0.0),
    ]
}

/// The scalar curl at grid node (i, j) (common.wgsl's `curl_at_node`).
pub fn curl_at_node(s: &State, i: i64, j: i64, open: bool, h: f64) -> f64 {
    ((s.v_at(i, j, open) - s.v_at(i - 1, j, open)) - (s.u_at(i, j) - s.u_at(i, j - 1))) / h
}

const CONFINEMENT_SOFTENING: f64 = 1e-3;
const MAX_SPEED: f64 = 4096.0;

// ANCHOR: forces
/// Dissipation, buoyancy, confinement, cooling and the emitter (forces.wgsl).
pub fn forces(s: &State, c: &Config) -> State {
    let (n, open, h) = (s.n, c.open_top, c.h);
    let curl = |i: i64, j: i64| curl_at_node(s, i, j, open, h);
    let confinement = |ci: i64, cj: i64| -> [f64; 2] {
        let (w00, w10, w01, w11) = (curl(ci, cj), curl(ci + 1, cj), curl(ci, cj + 1), curl(ci + 1, cj + 1));
        let g = [
            (w10.abs() + w11.abs() - w00.abs() - w01.abs()) / (2.0 * h),
            (w01.abs() + w11.abs() - w00.abs() - w10.abs()) / (2.0 * h),
        ];
        let len = (g[0] * g[0] + g[1] * g[1]).sqrt() + CONFINEMENT_SOFTENING / h;
        let omega = 0.25 * (w00 + w10 + w01 + w11);
        [c.vorticity * h * omega * g[1] / len, -c.vorticity * h * omega * g[0] / len]
    };
    let new_u = |i: usize, j: usize| {
        let (ii, jj) = (i as i64, j as i64);
        let force = 0.5 * (confinement(ii - 1, jj)[0] + confinement(ii, jj)[0]);
        let u = s.u[s.face(i, j)] * c.velocity_keep + c.dt * force;
        let p = u_position(i, j);
        mix(u, emitter_velocity(c, p)[0], emitter_weight(c, p)).clamp(-MAX_SPEED, MAX_SPEED)
    };
    let new_v = |i: usize, j: usize| {
        let (ii, jj) = (i as i64, j as i64);
        let (below, here) = (i + n * (j - 1), i + n * j);
        let density = 0.5 * (s.dye[below][3] + s.dye[here][3]);
        let excess = 0.5 * (s.t[s.face(i, j - 1)] + s.t[s.face(i, j)]);
        let lift = c.buoyancy * density + c.heat_lift * excess;
        let force = lift + 0.5 * (confinement(ii, jj - 1)[1] + confinement(ii, jj)[1]);
        let v = s.v[s.face(i, j)] * c.velocity_keep + c.dt * force;
        let p = v_position(i, j);
        mix(v, emitter_velocity(c, p)[1], emitter_weight(c, p)).clamp(-MAX_SPEED, MAX_SPEED)
    };
    let mut out = State { q: s.q.clone(), div: s.div.clone(), ..State::zero(n) };
    for j in 0..=n {
        for i in 0..n {
            let k = s.face(i, j);
            if u_is_free(n, i, j) {
                out.u[k] = new_u(i, j);
            }
            if v_is_free(n, i, j, open) {
                out.v[k] = if j == n { new_v(i, n - 1) } else { new_v(i, j) };
            }
            if j < n {
                let p = centre_position(i, j);
                let w = emitter_weight(c, p);
                out.t[k] = mix(s.t[k] * c.temperature_keep, c.emitter_excess_k, w);
                let added = c.dt * c.emitter_rate * w * emitter_velocity(c, p)[2];
                let d = s.dye[i + n * j];
                let colour = [c.emitter_color[0], c.emitter_color[1], c.emitter_color[2], 1.0];
                out.dye[i + n * j] = [0, 1, 2, 3].map(|m| d[m] * c.density_keep + added * colour[m]);
            }
        }
    }
    out
}
// ANCHOR_END: forces

/// The compact divergence of every cell (divergence.wgsl).
pub fn divergence(s: &State, open: bool, h: f64) -> Vec<f64> {
    let n = s.n as i64;
    let mut d = vec![0.0; s.n * s.n];
    for j in 0..n {
        for i in 0..n {
            let out = s.u_at(i + 1, j) - s.u_at(i, j) + s.v_at(i, j + 1, open) - s.v_at(i, j, open);
            d[(i + n * j) as usize] = out / h;
        }
    }
    d
}

/// u ← u − ∇q on every free face, clamped to ±4096 m/s (project.wgsl).
pub fn project(s: &mut State, open: bool, h: f64) {
    let n = s.n;
    for j in 0..=n {
        for i in 0..n {
            let k = s.face(i, j);
            let (ii, jj) = (i as i64, j as i64);
            if u_is_free(n, i, j) {
                s.u[k] -= (q_at(n, &s.q, ii, jj, open) - q_at(n, &s.q, ii - 1, jj, open)) / h;
                s.u[k] = s.u[k].clamp(-MAX_SPEED, MAX_SPEED);
            }
            if v_is_free(n, i, j, open) {
                s.v[k] -= (q_at(n, &s.q, ii, jj, open) - q_at(n, &s.q, ii, jj - 1, open)) / h;
                s.v[k] = s.v[k].clamp(-MAX_SPEED, MAX_SPEED);
            }
        }
    }
}

/// The configured solve on `s.div`, from `s.q`.
pub fn solve(s: &mut State, c: &Config) {
    for _ in 0..c.sweeps {
        match c.solver {
            PressureSolver::Jacobi => s.q = jacobi_sweep(s.n, &s.q, &s.div, c.h, c.open_top),
            PressureSolver::RedBlackGs => rbgs_sweep(s.n, &mut s.q, &s.div, c.h, c.open_top, c.omega),
        }
    }
}

// ANCHOR: step
/// One whole step: advect, forces, divergence, solve, project (passes.rs's `record_step`).
pub fn step(s: &State, c: &Config) -> State {
    let advected = match c.advection {
        Advection::SemiLagrangian => advect(s, c),
        Advection::MacCormack => maccormack(s, c),
    };
    let mut out = forces(&advected, c);
    out.div = divergence(&out, c.open_top, c.h);
    solve(&mut out, c);
    project(&mut out, c.open_top, c.h);
    out
}
// ANCHOR_END: step

#[cfg(test)]
mod tests {
    use super::*;

    /// The projection leaves a divergence-free field when the solve has converged.
    #[test]
    fn a_converged_projection_is_divergence_free() {
        let n = 12;
        for open in [false, true] {
            let mut s = State::zero(n);
            for (k, u) in s.u.iter_mut().enumerate() {
                *u = ((k * 7919) % 13) as f64 / 13.0 - 0.5;
            }
            for (k, v) in s.v.iter_mut().enumerate() {
                *v = ((k * 104729) % 17) as f64 / 17.0 - 0.5;
            }
            s.div = divergence(&s, open, 0.5);
            for _ in 0..4000 {
                rbgs_sweep(n, &mut s.q, &s.div, 0.5, open, 1.6);
            }
            project(&mut s, open, 0.5);
            let after = divergence(&s, open, 0.5);
            let worst = after.iter().fold(0.0f64, |m, d| m.max(d.abs()));
            assert!(worst < 1e-9, "open {open}: divergence {worst} left");
        }
    }
}

#[cfg(test)]
mod symmetry {
    use super::*;
    use crate::Smoke2dParams;

    fn asymmetry(sets: &[(&str, &str)]) -> f64 {
        let mut p = Smoke2dParams { turbulence: 0.0, grid_size: 32, ..Default::default() };
        for (k, v) in sets {
            fogbook_core::params::set_by_name(&mut p, k, v).unwrap();
        }
        let mut s = State::zero(32);
        for step_index in 0..40 {
            let c = Config::new(&Smoke2dUniform::new(&p, 32, 0, step_index), p.pressure_solver, p.pressure_iterations);
            s = step(&s, &c);
        }
        mirror_asymmetry(32, &s.dye.iter().map(|d| d[3]).collect::<Vec<_>>())
    }

    /// In f64 the step is mirror-symmetric to rounding, except red–black ordering (which the
    /// mirror turns into black–red on an even grid).
    #[test]
    fn the_f64_step_is_mirror_symmetric() {
        let sl = asymmetry(&[]);
        let mc = asymmetry(&[("advection", "maccormack"), ("top_boundary", "open")]);
        let rb = asymmetry(&[("pressure_solver", "red-black-gs")]);
        eprintln!("f64 mirror asymmetry after 40 steps: SL {sl:.2e}, MacCormack open {mc:.2e}, red-black {rb:.2e}");
        assert!(sl < 1e-9 && mc < 1e-9, "{sl} {mc}");
    }
}
