//! What is drawn each frame: one instance per fog card and per particle, with its card frame
//! (right, up, and away from the camera), size, flipbook timing and opacity, sorted back to
//! front so that the premultiplied "over" blend composites them in order.
//!
//! Fog cards turn about the world's up axis to face the camera (the smoke stays upright);
//! particles face the camera fully (screen-aligned). Either way the card frame is the bake's:
//! x right, y up, z away from the camera.

use crate::emitter::{Emitter, hash01, opacity_at, size_at};
use crate::params::CardParams;
use bytemuck::{Pod, Zeroable};
use glam::Vec3;

// ANCHOR: instance
/// One card as the vertex shader reads it (an instance-rate vertex buffer; 64 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct CardInstance {
    /// Centre (m) and opacity (0..1).
    pub centre: [f32; 4],
    /// Unit right axis and width (m).
    pub right: [f32; 4],
    /// Unit up axis and height (m).
    pub up: [f32; 4],
    /// Flipbook: start frame (frames), speed (× the rate), kind (0 fog card, 1 particle), unused.
    pub flipbook: [f32; 4],
}
// ANCHOR_END: instance

/// A fog card's place on the ground: fixed by its index and the area (the same every frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FogCard {
    pub centre: Vec3,
    pub size: f32,
    pub serial: u32,
}

/// What the fog cards' places depend on: their number, the rectangle of ground and the size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FogCardArea {
    pub count: u32,
    /// Centre (x, z), half width (x) and half depth (z) of the rectangle (m).
    pub centre: [f32; 2],
    pub half: [f32; 2],
    pub size: f32,
}

impl FogCardArea {
    pub fn new(p: &CardParams) -> Self {
        Self {
            count: p.fog_cards,
            centre: [p.fog_card_centre_x_m, p.fog_card_centre_z_m],
            half: [p.fog_card_half_width_m, p.fog_card_half_depth_m],
            size: p.fog_card_size_m,
        }
    }
}

/// The fog cards' places: scattered over the area by a hash of the index, each a little larger
/// or smaller than the set size, standing on the ground (a tenth sunk into it, which the depth
/// fade hides).
pub fn fog_cards(a: &FogCardArea) -> Vec<FogCard> {
    (0..a.count)
        .map(|i| {
            let x = a.centre[0] + (hash01(i, 11) * 2.0 - 1.0) * a.half[0];
            let z = a.centre[1] + (hash01(i, 12) * 2.0 - 1.0) * a.half[1];
            let size = a.size * (0.75 + 0.5 * hash01(i, 13));
            FogCard { centre: Vec3::new(x, 0.4 * size, z), size, serial: i }
        })
        .collect()
}

/// The camera, as the frame uniform gives it.
#[derive(Clone, Copy, Debug)]
pub struct Eye {
    pub position: Vec3,
    pub forward: Vec3,
    pub right: Vec3,
    pub up: Vec3,
}

/// A card frame about the world's up axis facing the eye: right = forward × up.
fn upright_frame(eye: &Eye, centre: Vec3) -> (Vec3, Vec3) {
    let to_card = centre - eye.position;
    let flat = Vec3::new(to_card.x, 0.0, to_card.z);
    let forward = if flat.length_squared() > 1e-8 {
        flat.normalize()
    } else {
        Vec3::new(eye.forward.x, 0.0, eye.forward.z).normalize_or(Vec3::NEG_Z)
    };
    (forward.cross(Vec3::Y).normalize_or(Vec3::X), Vec3::Y)
}

fn start_frame(p: &CardParams, serial: u32, stream: u32, frames: u32) -> f32 {
    if p.random_start { (hash01(serial, stream) * frames as f32).floor() } else { 0.0 }
}

fn speed(p: &CardParams, serial: u32, stream: u32) -> f32 {
    1.0 + p.speed_variation * (hash01(serial, stream) * 2.0 - 1.0)
}

// ANCHOR: build
/// Every card of the frame, sorted back to front along the view direction; `frames` is the
/// flipbook's frame count (for the random start frames).
pub fn build(p: &CardParams, cards: &[FogCard], emitter: &Emitter, eye: &Eye, frames: u32) -> Vec<CardInstance> {
    let mut out: Vec<(f32, CardInstance)> = Vec::with_capacity(cards.len() + emitter.particles.len());
    for c in cards {
        let (right, up) = upright_frame(eye, c.centre);
        let instance = CardInstance {
            centre: [c.centre.x, c.centre.y, c.centre.z, p.fog_card_opacity],
            right: [right.x, right.y, right.z, c.size],
            up: [up.x, up.y, up.z, c.size],
            flipbook: [start_frame(p, c.serial, 14, frames), p.fog_card_speed * speed(p, c.serial, 15), 0.0, 0.0],
        };
        out.push(((c.centre - eye.position).dot(eye.forward), instance));
    }
    for q in &emitter.particles {
        let life = q.life(p.lifetime_s);
        let size = size_at(p, life);
        let instance = CardInstance {
            centre: [q.position.x, q.position.y, q.position.z, opacity_at(life)],
            right: [eye.right.x, eye.right.y, eye.right.z, size],
            up: [eye.up.x, eye.up.y, eye.up.z, size],
            flipbook: [start_frame(p, q.serial, 16, frames), speed(p, q.serial, 17), 1.0, 0.0],
        };
        out.push(((q.position - eye.position).dot(eye.forward), instance));
    }
    // Farthest first; ties keep their order (a stable sort), so the image is deterministic.
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out.into_iter().map(|(_, i)| i).collect()
}
// ANCHOR_END: build

#[cfg(test)]
mod tests {
    use super::*;

    fn eye() -> Eye {
        Eye { position: Vec3::new(0.0, 2.0, 0.0), forward: Vec3::NEG_Z, right: Vec3::X, up: Vec3::Y }
    }

    #[test]
    fn cards_are_sorted_back_to_front() {
        let p = CardParams::default();
        let mut e = Emitter::default();
        e.reset(&p, 1.0 / 60.0);
        let cards = fog_cards(&FogCardArea::new(&p));
        let built = build(&p, &cards, &e, &eye(), 32);
        assert_eq!(built.len(), 2200);
        let depth = |i: &CardInstance| (Vec3::from_slice(&i.centre[..3]) - eye().position).dot(eye().forward);
        assert!(built.windows(2).all(|w| depth(&w[0]) >= depth(&w[1])));
    }

    #[test]
    fn card_frames_are_right_handed_and_face_the_eye() {
        let p = CardParams { particles: false, ..Default::default() };
        for c in fog_cards(&FogCardArea::new(&p)).iter().take(20) {
            let (right, up) = upright_frame(&eye(), c.centre);
            // away = up × right points from the eye towards the card.
            let away = up.cross(right);
            let to_card = (c.centre - eye().position) * Vec3::new(1.0, 0.0, 1.0);
            assert!(away.dot(to_card.normalize()) > 0.999, "{away:?} vs {to_card:?}");
            assert!((right.length() - 1.0).abs() < 1e-5 && right.y == 0.0);
        }
    }

    #[test]
    fn cards_stay_inside_their_area() {
        let p = CardParams::default();
        for c in fog_cards(&FogCardArea::new(&p)) {
            assert!((c.centre.x - p.fog_card_centre_x_m).abs() <= p.fog_card_half_width_m);
            assert!((c.centre.z - p.fog_card_centre_z_m).abs() <= p.fog_card_half_depth_m);
        }
    }
}
