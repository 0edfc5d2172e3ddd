//! Smoke parameters. Lengths are in metres (the box is `box_size_m` on a side), velocities in
//! m/s, rates in 1/s; the emitter's position and radius are fractions of the box.

use fogbook_core::params::{ChoiceParam, ParamInfo, ParamVisitor, Parameters, visit_choice};
use serde::{Deserialize, Serialize};

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

// ANCHOR: params
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmokeParams {
    /// Cells per side of the cubic grid.
    pub grid_size: u32,
    /// Side of the simulated box in the scene (m).
    pub box_size_m: f32,
    /// Simulated time per step (s); every advanced frame takes one step.
    pub time_step_s: f32,
    /// Jacobi sweeps of the pressure solve per step.
    pub pressure_iterations: u32,
    /// Multiplier of the subtracted pressure gradient (1: a full projection).
    pub pressure_gradient_scale: f32,
    /// Vorticity confinement strength ε.
    pub vorticity: f32,
    /// Emitter: radius (fraction of the box), centre offset from (0.5, 0.12, 0.5) in box units.
    pub injection_radius: f32,
    pub injection_offset_x: f32,
    pub injection_offset_y: f32,
    pub injection_offset_z: f32,
    /// Velocity inside the emitter (m/s).
    pub injection_velocity_x: f32,
    pub injection_velocity_y: f32,
    pub injection_velocity_z: f32,
    /// Density added per second inside the emitter, and its colour.
    pub injection_rate: f32,
    pub injection_color: [f32; 4],
    /// Dissipation rates k: each step multiplies by 1/(1 + k dt) (1/s).
    pub velocity_dissipation: f32,
    pub density_dissipation: f32,
    /// Upward acceleration per unit density (m/s²).
    pub buoyancy: f32,
    /// Extinction per unit density (1/m), for the rendered smoke and its self-shadowing.
    pub extinction: f32,
    pub sun_intensity: f32,
    /// Ray-march steps through the box, and towards the sun per cell.
    pub march_steps: u32,
    pub shadow_steps: u32,
    /// How field views show the 3D field.
    pub field_display: FieldDisplay,
    pub slice_axis: Axis,
    pub slice_position: f32,
}
// ANCHOR_END: params

impl Default for SmokeParams {
    fn default() -> Self {
        Self {
            grid_size: 64,
            box_size_m: 12.0,
            time_step_s: 1.0 / 60.0,
            pressure_iterations: 40,
            pressure_gradient_scale: 1.0,
            vorticity: 0.35,
            injection_radius: 0.1,
            injection_offset_x: 0.0,
            injection_offset_y: 0.0,
            injection_offset_z: 0.0,
            injection_velocity_x: 0.0,
            injection_velocity_y: 3.0,
            injection_velocity_z: 0.0,
            injection_rate: 12.0,
            injection_color: [0.85, 0.85, 0.9, 1.0],
            velocity_dissipation: 0.05,
            density_dissipation: 0.08,
            buoyancy: 2.0,
            extinction: 1.5,
            sun_intensity: 4.0,
            march_steps: 96,
            shadow_steps: 24,
            field_display: FieldDisplay::Slice,
            slice_axis: Axis::Z,
            slice_position: 0.5,
        }
    }
}

impl Parameters for SmokeParams {
    fn visit(&mut self, v: &mut dyn ParamVisitor) {
        v.group("Grid and time");
        v.int(
            &ParamInfo::int("grid_size", 16, 512)
                .unit("cells")
                .help("Cells per side (checked against the device's 3D texture limit and memory)"),
            &mut self.grid_size,
        );
        v.float(
            &ParamInfo::float("box_size_m", 1.0, 100.0).unit("m").help("Side of the simulated box"),
            &mut self.box_size_m,
        );
        v.float(
            &ParamInfo::float("time_step_s", 0.001, 0.1).unit("s").help("Simulated time per step"),
            &mut self.time_step_s,
        );
        v.int(
            &ParamInfo::int("pressure_iterations", 0, 500).help("Jacobi sweeps per step"),
            &mut self.pressure_iterations,
        );
        v.float(
            &ParamInfo::float("pressure_gradient_scale", 0.0, 2.0)
                .help("Multiplier of the subtracted pressure gradient"),
            &mut self.pressure_gradient_scale,
        );
        v.float(&ParamInfo::float("vorticity", 0.0, 5.0).help("Vorticity confinement ε"), &mut self.vorticity);
        v.group("Emitter");
        v.float(
            &ParamInfo::float("injection_radius", 0.01, 0.5).unit("box").help("Emitter radius, fraction of the box"),
            &mut self.injection_radius,
        );
        v.float(
            &ParamInfo::float("injection_offset_x", -0.5, 0.5)
                .unit("box")
                .help("Emitter offset from the bottom centre"),
            &mut self.injection_offset_x,
        );
        v.float(
            &ParamInfo::float("injection_offset_y", -0.12, 0.88).unit("box").help("Emitter offset upwards"),
            &mut self.injection_offset_y,
        );
        v.float(
            &ParamInfo::float("injection_offset_z", -0.5, 0.5).unit("box").help("Emitter offset in depth"),
            &mut self.injection_offset_z,
        );
        v.float(
            &ParamInfo::float("injection_velocity_x", -50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            &mut self.injection_velocity_x,
        );
        v.float(
            &ParamInfo::float("injection_velocity_y", -50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            &mut self.injection_velocity_y,
        );
        v.float(
            &ParamInfo::float("injection_velocity_z", -50.0, 50.0).unit("m/s").help("Velocity inside the emitter"),
            &mut self.injection_velocity_z,
        );
        v.float(
            &ParamInfo::float("injection_rate", 0.0, 100.0).unit("1/s").help("Density added per second"),
            &mut self.injection_rate,
        );
        v.color(
            &ParamInfo::color("injection_color", false, 1.0).help("Smoke colour (albedo)"),
            &mut self.injection_color,
        );
        v.group("Dissipation and forces");
        v.float(
            &ParamInfo::float("velocity_dissipation", 0.0, 10.0).unit("1/s").help("Velocity damping rate"),
            &mut self.velocity_dissipation,
        );
        v.float(
            &ParamInfo::float("density_dissipation", 0.0, 10.0).unit("1/s").help("Density fading rate"),
            &mut self.density_dissipation,
        );
        v.float(
            &ParamInfo::float("buoyancy", 0.0, 50.0).unit("m/s²").help("Upward acceleration per unit density"),
            &mut self.buoyancy,
        );
        v.group("Rendering");
        v.float(
            &ParamInfo::float("extinction", 0.0, 50.0).unit("1/m").help("Extinction per unit density"),
            &mut self.extinction,
        );
        v.float(&ParamInfo::float("sun_intensity", 0.0, 50.0).help("Sun light on the smoke"), &mut self.sun_intensity);
        v.int(&ParamInfo::int("march_steps", 8, 512).help("Ray-march steps through the box"), &mut self.march_steps);
        v.int(&ParamInfo::int("shadow_steps", 1, 128).help("Steps towards the sun per cell"), &mut self.shadow_steps);
        visit_choice(
            v,
            &ParamInfo::choice("field_display", FieldDisplay::OPTIONS)
                .help("Field views: a slice or a maximum-intensity projection"),
            &mut self.field_display,
        );
        visit_choice(
            v,
            &ParamInfo::choice("slice_axis", Axis::OPTIONS).help("Axis the slice is perpendicular to"),
            &mut self.slice_axis,
        );
        v.float(
            &ParamInfo::float("slice_position", 0.0, 1.0).unit("box").help("Where the slice cuts the box"),
            &mut self.slice_position,
        );
    }
}
