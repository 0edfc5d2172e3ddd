//! The maps as the runtime will read them: baked, packed into the two atlases through a swizzle,
//! stored in the texture's format, and read back through the same swizzle.

use crate::atlas::{Layout, pack, resample};
use crate::card::{Dir, ViewAxis, to_card};
use crate::crop::CropRect;
use crate::light::{FrameMaps, Medium, bake_frame};
use crate::swizzle::{Channel, Swizzle};

/// How the runtime's texture stores the atlases' channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// 16-bit float (the EXR's values in an `Rgba16Float` texture).
    F16,
    /// 8 bits per channel, 0..1 (the PNG).
    Unorm8,
}

impl Storage {
    /// The value a texel of this format holds for `v`.
    pub fn store(self, v: f32) -> f64 {
        match self {
            Storage::F16 => round_to_f16(v) as f64,
            Storage::Unorm8 => (v.clamp(0.0, 1.0) * 255.0).round() as f64 / 255.0,
        }
    }
}

/// `x` rounded to the nearest binary16 value (ties to even): 11 significant bits, steps of
/// 2⁻²⁴ below 2⁻¹⁴ (subnormals), infinity past 65504.
pub fn round_to_f16(x: f32) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let exponent = (((x.to_bits() >> 23) & 0xff) as i32 - 127).max(-14);
    let step = 2f64.powi(exponent - 10);
    let rounded = (x as f64 / step).round_ties_even() * step;
    if rounded.abs() > 65504.0 { f32::INFINITY.copysign(x) } else { rounded as f32 }
}

/// One card's six maps (straight, as stored) and alpha, `n` × `n` texels, row 0 at the top.
#[derive(Clone, Debug)]
pub struct CardMaps {
    pub n: usize,
    /// In `Dir::ALL`'s order.
    pub straight: [Vec<f64>; 6],
    pub alpha: Vec<f64>,
}

// ANCHOR: card_maps
/// The production path from a density volume (`n`³, x fastest) to what the runtime samples: the
/// f32 bake (`light::bake_frame`), the frame resampled and packed into a one-frame atlas of `n`²
/// texels (the whole grid, so a texel is a cell), each channel stored as `storage`, and the six
/// maps and alpha found again through `swizzle`. Fails if the swizzle leaves out a map or alpha.
pub fn card_maps(
    n: usize,
    density: &[f32],
    view: ViewAxis,
    medium: Medium,
    swizzle: &Swizzle,
    storage: Storage,
) -> Result<CardMaps, String> {
    packed_card(&bake_frame(n, &to_card(n, density, view), None, medium), swizzle, storage)
}

/// A baked frame packed, stored and read back as `card_maps` does.
pub fn packed_card(maps: &FrameMaps, swizzle: &Swizzle, storage: Storage) -> Result<CardMaps, String> {
    let n = maps.n;
    let crop = CropRect { x: 0.0, y: 0.0, w: n as f64, h: n as f64 };
    let layout = Layout { cols: 1, rows: 1, frame_w: n as u32, frame_h: n as u32 };
    let atlases = pack(layout, &[resample(maps, crop, n, n)], swizzle, false);
    let read = |channel: Channel| -> Result<Vec<f64>, String> {
        let (atlas, c) = (0..2)
            .flat_map(|a| (0..4).map(move |c| (a, c)))
            .find(|&(a, c)| swizzle.atlases[a][c] == channel)
            .ok_or_else(|| format!("swizzle {} has no {channel:?}", swizzle.letters()))?;
        Ok(atlases[atlas].iter().skip(c).step_by(4).map(|&v| storage.store(v)).collect())
    };
    let mut straight: [Vec<f64>; 6] = Default::default();
    for d in Dir::ALL {
        straight[d.index()] = read(Channel::Map(d))?;
    }
    Ok(CardMaps { n, straight, alpha: read(Channel::Alpha)? })
}
// ANCHOR_END: card_maps

impl CardMaps {
    // ANCHOR: relit
    /// The card relit by a unit sun from `to_light` (card frame), premultiplied — the value the
    /// runtime composites: alpha × the six-way blend (`blend::relight`) of the straight maps.
    pub fn relit(&self, to_light: [f64; 3]) -> Vec<f64> {
        (0..self.n * self.n)
            .map(|i| self.alpha[i] * crate::blend::relight(self.straight.each_ref().map(|m| m[i]), to_light))
            .collect()
    }
    // ANCHOR_END: relit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding_keeps_eleven_bits_and_ties_to_even() {
        assert_eq!(round_to_f16(1.0), 1.0);
        assert_eq!(round_to_f16(1.0 + 2f32.powi(-11)), 1.0, "a tie rounds to the even 1.0");
        assert_eq!(round_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 1.0 + 2f32.powi(-9), "a tie rounds to even");
        assert_eq!(round_to_f16(0.1), 0.099_975_586, "0x2E66");
        assert_eq!(round_to_f16(-0.1), -0.099_975_586);
        assert_eq!(round_to_f16(1.5 * 2f32.powi(-24)), 2f32.powi(-23), "subnormal tie to even");
        assert_eq!(round_to_f16(65504.0), 65504.0);
        assert_eq!(round_to_f16(65536.0), f32::INFINITY);
    }

    /// Either named swizzle packs and reads back the same maps (each map found in its channel).
    #[test]
    fn the_maps_read_back_alike_through_either_swizzle() {
        let n = 8;
        let density = crate::validation::lopsided_blob(n);
        let m = crate::validation::blob_medium(n);
        let read = |s: &str| {
            let swizzle = Swizzle::parse(s).expect("a named swizzle");
            card_maps(n, &density, ViewAxis::Z, m, &swizzle, Storage::F16).expect("all six maps and alpha")
        };
        let (a, b) = (read("tlr-bbf"), read("rtb-lbf"));
        assert_eq!(a.straight, b.straight);
        assert_eq!(a.alpha, b.alpha);
        assert!(a.straight[Dir::Top.index()] != a.straight[Dir::Bottom.index()]);
        let no_emission = Swizzle::parse("TLRA/BKF0").expect("eight letters");
        assert!(card_maps(n, &density, ViewAxis::Z, m, &no_emission, Storage::F16).is_ok(), "E is not needed");
        let no_front = Swizzle::parse("TLRA/BK0E").expect("eight letters");
        assert!(card_maps(n, &density, ViewAxis::Z, m, &no_front, Storage::F16).is_err());
    }
}
