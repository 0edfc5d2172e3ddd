//! The GPU parameter block: `SmokeUniform`, built from the settings, and the helpers that turn
//! settings into its values.

use crate::obstacles;
pub use crate::obstacles::{SmokeCuboid, SmokeSphere};
use crate::params::{Advection, Axis, FieldDisplay, SmokeParams, TopBoundary};
use bytemuck::{Pod, Zeroable};

/// Distance of the box's centre from the default camera, down −Z (m).
pub const BOX_DISTANCE_M: f32 = 28.0;

/// Mirrors `struct SmokeParams` in shaders/07-smoke/params.wgsl, grouped by meaning: one
/// `#[repr(C)]` sub-struct per concern, each a whole number of 16-byte rows (WGSL's rule for a
/// struct inside a uniform) and each mirrored by a WGSL struct of the same name. Plain Pod structs
/// rather than a derived layout (`encase`): every uniform of the book is Pod and written with
/// `bytemuck`, and tests/contracts.rs holds each struct, nested ones included, to naga's offsets;
/// `_align…` is padding WGSL adds by itself (a `vec3` starts a row, and a struct holding one ends
/// on a row), `_pad…` members both sides spell out (WGSL pads a struct of scalars alone to no row).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeUniform {
    pub grid: SmokeGrid,
    pub solver: SmokeSolver,
    pub forces: SmokeForces,
    pub emitter: SmokeEmitter,
    pub sphere: SmokeSphere,
    pub cuboid: SmokeCuboid,
    pub optics: SmokeOptics,
    pub light: SmokeLight,
    pub display: SmokeDisplay,
}

/// The box in the world, its cells and the step.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeGrid {
    /// World position of the box's corner (m).
    pub box_min: [f32; 3],
    /// Cells per side.
    pub n: f32,
    pub cell_m: f32,
    pub box_m: f32,
    pub dt_s: f32,
    /// The number of steps taken: the emitter noise's clock.
    pub step_index: u32,
}

/// How a step integrates: the fraction of each field a step keeps, the projection's gradient
/// scale, the advection scheme and the top wall.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeSolver {
    pub velocity_keep: f32,
    pub density_keep: f32,
    /// Temperature kept per step, exp(−k_T dt) (Newtonian cooling, exact for any step).
    pub temperature_keep: f32,
    pub pressure_gradient_scale: f32,
    /// 0 semi-Lagrangian, 1 MacCormack.
    pub advection: u32,
    /// 0 closed, 1 open (outflow).
    pub top_boundary: u32,
    pub _pad0: u32,
    pub _pad1: u32,
}

/// The body forces: buoyancy per unit density, β (m/s² per K) and vorticity confinement ε.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeForces {
    pub buoyancy: f32,
    pub heat_lift: f32,
    pub vorticity: f32,
    pub _pad0: f32,
}

/// The source, in box units and m/s: where it is, what it adds (density per s, colour, the
/// temperature above ambient in K) and its noise (0..1) with the noise's seed.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeEmitter {
    pub centre: [f32; 3],
    pub radius: f32,
    pub velocity: [f32; 3],
    pub rate: f32,
    pub color: [f32; 3],
    pub excess_k: f32,
    pub turbulence: f32,
    pub turbulence_seed: u32,
    pub _align: [u32; 2],
}

/// What the smoke does to light: extinction per unit density (1/m) and per colour channel
/// relative to it, the glow at full temperature and its ramp (K; end > start), and T_amb (K),
/// since the fields hold T − T_amb.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeOptics {
    pub extinction_tint: [f32; 3],
    pub extinction: f32,
    pub emission: f32,
    pub emission_start_k: f32,
    pub emission_full_k: f32,
    pub ambient_k: f32,
}

/// The light that reaches the smoke and how it scatters: the sun, the ground's albedo (it lights
/// the smoke from below) and the sky and ground light's multiplier; Henyey–Greenstein g,
/// multiple-scattering octaves and their a, b, c (see `view.wgsl`); the light volume's steps.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeLight {
    pub towards_sun: [f32; 3],
    pub sun_intensity: f32,
    pub ground_albedo: [f32; 3],
    pub ambient_scale: f32,
    pub phase_g: f32,
    pub octaves: u32,
    pub octave_extinction: f32,
    pub octave_contribution: f32,
    pub octave_eccentricity: f32,
    pub shadow_steps: u32,
    pub _align: [u32; 2],
}

/// What the display pass shows (the light volume depends on none of it): the debug view, the
/// field display (0 slice, 1 max projection), the slice's axis and position, the view's steps.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeDisplay {
    pub view: u32,
    pub field_display: u32,
    pub slice_axis: u32,
    pub slice_position: f32,
    pub march_steps: u32,
    pub _pad0: u32,
    pub _pad1: u32,
    pub _pad2: u32,
}

impl SmokeUniform {
    pub fn new(p: &SmokeParams, n: u32, towards_sun: [f32; 3], view: usize) -> Self {
        let dt = p.time_step_s as f64;
        let keep = |k: f32| (1.0 / (1.0 + k as f64 * dt)) as f32;
        let s = p.box_size_m;
        Self {
            grid: SmokeGrid {
                box_min: [-s / 2.0, 0.0, -BOX_DISTANCE_M - s / 2.0],
                n: n as f32,
                cell_m: s / n as f32,
                box_m: s,
                dt_s: p.time_step_s,
                step_index: 0,
            },
            solver: SmokeSolver {
                velocity_keep: keep(p.velocity_dissipation),
                density_keep: keep(p.density_dissipation),
                temperature_keep: temperature_keep(p.cooling_rate, p.time_step_s),
                pressure_gradient_scale: p.pressure_gradient_scale,
                advection: (p.advection == Advection::MacCormack) as u32,
                top_boundary: (p.top_boundary == TopBoundary::Open) as u32,
                ..Zeroable::zeroed()
            },
            forces: SmokeForces {
                buoyancy: p.buoyancy,
                heat_lift: finite_or(p.heat_lift, 0.0),
                vorticity: p.vorticity,
                _pad0: 0.0,
            },
            emitter: SmokeEmitter {
                centre: [0.5 + p.injection_offset_x, 0.12 + p.injection_offset_y, 0.5 + p.injection_offset_z],
                radius: p.injection_radius,
                velocity: [p.injection_velocity_x, p.injection_velocity_y, p.injection_velocity_z],
                rate: p.injection_rate,
                color: [p.injection_color[0], p.injection_color[1], p.injection_color[2]],
                excess_k: emitter_excess_k(p),
                turbulence: p.turbulence,
                turbulence_seed: p.turbulence_seed,
                _align: [0; 2],
            },
            sphere: obstacles::sphere_uniform(p),
            cuboid: obstacles::cuboid_uniform(p),
            optics: SmokeOptics {
                extinction_tint: extinction_tint(p),
                extinction: p.extinction,
                emission: finite_or(p.emission, 0.0).max(0.0),
                emission_start_k: p.emission_start_k,
                emission_full_k: p.emission_full_k.max(p.emission_start_k + 1.0),
                ambient_k: finite_or(p.ambient_temperature_k, 293.15),
            },
            light: SmokeLight {
                towards_sun,
                sun_intensity: p.sun_intensity,
                ground_albedo: fogbook_core::scene::GROUND_ALBEDO,
                ambient_scale: finite_or(p.ambient_intensity, 1.0).max(0.0),
                phase_g: finite_or(p.phase_g, 0.0).clamp(-0.95, 0.95),
                octaves: p.scattering_octaves.clamp(1, 8),
                octave_extinction: finite_or(p.octave_extinction, 1.0).clamp(0.0, 1.0),
                octave_contribution: finite_or(p.octave_contribution, 0.0).clamp(0.0, 1.0),
                octave_eccentricity: finite_or(p.octave_eccentricity, 1.0).clamp(0.0, 1.0),
                shadow_steps: p.shadow_steps,
                _align: [0; 2],
            },
            display: SmokeDisplay {
                view: view as u32,
                field_display: (p.field_display == FieldDisplay::MaxProjection) as u32,
                slice_axis: match p.slice_axis {
                    Axis::X => 0,
                    Axis::Y => 1,
                    Axis::Z => 2,
                },
                slice_position: p.slice_position,
                march_steps: p.march_steps,
                ..Zeroable::zeroed()
            },
        }
    }

    /// This uniform at step `step_index` (the emitter noise's clock).
    pub fn at_step(mut self, step_index: u32) -> Self {
        self.grid.step_index = step_index;
        self
    }
}

// ANCHOR: cooling
/// The fraction of T − T_amb a step of `dt` keeps under Newtonian cooling at rate `k`,
/// exp(−k dt): the exact solution of dT/dt = −k (T − T_amb) over one step, so n steps give
/// exp(−k n dt) for any step size. A negative or non-finite rate is treated as 0 (no heating
/// from nowhere).
pub fn temperature_keep(k: f32, dt: f32) -> f32 {
    let k = finite_or(k, 0.0).max(0.0) as f64;
    (-k * finite_or(dt, 0.0).max(0.0) as f64).exp() as f32
}
// ANCHOR_END: cooling

/// The emitter's temperature above ambient (K), limited to what half precision holds with room
/// to spare (±60 000 K); non-finite settings give 0.
pub fn emitter_excess_k(p: &SmokeParams) -> f32 {
    finite_or(p.emitter_temperature_k - p.ambient_temperature_k, 0.0).clamp(-60_000.0, 60_000.0)
}

/// The per-channel extinction multipliers: `extinction_color`, non-finite channels as 1.
pub fn extinction_tint(p: &SmokeParams) -> [f32; 3] {
    let c = p.extinction_color;
    [0, 1, 2].map(|i| finite_or(c[i], 1.0).max(0.0))
}

fn finite_or(v: f32, fallback: f32) -> f32 {
    if v.is_finite() { v } else { fallback }
}
