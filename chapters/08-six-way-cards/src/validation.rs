//! The relighting checked against an independent ray march: a card baked and packed by the
//! production path and relit by the six-way blend for a light in any direction, against the
//! single scattering marched straight through the same volume under the same light.
//!
//! - `texture`: the bake, packed and read back as the runtime samples it, and relit.
//! - `march`: the independent f64 march, with the light in any direction.
//! - here: the comparison (PSNR), a procedural test volume, and the book's plot.
//!
//! Both sides are premultiplied single scattering of a unit sun: the value composited over the
//! background, so an error in a thin pixel counts as little as it shows.

pub mod march;
pub mod texture;

use crate::card::{Dir, ViewAxis};
use crate::crop::ALPHA_THRESHOLD;
use crate::light::Medium;
use crate::reference::Medium64;
#[cfg(feature = "book")]
use fogbook_core::plot::{Series, line_chart};
use march::{Marched, march_card};
use texture::{CardMaps, Storage, card_maps};

/// Samples a cell along the view ray in the reference march. Its step rule converges as
/// 1/steps²: with 64 steps instead of 16 the blob's front light moves by less than 0.1 dB, the
/// 32³ plume's by up to 1.6 dB (cells of τ = 1.45) — from 76–79 dB, far above the tests' 60.
pub const MARCH_STEPS: usize = 16;

/// The unit vector towards light `d` in the card frame.
pub fn axis_light(d: Dir) -> [f64; 3] {
    let (axis, positive) = d.card_side();
    let mut l = [0.0; 3];
    l[axis] = if positive { 1.0 } else { -1.0 };
    l
}

// ANCHOR: psnr
/// PSNR in dB of `relit` against the march, over the smoke's footprint (the pixels whose marched
/// alpha is at least `crop::ALPHA_THRESHOLD`): 10 log₁₀(1 / mean squared error). The peak is 1:
/// the brightest a pixel can be, opaque and unshadowed under a unit sun with albedo 1.
pub fn psnr_db(relit: &[f64], reference: &Marched) -> f64 {
    let (mut sum, mut count) = (0.0f64, 0usize);
    for ((got, want), alpha) in relit.iter().zip(&reference.radiance).zip(&reference.alpha) {
        if *alpha >= ALPHA_THRESHOLD as f64 {
            sum += (got - want).powi(2);
            count += 1;
        }
    }
    if count == 0 || sum == 0.0 { f64::INFINITY } else { -10.0 * (sum / count as f64).log10() }
}
// ANCHOR_END: psnr

/// A density volume and the medium it is lit in, seen along one axis.
#[derive(Clone, Copy, Debug)]
pub struct Subject<'a> {
    pub n: usize,
    pub density: &'a [f32],
    pub view: ViewAxis,
    pub medium: Medium,
}

impl Subject<'_> {
    fn medium64(&self) -> Medium64 {
        let m = self.medium;
        Medium64 { extinction: m.extinction as f64, cell_m: m.cell_m as f64, albedo: m.albedo as f64 }
    }

    /// The card as the runtime will sample it (default swizzle).
    pub fn card(&self, storage: Storage) -> Result<CardMaps, String> {
        card_maps(self.n, self.density, self.view, self.medium, &crate::Swizzle::default(), storage)
    }

    // ANCHOR: relit_psnr
    /// The PSNR of `card` relit by the light `to_light` (card frame) against the march.
    pub fn relit_psnr(&self, card: &CardMaps, to_light: [f64; 3]) -> f64 {
        let marched = march_card(self.n, self.density, self.view, self.medium64(), to_light, MARCH_STEPS);
        psnr_db(&card.relit(to_light), &marched)
    }
    // ANCHOR_END: relit_psnr
}

/// The procedural test volume: a large lump low and left, a smaller one high, right and towards
/// the camera (of view z), and density rising with height — lopsided on every axis, so that
/// each of the six maps differs and a swapped map or flipped axis shows. Peak τ ≈ 0.4 a cell at
/// 32³ in `blob_medium`, about 4 through the thickest column.
pub fn lopsided_blob(n: usize) -> Vec<f32> {
    let lump = |q: [f64; 3], centre: [f64; 3], radii: [f64; 3]| {
        let r2: f64 = (0..3).map(|a| ((q[a] - centre[a]) / radii[a]).powi(2)).sum();
        (1.0 - r2).max(0.0)
    };
    let mut v = Vec::with_capacity(n * n * n);
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let q = [x, y, z].map(|i| (i as f64 + 0.5) / n as f64);
                let big = lump(q, [0.42, 0.42, 0.5], [0.3, 0.24, 0.28]) * (0.6 + q[1]);
                let small = lump(q, [0.68, 0.66, 0.66], [0.17, 0.17, 0.17]);
                v.push((11.0 * big + 14.0 * small) as f32);
            }
        }
    }
    v
}

/// The medium of `lopsided_blob`: a box of 1 m, extinction 1/m per unit density, albedo 1.
pub fn blob_medium(n: usize) -> Medium {
    Medium { extinction: 1.0, cell_m: 1.0 / n as f32, albedo: 1.0 }
}

// ANCHOR: sweeps
/// The plot's sweeps of the light: from the right axis towards the top (in the card's plane), the
/// body diagonal (right, top, back)/√3, and the view axis on either side (front, back).
pub const SWEEPS: [(&str, [f64; 3], f64); 4] = [
    ("right → top", [0.0, 1.0, 0.0], 90.0),
    ("right → (1,1,1)/√3", [1.0, 1.0, 1.0], 54.7356),
    ("right → front", [0.0, 0.0, -1.0], 90.0),
    ("right → back", [0.0, 0.0, 1.0], 90.0),
];

/// The light `degrees` from the right axis, turned towards `towards` (in the plane of the two).
pub fn swept_light(towards: [f64; 3], degrees: f64) -> [f64; 3] {
    // The part of `towards` at right angles to the right axis, normalised.
    let norm = (towards[1] * towards[1] + towards[2] * towards[2]).sqrt().max(f64::MIN_POSITIVE);
    let (c, s) = (degrees.to_radians().cos(), degrees.to_radians().sin());
    [c, s * towards[1] / norm, s * towards[2] / norm]
}
// ANCHOR_END: sweeps

#[cfg(feature = "book")]
const COLOURS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// The book's plot: the PSNR of the relit 32³ lopsided blob (view z, f16 atlases) against the
/// light's angle from the right axis, for each sweep. Empty if the card cannot be made.
#[cfg(feature = "book")]
pub fn plots() -> Vec<(&'static str, String)> {
    let n = 32;
    let density = lopsided_blob(n);
    let subject = Subject { n, density: &density, view: ViewAxis::Z, medium: blob_medium(n) };
    let Ok(card) = subject.card(Storage::F16) else { return Vec::new() };
    let series: Vec<Series> = SWEEPS
        .iter()
        .zip(COLOURS)
        .map(|(&(label, towards, end), color)| {
            let steps = (end / 3.0).ceil() as usize;
            let points = (0..=steps)
                .map(|i| {
                    let degrees = end * i as f64 / steps as f64;
                    (degrees, subject.relit_psnr(&card, swept_light(towards, degrees)))
                })
                .collect();
            Series { label: label.into(), color, points }
        })
        .collect();
    let svg = line_chart(
        "Six-way relighting against a ray march: 32³ lopsided blob, f16 atlases",
        "light's angle from the right axis (degrees)",
        "PSNR (dB, peak 1)",
        (0.0, 90.0),
        (10.0, 90.0),
        &series,
    );
    vec![("relight-psnr", svg), ("relit-beside-march", relit_beside_march(&subject, &card))]
}

// ANCHOR: relit_beside_march
/// The book's images: the card relit beside the march, and their difference, at the right axis
/// light and at the worst light, the diagonal (right + top)/√2 in the card's plane.
#[cfg(feature = "book")]
fn relit_beside_march(subject: &Subject, card: &CardMaps) -> String {
    use fogbook_core::plot::{Panel, image_panels};
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let mut images = Vec::new();
    for (name, light) in [("right axis", [1.0, 0.0, 0.0]), ("(right + top)/√2", [s, s, 0.0])] {
        let relit = card.relit(light);
        let marched = march_card(subject.n, subject.density, subject.view, subject.medium64(), light, MARCH_STEPS);
        let psnr = psnr_db(&relit, &marched);
        let difference = relit.iter().zip(&marched.radiance).map(|(a, b)| 2.0 * (a - b).abs()).collect();
        images.push((format!("six-way, {name}: {psnr:.1} dB"), relit));
        images.push((format!("ray march, {name}"), marched.radiance));
        images.push(("|six-way − march| × 2".to_string(), difference));
    }
    let n = subject.n as u32;
    let panels: Vec<Panel> =
        images.iter().map(|(label, values)| Panel { label: label.clone(), width: n, height: n, values }).collect();
    image_panels("32³ lopsided blob, view z, f16 atlases: relit by the six-way blend and marched", &panels, 3, 7.0)
}
// ANCHOR_END: relit_beside_march

#[cfg(test)]
mod tests {
    use super::*;

    fn psnrs(subject: &Subject, card: &CardMaps, lights: &[[f64; 3]]) -> Vec<f64> {
        lights.iter().map(|&l| subject.relit_psnr(card, l)).collect()
    }

    // ANCHOR: axis_test
    /// The 32³ lopsided blob seen along each axis, relit by each of the six axis lights from
    /// its f16 and its 8-bit atlases, against the march: at least 35 dB everywhere.
    #[test]
    fn axis_light_relights_the_blob_as_the_march_does() {
        let n = 32;
        let density = lopsided_blob(n);
        let axes = Dir::ALL.map(axis_light);
        for view in [ViewAxis::Z, ViewAxis::X, ViewAxis::Y] {
            let subject = Subject { n, density: &density, view, medium: blob_medium(n) };
            for storage in [Storage::F16, Storage::Unorm8] {
                let card = subject.card(storage).expect("the default swizzle holds every map");
                let db = psnrs(&subject, &card, &axes);
                eprintln!("view {view:?}, {storage:?}: PSNR (dB) top, bottom, left, right, back, front: {db:.1?}");
                assert!(db.iter().all(|&x| x >= 35.0), "{view:?} {storage:?}: {db:?}");
            }
        }
    }
    // ANCHOR_END: axis_test

    // ANCHOR: diagonal_test
    /// Between the axes the blend only approximates: for diagonal lights, in the card's plane,
    /// towards the camera or away, and along body diagonals, the PSNR is at least 10 dB below
    /// the worst axis light's (a relighting that marched the volume instead would fail this).
    #[test]
    fn diagonal_light_is_where_the_blend_approximates() {
        let n = 32;
        let density = lopsided_blob(n);
        let subject = Subject { n, density: &density, view: ViewAxis::Z, medium: blob_medium(n) };
        let card = subject.card(Storage::F16).expect("the default swizzle holds every map");
        let axis = psnrs(&subject, &card, &Dir::ALL.map(axis_light));
        let (s, t) = (std::f64::consts::FRAC_1_SQRT_2, 1.0 / 3f64.sqrt());
        let diagonals = [[s, s, 0.0], [-s, 0.0, -s], [0.0, -s, s], [t, t, t], [-t, t, -t]];
        let diagonal = psnrs(&subject, &card, &diagonals);
        let worst_axis = axis.iter().cloned().fold(f64::INFINITY, f64::min);
        eprintln!("axis lights {axis:.1?} dB, diagonal lights {diagonal:.1?} dB");
        assert!(diagonal.iter().all(|&d| d < worst_axis - 10.0), "{diagonal:?} vs {worst_axis}");
    }
    // ANCHOR_END: diagonal_test
}
