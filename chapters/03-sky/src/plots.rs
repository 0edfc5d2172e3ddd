//! The chapter's diagrams and plots for the book (`Book::plots`), each computed here from the
//! chapter's own formulas: the (r, μ, μ_s, ν) geometry, the layout of the 4D scattering function
//! in a 3D texture (positions from the texture's parameterisation), the phase functions, and the
//! luminance each order of scattering adds (from the CPU port of the precomputation).
//! `fogbook figures` writes them to book/src/figures/sky/<name>.svg.

use crate::cpu_luts::{self, Orders, ScatteringCoord};
use crate::params::{LutResolution, SkyParams};
use crate::reference::{self, Atmosphere};
use fogbook_core::plot::{Series, line_chart};
use std::f64::consts::PI;
use std::fmt::Write;

/// Every plot, by file stem.
pub fn plots() -> Vec<(&'static str, String)> {
    vec![
        ("geometry", geometry_svg()),
        ("scattering-texture-layout", scattering_layout_svg()),
        ("phase-functions", phase_functions_svg()),
        ("orders-of-scattering", orders_svg()),
    ]
}

/// Bruneton's sky spectral radiance to luminance (cd/m² per W m⁻² sr⁻¹ nm⁻¹ in each channel,
/// giving linear sRGB), as the `luminance` view uses it, and the Rec. 709 weights.
const SKY_LUMINANCE: [f64; 3] = [114974.916, 71305.955, 65310.549];
const REC709: [f64; 3] = [0.2126, 0.7152, 0.0722];

/// Luminance (cd/m²) of a radiance, with the sky's luminous efficacies and Rec. 709's weights.
pub fn luminance(radiance: [f64; 3]) -> f64 {
    (0..3).map(|k| radiance[k] * SKY_LUMINANCE[k] * REC709[k]).sum()
}

// ---------------------------------------------------------------------------------------------
// SVG helpers.

fn svg_open(s: &mut String, w: f64, h: f64) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    // Arrowheads, one per colour (`url(#arrow-1f5fa8)`): `context-stroke` is not read everywhere.
    s.push_str("<defs>");
    for color in ["1f5fa8", "d08700"] {
        let _ = write!(
            s,
            r##"<marker id="arrow-{color}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#{color}"/></marker>"##
        );
    }
    s.push_str("</defs>\n");
}

fn line(s: &mut String, a: (f64, f64), b: (f64, f64), style: &str) {
    let _ = writeln!(s, r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {style}/>"#, a.0, a.1, b.0, b.1);
}

/// Text at a point; `X_ab` sets "ab" (letters and digits) as a subscript.
fn text(s: &mut String, at: (f64, f64), anchor: &str, style: &str, body: &str) {
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="{anchor}" xml:space="preserve" {style}>{}</text>"#,
        at.0,
        at.1,
        subscripts(body)
    );
}

/// `X_ab` as X with a lowered, smaller "ab" (with `dy`, which every SVG renderer supports).
fn subscripts(body: &str) -> String {
    let mut out = String::new();
    let mut open = 0;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '_' {
            out.push(c);
            continue;
        }
        let mut sub = String::new();
        while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric()) {
            sub.push(n);
            chars.next();
        }
        let _ = write!(out, r#"<tspan dy="4" font-size="75%">{sub}</tspan><tspan dy="-4">"#);
        open += 1;
    }
    out.push_str(&"</tspan>".repeat(open));
    out
}

// ---------------------------------------------------------------------------------------------
// The geometry.

/// The planet, the atmosphere, a viewer at radius r and its four numbers, drawn in the plane of
/// the view direction and the zenith, with the atmosphere exaggerated.
fn geometry_svg() -> String {
    let (w, h) = (680.0, 415.0);
    let centre = (300.0, 393.0);
    let (bottom, top) = (200.0, 300.0);
    // How much thicker than Earth's the atmosphere is drawn.
    let atm = Atmosphere::default();
    let exaggeration = ((top - bottom) / bottom) / ((atm.top_radius - atm.bottom_radius) / atm.bottom_radius);
    // World (x right, y up, from the planet's centre) to the image.
    let to = |p: (f64, f64)| (centre.0 + p.0, centre.1 - p.1);
    // A direction at `a` degrees from straight up, clockwise.
    let dir = |a: f64| (a.to_radians().sin(), a.to_radians().cos());
    let add = |p: (f64, f64), d: (f64, f64), t: f64| (p.0 + d.0 * t, p.1 + d.1 * t);
    let at = |p: (f64, f64), a: f64, t: f64| to(add(p, dir(a), t));
    let polar = |a: f64, radius: f64| add((0.0, 0.0), dir(a), radius);

    let (r, phi) = (228.0, -20.0);
    let x = polar(phi, r);
    let (view_a, sun_a) = (phi + 60.0, phi - 42.0);
    let v = dir(view_a);
    let mu = (view_a - phi).to_radians().cos();
    let t_top = -r * mu + (r * r * (mu * mu - 1.0) + top * top).sqrt();
    let exit = add(x, v, t_top);
    let x_t = add(x, v, 0.6 * t_top);
    let r_t = (x_t.0 * x_t.0 + x_t.1 * x_t.1).sqrt();
    let x_t_a = x_t.0.atan2(x_t.1).to_degrees();
    // The horizon: the tangent from x to the ground, then on to the top of the atmosphere.
    let tangent = polar(phi + (bottom / r).acos().to_degrees(), bottom);
    let rho = (r * r - bottom * bottom).sqrt();
    let along = ((tangent.0 - x.0) / rho, (tangent.1 - x.1) / rho);
    let rho_t = (top * top - bottom * bottom).sqrt();
    let horizon_end = add(tangent, along, rho_t);

    let mut s = String::new();
    svg_open(&mut s, w, h);
    let c = to((0.0, 0.0));
    geometry_planet(&mut s, c, at, (bottom, top));

    let thin = r##"stroke="#444" stroke-width="1.2""##;
    let dashed = r##"stroke="#777" stroke-width="1" stroke-dasharray="5 4""##;
    // r, the zenith, and the ray's own zenith at x_t.
    line(&mut s, c, to(x), thin);
    text(&mut s, add(at((0.0, 0.0), phi, 0.5 * r), (1.0, 0.0), -8.0), "end", "", "r");
    line(&mut s, to(x), at((0.0, 0.0), phi, top + 70.0), dashed);
    text(&mut s, add(at((0.0, 0.0), phi, top + 70.0), (0.0, 1.0), -6.0), "middle", "", "zenith");
    line(&mut s, c, to(x_t), dashed);
    text(&mut s, add(at((0.0, 0.0), x_t_a, 0.5 * r_t), (1.0, 0.0), 6.0), "start", "", "r_t");

    // The horizon distances.
    let green = "#2f8a3a";
    line(&mut s, to(x), to(tangent), r##"stroke="#2f8a3a" stroke-width="2""##);
    line(&mut s, to(tangent), to(horizon_end), r##"stroke="#2f8a3a" stroke-width="2" stroke-dasharray="8 4""##);
    let dot = |s: &mut String, p: (f64, f64), radius: f64, color: &str| {
        let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="{radius}" fill="{color}"/>"#, p.0, p.1);
    };
    dot(&mut s, to(tangent), 3.0, green);
    dot(&mut s, to(horizon_end), 3.0, green);
    let mid = |a: (f64, f64), b: (f64, f64)| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let green_text = r##"fill="#2f8a3a""##;
    text(&mut s, add(to(mid(x, tangent)), (0.0, 1.0), 20.0), "middle", green_text, "ρ");
    text(&mut s, add(to(mid(tangent, horizon_end)), (0.0, 1.0), 22.0), "middle", green_text, "ρ_t");
    text(&mut s, add(to(tangent), (0.0, 1.0), 20.0), "middle", green_text, "horizon");

    // The view ray, its end and a point on it.
    let blue = "#1f5fa8";
    let blue_text = r##"fill="#1f5fa8""##;
    line(&mut s, to(x), to(exit), r##"stroke="#1f5fa8" stroke-width="2""##);
    let beyond = add(exit, v, 50.0);
    line(&mut s, to(exit), to(beyond), r##"stroke="#1f5fa8" stroke-width="2" marker-end="url(#arrow-1f5fa8)""##);
    text(&mut s, add(to(beyond), (1.0, 0.0), 8.0), "start", blue_text, "v (view)");
    dot(&mut s, to(x_t), 3.5, blue);
    dot(&mut s, to(exit), 3.5, blue);
    text(&mut s, add(to(x_t), (1.0, 0.4), 9.0), "start", blue_text, "x_t, at distance t");
    text(&mut s, add(to(exit), (1.0, 0.4), 9.0), "start", blue_text, "exit, at distance d");
    // The sun.
    let sun_end = add(x, dir(sun_a), 120.0);
    line(&mut s, to(x), to(sun_end), r##"stroke="#d08700" stroke-width="2" marker-end="url(#arrow-d08700)""##);
    dot(&mut s, at(sun_end, sun_a, 20.0), 10.0, "#ffc733");
    text(&mut s, add(at(sun_end, sun_a, 20.0), (1.0, 0.0), 16.0), "start", r##"fill="#a86a00""##, "s (sun)");

    // The three angles.
    geometry_angles(&mut s, at, x, [phi, view_a, sun_a]);

    dot(&mut s, to(x), 4.0, "black");
    text(&mut s, add(to(x), (-1.0, 0.5), 10.0), "end", r#"font-weight="bold""#, "x");
    text(
        &mut s,
        (w - 10.0, h - 10.0),
        "end",
        r##"font-size="11" fill="#555""##,
        &format!("Not to scale: the atmosphere is drawn {exaggeration:.0} times too thick."),
    );
    s.push_str("</svg>\n");
    s
}

/// The geometry figure's planet and atmosphere, centred on `c`, with their labels; `at` places a
/// point at a distance along a direction (degrees from up) from a world point.
fn geometry_planet(
    s: &mut String,
    c: (f64, f64),
    at: impl Fn((f64, f64), f64, f64) -> (f64, f64),
    (bottom, top): (f64, f64),
) {
    let add = |p: (f64, f64), d: (f64, f64), t: f64| (p.0 + d.0 * t, p.1 + d.1 * t);
    let _ = writeln!(s, r##"<circle cx="{}" cy="{}" r="{top}" fill="#e3eefb" stroke="#7aa6d8"/>"##, c.0, c.1);
    let _ = writeln!(s, r##"<circle cx="{}" cy="{}" r="{bottom}" fill="#e4dccb" stroke="#8a7f6a"/>"##, c.0, c.1);
    let _ = writeln!(s, r##"<circle cx="{}" cy="{}" r="3" fill="black"/>"##, c.0, c.1);
    text(s, (c.0 + 8.0, c.1 - 4.0), "start", "", "planet's centre");
    text(s, at((0.0, 0.0), -62.0, 130.0), "middle", r##"fill="#6b604a""##, "ground: radius R_b");
    text(s, at((0.0, 0.0), -64.0, 262.0), "middle", r##"fill="#3d6ea8""##, "atmosphere:");
    text(s, add(at((0.0, 0.0), -64.0, 262.0), (0.0, 1.0), 15.0), "middle", r##"fill="#3d6ea8""##, "top radius R_t");
}

/// The geometry figure's three angles at the viewer `x`, from the zenith `phi`, the view
/// direction `view_a` and the sun `sun_a` (degrees from up), as arcs with their labels.
fn geometry_angles(
    s: &mut String,
    at: impl Fn((f64, f64), f64, f64) -> (f64, f64),
    x: (f64, f64),
    [phi, view_a, sun_a]: [f64; 3],
) {
    let add = |p: (f64, f64), d: (f64, f64), t: f64| (p.0 + d.0 * t, p.1 + d.1 * t);
    let (blue, blue_text) = ("#1f5fa8", r##"fill="#1f5fa8""##);
    let arc = |s: &mut String, from: f64, to_a: f64, radius: f64, color: &str| {
        let (a, b) = (at(x, from, radius), at(x, to_a, radius));
        let large = u8::from(to_a - from > 180.0);
        let _ = writeln!(
            s,
            r#"<path d="M{:.1},{:.1} A{radius},{radius} 0 {large} 1 {:.1},{:.1}" fill="none" stroke="{color}" stroke-width="1.5"/>"#,
            a.0, a.1, b.0, b.1
        );
    };
    arc(s, phi, view_a, 48.0, blue);
    text(s, add(at(x, phi + 24.0, 48.0), (0.0, 1.0), -8.0), "middle", blue_text, "arccos μ");
    arc(s, sun_a, phi, 40.0, "#d08700");
    text(s, at(x, sun_a + 8.0, 50.0), "end", r##"fill="#a86a00""##, "arccos μ_s");
    arc(s, sun_a, view_a, 92.0, "#7a3fa0");
    text(s, add(at(x, phi - 12.0, 92.0), (0.0, 1.0), -6.0), "end", r##"fill="#7a3fa0""##, "arccos ν");
}

// ---------------------------------------------------------------------------------------------
// The scattering texture's layout.

/// Where texel coordinates fall in the full-size scattering texture: the 8 ν blocks of 32 μ_s
/// texels across, μ up (split at the horizon), r in depth; tick positions from the
/// parameterisation itself (`cpu_luts::scattering_uvwz`).
fn scattering_layout_svg() -> String {
    let atm = Atmosphere::default();
    let size = LutResolution::Full.scattering_size();
    let [n_nu, n_mu_s, n_mu, n_r] = size;
    let uvwz = |r: f64, elevation: f64, sun_elevation: f64, ground: bool| {
        let (mu, mu_s) = (elevation.to_radians().sin(), sun_elevation.to_radians().sin());
        cpu_luts::scattering_uvwz(&atm, size, ScatteringCoord { r, mu, mu_s, nu: 0.0, ground })
    };
    let (w, h) = (640.0, 545.0);
    let (fx, fy, fw, fh) = (110.0, 66.0, 380.0, 260.0);
    let mut s = String::new();
    svg_open(&mut s, w, h);
    let title = format!("The 4D scattering function in a {} × {n_mu} × {n_r} texture", n_nu * n_mu_s);
    text(&mut s, (w / 2.0, 22.0), "middle", r#"font-size="14""#, &title);
    // Depth: the r slices behind the front face.
    for i in (1..=3).rev() {
        let o = 9.0 * i as f64;
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{fw}" height="{fh}" fill="white" stroke="#999"/>"##,
            fx + o,
            fy - o
        );
    }
    let bw = fw / n_nu as f64;
    for i in 0..n_nu {
        let fill = if i % 2 == 0 { "#dde9f7" } else { "#c4d8ef" };
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{fy}" width="{bw:.1}" height="{fh}" fill="{fill}" stroke="#5b7fa8" stroke-width="0.8"/>"##,
            fx + bw * i as f64
        );
    }
    let right = fx + fw + 34.0;
    text(&mut s, (right, fy - 30.0), "start", "", &format!("r: {n_r} slices,"));
    text(&mut s, (right, fy - 15.0), "start", "", "ground → top");
    // μ: the horizon split.
    let mid_y = fy + fh / 2.0;
    line(&mut s, (fx, mid_y), (fx + fw, mid_y), r##"stroke="#333" stroke-width="1.5" stroke-dasharray="6 3""##);
    let side = |s: &mut String, y: f64, body: &str| text(s, (right, y), "start", r#"font-size="12""#, body);
    side(&mut s, fy + 12.0, "sky's horizon");
    side(&mut s, fy + fh * 0.25, "rays that leave");
    side(&mut s, fy + fh * 0.25 + 15.0, "the atmosphere");
    side(&mut s, mid_y - 5.0, "zenith ↑");
    side(&mut s, mid_y + 15.0, "nadir ↓");
    side(&mut s, fy + fh * 0.75, "rays that end");
    side(&mut s, fy + fh * 0.75 + 15.0, "on the ground");
    side(&mut s, fy + fh - 4.0, "ground's horizon");
    side(&mut s, fy + fh + 26.0, &format!("μ: {n_mu} texels"));
    // Ticks: the view elevation seen from 1 km up, whose horizon is 1.02° below level.
    let r_1km = atm.bottom_radius + 1000.0;
    let horizon = -(atm.bottom_radius / r_1km).acos().to_degrees();
    let mut ticks: Vec<(f64, f64)> =
        [20.0, 5.0, 2.0, 0.0].iter().map(|&e| (uvwz(r_1km, e, 90.0, false)[2], e)).collect();
    ticks.extend([-5.0, -2.0, -1.2, -1.05].iter().map(|&e| (uvwz(r_1km, e, 90.0, true)[2], e)));
    ticks.extend([(1.0, horizon), (0.0, horizon)]);
    for (u, elevation) in ticks {
        let y = fy + fh * (1.0 - u);
        line(&mut s, (fx - 6.0, y), (fx, y), r##"stroke="#333""##);
        let label = format!("{}°", (elevation * 100.0).round() / 100.0).replace('-', "−");
        text(&mut s, (fx - 9.0, y + 4.0), "end", r#"font-size="11""#, &label);
    }
    let _ = writeln!(
        s,
        r#"<text x="0" y="0" text-anchor="middle" font-size="12" transform="translate(32 {mid_y}) rotate(-90)">view elevation seen from 1 km up</text>"#
    );
    // ν: one block per value.
    for i in 0..n_nu {
        let nu = 2.0 * i as f64 / (n_nu - 1) as f64 - 1.0;
        let label = format!("{nu:.2}").replace('-', "−");
        text(&mut s, (fx + bw * (i as f64 + 0.5), fy + fh + 16.0), "middle", r#"font-size="11""#, &label);
    }
    let nu_caption = format!("ν: {n_nu} blocks, one per value (−1: sun behind, 1: sun ahead)");
    text(&mut s, (fx + fw / 2.0, fy + fh + 34.0), "middle", "", &nu_caption);
    // One block, enlarged: its μ_s texels.
    scattering_block(&mut s, (fx, fy, fh, bw), n_mu_s, |e| uvwz(atm.bottom_radius, 90.0, e, false)[1]);
    s.push_str("</svg>\n");
    s
}

/// One ν block of the scattering layout, enlarged below the texture's front face (at `fx`, `fy`,
/// height `fh`, blocks `bw` wide): its `n_mu_s` texels, ticked at sun elevations placed by `u_of`.
fn scattering_block(s: &mut String, (fx, fy, fh, bw): (f64, f64, f64, f64), n_mu_s: u32, u_of: impl Fn(f64) -> f64) {
    let block = 5.0;
    let (zx, zy, zw, zh) = (50.0, 455.0, 540.0, 32.0);
    let guide = r##"stroke="#888" stroke-dasharray="3 3""##;
    line(s, (fx + bw * block, fy + fh), (zx, zy), guide);
    line(s, (fx + bw * (block + 1.0), fy + fh), (zx + zw, zy), guide);
    let _ = writeln!(s, r##"<rect x="{zx}" y="{zy}" width="{zw}" height="{zh}" fill="#c4d8ef" stroke="#5b7fa8"/>"##);
    let tw = zw / n_mu_s as f64;
    for i in 1..n_mu_s {
        let x = zx + tw * i as f64;
        line(s, (x, zy), (x, zy + zh), r##"stroke="#8fb0d6" stroke-width="0.6""##);
    }
    for e in [-12.0f64, -6.0, -3.0, 0.0, 3.0, 10.0, 30.0, 90.0] {
        let x = zx + zw * u_of(e);
        line(s, (x, zy - 6.0), (x, zy + zh), r##"stroke="#a86a00" stroke-width="1.5""##);
        let label = format!("{e}°").replace('-', "−");
        text(s, (x, zy - 9.0), "middle", r##"font-size="11" fill="#a86a00""##, &label);
    }
    let block_caption = format!("one ν block: {n_mu_s} texels of μ_s (ticks: the sun's elevation)");
    text(s, (zx + zw / 2.0, zy + zh + 20.0), "middle", "", &block_caption);
}

// ---------------------------------------------------------------------------------------------
// The phase functions.

/// Henyey–Greenstein phase function with asymmetry g (for comparison with Cornette–Shanks).
pub fn henyey_greenstein(g: f64, nu: f64) -> f64 {
    (1.0 - g * g) / (4.0 * PI * (1.0 + g * g - 2.0 * g * nu).powf(1.5))
}

/// Rayleigh, Cornette–Shanks and Henyey–Greenstein (the chapter's g) against the scattering
/// angle, on a logarithmic scale.
fn phase_functions_svg() -> String {
    let mie_g = SkyParams::default().mie_g;
    let g = mie_g as f64;
    let curve = |label: &str, color, f: &dyn Fn(f64) -> f64| Series {
        label: label.to_string(),
        color,
        points: (0..=360)
            .map(|i| {
                let theta = i as f64 * 0.5;
                (theta, f(theta.to_radians().cos()).log10())
            })
            .collect(),
    };
    line_chart(
        &format!("Phase functions against the scattering angle (Mie: g = {mie_g})"),
        "scattering angle θ (degrees)",
        "log₁₀ P  (P in sr⁻¹)",
        (0.0, 180.0),
        (-3.0, 2.0),
        &[
            curve("Rayleigh", "#1f77b4", &reference::rayleigh_phase),
            curve("Cornette–Shanks", "#d62728", &|nu| reference::mie_phase(g, nu)),
            curve("Henyey–Greenstein", "#ff9f40", &|nu| henyey_greenstein(g, nu)),
            curve("isotropic, 1/4π", "#7f7f7f", &|_| 1.0 / (4.0 * PI)),
        ],
    )
}

// ---------------------------------------------------------------------------------------------
// How the orders of scattering add up.

/// (label, sun elevation, view elevation, view azimuth from the sun), degrees.
pub const ORDER_CASES: [(&str, f64, f64, f64); 5] = [
    ("sun 30°, zenith", 30.0, 90.0, 0.0),
    ("sun 30°, 10° up, side", 30.0, 10.0, 90.0),
    ("sun 5°, zenith", 5.0, 90.0, 0.0),
    ("sun −4°, 10° up, away", -4.0, 10.0, 180.0),
    ("sun −8°, zenith", -8.0, 90.0, 0.0),
];

/// The table size of the orders plot, (ν, μ_s, μ, r) texels: Bruneton's 32 of μ_s, which
/// twilight needs (with 16 or 8 the low sun's single scattering is off by up to a factor of 20),
/// and few of the others, which keeps the computation near a second. Order by order it is within
/// 12 % of the full-size tables on `ORDER_CASES`.
pub const ORDERS_PLOT_SIZE: [u32; 4] = [4, 32, 16, 8];

/// The luminance (cd/m²) of each order of scattering 1..=`orders` seen by a viewer 1 m above
/// the ground, for each of `ORDER_CASES`. Order 1 by direct integration (no table); order n ≥ 2
/// as the renderer draws it from the tables with n orders minus n − 1, from the CPU port of
/// the precomputation at `size`.
pub fn order_luminances(atm: &Atmosphere, size: [u32; 4], orders: u32) -> Vec<Vec<f64>> {
    let each = cpu_luts::precompute_each_order(atm, size, orders);
    let r = atm.bottom_radius + 1.0;
    ORDER_CASES
        .iter()
        .map(|&(_, sun, view, azimuth)| {
            let (s, v, a) = (sun.to_radians(), view.to_radians(), azimuth.to_radians());
            let nu = v.cos() * s.cos() * a.cos() + v.sin() * s.sin();
            let sky = |luts: &cpu_luts::Luts| {
                luminance(luts.sky_radiance(atm, r, v.sin(), s.sin(), nu, 0.0, Orders::All, false).inscattering)
            };
            let totals: Vec<f64> = each.iter().map(sky).collect();
            let single = reference::single_scattering_graded(atm, r, v.sin(), s.sin(), nu, 400, 500);
            std::iter::once(luminance(single)).chain(totals.windows(2).map(|p| p[1] - p[0])).collect()
        })
        .collect()
}

/// The share of the sky's luminance (with four orders, the default) that each order carries.
fn orders_svg() -> String {
    let atm = Atmosphere::default();
    let data = order_luminances(&atm, ORDERS_PLOT_SIZE, 4);
    let colors = ["#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd"];
    let series: Vec<Series> = ORDER_CASES
        .iter()
        .zip(&data)
        .zip(colors)
        .map(|((case, values), color)| {
            let all: f64 = values.iter().sum();
            Series {
                label: case.0.to_string(),
                color,
                // At −8° the zenith's air is all in the planet's shadow: no single scattering.
                points: (1..)
                    .zip(values)
                    .filter(|&(_, &l)| l > 0.0)
                    .map(|(n, &l)| (f64::from(n), (l / all).log10()))
                    .collect(),
            }
        })
        .collect();
    line_chart(
        "Share of the sky's luminance carried by each order (viewer on the ground)",
        "order of scattering n",
        "log₁₀ (order n / orders 1–4)",
        (0.0, 5.0),
        (-2.5, 0.0),
        &series,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_are_whole_svg_documents() {
        for (name, svg) in
            [("geometry", geometry_svg()), ("layout", scattering_layout_svg()), ("phase", phase_functions_svg())]
        {
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{name}");
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{name}: {svg}");
        }
    }

    #[test]
    fn the_sun_elevation_ticks_of_a_block_are_in_order_and_the_low_sun_gets_most_texels() {
        let atm = Atmosphere::default();
        let size = LutResolution::Full.scattering_size();
        let u = |e: f64| {
            let c =
                ScatteringCoord { r: atm.bottom_radius, mu: 1.0, mu_s: e.to_radians().sin(), nu: 0.0, ground: false };
            cpu_luts::scattering_uvwz(&atm, size, c)[1]
        };
        let us: Vec<f64> = [-12.0, -6.0, 0.0, 30.0, 90.0].iter().map(|&e| u(e)).collect();
        assert!(us.windows(2).all(|p| p[0] < p[1]), "{us:?}");
        // The sun from 30° to the zenith takes under a tenth of the axis (the text says 9 %).
        assert!(us[4] - us[3] < 0.1, "{us:?}");
    }

    #[test]
    fn each_order_carries_less_in_daylight_and_deep_twilight_has_no_single_scattering_at_the_zenith() {
        let atm = Atmosphere::default();
        // Coarse tables keep the test quick (they overestimate the higher orders, but keep their
        // order).
        let data = order_luminances(&atm, [2, 8, 8, 2], 3);
        for (case, values) in ORDER_CASES.iter().zip(&data).take(3) {
            assert!(values.windows(2).all(|p| p[1] < p[0]), "{}: {values:?}", case.0);
        }
        // At −8° the planet's shadow reaches 62.5 km above the viewer, above the 60 km top.
        let shadow = atm.bottom_radius / 8f64.to_radians().cos() - atm.bottom_radius;
        assert!(shadow > atm.top_radius - atm.bottom_radius, "{shadow}");
        let deep = &data[4];
        assert_eq!(deep[0], 0.0, "{deep:?}");
        assert!(deep[1] > 0.0, "{deep:?}");
    }

    #[test]
    fn henyey_greenstein_is_normalised() {
        let n = 200_000;
        let sum: f64 = (0..n).map(|i| henyey_greenstein(0.8, -1.0 + (i as f64 + 0.5) * 2.0 / n as f64)).sum();
        assert!((sum * 2.0 / n as f64 * 2.0 * PI - 1.0).abs() < 1e-3);
    }
}
