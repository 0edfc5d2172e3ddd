//! Solid obstacles in the flow: a sphere and an axis-aligned box, each movable. Each step the
//! obstacles move by their velocities (their centres in the parameters advance, and stop at the
//! walls), `obstacles.wgsl` rebuilds the solid mask from the parameter block, and every pass reads
//! it: the faces a solid cell touches move with the obstacle, the pressure solvers treat solid
//! neighbours as walls (Neumann), and there is no smoke inside (Bridson 2015, *Fluid Simulation
//! for Computer Graphics*, 2nd ed., ch. 5).

use crate::SmokeParams;
use bytemuck::{Pod, Zeroable};

/// The sphere obstacle's part of the smoke's uniform (`SmokeUniform::sphere`): on (1) or off, centre and radius in box units,
/// velocity in m/s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeSphere {
    pub centre: [f32; 3],
    pub radius: f32,
    pub velocity: [f32; 3],
    pub enabled: u32,
}

/// The box obstacle's part of the smoke's uniform (`SmokeUniform::cuboid`): on (1) or off, centre and half size in box units, velocity in m/s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SmokeCuboid {
    pub centre: [f32; 3],
    pub enabled: u32,
    pub half: [f32; 3],
    pub _align0: f32,
    pub velocity: [f32; 3],
    pub _align1: f32,
}

// ANCHOR: clean
/// `v` if finite, else `fallback`; then clamped to `lo..=hi`.
fn clean(v: f32, fallback: f32, lo: f32, hi: f32) -> f32 {
    (if v.is_finite() { v } else { fallback }).clamp(lo, hi)
}

/// The sphere as the GPU gets it: radius in 0..0.5 box units (a non-finite one is 0: no sphere), centre
/// kept inside the box by at least the radius, so the sphere never reaches through a wall.
pub fn sphere(p: &SmokeParams) -> ([f32; 3], f32) {
    let r = clean(p.sphere_radius, 0.0, 0.0, 0.5);
    let c = [p.sphere_x, p.sphere_y, p.sphere_z].map(|v| clean(v, 0.5, r, 1.0 - r));
    (c, r)
}

/// The box as the GPU gets it: half sizes in 0..0.5, centre kept inside the box by its half size.
pub fn cuboid(p: &SmokeParams) -> ([f32; 3], [f32; 3]) {
    let half = [p.box_half_x, p.box_half_y, p.box_half_z].map(|v| clean(v, 0.0, 0.0, 0.5));
    let mut c = [p.box_x, p.box_y, p.box_z];
    for a in 0..3 {
        c[a] = clean(c[a], 0.5, half[a], 1.0 - half[a]);
    }
    (c, half)
}

fn velocity(v: [f32; 3]) -> [f32; 3] {
    v.map(|x| clean(x, 0.0, -1000.0, 1000.0))
}
// ANCHOR_END: clean

/// The sphere's part of the parameter block.
pub fn sphere_uniform(p: &SmokeParams) -> SmokeSphere {
    let (centre, radius) = sphere(p);
    let velocity = velocity([p.sphere_velocity_x, p.sphere_velocity_y, p.sphere_velocity_z]);
    SmokeSphere { centre, radius, velocity, enabled: p.sphere_enabled as u32 }
}

/// The box's part of the parameter block.
pub fn cuboid_uniform(p: &SmokeParams) -> SmokeCuboid {
    let (centre, half) = cuboid(p);
    let velocity = velocity([p.box_velocity_x, p.box_velocity_y, p.box_velocity_z]);
    SmokeCuboid { centre, enabled: p.box_enabled as u32, half, velocity, ..SmokeCuboid::zeroed() }
}

// ANCHOR: advance
/// Moves the enabled obstacles by their velocities over one step: centre += v Δt / box, kept
/// inside the box (an obstacle that reaches a wall stops there). The new centres go back into the
/// parameters, so the panel shows where the obstacles are and a preset or a save keeps them.
pub fn advance(p: &mut SmokeParams) {
    let scale = clean(p.time_step_s, 0.0, 0.0, 1.0) / clean(p.box_size_m, 1.0, 1.0, 1000.0);
    if p.sphere_enabled {
        let v = velocity([p.sphere_velocity_x, p.sphere_velocity_y, p.sphere_velocity_z]);
        p.sphere_x += v[0] * scale;
        p.sphere_y += v[1] * scale;
        p.sphere_z += v[2] * scale;
        let ([x, y, z], _) = sphere(p);
        (p.sphere_x, p.sphere_y, p.sphere_z) = (x, y, z);
    }
    if p.box_enabled {
        let v = velocity([p.box_velocity_x, p.box_velocity_y, p.box_velocity_z]);
        p.box_x += v[0] * scale;
        p.box_y += v[1] * scale;
        p.box_z += v[2] * scale;
        let ([x, y, z], _) = cuboid(p);
        (p.box_x, p.box_y, p.box_z) = (x, y, z);
    }
}
// ANCHOR_END: advance

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_obstacle_settings_are_clamped_never_nan() {
        let mut p = SmokeParams { sphere_enabled: true, box_enabled: true, ..Default::default() };
        p.sphere_x = f32::NAN;
        p.sphere_radius = f32::INFINITY;
        p.box_x = 5.0;
        p.box_half_y = f32::NAN;
        p.sphere_velocity_y = f32::NAN;
        let (s, b) = (sphere_uniform(&p), cuboid_uniform(&p));
        let all = [s.centre, s.velocity, b.centre, b.half, b.velocity].concat();
        assert!(all.iter().chain([&s.radius]).all(|v| v.is_finite()), "{s:?} {b:?}");
        assert_eq!(s.radius, 0.0, "a non-finite radius: no sphere");
        assert_eq!(b.centre[0], 1.0 - b.half[0], "outside the box: clamped to the wall");
        assert_eq!(b.half[1], 0.0);
        // Moving into a wall stops at it.
        let mut q = SmokeParams { sphere_enabled: true, sphere_velocity_x: 20.0, ..Default::default() };
        for _ in 0..1000 {
            advance(&mut q);
        }
        assert_eq!(q.sphere_x, 1.0 - q.sphere_radius);
        advance(&mut p);
        assert!(p.sphere_x.is_finite() && p.sphere_y.is_finite());
    }
}
