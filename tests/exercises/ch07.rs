//! Chapter 7's answer keys, its four pages and the 2D warm-up: each reads its answer from the
//! page's "Try this", computes it from the page's formula in plain f64, and checks that the
//! chapter's CPU reference (or the uniform the solver receives) agrees.

use super::{close, grouped_number, leading_number, numbers_after, page_answer, page_text};
use fogbook_core::params::set_by_name;

const SMOKE: &str = "ch07-smoke.md";
const PRESSURE: &str = "ch07-smoke-pressure.md";
const PRODUCTION: &str = "ch07-smoke-production.md";
const DRAWING: &str = "ch07-smoke-drawing.md";
const WARM_UP: &str = "ch07-smoke-2d.md";

/// Try this exercise `start` of `page`, its line breaks and indents made single spaces.
fn exercise(page: &str, start: &str) -> String {
    page_answer(page, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Young's optimal over-relaxation for the slowest Jacobi rate μ, 2 / (1 + √(1 − μ²)).
fn young(mu: f64) -> f64 {
    2.0 / (1.0 + (1.0 - mu * mu).sqrt())
}

/// Sweeps that divide a mode kept at `rate` a sweep by ten.
fn per_decade(rate: f64) -> f64 {
    10f64.ln() / -rate.ln()
}

/// ch07-smoke.md, Try this 1: the implicit dissipation 1/(1 + k Δt) a step, for a second.
#[test]
fn smoke_left_after_a_second() {
    let answer = exercise(SMOKE, "1. With `density_dissipation=");
    let k = leading_number(&answer).expect("the dissipation");
    let steps = numbers_after(&answer, "default 1/")[0];
    let (stepped, continuous) = (numbers_after(&answer, "⁶⁰ = ")[0], numbers_after(&answer, "e⁻² = ")[0]);
    let dt = 1.0 / steps;
    close((1.0 / (1.0 + k * dt)).powf(steps), stepped, 5e-5, "density left after 1 s, stepped");
    close((-k).exp(), continuous, 5e-5, "the continuous law e^(−k t)");
    let mut p = fogbook_smoke::SmokeParams::default();
    close(p.time_step_s as f64, dt, 1e-9, "the default step (s)");
    set_by_name(&mut p, "density_dissipation", &k.to_string()).unwrap();
    let keep = fogbook_smoke::SmokeUniform::new(&p, 64, [0.0, 1.0, 0.0], 0).solver.density_keep as f64;
    close(keep.powf(steps), (1.0 / (1.0 + k * dt)).powf(steps), 2e-5, "the solver's keep, a second of steps");
    let total = fogbook_smoke::reference::dissipated_total(1.0, k, dt, steps as u32);
    close(total, (1.0 / (1.0 + k * dt)).powf(steps), 1e-12, "the reference's dissipated total");
}

/// ch07-smoke-pressure.md, Try this 1: the closed box's slowest Jacobi mode keeps
/// μ = (2 + cos(π/n)) / 3 a sweep (the rate Try this 2 gives).
#[test]
fn jacobi_sweeps_per_decade() {
    let answer = exercise(PRESSURE, "1. How many Jacobi sweeps divide the slowest pressure mode");
    let n = numbers_after(&answer, "on a ")[0];
    let sweeps = per_decade((2.0 + (std::f64::consts::PI / n).cos()) / 3.0);
    close(sweeps, numbers_after(&answer, "*(About ")[0], 0.5, "sweeps per decade at 64³");
    let chapter = fogbook_smoke::reference::sweeps_per_decade(n as usize);
    close(chapter, sweeps, 1e-9, "the reference's sweeps per decade");
}

/// ch07-smoke-pressure.md, Try this 2: Young's ω for the closed box and the open top, from the
/// rates the page gives, and the textbook 2 / (1 + sin(π/n)).
#[test]
fn optimal_over_relaxation_in_3d() {
    use fogbook_smoke::reference::poisson::{dirichlet_sor_omega, optimal_sor_omega, optimal_sor_omega_open_top};
    use std::f64::consts::PI;
    let answer = exercise(PRESSURE, "2. What is the optimal over-relaxation");
    let sizes = [numbers_after(&answer, "solver at ")[0], numbers_after(&answer, "and at ")[0]];
    let omegas = numbers_after(&answer, "ω = ");
    assert_eq!(omegas.len(), 4, "ω for two sizes, closed and open: {answer}");
    assert!(
        answer.contains("closed, μ = (2 + cos(π/n)) / 3") && answer.contains("open top, μ = (2 + cos(π/(2n))) / 3")
    );
    for (i, n) in sizes.into_iter().enumerate() {
        let (closed, open) = (young((2.0 + (PI / n).cos()) / 3.0), young((2.0 + (PI / (2.0 * n)).cos()) / 3.0));
        close(closed, omegas[i], 5e-4, &format!("optimal ω at {n}³, closed box"));
        close(open, omegas[2 + i], 5e-4, &format!("optimal ω at {n}³, open top"));
        close(optimal_sor_omega(n as usize), closed, 1e-12, "the reference's ω, closed box");
        close(optimal_sor_omega_open_top(n as usize), open, 1e-12, "the reference's ω, open top");
    }
    let textbook = 2.0 / (1.0 + (PI / sizes[0]).sin());
    close(textbook, numbers_after(&answer, "sin(π/n)) = ")[0], 5e-4, "the textbook ω at 64³");
    close(dirichlet_sor_omega(sizes[0] as usize), textbook, 1e-12, "the reference's textbook ω");
}

/// ch07-smoke-pressure.md, Try this 3: the levels halve to 2 cells a side; each finer level costs
/// its pre- and post-sweeps and one more for the residual and transfers, the coarsest the sweeps
/// of its solve (as the page's cycle and its work count say), at an eighth of the cost a level.
#[test]
fn the_work_of_a_v_cycle() {
    use fogbook_smoke::reference::poisson::{Level, hierarchy, v_cycle_work};
    let answer = exercise(PRESSURE, "3. How much work, in fine-grid sweeps,");
    let (n, levels, work) =
        (numbers_after(&answer, "cycle at ")[0], numbers_after(&answer, "*(")[0], numbers_after(&answer, "about ")[0]);
    // V(ν₁,ν₂): ν₁ sweeps before the coarse solve, ν₂ after.
    let cycle = answer.split("one V(").nth(1).and_then(|c| c.split(')').next()).expect("V(ν₁,ν₂)");
    let (pre, post) =
        cycle.split_once(',').map(|(a, b)| (a.parse::<f64>().unwrap(), b.parse::<f64>().unwrap())).unwrap();
    let coarse = numbers_after(&page_text(PRESSURE), "grid (2³ cells) by ")[0];
    assert!(page_text(PRESSURE).contains("two plus two sweeps and a residual on each level"));
    let sizes: Vec<f64> = std::iter::successors(Some(n), |&s| (s > 2.0).then(|| (s / 2.0).ceil())).collect();
    close(sizes.len() as f64, levels, 0.0, "levels of the V-cycle");
    close(*sizes.last().unwrap(), numbers_after(&answer, "down to ")[0], 0.0, "the coarsest level's side");
    let cost = |l: usize| if l + 1 == sizes.len() { coarse } else { pre + post + 1.0 };
    let sweeps: f64 = (0..sizes.len()).map(|l| cost(l) * (sizes[l] / n).powi(3)).sum();
    close(sweeps, work, 5e-3, "fine-grid sweeps per V(2,2) cycle at 64³");
    let chapter = hierarchy(Level { n: n as usize, h: 1.0, open_top: false });
    assert_eq!(chapter.iter().map(|l| l.n as f64).collect::<Vec<_>>(), sizes, "the reference's levels");
    close(v_cycle_work(&chapter), sweeps, 1e-12, "the reference's V-cycle work");
}

/// ch07-smoke-production.md, Try this 1: the lift β (T_e − T_amb), and Newtonian cooling
/// θ(t) = θ₀ e^(−k t) with the page's default rate, stepped by e^(−k Δt).
#[test]
fn the_emitters_lift_and_cooling() {
    let answer = exercise(PRODUCTION, "1. With `heat_lift=");
    let beta = leading_number(&answer).expect("the heat lift");
    let (emitter, ambient, target) =
        (numbers_after(&answer, "× (")[0], numbers_after(&answer, "− ")[0], numbers_after(&answer, "cooled to ")[0]);
    let results = numbers_after(&answer, ") = ");
    let ratio = [numbers_after(&answer, "ln(")[0], numbers_after(&answer, "/ ")[0]];
    let (steps_page, dt) = (numbers_after(&answer, " s, ")[0], 1.0 / numbers_after(&answer, "steps of 1/")[0]);
    let k = numbers_after(&page_text(PRODUCTION), "`cooling_rate` (s⁻¹, default ")[0];
    assert_eq!(results.len(), 2, "the lift and the time: {answer}");
    let (excess, left) = (emitter - ambient, target - ambient);
    close(excess, ratio[0], 1e-9, "the emitter's excess (K)");
    close(left, ratio[1], 1e-9, "the excess at 400 K");
    close(beta * excess, results[0], 5e-3, "lift at the emitter (m/s²)");
    let t = (excess / left).ln() / k;
    close(t, results[1], 5e-4, "time to cool to 400 K (s)");
    let steps = (t / dt).ceil();
    close(steps, steps_page, 0.0, "steps of 1/60 s to cool below 400 K");
    // The chapter's solver: its defaults, the excess it holds, the factor a step keeps.
    let mut p = fogbook_smoke::SmokeParams::default();
    set_by_name(&mut p, "heat_lift", &beta.to_string()).unwrap();
    let defaults = [p.emitter_temperature_k, p.ambient_temperature_k, p.cooling_rate, p.time_step_s].map(|v| v as f64);
    assert_eq!(defaults, [emitter, ambient, k, dt].map(|v| v as f32 as f64), "the page's defaults");
    let chapter_excess = fogbook_smoke::emitter_excess_k(&p) as f64;
    close(chapter_excess, excess, 1e-4, "the solver's emitter excess (K)");
    let lift = fogbook_smoke::reference::temperature::buoyant_acceleration(0.0, p.heat_lift as f64, 0.0, excess);
    close(lift, beta * excess, 1e-6, "the reference's buoyant acceleration");
    let keep = fogbook_smoke::temperature_keep(p.cooling_rate, p.time_step_s) as f64;
    close(keep, (-k * dt).exp(), 1e-7, "the solver's factor a step");
    let cooled = |n: u32| fogbook_smoke::reference::temperature::cooled_in_steps(excess, keep, n);
    assert!(cooled(steps as u32) < left && cooled(steps as u32 - 1) >= left, "the solver's steps to 400 K");
}

/// E₂(x) = e^(−x) − x E₁(x), E₁ from its series −γ − ln x − Σ (−x)ᵏ / (k k!).
fn e2_by_series(x: f64) -> f64 {
    const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;
    let mut sum = 0.0;
    let mut term = 1.0;
    for k in 1..60 {
        term *= -x / k as f64;
        sum += term / k as f64;
    }
    let e1 = -EULER_GAMMA - x.ln() - sum;
    (-x).exp() - x * e1
}

/// ch07-smoke-drawing.md, Try this 2: a hemisphere's light through optical depth 1 against the
/// vertical's.
#[test]
fn a_hemisphere_through_optical_depth_one() {
    let answer = exercise(DRAWING, "2. How much of a hemisphere's light");
    let tau = numbers_after(&answer, "optical depth ")[0];
    let e2 = e2_by_series(tau);
    close(e2, numbers_after(&answer, "E₂(1) = ")[0], 5e-5, "E₂(1)");
    close((-tau).exp(), numbers_after(&answer, "e⁻¹ = ")[0], 5e-5, "e^(−1)");
    let chapter = fogbook_smoke::reference::lighting::exponential_integral_e2(tau);
    close(chapter, e2, 1e-9, "the reference's E₂ by quadrature");
}

/// The 2D warm-up's Try this 1: the slowest mode keeps μ = (1 + cos(π/n)) / 2 a Jacobi sweep,
/// its square a red–black Gauss–Seidel sweep. The answer's numbers are written in groups of
/// three digits.
#[test]
fn warm_up_sweeps_per_decade() {
    use fogbook_smoke_2d::reference::{gauss_seidel_slowest_rate, jacobi_slowest_rate};
    let answer = exercise(WARM_UP, "1. How many Jacobi sweeps divide the slowest pressure mode");
    let n = numbers_after(&answer, "by ten at ")[0];
    let grouped = answer.split("*(").nth(1).expect("an answer in *( … )");
    let page: Vec<f64> = grouped.split(" and ").filter_map(grouped_number).collect();
    assert_eq!(page.len(), 2, "Jacobi and Gauss–Seidel: {answer}");
    let mu = (1.0 + (std::f64::consts::PI / n).cos()) / 2.0;
    close(per_decade(mu), page[0], 0.5, "Jacobi sweeps per decade at 128²");
    close(per_decade(mu * mu), page[1], 0.5, "red–black GS sweeps per decade at 128²");
    close(jacobi_slowest_rate(n as usize), mu, 1e-15, "the reference's Jacobi rate");
    close(gauss_seidel_slowest_rate(n as usize), mu * mu, 1e-15, "the reference's Gauss–Seidel rate");
}

/// The 2D warm-up's Try this 2: Young's ω with the square's μ.
#[test]
fn warm_up_optimal_over_relaxation() {
    let answer = exercise(WARM_UP, "2. What is the best `sor_omega`");
    let n = numbers_after(&answer, "\\cos(\\pi/")[0];
    let omega = young((1.0 + (std::f64::consts::PI / n).cos()) / 2.0);
    close(omega, numbers_after(&answer, "/2\\\\): ")[0], 5e-4, "optimal ω at 128²");
    close(fogbook_smoke_2d::reference::optimal_sor_omega(n as usize), omega, 1e-12, "the reference's ω");
}

/// The 2D warm-up's Try this 5: the dye's implicit dissipation for a second of default steps.
#[test]
fn warm_up_dye_left_after_a_second() {
    let answer = exercise(WARM_UP, "5. With `density_dissipation=");
    let k = leading_number(&answer).expect("the dissipation");
    let steps = numbers_after(&answer, &format!("(1 + {k}/"))[0];
    let left = (1.0 / (1.0 + k / steps)).powf(steps);
    close(left, numbers_after(&answer, &format!("^{{{steps}}} = "))[0], 5e-5, "dye left after 1 s");
    let mut p = fogbook_smoke_2d::Smoke2dParams::default();
    close(p.time_step_s as f64, 1.0 / steps, 1e-9, "the default step (s)");
    set_by_name(&mut p, "density_dissipation", &k.to_string()).unwrap();
    let keep = fogbook_smoke_2d::Smoke2dUniform::new(&p, 128, 0, 0).density_keep as f64;
    close(keep.powf(steps), left, 2e-5, "the solver's keep, a second of steps");
}
