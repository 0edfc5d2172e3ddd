//! Chapter 8's answer keys: each reads its answer from the page's "Try this", computes it from
//! the page's formula in plain f64, and checks that the chapter's bake, atlases and blend agree.

use super::{close, numbers_after, numbers_between, page_answer};
use fogbook_six_way::card::{Dir, ViewAxis};

const PAGE: &str = "ch08-six-way-cards.md";

/// Try this exercise `start` of the page, its line breaks and indents made single spaces.
fn exercise(start: &str) -> String {
    page_answer(PAGE, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Try this 1: a sun at 30° elevation, azimuth 0: l = (cos 30°, sin 30°, 0) in the card frame.
#[test]
fn six_directions() {
    use fogbook_six_way::blend::{weights, weights_linear};
    let answer = exercise("1. **Six directions.**");
    let degrees = numbers_after(&answer, "elevation ")[0];
    let right = numbers_after(&answer, &format!("right cos {degrees}° ≈ "))[0];
    let top = numbers_after(&answer, &format!("top sin {degrees}° = "))[0];
    let linear_sum = numbers_between(&answer, "— summing to ", ";");
    // "squares: 0.75 and 0.25, summing to 1."
    let squares = numbers_between(&answer, "squares: ", ")");
    assert_eq!((linear_sum.len(), squares.len()), (1, 3), "a sum, two squares and theirs: {answer}");
    let sums = [linear_sum[0], squares[2]];
    let elevation = degrees.to_radians();
    let l = [elevation.cos(), elevation.sin(), 0.0];
    let positive = l.map(|c: f64| c.max(0.0));
    close(positive[0], right, 5e-3, "positive part, right");
    close(positive[1], top, 5e-3, "positive part, top");
    close(positive.iter().sum(), sums[0], 5e-3, "sum of the positive parts");
    close(l[0] * l[0], squares[0], 1e-12, "squared, right");
    close(l[1] * l[1], squares[1], 1e-12, "squared, top");
    close(l.iter().map(|c| c * c).sum(), sums[1], 1e-12, "sum of the squares");
    let (chapter, linear) = (weights(l), weights_linear(l));
    for d in Dir::ALL {
        let (want, want_linear) = match d {
            Dir::Right => (l[0] * l[0], positive[0]),
            Dir::Top => (l[1] * l[1], positive[1]),
            _ => (0.0, 0.0),
        };
        close(chapter[d.index()], want, 1e-12, &format!("the runtime's weight of {d:?}"));
        close(linear[d.index()], want_linear, 1e-12, &format!("the linear weight of {d:?}"));
    }
}

/// The light taken at each cell's centre of a homogeneous column lit from the front, summed over
/// `n` cells of optical depth `tau`, over the exact single scattering ½ (1 − e^(−2 n τ)).
fn centre_rule(tau: f64, n: usize) -> f64 {
    let cell = |k: usize| (1.0 - (-tau).exp()) * (-2.0 * k as f64 * tau - 0.5 * tau).exp();
    (0..n).map(cell).sum::<f64>() / (0.5 * (1.0 - (-2.0 * tau * n as f64).exp()))
}

/// The bake's front light at the middle of a 16³ homogeneous column of cells of optical depth
/// `tau` (extinction 3/m), over the exact ½ (1 − e^(−2 σ D)).
fn bake_over_exact(tau: f64) -> f64 {
    use fogbook_six_way::card::to_card;
    use fogbook_six_way::light::{Medium, bake_frame};
    let n = 16;
    let m = Medium { extinction: 3.0, cell_m: (tau / 3.0) as f32, albedo: 1.0 };
    let f = bake_frame(n, &to_card(n, &vec![1.0; n * n * n], ViewAxis::Z), None, m);
    let tau_total = 3.0 * m.cell_m as f64 * n as f64;
    f.lit[Dir::Front.index()][8 + 8 * n] as f64 / (0.5 * (1.0 - (-2.0 * tau_total).exp()))
}

/// Try this 2: per cell the centre rule over the exact is 2 e^(−τ/2) / (1 + e^(−τ)) = 1/cosh(τ/2);
/// the bake integrates over the cell and meets the exact.
#[test]
fn the_half_cell_term() {
    let answer = exercise("2. **The half-cell term.**");
    let (tau, thick) = (numbers_after(&answer, "optical depth ")[0], numbers_after(&answer, "try cells of ")[0]);
    let half = numbers_after(&answer, "cosh ")[0];
    close(half, tau / 2.0, 1e-12, "the page's cosh of half a cell");
    let halved = numbers_after(&answer, "\\tau = ")[0];
    close(halved, tau / 2.0, 1e-12, "the halved cells");
    let page = [
        numbers_after(&answer, &format!("cosh {half} = "))[0],
        numbers_after(&answer, &format!("\\tau = {halved}\\\\) × "))[0],
        numbers_after(&answer, &format!("at {thick} × "))[0],
    ];
    for (t, want) in [tau, halved, thick].into_iter().zip(page) {
        let closed = 1.0 / (t / 2.0).cosh();
        close(closed, want, 5e-6, &format!("centre rule over exact, τ = {t} a cell"));
        close(centre_rule(t, 16), closed, 1e-12, &format!("the centre rule summed, τ = {t}"));
        close(bake_over_exact(t), 1.0, 2e-6, &format!("the bake's front light, τ = {t} a cell"));
    }
    let low = numbers_after(&answer, &format!("{}, ", page[0]))[0];
    close((1.0 - 1.0 / (tau / 2.0).cosh()) * 100.0, low, 0.05, "how far low (%)");
    assert!(answer.contains("four times closer"), "{answer}");
    let closer = (1.0 - 1.0 / (tau / 2.0).cosh()) / (1.0 - 1.0 / (halved / 2.0).cosh());
    close(closer.round(), 4.0, 0.0, "how many times closer at half the cell");
}

/// Try this 3: alpha rounds to 255 once 255 α ≥ 254.5, that is e^(−τ) ≤ 0.5/255.
#[test]
fn opaque_in_8_bits() {
    use fogbook_six_way::atlas::to_rgba8;
    let answer = exercise("3. **Opaque in 8 bits.**");
    let threshold = numbers_after(&answer, "\\ge ")[0];
    let levels = numbers_after(&answer, &format!("{threshold}/"))[0];
    let ratio = numbers_after(&answer, "\\ln ")[0];
    let tau_page = numbers_after(&answer, &format!("\\ln {ratio} = "))[0];
    close(threshold, levels - 0.5, 0.0, "half a step below the top level");
    let tau = -(1.0 - threshold / levels).ln();
    close(tau, ratio.ln(), 1e-12, "the page's ln 510");
    close(tau, tau_page, 5e-3, "optical depth opaque in 8 bits");
    let alpha = |t: f64| to_rgba8(&[(1.0 - (-t).exp()) as f32])[0];
    assert_eq!((alpha(tau - 0.01), alpha(tau + 0.01)), (254, 255), "the atlas's rounding at τ = {tau}");
}

/// Try this 4: two atlases of (8 × 128)² texels, RGBA of one byte and of four a channel.
#[test]
fn atlas_memory() {
    let answer = exercise("4. **Memory.**");
    let (cols, frame) = (numbers_after(&answer, "atlases take (")[0], numbers_after(&answer, "frames of ")[0]);
    let rows = numbers_after(&answer, &format!("({cols} × "))[0];
    let (side, mib) = (numbers_after(&answer, "(2 × ")[0], numbers_after(&answer, "= "));
    let f32_mib = numbers_after(&answer, "MiB; ")[0];
    let [w, h] = [cols * frame, rows * frame];
    close(w, side, 0.0, "the atlas's side (texels)");
    let megabytes = |bytes_a_channel: f64| 2.0 * w * h * 4.0 * bytes_a_channel / (1u64 << 20) as f64;
    close(megabytes(1.0), mib[0], 0.0, "two 8-bit atlases (MiB)");
    close(megabytes(4.0), f32_mib, 0.0, "two f32 atlases (MiB)");
    let layout = fogbook_six_way::BakeSettings::default().layout().unwrap();
    assert_eq!(layout.size().map(|s| s as f64), [w, h], "the default bake's atlas");
}

/// Try this 5: the world's axes in the card's frame for `--view-axis z`, each to the letter of
/// the side it lights (a map's letter names the side of the card the light is on).
#[test]
fn swizzle_in_world_axes() {
    let answer = exercise("5. **Swizzles.**");
    assert!(answer.contains("(right is +x, up +y, away −z)"), "{answer}");
    // Card axes in the world: right +x, up +y, away −z; a world axis lights the side of the card
    // axis along it, on the positive side if they point the same way.
    let card = [[1, 0, 0], [0, 1, 0], [0, 0, -1]];
    let letters = [('L', 'R'), ('B', 'T'), ('F', 'K')];
    let letter = |w: [i32; 3]| {
        let axis = (0..3).find(|&a| card[a].iter().zip(w).any(|(c, v)| c * v != 0)).unwrap();
        let same = card[axis].iter().zip(w).map(|(c, v)| c * v).sum::<i32>() > 0;
        if same { letters[axis].1 } else { letters[axis].0 }
    };
    let (plus, minus) = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[-1, 0, 0], [0, -1, 0], [0, 0, -1]]);
    let side = |axes: [[i32; 3]; 3]| axes.map(letter).iter().collect::<String>();
    // The fourth channels stay alpha (atlas A) and emission (atlas B).
    let want = format!("{}A/{}E", side(plus), side(minus));
    let page = answer.split("(`").nth(1).and_then(|a| a.split('`').next()).expect("(`SWIZZLE`");
    assert_eq!(want, page, "the swizzle of X+, Y+, Z+ / X−, Y−, Z−");
    let chapter = |w: [i32; 3]| Dir::ALL.into_iter().find(|d| d.towards_light_world(ViewAxis::Z) == w).unwrap();
    let chapter_side = |axes: [[i32; 3]; 3]| axes.map(|w| chapter(w).letter()).iter().collect::<String>();
    assert_eq!(format!("{}A/{}E", chapter_side(plus), chapter_side(minus)), want, "the chapter's world axes");
    assert_eq!(fogbook_six_way::Swizzle::parse(page).unwrap().letters(), page, "the swizzle parses");
}

/// Try this 8: the top map's weight 5° off the right axis is sin² 5°; the PSNR is the relit
/// blob's against the chapter's brute-force march (a measurement, read from the page).
#[test]
fn five_degrees_off() {
    use fogbook_six_way::validation::{Subject, blob_medium, lopsided_blob, swept_light, texture::Storage};
    let answer = exercise("8. **Five degrees off.**");
    let degrees = numbers_after(&answer, "Turn the light ")[0];
    let weight = numbers_after(&answer, &format!("{degrees}° = "))[0];
    let from = numbers_after(&answer, "falls from ")[0];
    let to = numbers_after(&answer, &format!("{from} to "))[0];
    let sin2 = degrees.to_radians().sin().powi(2);
    close(sin2, weight, 5e-5, "top map's weight at 5°");
    let light = swept_light([0.0, 1.0, 0.0], degrees);
    close(fogbook_six_way::blend::weights(light)[Dir::Top.index()], sin2, 1e-12, "the runtime's top weight");
    let density = lopsided_blob(32);
    let blob = Subject { n: 32, density: &density, view: ViewAxis::Z, medium: blob_medium(32) };
    let card = blob.card(Storage::F16).unwrap();
    close(blob.relit_psnr(&card, swept_light([0.0, 1.0, 0.0], 0.0)), from, 0.05, "PSNR, light along right (dB)");
    close(blob.relit_psnr(&card, light), to, 0.05, "PSNR, 5° towards top (dB)");
}

/// Try this 9: premultiplied "over", back to front: the layer (C, T) from (0, 1) takes a card
/// (α, L) as (α L + (1 − α) C, (1 − α) T); over a background B it gives B T + C.
#[test]
fn over_back_to_front() {
    let answer = exercise("9. **Over, back to front.**");
    let (alpha, radiance) = (numbers_after(&answer, "Two cards of alpha ")[0], numbers_after(&answer, "radiance ")[0]);
    let background = numbers_after(&answer, "a background of ")[0];
    let first = numbers_between(&answer, "After the first \\\\((", ")");
    let second = numbers_between(&answer, ") = (", ")");
    let out = *numbers_between(&answer, "out \\\\(= ", "\\\\)").last().unwrap();
    let over = |(c, t): (f64, f64), a: f64, l: f64| (a * l + (1.0 - a) * c, (1.0 - a) * t);
    let one = over((0.0, 1.0), alpha, radiance);
    let two = over(one, alpha, radiance);
    assert_eq!(([one.0, one.1], [two.0, two.1]), ([first[0], first[1]], [second[0], second[1]]), "{answer}");
    close(background * two.1 + two.0, out, 1e-12, "the composite over the background");
    let other = over(over((0.0, 1.0), 0.8, 0.2), alpha, radiance);
    assert_ne!(other, over(over((0.0, 1.0), alpha, radiance), 0.8, 0.2), "different cards do not commute");
}

/// Try this 10: τ scales with the density, so 1 − α = e^(−τ) becomes (1 − α)^s.
#[test]
fn density_scale() {
    let answer = exercise("10. **Density scale.**");
    let (alpha, scale) = (numbers_after(&answer, "texel of alpha ")[0], numbers_after(&answer, "`density_scale=")[0]);
    let tau = -(1.0 - alpha).ln();
    let scaled = 1.0 - (-scale * tau).exp();
    close(scaled, numbers_after(&answer, "^2 = ")[0], 1e-12, "alpha at twice the density");
    close(scaled, 1.0 - (1.0 - alpha).powf(scale), 1e-12, "1 − (1 − α)^s");
}

/// Try this 11: the fragments over the blend rate, and the rate's fragments in 1.5 ms a pixel.
#[test]
fn the_blends_floor() {
    let answer = exercise("11. **The blend's floor.**");
    let fragments = numbers_after(&answer, "preset draws ")[0] * 1e6;
    let w = numbers_after(&answer, "fragments at ")[0];
    let h = numbers_after(&answer, &format!("fragments at {w} × "))[0];
    let mantissa = numbers_after(&answer, "At the ")[0];
    assert!(answer.contains(&format!("At the {mantissa}·10⁹ blended")), "the rate is × 10⁹: {answer}");
    let rate = mantissa * 1e9;
    let budget = numbers_after(&answer, "fit in ")[0] * 1e-3;
    close(fragments / rate * 1e3, numbers_after(&answer, "ms? (")[0], 0.05, "the blend alone (ms)");
    close(budget * rate / 1e6, numbers_after(&answer, "ms; ")[0], 0.05, "fragments in the budget (M)");
    close(budget * rate / (w * h), numbers_after(&answer, "fragments, ")[0], 0.05, "mean overdraw that fits");
}
