//! Minimal SVG figures for the book, computed by the CPU references: line plots, and small
//! greyscale images side by side.

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

/// One image of `image_panels`: `width` × `height` values, row by row from the top, shown as
/// linear intensities from 0 (black) to 1 (white), clamped.
pub struct Panel<'a> {
    pub label: String,
    pub width: u32,
    pub height: u32,
    pub values: &'a [f64],
}

/// The panels in rows of `columns`, each texel `scale` pixels wide without smoothing and each
/// labelled below, under a title: an SVG with the images embedded as PNG (sRGB-encoded).
pub fn image_panels(title: &str, panels: &[Panel], columns: usize, scale: f64) -> String {
    let columns = columns.max(1);
    let (gap, label_h, title_h) = (12.0, 22.0, 30.0);
    let cell_w = panels.iter().map(|p| p.width as f64 * scale).fold(0.0, f64::max);
    let cell_h = panels.iter().map(|p| p.height as f64 * scale).fold(0.0, f64::max) + label_h;
    let rows = panels.len().div_ceil(columns);
    let w = gap + columns as f64 * (cell_w + gap);
    let h = title_h + rows as f64 * (cell_h + gap);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{title}</text>"#, w / 2.0);
    for (i, panel) in panels.iter().enumerate() {
        let x = gap + (i % columns) as f64 * (cell_w + gap);
        let y = title_h + (i / columns) as f64 * (cell_h + gap);
        let (pw, ph) = (panel.width as f64 * scale, panel.height as f64 * scale);
        let _ = writeln!(
            s,
            r#"<image x="{x}" y="{y}" width="{pw}" height="{ph}" style="image-rendering:pixelated" href="data:image/png;base64,{}"/>"#,
            base64(&grey_png(panel))
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            x + pw / 2.0,
            y + ph + 15.0,
            panel.label
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The panel as an 8-bit greyscale PNG, sRGB-encoded (empty if it cannot be encoded).
fn grey_png(panel: &Panel) -> Vec<u8> {
    let srgb = |v: f64| {
        let v = if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 };
        let e = if v <= 0.0031308 { 12.92 * v } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 };
        (e * 255.0).round() as u8
    };
    let bytes: Vec<u8> = panel.values.iter().map(|&v| srgb(v)).collect();
    let mut png = Vec::new();
    if let Some(image) = image::GrayImage::from_raw(panel.width, panel.height, bytes) {
        let _ = image.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png);
    }
    png
}

/// Standard base64 (RFC 4648, with padding), for the data URIs.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    /// RFC 4648's test vectors.
    #[test]
    fn base64_matches_rfc_4648() {
        for (input, want) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(super::base64(input.as_bytes()), want);
        }
    }
}
