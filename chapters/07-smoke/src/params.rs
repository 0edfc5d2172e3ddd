//! Smoke parameters. Lengths are in metres (the box is `box_size_m` on a side), velocities in
//! m/s, rates in 1/s; the emitter's position and radius are fractions of the box.

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

/// The choices every grid solver makes: the advection scheme and the top boundary.
pub use fogbook_core::grid_solver::{Advection, TopBoundary};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldDisplay {
    Slice,
    MaxProjection,
}
fogbook_core::choice_enum!(FieldDisplay { Slice = "slice", MaxProjection = "max-projection" });

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Axis {
    X,
    Y,
    Z,
}
fogbook_core::choice_enum!(Axis { X = "x", Y = "y", Z = "z" });

/// How the pressure equation ∇²q = ∇·u is solved each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PressureSolver {
    /// `pressure_iterations` Jacobi sweeps: simple, and slow for large-scale divergence.
    Jacobi,
    /// `pressure_iterations` red–black Gauss–Seidel sweeps over-relaxed by `sor_omega`, two
    /// passes each.
    RedBlackGs,
    /// `multigrid_cycles` geometric multigrid V(ν₁,ν₂) cycles (`multigrid_pre_sweeps`,
    /// `multigrid_post_sweeps`; V(2,2) by default).
    Multigrid,
}
fogbook_core::choice_enum!(PressureSolver { Jacobi = "jacobi", RedBlackGs = "red-black-gs", Multigrid = "multigrid" });

// ANCHOR: params
fogbook_core::parameters! {
    pub struct SmokeParams {
        "Grid and time" {
            /// Cells per side of the cubic grid.
            grid_size: u32 = 64,
                int(16, 512).unit("cells").help("Cells per side (checked against the device's 3D texture limit and memory)"),
            /// Side of the simulated box in the scene (m).
            box_size_m: f32 = 12.0,
                float(1.0, 100.0).unit("m").help("Side of the simulated box"),
            /// Simulated time per step (s); every advanced frame takes one step.
            time_step_s: f32 = 1.0 / 60.0,
                float(0.001, 0.1).unit("s").help("Simulated time per step"),
            /// How the pressure equation is solved.
            pressure_solver: PressureSolver = PressureSolver::Multigrid,
                choice(PressureSolver::OPTIONS).help("Jacobi sweeps, red–black Gauss–Seidel (SOR) sweeps, or multigrid V-cycles"),
            /// Sweeps of the pressure solve per step (Jacobi or red–black Gauss–Seidel).
            pressure_iterations: u32 = 40,
                int(0, 500).help("Sweeps per step (Jacobi, red–black Gauss–Seidel)"),
            /// Over-relaxation ω of the red–black solver: 1 is plain Gauss–Seidel; the optimum
            /// for the model problem is 2 / (1 + sin(π/n)), 1.91 at 64³.
            sor_omega: f32 = 1.0,
                float(0.5, 1.99).help("Red–black Gauss–Seidel over-relaxation ω (1: plain; optimum 2/(1 + sin(π/n)))"),
            /// Multigrid V-cycles per step.
            multigrid_cycles: u32 = 2,
                int(0, 50).help("Multigrid V-cycles per step"),
            /// Gauss–Seidel sweeps on each level before the coarse-grid correction (ν₁ of a
            /// V(ν₁,ν₂) cycle).
            multigrid_pre_sweeps: u32 = 2,
                int(1, 4).help("Multigrid smoothing sweeps before the coarse-grid correction (ν₁)"),
            /// Gauss–Seidel sweeps on each level after the coarse-grid correction (ν₂).
            multigrid_post_sweeps: u32 = 2,
                int(0, 4).help("Multigrid smoothing sweeps after the coarse-grid correction (ν₂)"),
            /// Multiplier of the subtracted pressure gradient (1: a full projection).
            pressure_gradient_scale: f32 = 1.0,
                float(0.0, 2.0).help("Multiplier of the subtracted pressure gradient"),
            /// How velocity and smoke are advected.
            advection: Advection = Advection::MacCormack,
                choice(Advection::OPTIONS).help("Semi-Lagrangian, or MacCormack with a min/max limiter (one more pass)"),
            /// The top face: a wall, or open so that the plume leaves the box.
            top_boundary: TopBoundary = TopBoundary::Open,
                choice(TopBoundary::OPTIONS).help("Top face: closed wall, or open outflow (q = 0, zero-gradient velocity and smoke)"),
            /// Vorticity confinement strength ε.
            vorticity: f32 = 1.5,
                float(0.0, 5.0).help("Vorticity confinement ε"),
        }
        "Emitter" {
            /// Emitter: radius (fraction of the box), centre offset from (0.5, 0.12, 0.5) in box units.
            injection_radius: f32 = 0.1,
                float(0.01, 0.5).unit("box").help("Emitter radius, fraction of the box"),
            injection_offset_x: f32 = 0.0,
                float(-0.5, 0.5).unit("box").help("Emitter offset from the bottom centre"),
            injection_offset_y: f32 = 0.0,
                float(-0.12, 0.88).unit("box").help("Emitter offset upwards"),
            injection_offset_z: f32 = 0.0,
                float(-0.5, 0.5).unit("box").help("Emitter offset in depth"),
            /// Velocity inside the emitter (m/s).
            injection_velocity_x: f32 = 0.0,
                float(-50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            injection_velocity_y: f32 = 3.0,
                float(-50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            injection_velocity_z: f32 = 0.0,
                float(-50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            /// Density added per second inside the emitter, and its colour.
            injection_rate: f32 = 6.0,
                float(0.0, 100.0).unit("1/s").help("Density added per second"),
            injection_color: [f32; 4] = [0.85, 0.85, 0.9, 1.0],
                color(false, 1.0).help("Smoke colour (albedo)"),
            /// Noise on the emitter's velocity and density: 0 none, 1 velocity noise as large as
            /// the emitter's speed and density varying by ±100 %. Seeded and repeatable.
            turbulence: f32 = 0.8,
                float(0.0, 1.0).help("Emitter noise: velocity ± turbulence × speed, density × (1 ± turbulence)"),
            turbulence_seed: u32 = 1,
                int(0, 1_000_000).help("Seed of the emitter noise"),
        }
        "Dissipation and forces" {
            /// Dissipation rates k: each step multiplies by 1/(1 + k dt) (1/s).
            velocity_dissipation: f32 = 0.05,
                float(0.0, 10.0).unit("1/s").help("Velocity damping rate"),
            density_dissipation: f32 = 0.08,
                float(0.0, 10.0).unit("1/s").help("Density fading rate"),
            /// Upward acceleration per unit density (m/s²): Fedkiw, Stam and Jensen's −α. Positive
            /// (the default) is light smoke that rises on its own, as before the temperature
            /// field existed; negative is heavy smoke that sinks unless heat lifts it.
            buoyancy: f32 = 2.0,
                float(-50.0, 50.0).unit("m/s²").help("Upward acceleration per unit density (−α; negative: heavy smoke sinks)"),
        }
        "Temperature" {
            /// Temperature of the still air; the field stores T − T_amb (K).
            ambient_temperature_k: f32 = 293.15,
                float(1.0, 2000.0).unit("K").help("Ambient air temperature T_amb"),
            /// Temperature the emitter sets inside its sphere (K); below ambient is a cold source.
            emitter_temperature_k: f32 = 600.0,
                float(1.0, 6000.0).unit("K").help("Temperature set inside the emitter"),
            /// β: upward acceleration per kelvin above ambient (m/s² per K). 0 keeps the plume
            /// of the density-only model.
            heat_lift: f32 = 0.0,
                float(0.0, 1.0).unit("m/s²/K").help("Upward acceleration per kelvin above ambient (β)"),
            /// Newtonian cooling: T − T_amb decays as exp(−k t) (1/s).
            cooling_rate: f32 = 1.0,
                float(0.0, 20.0).unit("1/s").help("Rate at which T relaxes to ambient, exp(−k t)"),
            /// Emitted radiance of hot smoke at full glow, per unit of extinction (0: none).
            emission: f32 = 0.0,
                float(0.0, 50.0).help("Glow of hot smoke: radiance at full glow (0: none)"),
            /// The glow ramp: nothing below `emission_start_k` (Draper point, 798 K), full glow
            /// from `emission_full_k`; colour (t, t², t⁴) in between.
            emission_start_k: f32 = 798.0,
                float(1.0, 6000.0).unit("K").help("Temperature where the glow starts (Draper point 798 K)"),
            emission_full_k: f32 = 1800.0,
                float(1.0, 6000.0).unit("K").help("Temperature of full, white glow"),
        }
        "Obstacles" {
            /// A solid sphere in the flow: on/off, centre and radius (box units, fractions of the
            /// box), and the velocity it moves with (m/s). A moving obstacle's centre advances
            /// each step and stops at the walls.
            sphere_enabled: bool = false,
                boolean().help("A solid sphere in the flow"),
            sphere_x: f32 = 0.5,
                float(0.0, 1.0).unit("box").help("Sphere centre"),
            sphere_y: f32 = 0.45,
                float(0.0, 1.0).unit("box").help("Sphere centre (height)"),
            sphere_z: f32 = 0.5,
                float(0.0, 1.0).unit("box").help("Sphere centre (depth)"),
            sphere_radius: f32 = 0.12,
                float(0.0, 0.5).unit("box").help("Sphere radius"),
            sphere_velocity_x: f32 = 0.0,
                float(-20.0, 20.0).unit("m/s").help("Velocity the sphere moves with"),
            sphere_velocity_y: f32 = 0.0,
                float(-20.0, 20.0).unit("m/s").help("Velocity the sphere moves with"),
            sphere_velocity_z: f32 = 0.0,
                float(-20.0, 20.0).unit("m/s").help("Velocity the sphere moves with"),
            /// A solid axis-aligned box: on/off, centre and half size (box units), velocity (m/s).
            box_enabled: bool = false,
                boolean().help("A solid box in the flow"),
            box_x: f32 = 0.5,
                float(0.0, 1.0).unit("box").help("Box centre"),
            box_y: f32 = 0.7,
                float(0.0, 1.0).unit("box").help("Box centre (height)"),
            box_z: f32 = 0.5,
                float(0.0, 1.0).unit("box").help("Box centre (depth)"),
            box_half_x: f32 = 0.15,
                float(0.0, 0.5).unit("box").help("Box half size"),
            box_half_y: f32 = 0.04,
                float(0.0, 0.5).unit("box").help("Box half size (height)"),
            box_half_z: f32 = 0.15,
                float(0.0, 0.5).unit("box").help("Box half size (depth)"),
            box_velocity_x: f32 = 0.0,
                float(-20.0, 20.0).unit("m/s").help("Velocity the box moves with"),
            box_velocity_y: f32 = 0.0,
                float(-20.0, 20.0).unit("m/s").help("Velocity the box moves with"),
            box_velocity_z: f32 = 0.0,
                float(-20.0, 20.0).unit("m/s").help("Velocity the box moves with"),
        }
        "Rendering" {
            /// Extinction per unit density (1/m), for the rendered smoke and its self-shadowing.
            extinction: f32 = 1.0,
                float(0.0, 50.0).unit("1/m").help("Extinction per unit density"),
            /// Per-channel extinction relative to `extinction` (white: grey smoke; a colour
            /// that absorbs less red than blue makes thin smoke brown against the light).
            extinction_color: [f32; 4] = [1.0, 1.0, 1.0, 1.0],
                color(false, 1.0).help("Extinction per colour channel, relative to `extinction` (the absorption colour)"),
            /// Multiplier of the scene's sun on the smoke (1: the sun that lights the ground).
            sun_intensity: f32 = 1.0,
                float(0.0, 50.0).help("Multiplier of the scene's sun on the smoke (1: physical)"),
            /// Henyey–Greenstein asymmetry g of the smoke's phase function (0: isotropic;
            /// soot and droplets scatter forwards, g ≈ 0.3–0.7).
            phase_g: f32 = 0.4,
                float(-0.95, 0.95).help("Henyey–Greenstein asymmetry g (0: isotropic, > 0: forward)"),
            /// Multiple scattering as octaves of single scattering (Wrenninge et al. 2013):
            /// octave i has extinction × a^i, contribution b^i and eccentricity g × c^i.
            scattering_octaves: u32 = 3,
                int(1, 8).help("Octaves of the multiple-scattering approximation (1: single scattering)"),
            octave_extinction: f32 = 0.5,
                float(0.0, 1.0).help("a: each octave's extinction multiplier (light reaches deeper)"),
            octave_contribution: f32 = 0.5,
                float(0.0, 1.0).help("b: each octave's contribution multiplier"),
            octave_eccentricity: f32 = 0.5,
                float(0.0, 1.0).help("c: each octave's phase eccentricity multiplier (more isotropic)"),
            /// Multiplier of the sky light from above and the ground's light from below.
            ambient_intensity: f32 = 1.0,
                float(0.0, 10.0).help("Multiplier of the sky (above) and ground (below) light on the smoke"),
            /// Whether the smoke's shadow falls on the scene (through the core's volume shadow).
            cast_shadow: bool = true,
                boolean().help("The smoke shadows the scene's sunlit surfaces"),
            /// Ray-march steps through the box, and towards the sun per cell.
            march_steps: u32 = 96,
                int(8, 512).help("Ray-march steps through the box"),
            shadow_steps: u32 = 24,
                int(1, 128).help("Steps per cell of the light volume's marches (to the sun, up, down)"),
            /// How field views show the 3D field.
            field_display: FieldDisplay = FieldDisplay::Slice,
                choice(FieldDisplay::OPTIONS).help("Field views: a slice or a maximum-intensity projection"),
            slice_axis: Axis = Axis::Z,
                choice(Axis::OPTIONS).help("Axis the slice is perpendicular to"),
            slice_position: f32 = 0.5,
                float(0.0, 1.0).unit("box").help("Where the slice cuts the box"),
        }
    }
}
// ANCHOR_END: params
