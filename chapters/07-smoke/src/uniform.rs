//! The GPU parameter block: `SmokeUniform`, built from the settings, and the helpers that turn
//! settings into its values.

use crate::obstacles;
use crate::params::{Advection, Axis, FieldDisplay, SmokeParams, TopBoundary};
use bytemuck::{Pod, Zeroable};

/// Distance of the box's centre from the default camera, down −Z (m).
pub const BOX_DISTANCE_M: f32 = 28.0;

/// Mirrors `struct SmokeParams` in shaders/07-smoke/common.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeUniform {
    pub grid_n: f32,
    pub cell_m: f32,
    pub box_m: f32,
    pub dt_s: f32,
    pub velocity_keep: f32,
    pub density_keep: f32,
    pub pressure_gradient_scale: f32,
    pub vorticity: f32,
    pub injection_centre: [f32; 3],
    pub injection_radius: f32,
    pub injection_velocity: [f32; 3],
    pub injection_rate: f32,
    pub injection_color: [f32; 3],
    pub buoyancy: f32,
    pub box_min: [f32; 3],
    pub extinction: f32,
    pub towards_sun: [f32; 3],
    pub sun_intensity: f32,
    pub view: u32,
    pub field_display: u32,
    pub slice_axis: u32,
    pub march_steps: u32,
    pub slice_position: f32,
    pub shadow_steps: u32,
    /// 0 semi-Lagrangian, 1 MacCormack.
    pub advection: u32,
    /// 0 closed, 1 open (outflow).
    pub top_boundary: u32,
    /// Emitter noise (0..1), its seed, and the number of steps taken (the noise's clock).
    pub turbulence: f32,
    pub turbulence_seed: u32,
    pub step_index: u32,
    /// Temperature kept per step, exp(−k_T dt) (Newtonian cooling, exact for any step).
    pub temperature_keep: f32,
    /// β (m/s² per K), T_amb (K), the emitter's T − T_amb (K).
    pub heat_lift: f32,
    pub ambient_k: f32,
    pub emitter_excess_k: f32,
    /// Glow at full temperature, and the ramp's start and end (K; end > start).
    pub emission: f32,
    pub emission_start_k: f32,
    pub emission_full_k: f32,
    /// Henyey–Greenstein g, multiple-scattering octaves and their a, b, c (see `view.wgsl`).
    pub phase_g: f32,
    pub octaves: u32,
    pub octave_extinction: f32,
    pub octave_contribution: f32,
    pub octave_eccentricity: f32,
    /// Multiplier of the sky and ground light.
    pub ambient_scale: f32,
    /// Extinction per colour channel relative to `extinction`.
    pub extinction_tint: [f32; 3],
    /// Obstacles (`obstacles.rs`): each on (1) or off, centres and sizes in box units,
    /// velocities in m/s.
    pub sphere_enabled: u32,
    /// Albedo of the scene's ground, which lights the smoke from below.
    pub ground_albedo: [f32; 3],
    pub box_enabled: u32,
    pub sphere_centre: [f32; 3],
    pub sphere_radius: f32,
    pub sphere_velocity: [f32; 3],
    pub _pad2: f32,
    pub box_centre: [f32; 3],
    pub _pad3: f32,
    pub box_half: [f32; 3],
    pub _pad4: f32,
    pub box_velocity: [f32; 3],
    pub _pad5: f32,
}

impl SmokeUniform {
    pub fn new(p: &SmokeParams, n: u32, towards_sun: [f32; 3], view: usize) -> Self {
        let dt = p.time_step_s as f64;
        let keep = |k: f32| (1.0 / (1.0 + k as f64 * dt)) as f32;
        let s = p.box_size_m;
        Self {
            grid_n: n as f32,
            cell_m: s / n as f32,
            box_m: s,
            dt_s: p.time_step_s,
            velocity_keep: keep(p.velocity_dissipation),
            density_keep: keep(p.density_dissipation),
            pressure_gradient_scale: p.pressure_gradient_scale,
            vorticity: p.vorticity,
            injection_centre: [0.5 + p.injection_offset_x, 0.12 + p.injection_offset_y, 0.5 + p.injection_offset_z],
            injection_radius: p.injection_radius,
            injection_velocity: [p.injection_velocity_x, p.injection_velocity_y, p.injection_velocity_z],
            injection_rate: p.injection_rate,
            injection_color: [p.injection_color[0], p.injection_color[1], p.injection_color[2]],
            buoyancy: p.buoyancy,
            box_min: [-s / 2.0, 0.0, -BOX_DISTANCE_M - s / 2.0],
            extinction: p.extinction,
            towards_sun,
            sun_intensity: p.sun_intensity,
            view: view as u32,
            field_display: (p.field_display == FieldDisplay::MaxProjection) as u32,
            slice_axis: match p.slice_axis {
                Axis::X => 0,
                Axis::Y => 1,
                Axis::Z => 2,
            },
            march_steps: p.march_steps,
            slice_position: p.slice_position,
            shadow_steps: p.shadow_steps,
            advection: (p.advection == Advection::MacCormack) as u32,
            top_boundary: (p.top_boundary == TopBoundary::Open) as u32,
            turbulence: p.turbulence,
            turbulence_seed: p.turbulence_seed,
            step_index: 0,
            temperature_keep: temperature_keep(p.cooling_rate, p.time_step_s),
            heat_lift: finite_or(p.heat_lift, 0.0),
            ambient_k: finite_or(p.ambient_temperature_k, 293.15),
            emitter_excess_k: emitter_excess_k(p),
            emission: finite_or(p.emission, 0.0).max(0.0),
            emission_start_k: p.emission_start_k,
            emission_full_k: p.emission_full_k.max(p.emission_start_k + 1.0),
            phase_g: finite_or(p.phase_g, 0.0).clamp(-0.95, 0.95),
            octaves: p.scattering_octaves.clamp(1, 8),
            octave_extinction: finite_or(p.octave_extinction, 1.0).clamp(0.0, 1.0),
            octave_contribution: finite_or(p.octave_contribution, 0.0).clamp(0.0, 1.0),
            octave_eccentricity: finite_or(p.octave_eccentricity, 1.0).clamp(0.0, 1.0),
            ambient_scale: finite_or(p.ambient_intensity, 1.0).max(0.0),
            extinction_tint: extinction_tint(p),
            ground_albedo: fogbook_core::scene::GROUND_ALBEDO,
            ..obstacles::uniform_part(p)
        }
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
