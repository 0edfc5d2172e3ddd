//! The test scene's geometry on the CPU, without the GPU: its boxes and ground, a ray cast of
//! them (the tests' independent check of the distance target), and the square of ground the
//! sun's shadow map covers with the projection that frames it.

use glam::camera::rh::{proj::directx, view};
use glam::{Mat4, Vec3};

/// An axis-aligned box of the test scene.
#[derive(Clone, Copy, Debug)]
pub struct SceneBox {
    pub min: Vec3,
    pub max: Vec3,
    pub albedo: [f32; 3],
}

/// Half the side of the square ground (m).
pub const GROUND_HALF_SIZE_M: f32 = 1000.0;
pub const GROUND_ALBEDO: [f32; 3] = [0.55, 0.55, 0.52];

// ANCHOR: shadowed_region
/// The square of ground the sun's shadow map covers: half side `SHADOWED_HALF_M` around
/// `SHADOWED_CENTRE`, which holds every box (`scene_boxes`) and the ground the default camera sees
/// their shadows fall on. `sun_view_proj` frames it; its test holds every box inside.
pub const SHADOWED_CENTRE: Vec3 = Vec3::new(0.0, 0.0, -100.0);
pub const SHADOWED_HALF_M: f32 = 280.0;

/// The highest point of any box (m): the shadow map's eye must stand above it.
pub fn tallest_box_m() -> f32 {
    scene_boxes().iter().map(|b| b.max.y).fold(0.0, f32::max)
}
// ANCHOR_END: shadowed_region

// ANCHOR: scene_boxes
/// Boxes centred 10, 25, 50, 100 and 200 m down −Z, plus the tower.
pub fn scene_boxes() -> Vec<SceneBox> {
    let cube = |x: f32, z: f32, side: f32, albedo: [f32; 3]| SceneBox {
        min: Vec3::new(x - side / 2.0, 0.0, z - side / 2.0),
        max: Vec3::new(x + side / 2.0, side, z + side / 2.0),
        albedo,
    };
    vec![
        cube(-2.0, -10.0, 2.0, [0.8, 0.2, 0.15]),
        cube(3.0, -25.0, 3.0, [0.2, 0.7, 0.25]),
        cube(-6.0, -50.0, 5.0, [0.2, 0.35, 0.85]),
        cube(9.0, -100.0, 8.0, [0.85, 0.75, 0.2]),
        cube(-22.0, -200.0, 16.0, [0.75, 0.75, 0.75]),
        // The tower: between the camera and the default sun, its shadow reaches towards the eye.
        SceneBox { min: Vec3::new(40.0, 0.0, -160.0), max: Vec3::new(52.0, 40.0, -148.0), albedo: [0.6, 0.55, 0.5] },
    ]
}
// ANCHOR_END: scene_boxes

/// CPU ray cast of the test scene: distance (m) along a unit `dir` from `origin` to the first
/// surface, or `None` for sky. Used by tests as an independent check of the distance target.
pub fn ray_cast(origin: Vec3, dir: Vec3) -> Option<f32> {
    let mut best = f32::INFINITY;
    if dir.y < 0.0 && origin.y > 0.0 {
        let t = -origin.y / dir.y;
        let hit = origin + dir * t;
        if hit.x.abs() <= GROUND_HALF_SIZE_M && hit.z.abs() <= GROUND_HALF_SIZE_M {
            best = t;
        }
    }
    for b in scene_boxes() {
        let inv = dir.recip();
        let t0 = (b.min - origin) * inv;
        let t1 = (b.max - origin) * inv;
        let near = t0.min(t1).max_element();
        let far = t0.max(t1).min_element();
        if near <= far && near > 0.0 && near < best {
            best = near;
        }
    }
    best.is_finite().then_some(best)
}

/// Orthographic sun projection framing the test scene's shadowed region (`SHADOWED_*`).
pub fn sun_view_proj(towards_sun: Vec3) -> Mat4 {
    let (centre, half) = (SHADOWED_CENTRE, SHADOWED_HALF_M);
    let up = if towards_sun.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
    // The eye stands beyond the region's far corner and the tallest box, whatever the sun's
    // angle; the depth range reaches as far again past the centre.
    let distance = 2.0 * half + tallest_box_m();
    let view = view::look_at_mat4(centre + towards_sun * distance, centre, up);
    directx::orthographic(-half, half, -half, half, 1.0, 2.0 * distance) * view
}

#[cfg(test)]
mod sun_projection_tests {
    use super::{scene_boxes, sun_view_proj};
    use glam::Vec3;

    /// Every corner of every box lands inside the shadow map's clip volume for suns from 5° to
    /// the zenith, all round: nothing the scene casts a shadow with is clipped.
    #[test]
    fn every_box_is_inside_the_shadow_map_for_any_sun() {
        for elevation in (5..=90).step_by(5) {
            for azimuth in (0..360).step_by(15) {
                let (el, az) = ((elevation as f32).to_radians(), (azimuth as f32).to_radians());
                let sun = Vec3::new(-az.sin() * el.cos(), el.sin(), -az.cos() * el.cos());
                let m = sun_view_proj(sun);
                for b in scene_boxes() {
                    for i in 0..8 {
                        let pick = |bit: u32, lo: f32, hi: f32| if i & bit == 0 { lo } else { hi };
                        let corner =
                            Vec3::new(pick(1, b.min.x, b.max.x), pick(2, b.min.y, b.max.y), pick(4, b.min.z, b.max.z));
                        let clip = m.project_point3(corner);
                        assert!(
                            clip.x.abs() <= 1.0 && clip.y.abs() <= 1.0 && (0.0..=1.0).contains(&clip.z),
                            "sun at {elevation}°, {azimuth}°: corner {corner} of a box lands at {clip}"
                        );
                    }
                }
            }
        }
    }
}
