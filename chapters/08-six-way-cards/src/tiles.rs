//! The compute renderer's binning: each card's screen rectangle into tiles of 16×16 pixels, and
//! each tile's list of cards front to back, for `splat.wgsl` (one workgroup per tile). Cards are
//! few (thousands), so the CPU bins them: the corners of the card, clipped by the near plane,
//! projected through the camera's basis; a card that crosses the near plane keeps only its part
//! in front, so its rectangle still bounds every pixel the splat can shade.

use crate::instances::CardInstance;
use fogbook_core::camera::NEAR_PLANE_M;
use fogbook_core::frame::FrameUniform;
use fogbook_core::media::volumes::ndc_cells;
use glam::{DVec2, DVec3};

/// Tile side (pixels); `TILE` in splat.wgsl, the workgroup's side.
pub const TILE_PX: u32 = 16;

// ANCHOR: tile_lists
/// The tiles' lists as splat.wgsl reads them, one array of u32: words 0..=n (n tiles, row by
/// row) are where each tile's list starts in the same array (word n: where the last one ends),
/// then the lists: indices into the cards (the instances' back-to-front order), each list front
/// to back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileLists {
    /// Tiles across and down.
    pub tiles: [u32; 2],
    pub words: Vec<u32>,
}

impl TileLists {
    fn count(&self) -> usize {
        (self.tiles[0] * self.tiles[1]) as usize
    }

    /// The cards of tile `i` (row by row), front to back.
    pub fn list(&self, i: usize) -> &[u32] {
        &self.words[self.words[i] as usize..self.words[i + 1] as usize]
    }

    /// (tile, card) pairs: the splat tests each pair's card against the tile's 256 pixels.
    pub fn pairs(&self) -> usize {
        self.words.len() - self.count() - 1
    }
}
// ANCHOR_END: tile_lists

/// The pixels [x0, x1] × [y0, y1] (inclusive) that `card` may cover on a screen of `size`, or
/// None when it is off screen or behind the near plane. `frame`'s camera basis: forward (unit),
/// and right and up scaled so that forward + ndc.x·right + ndc.y·up passes through the pixel.
pub fn screen_rect(card: &CardInstance, frame: &FrameUniform, size: [u32; 2]) -> Option<[u32; 4]> {
    let v = |a: [f32; 4]| DVec3::new(a[0] as f64, a[1] as f64, a[2] as f64);
    let (eye, forward, right, up) = (v(frame.camera_pos), v(frame.cam_forward), v(frame.cam_right), v(frame.cam_up));
    let (centre, half_u, half_v) =
        (v(card.centre), v(card.right) * (0.5 * card.right[3] as f64), v(card.up) * (0.5 * card.up[3] as f64));
    // The corners in the camera's frame: (depth along forward, ndc.x × depth, ndc.y × depth).
    let to_camera = |p: DVec3| {
        let r = p - eye;
        DVec3::new(
            r.dot(forward) / forward.length_squared(),
            r.dot(right) / right.length_squared(),
            r.dot(up) / up.length_squared(),
        )
    };
    let corners =
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(a, b)| to_camera(centre + a * half_u + b * half_v));
    // Clipped by a plane a little nearer than the near plane (Sutherland–Hodgman, one plane).
    let near = 0.5 * NEAR_PLANE_M as f64;
    let (mut lo, mut hi, mut any) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY), false);
    let mut add = |p: DVec3| {
        let ndc = DVec2::new(p.y, p.z) / p.x;
        lo = lo.min(ndc);
        hi = hi.max(ndc);
        any = true;
    };
    for (i, &p) in corners.iter().enumerate() {
        let q = corners[(i + 1) % 4];
        if p.x >= near {
            add(p);
        }
        if (p.x >= near) != (q.x >= near) {
            add(p + (q - p) * ((near - p.x) / (q.x - p.x)));
        }
    }
    if !any {
        return None;
    }
    // A pixel of margin against rounding.
    let [x0, x1] = ndc_cells(lo.x, hi.x, size[0], false, 1.0)?;
    let [y0, y1] = ndc_cells(lo.y, hi.y, size[1], true, 1.0)?;
    Some([x0, x1, y0, y1])
}

// ANCHOR: bin
/// Every card into the tiles its screen rectangle touches; the cards come back to front, so
/// each list takes them in reverse.
pub fn bin(cards: &[CardInstance], frame: &FrameUniform, size: [u32; 2]) -> TileLists {
    let tiles = [size[0].div_ceil(TILE_PX), size[1].div_ceil(TILE_PX)];
    let n = (tiles[0] * tiles[1]) as usize;
    let rects: Vec<Option<[u32; 4]>> = cards
        .iter()
        .map(|c| screen_rect(c, frame, size).map(|[x0, x1, y0, y1]| [x0, x1, y0, y1].map(|p| p / TILE_PX)))
        .collect();
    let each_tile =
        |[x0, x1, y0, y1]: [u32; 4]| (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| (x + y * tiles[0]) as usize));
    let mut counts = vec![0u32; n];
    for &r in rects.iter().flatten() {
        each_tile(r).for_each(|t| counts[t] += 1);
    }
    let mut words = Vec::with_capacity(n + 1 + counts.iter().map(|&c| c as usize).sum::<usize>());
    let mut start = n as u32 + 1;
    for &c in &counts {
        words.push(start);
        start += c;
    }
    words.push(start);
    let mut next: Vec<u32> = words[..n].to_vec();
    words.resize(start as usize, 0);
    for (i, r) in rects.iter().enumerate().rev() {
        for t in r.iter().flat_map(|&r| each_tile(r)) {
            words[next[t] as usize] = i as u32;
            next[t] += 1;
        }
    }
    TileLists { tiles, words }
}
// ANCHOR_END: bin

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emitter::Emitter;
    use crate::instances::{Eye, FogCardArea, build, fog_cards};
    use crate::params::CardParams;
    use fogbook_core::camera::CameraPose;
    use fogbook_core::scene_settings::SceneSettings;
    use fogbook_core::time::DEFAULT_STEP_S;
    use glam::Vec3;

    /// The frame uniform for a pose at a screen size, and the eye `build` orients cards by.
    fn frame(pose: &CameraPose, size: [u32; 2]) -> (FrameUniform, Eye) {
        let f = FrameUniform::new(pose, &SceneSettings::default(), size, 0.0, 0);
        let v3 = |a: [f32; 4]| Vec3::new(a[0], a[1], a[2]);
        let eye = Eye {
            position: v3(f.camera_pos),
            forward: v3(f.cam_forward).normalize(),
            right: v3(f.cam_right).normalize(),
            up: v3(f.cam_up).normalize(),
        };
        (f, eye)
    }

    /// The default cards of `p` seen from `pose`, back to front.
    fn cards(p: &CardParams, eye: &Eye) -> Vec<CardInstance> {
        let mut emitter = Emitter::default();
        emitter.reset(p, DEFAULT_STEP_S);
        build(p, &fog_cards(&FogCardArea::new(p)), &emitter, eye, 32)
    }

    /// Where the ray through the centre of pixel (x, y) meets the card, if it does in front of
    /// the near plane: as splat.wgsl finds it, in f64.
    fn hits(card: &CardInstance, f: &FrameUniform, size: [u32; 2], x: u32, y: u32) -> bool {
        let v = |a: [f32; 4]| DVec3::new(a[0] as f64, a[1] as f64, a[2] as f64);
        let ndc =
            DVec2::new((x as f64 + 0.5) / size[0] as f64 * 2.0 - 1.0, 1.0 - (y as f64 + 0.5) / size[1] as f64 * 2.0);
        let ray = v(f.cam_forward) + ndc.x * v(f.cam_right) + ndc.y * v(f.cam_up);
        let (right, up) = (v(card.right), v(card.up));
        let normal = up.cross(right);
        let q = v(card.centre) - v(f.camera_pos);
        let facing = ray.dot(normal);
        if facing.abs() < 1e-12 {
            return false;
        }
        let t = q.dot(normal) / facing;
        let p = t * ray - q;
        let (u, w) = (p.dot(right) / card.right[3] as f64, p.dot(up) / card.up[3] as f64);
        t * ray.dot(v(f.cam_forward)) >= NEAR_PLANE_M as f64 && u.abs() <= 0.5 && w.abs() <= 0.5
    }

    /// Every pixel a card covers is in a tile whose list holds the card, and every list runs
    /// front to back: the camera inside the particles, so that some cross the near plane.
    #[test]
    fn lists_hold_every_covered_pixel_front_to_back() {
        let size = [160, 96];
        let p = CardParams { fog_cards: 40, max_particles: 300, ..Default::default() };
        let pose = CameraPose { position: [5.0, 2.0, -12.0], yaw_deg: 10.0, pitch_deg: 5.0, fov_y_deg: 70.0 };
        let (f, eye) = frame(&pose, size);
        let cards = cards(&p, &eye);
        let lists = bin(&cards, &f, size);
        assert_eq!(lists.tiles, [10, 6]);
        let crossing = cards
            .iter()
            .filter(|c| {
                let d = (Vec3::from_slice(&c.centre[..3]) - eye.position).dot(eye.forward);
                d.abs() < 0.5 * c.right[3].max(c.up[3])
            })
            .count();
        assert!(crossing > 0, "some cards cross the near plane");
        let mut covered = 0;
        for y in 0..size[1] {
            for x in 0..size[0] {
                let list = lists.list(((x / TILE_PX) + (y / TILE_PX) * lists.tiles[0]) as usize);
                for (i, c) in cards.iter().enumerate() {
                    if hits(c, &f, size, x, y) {
                        covered += 1;
                        assert!(list.contains(&(i as u32)), "pixel ({x}, {y}): card {i} not in its tile's list");
                    }
                }
            }
        }
        assert!(covered > 10_000, "{covered} covered pixels");
        for i in 0..lists.count() {
            assert!(lists.list(i).windows(2).all(|w| w[0] > w[1]), "tile {i} runs front to back");
        }
    }

    /// Cards wholly behind the eye are in no list.
    #[test]
    fn cards_behind_the_eye_are_not_binned() {
        let size = [64, 64];
        let (f, eye) = frame(&CameraPose::default(), size);
        let mut card = CardInstance {
            centre: [0.0, 2.0, 5.0, 1.0],
            right: [1.0, 0.0, 0.0, 2.0],
            up: [0.0, 1.0, 0.0, 2.0],
            flipbook: [0.0; 4],
        };
        assert_eq!(screen_rect(&card, &f, size), None);
        card.centre = [eye.position.x, 2.0, -5.0, 1.0];
        assert!(screen_rect(&card, &f, size).is_some());
    }

    // ANCHOR: pairs
    /// The bench preset (`benches/six-way-cards.ron`: the defaults, 200 fog cards and 2000
    /// particles) at 1920×1080 from the default camera: how many (tile, card) pairs the splat
    /// walks, against the pixels the cards' quads cover (the fragment renderer's fragments before
    /// the scene-distance test).
    #[test]
    fn tile_pairs_of_the_bench_preset() {
        let size = [1920, 1080];
        let p = CardParams::default();
        let (f, eye) = frame(&CameraPose::default(), size);
        let cards = cards(&p, &eye);
        assert_eq!(cards.len(), 2200);
        let lists = bin(&cards, &f, size);
        let particles = cards.iter().filter(|c| c.flipbook[2] == 1.0).count();
        let area: u64 = cards
            .iter()
            .filter_map(|c| screen_rect(c, &f, size))
            .map(|[x0, x1, y0, y1]| (x1 - x0 + 1) as u64 * (y1 - y0 + 1) as u64)
            .sum();
        let longest = (0..lists.count()).map(|i| lists.list(i).len()).max().unwrap_or(0);
        eprintln!(
            "{} tiles, {} (tile, card) pairs ({:.1} per tile, longest list {longest}), {} of them particles' \
             tiles; {:.1} M pixel tests; the cards' screen rectangles: {:.1} M pixels",
            lists.count(),
            lists.pairs(),
            lists.pairs() as f64 / lists.count() as f64,
            (0..lists.count())
                .map(|i| lists.list(i).iter().filter(|&&c| cards[c as usize].flipbook[2] == 1.0).count())
                .sum::<usize>(),
            lists.pairs() as f64 * 256e-6,
            area as f64 * 1e-6,
        );
        assert_eq!(particles, 2000);
        assert!(lists.pairs() > 0);
    }
    // ANCHOR_END: pairs
}
