//! Minimal SVG line plots for the book (curves computed by the CPU references).

use std::fmt::Write;

pub struct Series {
    pub label: String,
    pub color: &'static str,
    pub points: Vec<(f64, f64)>,
}

/// A line chart of `series` over `x_range` × `y_range`, with labelled axes and a legend.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_range: (f64, f64),
    y_range: (f64, f64),
    series: &[Series],
) -> String {
    let (w, h) = (640.0, 360.0);
    let (l, r, t, b) = (64.0, 16.0, 36.0, 48.0);
    let sx = |x: f64| l + (x - x_range.0) / (x_range.1 - x_range.0) * (w - l - r);
    let sy = |y: f64| h - b - (y - y_range.0) / (y_range.1 - y_range.0) * (h - t - b);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{title}</text>"#, w / 2.0);
    for i in 0..=5 {
        let fx = x_range.0 + (x_range.1 - x_range.0) * i as f64 / 5.0;
        let fy = y_range.0 + (y_range.1 - y_range.0) * i as f64 / 5.0;
        let _ = writeln!(
            s,
            r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/><text x="{0}" y="{3}" text-anchor="middle">{4}</text>"##,
            sx(fx),
            t,
            h - b,
            h - b + 16.0,
            trim(fx)
        );
        let _ = writeln!(
            s,
            r##"<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#ddd"/><text x="{3}" y="{4}" text-anchor="end">{5}</text>"##,
            l,
            sy(fy),
            w - r,
            l - 6.0,
            sy(fy) + 4.0,
            trim(fy)
        );
    }
    let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{x_label}</text>"#, (l + w - r) / 2.0, h - 10.0);
    let _ = writeln!(
        s,
        r#"<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">{y_label}</text>"#,
        (t + h - b) / 2.0,
        (t + h - b) / 2.0
    );
    for (i, se) in series.iter().enumerate() {
        let pts: Vec<String> =
            se.points.iter().map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y.clamp(y_range.0, y_range.1)))).collect();
        let _ =
            writeln!(s, r#"<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>"#, se.color, pts.join(" "));
        let ly = t + 14.0 + 16.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
            w - r - 170.0,
            w - r - 150.0,
            se.color,
            w - r - 144.0,
            ly + 4.0,
            se.label
        );
    }
    s.push_str("</svg>\n");
    s
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
