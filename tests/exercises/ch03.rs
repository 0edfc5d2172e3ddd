//! Chapter 3's answer keys: each reads its answer from the page's "Try this" and the Earth's
//! constants from the table on the model's page, integrates the extinction along the ray in plain
//! f64, and checks that the chapter's CPU reference agrees.

use super::{
    close, grouped_number, numbers_after, numbers_between, numbers_in, page_answer, scientific_after, superscript_after,
};
use fogbook_sky::LutResolution;
use fogbook_sky::reference::Atmosphere;

const MODEL: &str = "ch03-sky.md";
const PRECOMPUTATION: &str = "ch03-sky-precomputation.md";
const RENDERING: &str = "ch03-sky-rendering.md";

/// Try this exercise `start` of `page`, its line breaks and indents made single spaces.
fn exercise(page: &str, start: &str) -> String {
    page_answer(page, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The Earth's atmosphere as the model's page gives it (SI units).
struct Earth {
    bottom: f64,
    top: f64,
    rayleigh: [f64; 3],
    rayleigh_height: f64,
    mie_extinction: f64,
    mie_height: f64,
    ozone: [f64; 3],
    /// The ozone tent: where it starts, where it ends, where it peaks (m).
    tent: [f64; 3],
}

impl Earth {
    /// The value column of the row `quantity` of the page's table "Earth's atmosphere": one
    /// number or a triple, × 10⁻⁶ or in km as written.
    fn table(text: &str, quantity: &str) -> Vec<f64> {
        let row = text.lines().find(|l| l.starts_with(&format!("| {quantity} |"))).expect(quantity);
        let cell = row.split('|').nth(3).unwrap().trim();
        let (values, rest) = match cell.strip_prefix('(') {
            Some(triple) => triple.split_once(')').unwrap(),
            None => cell.split_at(cell.find(' ').unwrap()),
        };
        let values = numbers_in(values);
        let rest = rest.trim_start();
        let scale = if rest.starts_with("· 10⁻⁶") {
            1e-6
        } else if rest.starts_with("km") {
            1000.0
        } else {
            1.0
        };
        values.into_iter().map(|v| v * scale).collect()
    }

    fn from_page() -> Self {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src").join(MODEL);
        let text = std::fs::read_to_string(path).unwrap();
        let one = |q: &str| Self::table(&text, q)[0];
        let three = |q: &str| <[f64; 3]>::try_from(Self::table(&text, q)).unwrap();
        let tent: Vec<f64> =
            numbers_between(&text, "ozone lies in a tent from ", ".").iter().map(|km| km * 1000.0).collect();
        Self {
            bottom: one("ground radius"),
            top: one("top of the atmosphere"),
            rayleigh: three("Rayleigh scattering"),
            rayleigh_height: one("Rayleigh scale height"),
            // Extinction is scattering plus absorption.
            mie_extinction: one("Mie scattering") + one("Mie absorption"),
            mie_height: one("Mie scale height"),
            ozone: three("ozone absorption at the peak"),
            tent: <[f64; 3]>::try_from(tent).expect("10 to 40 km, peaking at 25 km"),
        }
    }

    /// Extinction (1/m) per channel at `h` metres above the ground.
    fn extinction(&self, h: f64) -> [f64; 3] {
        let [start, end, peak] = self.tent;
        let ozone = (1.0 - (h - peak).abs() / ((end - start) / 2.0)).max(0.0);
        let (r, m) = ((-h / self.rayleigh_height).exp(), (-h / self.mie_height).exp());
        std::array::from_fn(|k| self.rayleigh[k] * r + self.mie_extinction * m + self.ozone[k] * ozone)
    }

    /// Optical depth from the ground to space along a ray `elevation_deg` above the horizon: the
    /// chord to the top sphere, |p + t d| = R_t, by the midpoint rule.
    fn optical_depth_up(&self, elevation_deg: f64) -> [f64; 3] {
        let (r, mu) = (self.bottom, elevation_deg.to_radians().sin());
        let length = -r * mu + (r * r * (mu * mu - 1.0) + self.top * self.top).sqrt();
        let steps = 40_000;
        let dt = length / steps as f64;
        let mut tau = [0.0; 3];
        for i in 0..steps {
            let t = (i as f64 + 0.5) * dt;
            let e = self.extinction((r * r + t * t + 2.0 * r * mu * t).sqrt() - self.bottom);
            (0..3).for_each(|k| tau[k] += e[k] * dt);
        }
        tau
    }
}

/// The model page's Try this 1: where each density falls to a tenth, H ln 10.
#[test]
fn scale_heights() {
    let answer = exercise(MODEL, "1. **Scale heights.**");
    let heights = numbers_after(&answer, "\\(");
    let at_tenth = numbers_after(&answer, "\\approx ");
    assert_eq!((heights.len(), at_tenth.len()), (2, 2), "two scale heights, two altitudes: {answer}");
    let earth = Earth::from_page();
    let atm = Atmosphere::default();
    for (i, (h, what)) in [(earth.rayleigh_height, "Rayleigh"), (earth.mie_height, "Mie")].into_iter().enumerate() {
        close(h / 1000.0, heights[i], 1e-12, &format!("{what} scale height of the table (km)"));
        let tenth = h * 10f64.ln();
        close(tenth / 1000.0, at_tenth[i], 0.05, &format!("{what} density at a tenth (km)"));
        let chapter = if i == 0 { atm.rayleigh_density(tenth) } else { atm.mie_density(tenth) };
        close(chapter, 0.1, 1e-12, &format!("the chapter's {what} density there"));
    }
}

/// The model page's Try this 2: the columns straight up, flat (β H, and the ozone's tent) and
/// on the sphere.
#[test]
fn the_sky_to_first_order() {
    let answer = exercise(MODEL, "2. **The sky's colour, to first order.**");
    let earth = Earth::from_page();
    let asked = numbers_between(&answer, "coefficients of (", ")");
    let rayleigh = numbers_between(&answer, "Rayleigh alone: ", "—");
    let aerosols = numbers_after(&answer, "aerosols add ");
    let ozone = numbers_between(&answer, "every channel and the ozone ", ":");
    let total = numbers_between(&answer, "in all ", ", the check");
    let check = numbers_between(&answer, "check value (", ")");
    let layer = numbers_after(&answer, "tent holds ");
    let counts = [asked.len(), rayleigh.len(), aerosols.len(), ozone.len(), total.len(), check.len(), layer.len()];
    assert_eq!(counts, [3, 6, 1, 3, 3, 3, 1], "the page's numbers: {answer}");
    let tent_area = (earth.tent[1] - earth.tent[0]) / 2.0;
    close(tent_area / 1000.0, layer[0], 0.0, "the tent's thickness at the peak's absorption (km)");
    let mie = earth.mie_extinction * earth.mie_height;
    close(mie, aerosols[0], 5e-5, "aerosol column");
    let curved = earth.optical_depth_up(90.0);
    let chapter = Atmosphere::default().optical_depth_to_top(Atmosphere::default().bottom_radius, 1.0, 20_000);
    for k in 0..3 {
        close(earth.rayleigh[k] * 1e6, asked[k], 0.05, "the asked coefficient × 10⁶ (1/m)");
        let flat = earth.rayleigh[k] * earth.rayleigh_height;
        close(flat, rayleigh[k], 5e-4, "Rayleigh column");
        close((-flat).exp(), rayleigh[3 + k], 5e-4, "Rayleigh transmittance to space");
        close(earth.ozone[k] * tent_area, ozone[k], 5e-5, "ozone column");
        close(flat + mie + earth.ozone[k] * tent_area, total[k], 5e-5, "flat column in all");
        close(curved[k], check[k], 5e-6, "the column on the sphere, integrated");
        close(chapter[k], curved[k], 1e-7, "the chapter's column straight up");
    }
}

/// The rendering page's Try this 1: the sun's transmittance to the ground at 10° elevation.
#[test]
fn the_sun_at_ten_degrees() {
    let answer = exercise(RENDERING, "1. How much of the sun's red, green and blue light");
    let elevation = numbers_after(&answer, "with the sun ")[0];
    let page = numbers_between(&answer, "*(", ")");
    assert_eq!(page.len(), 3, "red, green and blue: {answer}");
    let tau = Earth::from_page().optical_depth_up(elevation);
    let atm = Atmosphere::default();
    let chapter = atm.transmittance_to_top(atm.bottom_radius, elevation.to_radians().sin(), 4000);
    for (k, colour) in ["red", "green", "blue"].into_iter().enumerate() {
        close((-tau[k]).exp(), page[k], 5e-4, &format!("{colour} transmittance, sun at {elevation}°"));
        close(chapter[k], (-tau[k]).exp(), 1e-5, &format!("the chapter's {colour} transmittance"));
    }
}

/// The precomputation page's Try this 1: one scattering-density evaluation of every direction for
/// each texel, for each order after the first.
#[test]
fn texel_counts() {
    let answer = exercise(PRECOMPUTATION, "1. **Texel counts.**");
    let full = numbers_between(&answer, "texture holds ", "=");
    let half = numbers_between(&answer, "half resolution has ", " texels");
    assert_eq!((full.len(), half.len()), (4, 4), "r, μ, μ_s and ν texels: {answer}");
    let total = answer.split(" = ").nth(1).and_then(grouped_number).expect("the texels, 1 048 576");
    let directions = numbers_after(&answer, "integrates ")[0];
    let orders = numbers_between(&answer, "for orders ", ";");
    let (count, power) = (numbers_after(&answer, "? (")[0], superscript_after(&answer, &format!("{directions} × 2")));
    let (all, all_power) = scientific_after(&answer, "≈ ");
    let (at_half, half_power) = scientific_after(&answer, "an eighth, so ");
    let texels = |dims: &[f64]| dims.iter().product::<f64>();
    close(texels(&full), total, 0.0, "texels at full size");
    close(texels(&full), 2f64.powi(power), 0.0, "2^20 texels");
    close(orders[1] - orders[0] + 1.0, count, 0.0, "orders after the first of four");
    close(count * directions * texels(&full) / 10f64.powi(all_power), all, 5e-3, "directions of four orders");
    for (h, f) in half.iter().zip(&full).take(3) {
        close(*h, f / 2.0, 0.0, "a halved axis");
    }
    close(half[3], full[3], 0.0, "ν keeps its texels");
    close(texels(&full) / texels(&half), 8.0, 0.0, "an eighth");
    close(count * directions * texels(&half) / 10f64.powi(half_power), at_half, 0.05, "directions at half size");
    // The chapter's sizes, (ν, μ_s, μ, r) where the page writes (r, μ, μ_s, ν).
    let reversed = |d: &[f64]| [d[3], d[2], d[1], d[0]];
    assert_eq!(LutResolution::Full.scattering_size().map(f64::from), reversed(&full), "full size");
    assert_eq!(LutResolution::Half.scattering_size().map(f64::from), reversed(&half), "half size");
}

/// The precomputation page's Try this 3: the share of the μ_s axis below the horizon, from the
/// page's mapping x = max(1 − q/Q, 0) / (1 + q), where q is the distance to the top from the
/// ground towards the sun normalised between straight up and the horizon, and Q is q at cos 102°;
/// the texels spanning it, (N − 1) x from the first texel centre.
#[test]
fn twilight_texels() {
    let answer = exercise(PRECOMPUTATION, "3. **Resolution.**");
    let share = numbers_after(&answer, "horizon ")[0] / 100.0;
    let (full_n, quarter_n) = (numbers_after(&answer, "full size (")[0], numbers_after(&answer, "quarter` (")[0]);
    let (full_page, fewer_than) = (numbers_after(&answer, "(About ")[0], numbers_after(&answer, "fewer than ")[0]);
    let earth = Earth::from_page();
    let (bottom, top) = (earth.bottom, earth.top);
    let horizon = (top * top - bottom * bottom).sqrt();
    let q = |mu_s: f64| {
        let d = -bottom * mu_s + (bottom * bottom * (mu_s * mu_s - 1.0) + top * top).sqrt();
        (d - (top - bottom)) / (horizon - (top - bottom))
    };
    let mu_s_min = 102f64.to_radians().cos();
    let x = |mu_s: f64| (1.0 - q(mu_s) / q(mu_s_min)).max(0.0) / (1.0 + q(mu_s));
    close(x(mu_s_min), 0.0, 1e-12, "−12° maps to 0");
    close(x(1.0), 1.0, 1e-12, "the zenith maps to 1");
    let below = x(0.0) - x(mu_s_min);
    close(below, share, 0.005, "the axis's share below the horizon");
    close((full_n - 1.0) * below, full_page, 0.5, "texels of twilight at full size");
    assert!((quarter_n - 1.0) * below < fewer_than, "texels of twilight at quarter size");
    close(fogbook_sky::MU_S_MIN, mu_s_min, 1e-12, "the chapter's μ_s,min");
    close(LutResolution::Full.scattering_size()[1] as f64, full_n, 0.0, "the chapter's μ_s texels, full");
    close(LutResolution::Quarter.scattering_size()[1] as f64, quarter_n, 0.0, "the chapter's μ_s texels, quarter");
}
