//! Test problems and measures: the rotating blob, the L1 error, the mirror asymmetry.

use super::{Config, State, advect, maccormack, u_is_free, v_is_free};
use crate::Smoke2dUniform;
use crate::params::{Advection, PressureSolver};

/// The rotating-blob test: a Gaussian blob of dye at (0.5, 0.7) of the domain, radius 0.1,
/// carried by a rigid rotation about the centre that turns once in `steps` steps of `dt` on
/// cells of side `h`.
pub struct Rotation {
    pub n: usize,
    pub steps: usize,
    pub h: f64,
    pub dt: f64,
    /// The rotation's velocity (m/s) on the faces.
    pub velocity: State,
    pub blob: Vec<f64>,
}

impl Rotation {
    pub fn new(n: usize, steps: usize, h: f64, dt: f64) -> Self {
        // Angular speed (1/s) times the distance from the centre (m).
        let w = 2.0 * std::f64::consts::PI / (steps as f64 * dt) * h;
        let centre = n as f64 / 2.0;
        let mut velocity = State::zero(n);
        for j in 0..=n {
            for i in 0..n {
                let k = i + n * j;
                if u_is_free(n, i, j) {
                    velocity.u[k] = -w * (j as f64 + 0.5 - centre);
                }
                if v_is_free(n, i, j, false) {
                    velocity.v[k] = w * (i as f64 + 0.5 - centre);
                }
            }
        }
        let r = 0.1 * n as f64;
        let blob = (0..n * n)
            .map(|k| {
                let (x, y) = ((k % n) as f64 + 0.5 - 0.5 * n as f64, (k / n) as f64 + 0.5 - 0.7 * n as f64);
                (-(x * x + y * y) / (r * r)).exp()
            })
            .collect();
        Self { n, steps, h, dt, velocity, blob }
    }

    /// The blob after one turn, advected by the CPU scheme, velocity held fixed.
    pub fn run(&self, scheme: Advection) -> Vec<f64> {
        let mut s = self.velocity.clone();
        s.dye = self.blob.iter().map(|&d| [0.0, 0.0, 0.0, d]).collect();
        let uniform = Smoke2dUniform {
            grid_n: self.n as f32,
            cell_m: self.h as f32,
            dt_s: self.dt as f32,
            ..bytemuck::Zeroable::zeroed()
        };
        let c = Config { advection: scheme, ..Config::new(&uniform, PressureSolver::Jacobi, 0) };
        for _ in 0..self.steps {
            let next = match scheme {
                Advection::SemiLagrangian => advect(&s, &c),
                Advection::MacCormack => maccormack(&s, &c),
            };
            s.dye = next.dye;
        }
        s.dye.iter().map(|d| d[3]).collect()
    }
}

/// L1 error Σ|a − b| / Σ|b|.
pub fn l1_error(a: &[f64], exact: &[f64]) -> f64 {
    a.iter().zip(exact).map(|(x, y)| (x - y).abs()).sum::<f64>() / exact.iter().map(|y| y.abs()).sum::<f64>()
}

/// ‖ρ − mirror(ρ)‖ / ‖ρ‖ for a cell field mirrored about x = n/2.
pub fn mirror_asymmetry(n: usize, rho: &[f64]) -> f64 {
    let (mut diff, mut norm) = (0.0, 0.0);
    for j in 0..n {
        for i in 0..n {
            let (a, b) = (rho[i + n * j], rho[n - 1 - i + n * j]);
            diff += (a - b) * (a - b);
            norm += a * a;
        }
    }
    (diff / norm.max(1e-300)).sqrt()
}
