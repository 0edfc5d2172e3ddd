//! Parameters of the 2D smoke. Lengths are in metres (the square domain is `domain_size_m` on a
//! side), velocities in m/s, rates in 1/s, temperatures in kelvin; the emitter's position and
//! radius are fractions of the domain.

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

/// The choices every grid solver makes: the advection scheme and the top boundary.
pub use fogbook_core::grid_solver::{Advection, TopBoundary};

/// How the pressure equation ∇²q = ∇·u is solved each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PressureSolver {
    /// `pressure_iterations` Jacobi sweeps, one pass each.
    Jacobi,
    /// `pressure_iterations` red–black Gauss–Seidel sweeps over-relaxed by `sor_omega`, two
    /// passes each (red cells, then black).
    RedBlackGs,
}
fogbook_core::choice_enum!(PressureSolver { Jacobi = "jacobi", RedBlackGs = "red-black-gs" });

// ANCHOR: params
fogbook_core::parameters! {
    pub struct Smoke2dParams {
        "Grid and time" {
            /// Cells per side of the square grid.
            grid_size: u32 = 128,
                int(16, 2048).unit("cells").help("Cells per side (checked against the device's 2D texture limit)"),
            /// Side of the square domain (m).
            domain_size_m: f32 = 8.0,
                float(0.5, 100.0).unit("m").help("Side of the simulated square"),
            /// Simulated time per step (s); every advanced frame takes one step.
            time_step_s: f32 = 1.0 / 60.0,
                float(0.001, 0.1).unit("s").help("Simulated time per step"),
            /// How the pressure equation is solved.
            pressure_solver: PressureSolver = PressureSolver::Jacobi,
                choice(PressureSolver::OPTIONS).help("Jacobi sweeps, or red–black Gauss–Seidel sweeps with over-relaxation ω"),
            /// Sweeps of the pressure solve per step.
            pressure_iterations: u32 = 60,
                int(0, 2000).help("Sweeps per step"),
            /// Over-relaxation ω of the red–black solver: 1 is plain Gauss–Seidel. Young's optimum
            /// is 2 / (1 + √(1 − μ²)) with μ the slowest Jacobi rate; on the closed square
            /// μ = (1 + cos(π/n))/2, which gives 1.870 at 32² and 1.966 at 128².
            sor_omega: f32 = 1.0,
                float(0.5, 1.99).help("Red–black Gauss–Seidel over-relaxation ω (1: plain; optimum 2/(1 + √(1 − μ²)), μ = (1 + cos(π/n))/2)"),
            /// How velocity, temperature and dye are advected.
            advection: Advection = Advection::SemiLagrangian,
                choice(Advection::OPTIONS).help("Semi-Lagrangian, or MacCormack with Selle et al.'s clamp (one more pass)"),
            /// The top edge: a wall, or open so that the plume leaves.
            top_boundary: TopBoundary = TopBoundary::Closed,
                choice(TopBoundary::OPTIONS).help("Top edge: closed wall, or open outflow (q = 0, zero-gradient velocity)"),
        }
        "Emitter" {
            /// Emitter disc: radius and centre, fractions of the domain.
            emitter_radius: f32 = 0.06,
                float(0.01, 0.5).unit("domain").help("Emitter radius, fraction of the domain"),
            emitter_x: f32 = 0.5,
                float(0.0, 1.0).unit("domain").help("Emitter centre, from the left"),
            emitter_y: f32 = 0.1,
                float(0.0, 1.0).unit("domain").help("Emitter centre, from the bottom"),
            /// Velocity the emitter sets inside its disc (m/s).
            emitter_velocity_x: f32 = 0.0,
                float(-50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            emitter_velocity_y: f32 = 2.0,
                float(-50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            /// Density added per second inside the disc, and the dye's colour.
            emitter_rate: f32 = 10.0,
                float(0.0, 100.0).unit("1/s").help("Density added per second"),
            emitter_color: [f32; 4] = [0.95, 0.75, 0.45, 1.0],
                color(false, 1.0).help("Dye colour"),
            /// Temperature the emitter holds inside its disc (K).
            emitter_temperature_k: f32 = 500.0,
                float(1.0, 6000.0).unit("K").help("Temperature set inside the emitter"),
            /// Noise on the emitter's velocity and density: 0 none, 1 velocity noise as large as
            /// its speed (at least 1 m/s) and density × (1 ± 1). Seeded and repeatable.
            turbulence: f32 = 0.3,
                float(0.0, 1.0).help("Emitter noise: velocity ± turbulence × speed, density × (1 ± turbulence)"),
            turbulence_seed: u32 = 1,
                int(0, 1_000_000).help("Seed of the emitter noise"),
        }
        "Forces" {
            /// Upward acceleration per unit density (m/s²): Fedkiw, Stam and Jensen's −α.
            /// Negative: heavy smoke sinks unless heat lifts it.
            buoyancy: f32 = 0.0,
                float(-50.0, 50.0).unit("m/s²").help("Upward acceleration per unit density (−α)"),
            /// β: upward acceleration per kelvin above ambient (m/s² per K).
            heat_lift: f32 = 0.01,
                float(0.0, 1.0).unit("m/s²/K").help("Upward acceleration per kelvin above ambient (β)"),
            /// Temperature of the still air (K); the field stores T − T_amb.
            ambient_temperature_k: f32 = 293.15,
                float(1.0, 2000.0).unit("K").help("Ambient air temperature T_amb"),
            /// Newtonian cooling: T − T_amb decays as exp(−k t) (1/s).
            cooling_rate: f32 = 0.5,
                float(0.0, 20.0).unit("1/s").help("Rate at which T relaxes to ambient, exp(−k t)"),
            /// Vorticity confinement strength ε.
            vorticity: f32 = 0.3,
                float(0.0, 5.0).help("Vorticity confinement ε"),
            /// Dissipation rates k: each step multiplies by 1/(1 + k dt) (1/s).
            velocity_dissipation: f32 = 0.05,
                float(0.0, 10.0).unit("1/s").help("Velocity damping rate"),
            density_dissipation: f32 = 0.05,
                float(0.0, 10.0).unit("1/s").help("Density fading rate"),
        }
    }
}
// ANCHOR_END: params
