//! The flipbook the runtime draws: baked from chapter 7's smoke with the chapter's bake
//! parameters (`from_smoke`), kept in memory as the two f32 atlases, and cached for the process
//! by those parameters, so the tests and the book's figures bake each flipbook once.

use crate::atlas::Layout;
use crate::card::{Dir, ViewAxis};
use crate::from_smoke::{Lighting, bake_keeping_sources};
use crate::params::CardParams;
use crate::settings::BakeSettings;
use crate::source::SourceVolumes;
use crate::swizzle::{Channel, Swizzle};
use anyhow::{Result, anyhow};
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::ShaderStore;
use std::sync::{Arc, Mutex};

/// What a flipbook is baked from: the bake's settings and the smoke's (`name=value`, on top of
/// chapter 7's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct BakeKey(pub BakeSettings, pub Vec<String>);

// ANCHOR: fire
/// The smoke of a flipbook with emission: chapter 7's emitter at 1500 K, with heat lift and
/// cooling, so that its glow ramp (none below 798 K, full at 1800 K) has something to show.
pub const FIRE: &[&str] = &["emitter_temperature_k=1500", "heat_lift=0.02", "cooling_rate=1"];
// ANCHOR_END: fire

impl BakeKey {
    /// The bake the parameters ask for: the smallest square layout that holds the frames, the
    /// cards seen along z, albedo 1; with `bake_emission` the glow of a hot emitter (`FIRE`).
    pub fn new(p: &CardParams) -> Self {
        let frames = p.bake_frames.max(1);
        let cols = (frames as f64).sqrt().ceil() as u32;
        let rows = frames.div_ceil(cols);
        Self(
            BakeSettings {
                frames,
                steps_per_frame: p.bake_steps_per_frame,
                warmup_steps: p.bake_warmup_steps,
                grid: p.bake_grid,
                layout: [cols, rows],
                frame_size: [p.bake_frame_size; 2],
                atlas_size: None,
                view_axis: ViewAxis::Z,
                swizzle: p.packing.name().into(),
                albedo: 1.0,
                emission: p.bake_emission,
            },
            if p.bake_emission { FIRE.iter().map(|s| s.to_string()).collect() } else { Vec::new() },
        )
    }
}

/// A baked flipbook: the atlases (RGBA f32, row 0 at the top) and how to read them.
pub struct Baked {
    pub key: BakeKey,
    pub layout: Layout,
    pub frames: u32,
    pub swizzle: Swizzle,
    pub emission: bool,
    pub atlases: [Vec<f32>; 2],
    /// The smoke frames the atlases were baked from, for a path tracer (`None` where the bake is
    /// too large to keep them: `source::MAX_TEXELS`).
    pub source: Option<SourceVolumes>,
    /// Seconds the bake took (smoke and lighting).
    pub seconds: f64,
}

impl Baked {
    // ANCHOR: swizzle_table
    /// For each of top, bottom, left, right, back, front, alpha and emission (the shader's
    /// order): the channel that holds it, 0..3 in atlas A, 4..7 in atlas B, 8 where none does.
    pub fn channel_table(&self) -> [u32; 8] {
        let wanted: [Channel; 8] = [
            Channel::Map(Dir::Top),
            Channel::Map(Dir::Bottom),
            Channel::Map(Dir::Left),
            Channel::Map(Dir::Right),
            Channel::Map(Dir::Back),
            Channel::Map(Dir::Front),
            Channel::Alpha,
            Channel::Emission,
        ];
        wanted.map(|w| {
            let found = self.swizzle.atlases.iter().flatten().position(|&c| c == w);
            found.map_or(8, |i| i as u32)
        })
    }
    // ANCHOR_END: swizzle_table
}

/// Flipbooks baked in this process, newest last (at most four are kept).
static CACHE: Mutex<Vec<Arc<Baked>>> = Mutex::new(Vec::new());

/// The flipbook for `key`: from the cache, or baked now.
pub fn flipbook(gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore, key: &BakeKey) -> Result<Arc<Baked>> {
    if let Some(hit) = CACHE.lock().map_err(|_| anyhow!("bake cache poisoned"))?.iter().find(|b| b.key == *key) {
        return Ok(hit.clone());
    }
    let s = &key.0;
    let keep = SourceVolumes::fits(s.grid, s.frames);
    let baked = bake_keeping_sources(gpu, layouts, shaders, s, &key.1, Lighting::Gpu, keep, &mut |_| {})?;
    let book = baked.flipbook(s)?;
    let layout = s.layout().map_err(|e| anyhow!(e))?;
    let source = keep.then(|| SourceVolumes::new(s.grid, &baked.density, &baked.glow, book.crop, baked.medium));
    let out = Arc::new(Baked {
        key: key.clone(),
        layout,
        frames: s.frames,
        swizzle: s.swizzle().map_err(|e| anyhow!(e))?,
        emission: s.emission,
        atlases: book.atlases,
        source,
        seconds: baked.simulate_s + baked.light_s,
    });
    let mut cache = CACHE.lock().map_err(|_| anyhow!("bake cache poisoned"))?;
    cache.push(out.clone());
    if cache.len() > 4 {
        cache.remove(0);
    }
    Ok(out)
}

/// Puts a flipbook made elsewhere into the cache under its key, so that a chapter whose bake
/// parameters give that key draws it instead of baking (the GPU tests draw atlases of known
/// values this way).
pub fn remember(book: Baked) -> Result<Arc<Baked>> {
    let book = Arc::new(book);
    let mut cache = CACHE.lock().map_err(|_| anyhow!("bake cache poisoned"))?;
    cache.retain(|b| b.key != book.key);
    cache.push(book.clone());
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Packing;

    #[test]
    fn the_layout_is_the_smallest_square_that_holds_the_frames() {
        for (frames, want) in [(1, [1, 1]), (2, [2, 1]), (16, [4, 4]), (17, [5, 4]), (32, [6, 6]), (64, [8, 8])] {
            let key = BakeKey::new(&CardParams { bake_frames: frames, ..Default::default() });
            assert_eq!(key.0.layout, want, "{frames} frames");
            assert!(key.0.layout().is_ok());
        }
    }

    #[test]
    fn the_channel_table_finds_every_map_in_both_packings() {
        for (packing, want) in [
            // TLRA / BKFE
            (Packing::TlrBbf, [0, 4, 1, 2, 5, 6, 3, 7]),
            // RTKA / LBFE
            (Packing::RtbLbf, [1, 5, 4, 0, 2, 6, 3, 7]),
        ] {
            let key = BakeKey::new(&CardParams { packing, ..Default::default() });
            let baked = Baked {
                layout: key.0.layout().unwrap(),
                frames: 1,
                swizzle: key.0.swizzle().unwrap(),
                emission: false,
                atlases: [Vec::new(), Vec::new()],
                source: None,
                seconds: 0.0,
                key,
            };
            assert_eq!(baked.channel_table(), want, "{packing:?}");
        }
    }
}
