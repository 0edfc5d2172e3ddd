//! What a bake is asked for, with the checks that turn bad settings into one message. The same
//! settings can come from the command line or a RON file (`fogbook bake --settings bake.ron`);
//! fields left out take their defaults.

use crate::atlas::Layout;
use crate::card::ViewAxis;
use crate::swizzle::Swizzle;
use serde::{Deserialize, Serialize};

/// The largest frame side and atlas side (texels): 16384 is what desktop GPUs sample.
pub const MAX_FRAME: u32 = 4096;
pub const MAX_ATLAS: u32 = 16384;
/// The most flipbook frames, and smoke steps in all.
pub const MAX_FRAMES: u32 = 4096;
pub const MAX_STEPS: u64 = 1_000_000;

// ANCHOR: settings
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BakeSettings {
    /// Flipbook frames.
    pub frames: u32,
    /// Smoke steps (chapter 7's `time_step_s` each) between two frames.
    pub steps_per_frame: u32,
    /// Smoke steps before the first frame, so that the plume has formed.
    pub warmup_steps: u32,
    /// Cells per side of the smoke's grid (chapter 7's `grid_size`).
    pub grid: u32,
    /// Frames per row and per column of the atlas.
    pub layout: [u32; 2],
    /// Texels per frame (width, height).
    pub frame_size: [u32; 2],
    /// The atlas's size instead of `frame_size`: it must divide by the layout.
    pub atlas_size: Option<[u32; 2]>,
    /// The axis the cards are seen along.
    pub view_axis: ViewAxis,
    /// The channel layout: `tlr-bbf`, `rtb-lbf` or eight letters (see `swizzle`).
    pub swizzle: String,
    /// Single-scattering albedo of the smoke (0..1).
    pub albedo: f32,
    /// Bake emission from the smoke's temperature (chapter 7's glow) into the `E` channel.
    pub emission: bool,
}
// ANCHOR_END: settings

impl Default for BakeSettings {
    fn default() -> Self {
        Self {
            frames: 64,
            steps_per_frame: 2,
            warmup_steps: 60,
            grid: 64,
            layout: [8, 8],
            frame_size: [128, 128],
            atlas_size: None,
            view_axis: ViewAxis::Z,
            swizzle: "tlr-bbf".into(),
            albedo: 1.0,
            emission: false,
        }
    }
}

impl BakeSettings {
    /// The atlas layout these settings ask for, or what is wrong with them.
    pub fn layout(&self) -> Result<Layout, String> {
        let [cols, rows] = self.layout;
        if self.frames == 0 {
            return Err("frames 0: a flipbook needs at least one frame".into());
        }
        if self.frames > MAX_FRAMES {
            return Err(format!("frames {}: at most {MAX_FRAMES}", self.frames));
        }
        if cols == 0 || rows == 0 {
            return Err(format!("layout {cols}x{rows}: needs at least one column and one row"));
        }
        let slots = cols as u64 * rows as u64;
        if (self.frames as u64) > slots {
            return Err(format!(
                "layout {cols}x{rows} holds {slots} frames, not {}: use a larger layout or fewer frames",
                self.frames
            ));
        }
        let [fw, fh] = match self.atlas_size {
            Some([w, h]) => {
                if w % cols != 0 || h % rows != 0 {
                    return Err(format!(
                        "atlas {w}x{h} does not divide into {cols}x{rows} frames ({w}/{cols} or {h}/{rows} is not whole)"
                    ));
                }
                [w / cols, h / rows]
            }
            None => self.frame_size,
        };
        if fw == 0 || fh == 0 || fw > MAX_FRAME || fh > MAX_FRAME {
            return Err(format!("frame size {fw}x{fh}: each side 1 to {MAX_FRAME} texels"));
        }
        let (aw, ah) = (cols as u64 * fw as u64, rows as u64 * fh as u64);
        if aw > MAX_ATLAS as u64 || ah > MAX_ATLAS as u64 {
            return Err(format!("atlas {aw}x{ah}: at most {MAX_ATLAS} texels a side"));
        }
        let steps = self.warmup_steps as u64 + self.frames as u64 * self.steps_per_frame as u64;
        if steps > MAX_STEPS {
            return Err(format!("{steps} smoke steps in all: at most {MAX_STEPS}"));
        }
        if self.steps_per_frame == 0 && self.frames > 1 {
            return Err("steps_per_frame 0: every frame would be the same".into());
        }
        if !(self.albedo.is_finite() && (0.0..=1.0).contains(&self.albedo)) {
            return Err(format!("albedo {}: expected a number from 0 to 1", self.albedo));
        }
        self.swizzle()?;
        Ok(Layout { cols, rows, frame_w: fw, frame_h: fh })
    }

    pub fn swizzle(&self) -> Result<Swizzle, String> {
        Swizzle::parse(&self.swizzle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_settings_get_a_message() {
        let ok = BakeSettings::default();
        assert_eq!(ok.layout().unwrap(), Layout { cols: 8, rows: 8, frame_w: 128, frame_h: 128 });
        let cases: [(&str, BakeSettings); 7] = [
            ("frames 0", BakeSettings { frames: 0, ..ok.clone() }),
            ("holds 64 frames, not 65", BakeSettings { frames: 65, ..ok.clone() }),
            ("does not divide", BakeSettings { atlas_size: Some([1001, 1024]), ..ok.clone() }),
            ("layout 0x8", BakeSettings { layout: [0, 8], ..ok.clone() }),
            ("albedo NaN", BakeSettings { albedo: f32::NAN, ..ok.clone() }),
            ("swizzle", BakeSettings { swizzle: "TLRA".into(), ..ok.clone() }),
            ("frame size 0x128", BakeSettings { frame_size: [0, 128], ..ok.clone() }),
        ];
        for (want, s) in cases {
            let e = s.layout().unwrap_err();
            assert!(e.contains(want), "{e:?} should mention {want:?}");
        }
        let atlas = BakeSettings { atlas_size: Some([1024, 512]), ..ok };
        assert_eq!(atlas.layout().unwrap().frame_h, 64);
    }
}
