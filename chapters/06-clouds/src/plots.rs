//! The book's plots of the lighting model, from the f64 formulas of `reference`: the dual-lobe
//! phase function of each octave, and what the octaves and the powder term do to the light that
//! reaches a point through a given optical depth towards the sun.

use crate::reference::{henyey_greenstein, octave_share, octaves_share};
use fogbook_core::plot::{Series, line_chart};

const COLOURS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// The chapter's default lobes: g = 0.8 forward and −0.2 backward, mixed ½ : ½.
fn dual_lobe(cos_theta: f64, eccentricity: f64) -> f64 {
    0.5 * henyey_greenstein(0.8 * eccentricity, cos_theta) + 0.5 * henyey_greenstein(-0.2 * eccentricity, cos_theta)
}

pub fn plots() -> Vec<(&'static str, String)> {
    // ANCHOR: phase_plot
    let phase = line_chart(
        "Dual-lobe Henyey–Greenstein phase (g = 0.8 / −0.2, ½ each) of octave i: g × cⁱ, c = ½",
        "scattering angle θ (degrees)",
        "p(θ) × 4π (1 = isotropic)",
        (0.0, 180.0),
        (0.0, 8.0),
        &(0..3)
            .map(|i| Series {
                label: format!("octave {i}"),
                color: COLOURS[i],
                points: (0..=180)
                    .map(|d| {
                        let c = (d as f64).to_radians().cos();
                        (d as f64, 4.0 * std::f64::consts::PI * dual_lobe(c, 0.5f64.powi(i as i32)))
                    })
                    .collect(),
            })
            .collect::<Vec<_>>(),
    );
    // ANCHOR_END: phase_plot
    // Each octave's attenuation b^i e^(−a^i τ) (a = b = ½), their sum, and Beer's law with the
    // powder term 2 (1 − e^(−2τ)) e^(−τ).
    let tau = |k: usize| k as f64 * 0.05;
    let mut series: Vec<Series> = (0..3)
        .map(|i| Series {
            label: format!("octave {i}: bⁱ e^(−aⁱ τ)"),
            color: COLOURS[i as usize],
            points: (0..=160).map(|k| (tau(k), octave_share(i, tau(k), 0.5, 0.5))).collect(),
        })
        .collect();
    series.push(Series {
        label: "sum of three octaves".into(),
        color: "#000000",
        points: (0..=160).map(|k| (tau(k), octaves_share(3, tau(k), 0.5, 0.5))).collect(),
    });
    series.push(Series {
        label: "Beer × powder: 2 (1 − e^(−2τ)) e^(−τ)".into(),
        color: COLOURS[3],
        points: (0..=160).map(|k| (tau(k), 2.0 * (1.0 - (-2.0 * tau(k)).exp()) * (-tau(k)).exp())).collect(),
    });
    let octaves = line_chart(
        "Sun light reaching a point through optical depth τ, per octave (a = b = ½)",
        "optical depth towards the sun τ",
        "fraction of the sun's light",
        (0.0, 8.0),
        (0.0, 1.8),
        &series,
    );
    vec![("phase-octaves", phase), ("octave-attenuation", octaves)]
}
