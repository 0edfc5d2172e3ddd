//! The answer keys of the book's "Try this" exercises: each number a chapter's page gives as an
//! answer is computed here from the chapter's CPU reference (or the core), so the page and the
//! code cannot drift apart. No GPU needed.

use fogbook::registry;
use fogbook_core::params::set_by_name;

/// The text of the numbered "Try this" exercise of `page` that starts with `start`, up to the
/// next exercise: the answer key reads its numbers from there, so page and key cannot drift.
fn page_answer(page: &str, start: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src").join(page);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find(start).unwrap_or_else(|| panic!("{page}: no exercise {start:?}"));
    let rest = &text[at + start.len()..];
    // The next exercise starts a line with its number, or the next section begins.
    let next = (1..=20).map(|d| format!("\n{d}. ")).chain(["\n## ".to_string()]);
    let end = next.filter_map(|m| rest.find(&m)).min().unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The number written after each `marker` in `text`, and after each " and " that follows it
/// ("ω = 1.945 and 1.972" gives both).
fn numbers_after(text: &str, marker: &str) -> Vec<f64> {
    let leading = |t: &str| -> Option<f64> {
        let digits: String = t.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        digits.trim_end_matches('.').parse().ok()
    };
    let mut out = Vec::new();
    for piece in text.split(marker).skip(1) {
        let mut parts = piece.split(" and ");
        out.extend(parts.next().and_then(leading));
        out.extend(parts.next().and_then(leading));
    }
    out
}

// Chapters 4 to 6 have many numeric exercises each: one file of keys per chapter.
#[path = "exercises/ch04.rs"]
mod chapter_4;
#[path = "exercises/ch05.rs"]
mod chapter_5;
#[path = "exercises/ch06.rs"]
mod chapter_6;

fn close(got: f64, want: f64, tolerance: f64, what: &str) {
    eprintln!("{what}: {got}");
    assert!((got - want).abs() <= tolerance, "{what}: {got}, the book says {want}");
}

/// Chapter 0: the stage order, the jitter of frame 1, the second colour target's size.
#[test]
fn chapter_0() {
    assert_eq!(registry::stack("height-fog,distance-fog").unwrap().ids(), ["distance-fog", "height-fog"]);
    let j = fogbook_core::history::jitter(1);
    close(j[0] as f64, -0.25, 1e-7, "jitter x of frame 1");
    close(j[1] as f64, 1.0 / 6.0, 1e-7, "jitter y of frame 1");
    let bytes = fogbook_core::frame::VIEW_FORMAT.block_copy_size(None).unwrap() as u64 * 1920 * 1080;
    close(bytes as f64 / 1e6, 33.1776, 1e-9, "second colour target at 1080p (MB)");
}

/// Chapter 1: where exponential fog hides half a surface; the visibility-derived coefficient.
#[test]
fn chapter_1() {
    use fogbook_distance_fog::{DistanceFogParams, reference};
    let half = 2f64.ln() / 0.02;
    close(reference::exponential(half, 0.02), 0.5, 1e-12, "fog at ln2/0.02 m");
    close(half, 34.66, 0.005, "distance where half is gone (m)");
    let mut p = DistanceFogParams::default();
    for s in ["falloff=exponential", "use_visibility=true", "visibility_m=50"] {
        let (n, v) = s.split_once('=').unwrap();
        set_by_name(&mut p, n, v).unwrap();
    }
    let fog = reference::ResolvedFog::new(&p);
    close(fog.density, 0.0599, 5e-5, "density from a 50 m visibility (1/m)");
    close((-fog.density * 50.0).exp(), 0.05, 1e-6, "contrast left at 50 m");
}

/// Chapter 2: a level ray at eye height through the default fog; no falloff is chapter 1's fog.
#[test]
fn chapter_2() {
    use fogbook_height_fog::{HeightFogParams, model};
    let m = model(&HeightFogParams::default());
    let tau = m.optical_depth(2.0, 0.0, 100.0);
    close(tau, 1.3406, 5e-5, "optical depth, level ray at 2 m, 100 m");
    close(1.0 - (-tau).exp(), 0.738, 5e-4, "fog amount there");
    let mut p = HeightFogParams::default();
    set_by_name(&mut p, "height_falloff", "0").unwrap();
    close(model(&p).optical_depth(2.0, -0.3, 80.0), 0.02 * 80.0, 1e-6, "no falloff: τ = ρ d");
}

/// Chapter 3: how much of the sun's red, green and blue reaches the ground at 10° elevation.
#[test]
fn chapter_3() {
    use fogbook_sky::reference::Atmosphere;
    let atm = Atmosphere::default();
    let t = atm.transmittance_to_top(atm.bottom_radius + 1.0, 10f64.to_radians().sin(), 4000);
    close(t[0], 0.713, 5e-4, "red transmittance, sun at 10°");
    close(t[1], 0.460, 5e-4, "green transmittance, sun at 10°");
    close(t[2], 0.222, 5e-4, "blue transmittance, sun at 10°");
}

/// Chapter 7's four pages: the solver's smoke left after a second of dissipation (Try this 1);
/// the pressure solve's Jacobi sweeps per decade at 64³, optimal SOR factors and a V-cycle's work
/// (1–3); production smoke's temperature exercise (1); drawing the smoke's E₂(1) (2).
#[test]
fn chapter_7() {
    // ch07-smoke-pressure.md, Try this 1.
    use fogbook_smoke::reference::sweeps_per_decade;
    close(sweeps_per_decade(64), 5734.0, 1.0, "sweeps per decade at 64³");
    // ch07-smoke.md, Try this 1.
    let left = (1.0f64 / (1.0 + 2.0 / 60.0)).powi(60);
    close(left, 0.1398, 5e-5, "density left after 1 s at k = 2/s, 60 steps");
    close((-2.0f64).exp(), 0.1353, 5e-5, "the continuous law e^(−k t)");
    // ch07-smoke-pressure.md, Try this 2 and 3: the optimal over-relaxation, and the work and
    // levels of a V(2,2) cycle.
    use fogbook_smoke::reference::poisson::{Level, hierarchy, optimal_sor_omega, v_cycle_work};
    // The pressure page's Try this 2, read from the page: the closed box's optimum, then the open top's.
    let answer = page_answer("ch07-smoke-pressure.md", "2. What is the optimal over-relaxation");
    let omegas = numbers_after(&answer, "ω = ");
    assert_eq!(omegas.len(), 4, "ch07-smoke-pressure.md, Try this 2 gives ω for two sizes, closed and open: {answer}");
    use fogbook_smoke::reference::poisson::optimal_sor_omega_open_top;
    close(optimal_sor_omega(64), omegas[0], 5e-4, "optimal ω at 64³, closed box");
    close(optimal_sor_omega(128), omegas[1], 5e-4, "optimal ω at 128³, closed box");
    close(optimal_sor_omega_open_top(64), omegas[2], 5e-4, "optimal ω at 64³, open top");
    close(optimal_sor_omega_open_top(128), omegas[3], 5e-4, "optimal ω at 128³, open top");
    let levels = hierarchy(Level { n: 64, h: 1.0, open_top: false });
    assert_eq!(levels.len(), 6, "levels 64³ … 2³");
    close(v_cycle_work(&levels), 5.71, 5e-3, "fine-grid sweeps per V(2,2) cycle at 64³");
    // ch07-smoke-production.md, Try this 1: the emitter's lift with heat_lift = 0.01, and the
    // time to cool to 400 K.
    let mut p = fogbook_smoke::SmokeParams::default();
    set_by_name(&mut p, "heat_lift", "0.01").unwrap();
    let excess = fogbook_smoke::emitter_excess_k(&p) as f64;
    close(p.heat_lift as f64 * excess, 3.07, 5e-3, "lift at the emitter (m/s²)");
    let to_400 = (excess / (400.0 - p.ambient_temperature_k as f64)).ln() / p.cooling_rate as f64;
    close(to_400, 1.055, 5e-4, "time to cool to 400 K (s)");
    let keep = fogbook_smoke::temperature_keep(p.cooling_rate, p.time_step_s) as f64;
    let steps = (1..).find(|&n| excess * keep.powi(n) < 400.0 - p.ambient_temperature_k as f64).unwrap();
    assert_eq!(steps, 64, "steps of 1/60 s to cool below 400 K");
    // ch07-smoke-drawing.md, Try this 2: a hemisphere's mean transmittance through optical depth
    // 1, against the vertical.
    use fogbook_smoke::reference::lighting::exponential_integral_e2;
    close(exponential_integral_e2(1.0), 0.1485, 5e-5, "E₂(1)");
    close((-1.0f64).exp(), 0.3679, 5e-5, "e^(−1)");
}

/// Chapter 7's 2D warm-up: sweeps per decade of the slowest mode at 128², the optimal ω, the dye
/// left after a second.
#[test]
fn chapter_7_warm_up() {
    use fogbook_smoke_2d::reference::{gauss_seidel_slowest_rate, jacobi_slowest_rate};
    let decade = |rate: f64| 0.1f64.ln() / rate.ln();
    close(decade(jacobi_slowest_rate(128)), 15289.0, 1.0, "Jacobi sweeps per decade at 128²");
    close(decade(gauss_seidel_slowest_rate(128)), 7645.0, 1.0, "red–black GS sweeps per decade at 128²");
    close(fogbook_smoke_2d::reference::optimal_sor_omega(128), 1.966, 5e-4, "optimal ω at 128²");
    let p = fogbook_smoke_2d::Smoke2dParams::default();
    let keep = fogbook_smoke_2d::Smoke2dUniform::new(&p, 128, 0, 0).density_keep as f64;
    close(keep.powi(60), 0.9512, 1e-4, "dye left after 60 steps at k = 0.05/s");
}

/// Chapter 8: the six-way weights of a sun at 30°, what the front light's in-cell integral saves, the optical depth
/// that is opaque in 8 bits, the default atlases' memory, the world-axis swizzle, the relit
/// blob's PSNR 5° off an axis.
#[test]
fn chapter_8() {
    use fogbook_six_way::atlas::{Layout, to_rgba8};
    use fogbook_six_way::card::{Dir, ViewAxis, to_card};
    use fogbook_six_way::light::{Medium, bake_frame};
    let (x, y) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
    close(x, 0.87, 5e-3, "positive part, right");
    close(x + y, 1.37, 5e-3, "sum of the positive parts");
    close(x * x, 0.75, 1e-12, "squared, right");
    close(x * x + y * y, 1.0, 1e-12, "sum of the squares");
    // A homogeneous column lit from the front: the light taken at each cell's centre, summed, over
    // the exact single scattering; and the bake (the in-cell integral) over the exact.
    let n = 16;
    let centre_rule = |tau: f64| {
        let sum: f64 = (0..n).map(|k| (1.0 - (-tau).exp()) * (-2.0 * k as f64 * tau - 0.5 * tau).exp()).sum();
        sum / (0.5 * (1.0 - (-2.0 * tau * n as f64).exp()))
    };
    close(centre_rule(0.3), 0.98885, 5e-6, "centre rule, front light, τ = 0.3 a cell");
    close(centre_rule(0.15), 0.99719, 5e-6, "centre rule, front light, τ = 0.15 a cell");
    close(centre_rule(2.1), 0.62352, 5e-6, "centre rule, front light, τ = 2.1 a cell");
    let front = |cell_m: f32| {
        let m = Medium { extinction: 3.0, cell_m, albedo: 1.0 };
        let f = bake_frame(n, &to_card(n, &vec![1.0; n * n * n], ViewAxis::Z), None, m);
        let tau_total = 3.0 * cell_m as f64 * n as f64;
        f.lit[Dir::Front.index()][8 + 8 * n] as f64 / (0.5 * (1.0 - (-2.0 * tau_total).exp()))
    };
    close(front(0.1), 1.0, 2e-6, "the bake's front light, τ = 0.3 a cell");
    close(front(0.7), 1.0, 2e-6, "the bake's front light, τ = 2.1 a cell");
    let opaque = 510f64.ln();
    close(opaque, 6.23, 5e-3, "optical depth opaque in 8 bits");
    let alpha = |tau: f64| to_rgba8(&[(1.0 - (-tau).exp()) as f32])[0];
    assert_eq!((alpha(opaque - 0.01), alpha(opaque + 0.01)), (254, 255));
    let [w, h] = Layout { cols: 8, rows: 8, frame_w: 128, frame_h: 128 }.size();
    close((2 * w * h * 4) as f64 / (1 << 20) as f64, 8.0, 0.0, "two 8-bit atlases (MiB)");
    close((2 * w * h * 16) as f64 / (1 << 20) as f64, 32.0, 0.0, "two f32 atlases (MiB)");
    // X+, Y+, Z+ in the world, seen along z: right, top, front.
    let world = |d: Dir| d.towards_light_world(ViewAxis::Z);
    assert_eq!([world(Dir::Right), world(Dir::Top), world(Dir::Front)], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    assert_eq!(fogbook_six_way::Swizzle::parse("RTFA/LBKE").unwrap().letters(), "RTFA/LBKE");
    // The relit blob 5° from the right axis towards the top, and the top map's weight there.
    use fogbook_six_way::validation::{Subject, blob_medium, lopsided_blob, swept_light, texture::Storage};
    let density = lopsided_blob(32);
    let blob = Subject { n: 32, density: &density, view: ViewAxis::Z, medium: blob_medium(32) };
    let card = blob.card(Storage::F16).unwrap();
    close(blob.relit_psnr(&card, swept_light([0.0, 1.0, 0.0], 0.0)), 81.2, 0.05, "PSNR, light along right (dB)");
    close(blob.relit_psnr(&card, swept_light([0.0, 1.0, 0.0], 5.0)), 34.1, 0.05, "PSNR, 5° towards top (dB)");
    close(5f64.to_radians().sin().powi(2), 0.0076, 5e-5, "top map's weight at 5°");
}
