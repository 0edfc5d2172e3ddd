//! Shadows between local fog volumes: for each volume, the other volumes that may lie between it
//! and the sun, binned on the CPU as a bit mask per volume (`BIN_WORDS` words; binned again only
//! when the volumes or the sun change, `CasterMasks`), so that a GPU pass lighting a volume walks
//! only its own few casters (shaders/common/media/casters.wgsl). The core bins the stack's
//! published list once a frame into one buffer (`FogCasters`, `StackMedia::casters`),
//! which the per-pixel analytic pass and the volumetric grid's injection both bind and walk with
//! the same shader code, so the two paths shadow a volume alike and nothing steps where one hands over
//! to the other. Whether the volumes shadow each other at all is the publishers' setting
//! (`PublishedMedia::shadows`).

use crate::media::volumes::{BIN_WORDS, FogVolume, MAX_FOG_VOLUMES};

// ANCHOR: bin_casters
/// The most volumes that shadow one volume's sun light (in list order; the shaders stop there
/// too).
pub const MAX_CASTERS: usize = 16;

/// For each volume i, the bit mask (`BIN_WORDS` words) of the other volumes that may lie between
/// it and the sun (unit direction `sun`, towards it): those whose bounding sphere reaches the
/// half-cylinder swept from i's bounding sphere towards the sun. A volume's sun ray is then
/// tested against these only, so the cost grows with the volumes that can shadow it, not with
/// the list.
pub fn bin_casters(volumes: &[FogVolume], sun: glam::DVec3, words: &mut Vec<u32>) {
    words.clear();
    words.resize(volumes.len().max(1) * BIN_WORDS, 0);
    let sphere = |v: &FogVolume| (v.centre(), v.half().length());
    for (i, receiver) in volumes.iter().enumerate() {
        let (ci, ri) = sphere(receiver);
        let mut n = 0;
        for (j, caster) in volumes.iter().enumerate() {
            if j == i || n == MAX_CASTERS {
                continue;
            }
            let (cj, rj) = sphere(caster);
            let d = cj - ci;
            let along = d.dot(sun);
            let across = (d - sun * along).length();
            if along > -(ri + rj) && across < ri + rj {
                words[i * BIN_WORDS + j / 32] |= 1 << (j % 32);
                n += 1;
            }
        }
    }
}
// ANCHOR_END: bin_casters

thread_local! {
    /// How many times `casters_for_frame` ran on this thread (`binnings_on_this_thread`).
    static BINNINGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times the masks were binned on this thread: a stack's frames are recorded on one
/// thread, so a test can count the binnings of its own frames while others run beside it.
pub fn binnings_on_this_thread() -> u64 {
    BINNINGS.with(|n| n.get())
}

/// The masks of `volumes` for the frame's sun direction (`FrameUniform::sun_dir`, towards the
/// sun), or all zero (no casters) when `shadows` is off.
pub fn casters_for_frame(volumes: &[FogVolume], sun_dir: [f32; 4], shadows: bool, words: &mut Vec<u32>) {
    BINNINGS.with(|n| n.set(n.get() + 1));
    let sun = glam::DVec3::new(sun_dir[0] as f64, sun_dir[1] as f64, sun_dir[2] as f64).normalize_or_zero();
    if shadows && sun != glam::DVec3::ZERO {
        bin_casters(volumes, sun, words);
    } else {
        words.clear();
        words.resize(volumes.len().max(1) * BIN_WORDS, 0);
    }
}

/// The masks of the last frame, with what they were binned from: they are binned (up to 256²
/// sphere tests) and uploaded again only when the volumes, the sun's direction or the switch
/// changed, not every frame.
#[derive(Debug, Default)]
pub struct CasterMasks {
    pub words: Vec<u32>,
    binned_from: Option<(Vec<FogVolume>, [f32; 3], bool)>,
    /// How many times they were binned: it changes exactly when the volumes, the sun's direction
    /// or the switch did, so what else is made from those can be keyed on it.
    generation: u64,
}

impl CasterMasks {
    /// `casters_for_frame` if any of its inputs changed since the last call; whether `words`
    /// changed (and so needs uploading).
    pub fn update(&mut self, volumes: &[FogVolume], sun_dir: [f32; 4], shadows: bool) -> bool {
        let key = (volumes, [sun_dir[0], sun_dir[1], sun_dir[2]], shadows);
        if let Some((v, sun, on)) = &self.binned_from
            && (v.as_slice(), *sun, *on) == key
        {
            return false;
        }
        casters_for_frame(volumes, sun_dir, shadows, &mut self.words);
        self.binned_from = Some((volumes.to_vec(), key.1, shadows));
        self.generation += 1;
        true
    }

    /// Changes whenever the masks are binned again (`generation`).
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

// ANCHOR: fog_casters
/// The stack's masks and their GPU buffer (`MAX_FOG_VOLUMES` × `BIN_WORDS` words), one per
/// renderer: binned from the published list once a frame at most (`update`), bound by every
/// chapter that lights the volumes (`StackMedia::casters`). The buffer is made with the
/// renderer and never replaced, so a chapter's group that holds it stays valid as long as the
/// renderer's density textures (`DensityTextureSlots::generation`) it is keyed on.
pub struct FogCasters {
    masks: CasterMasks,
    pub buffer: wgpu::Buffer,
}

impl FogCasters {
    pub fn new(device: &wgpu::Device) -> Self {
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("fog volume shadow casters"),
            size: (MAX_FOG_VOLUMES * BIN_WORDS * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self { masks: CasterMasks::default(), buffer }
    }

    /// Bins the published `volumes` for this frame's sun and switch and uploads the masks, when
    /// any of them changed since the last frame.
    pub fn update(&mut self, gpu: &crate::gpu::GpuContext, volumes: &[FogVolume], sun_dir: [f32; 4], shadows: bool) {
        if self.masks.update(volumes, sun_dir, shadows) {
            gpu.write_buffer(&self.buffer, 0, bytemuck::cast_slice(&self.masks.words));
        }
    }

    /// Changes whenever the published volumes, the sun's direction or the switch changed: a key
    /// for anything a chapter makes from them once per change (a sun grid over the volumes).
    pub fn generation(&self) -> u64 {
        self.masks.generation()
    }
}
// ANCHOR_END: fog_casters

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::volumes::SHAPE_BOX;
    use glam::DVec3;

    fn cube(x: f32, y: f32) -> FogVolume {
        FogVolume { centre: [x, y, 0.0, SHAPE_BOX], half_size: [1.0, 1.0, 1.0, 0.0], ..FogVolume::AXIS_ALIGNED }
    }

    /// Of two cubes one above the other under a sun overhead, the upper shadows the lower and not
    /// the other way round; a cube far to the side shadows neither; off, nothing is a caster.
    #[test]
    fn only_the_volumes_towards_the_sun_are_casters() {
        let volumes = [cube(0.0, 0.0), cube(0.0, 5.0), cube(20.0, 0.0)];
        let mut words = Vec::new();
        bin_casters(&volumes, DVec3::Y, &mut words);
        let mask = |i: usize| words[i * BIN_WORDS];
        assert_eq!((mask(0), mask(1), mask(2)), (0b010, 0, 0));
        casters_for_frame(&volumes, [0.0, 1.0, 0.0, 1.0], false, &mut words);
        assert!(words.iter().all(|&w| w == 0));
        casters_for_frame(&volumes, [0.0, -1.0, 0.0, 1.0], true, &mut words);
        assert_eq!(words[BIN_WORDS], 0b001, "a sun below: the lower cube shadows the upper");
    }

    /// The kept masks are binned again exactly when a volume, the sun's direction or the switch
    /// changes (not when only the sun's strength does), and then match a fresh binning.
    #[test]
    fn kept_masks_are_binned_again_only_when_their_inputs_change() {
        let mut volumes = vec![cube(0.0, 0.0), cube(0.0, 5.0), cube(20.0, 0.0)];
        let mut kept = CasterMasks::default();
        let up = [0.0, 1.0, 0.0, 1.0];
        assert!(kept.update(&volumes, up, true), "the first frame bins");
        assert!(!kept.update(&volumes, up, true), "nothing changed");
        assert!(!kept.update(&volumes, [0.0, 1.0, 0.0, 3.0], true), "only the sun's strength changed");
        assert!(kept.update(&volumes, [1.0, 0.0, 0.0, 1.0], true), "the sun moved");
        assert!(kept.update(&volumes, [1.0, 0.0, 0.0, 1.0], false), "the switch changed");
        volumes[2] = cube(0.0, 10.0);
        assert!(kept.update(&volumes, up, true), "a volume moved");
        let mut fresh = Vec::new();
        bin_casters(&volumes, DVec3::Y, &mut fresh);
        assert_eq!(kept.words, fresh);
        assert_eq!(kept.generation(), 4, "one generation per binning");
    }
}
