//! The error table as Markdown and JSON, and each row's images: the truth, the stack and the
//! error as raw EXR, and the truth, the stack and the error map as displayed (JPEG).

use super::Table;
use anyhow::Result;
use fogbook_core::capture::{FloatImage, save_jpeg};
use fogbook_core::headless::Capture;
use fogbook_ground_truth::error_table::{
    FLOOR_OF_MEAN, MEDIUM_MATTERS, NOISE_SHARE, UPPER_PERCENTILE, medium_mask, relative_errors,
};
use serde_json::json;
use std::path::Path;

fn percent(x: f64) -> String {
    format!("{:.2} %", 100.0 * x)
}

fn signed_percent(x: f64) -> String {
    format!("{:+.2} %", 100.0 * x)
}

/// The table, one line per row, and a line naming the device and the settings.
pub fn markdown(table: &Table) -> String {
    let mut s = String::from(
        "| row | approximation | sky | pixels counted | mean \\|e\\| | p95 \\|e\\| | bias | median noise | reportable | paths per pixel | seconds | Mpaths/s | vertices per path | paths cut | converged in (est.) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for m in &table.rows {
        let st = &m.stats;
        let numbers = match st.summary {
            Some(x) => [percent(x.mean_abs), percent(x.p95_abs), signed_percent(x.bias), percent(x.noise_median)],
            None => std::array::from_fn(|_| "—".to_string()),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.2} | {:.4} % | {} |\n",
            m.row.name,
            m.row.approximation,
            m.row.sky_mode(),
            st.counted,
            st.pixels,
            numbers[0],
            numbers[1],
            numbers[2],
            numbers[3],
            if st.reportable { "yes" } else { "no" },
            m.paths,
            m.seconds,
            m.paths_per_second / 1e6,
            m.vertices_per_path,
            100.0 * m.cut_share,
            m.converged_seconds.map_or("—".to_string(), |t| format!("{t:.0} s"))
        ));
    }
    s.push_str(&format!(
        "\n{}x{}, {} paths per pixel a frame, on {}.\n",
        table.size[0], table.size[1], table.per_frame, table.device
    ));
    s
}

/// The table with its rules, the rows' settings and every statistic (fractions, not percent).
pub fn json(table: &Table) -> serde_json::Value {
    let rows: Vec<_> = table
        .rows
        .iter()
        .map(|m| {
            json!({
                "name": m.row.name,
                "chapter": m.row.chapter,
                "approximation": m.row.approximation,
                "stack": m.row.spec(),
                "settings": m.row.settings,
                "sky": m.row.sky_mode(),
                "without_medium": m.row.without_medium,
                "camera": m.row.camera,
                "paths_per_pixel": m.paths,
                "seconds": m.seconds,
                "paths_per_second": m.paths_per_second,
                "vertices_per_path": m.vertices_per_path,
                "cut_share": m.cut_share,
                "converged_seconds_estimate": m.converged_seconds,
                "stats": m.stats,
            })
        })
        .collect();
    json!({
        "device": table.device,
        "size": table.size,
        "paths_per_frame": table.per_frame,
        "rules": {
            "floor_of_mean": FLOOR_OF_MEAN,
            "medium_matters": MEDIUM_MATTERS,
            "noise_share": NOISE_SHARE,
            "upper_percentile": UPPER_PERCENTILE,
        },
        "rows": rows,
    })
}

/// What one row's images are made from.
pub struct Images<'a> {
    pub stack: &'a Capture,
    pub truth: &'a Capture,
    pub stack_luma: &'a [f64],
    pub truth_luma: &'a [f64],
    pub bare_luma: &'a [f64],
}

/// Blue where the stack is too dark, red where too bright, white where they agree, full at
/// ±50 % (the `error` view's range).
fn diverging(e: f64) -> [u8; 3] {
    let t = (e / 0.5).clamp(-1.0, 1.0);
    let end = if t < 0.0 { [59.0, 76.0, 192.0] } else { [180.0, 4.0, 38.0] };
    end.map(|c| (255.0 + t.abs() * (c - 255.0)).round() as u8)
}

/// `NAME-truth.exr`, `NAME-stack.exr`, `NAME-error.exr` (e in RGB, alpha 1 where the pixel
/// counts), `NAME-truth.jpg` and `NAME-stack.jpg` (as displayed) and `NAME-error.jpg` (the
/// pixels that do not count in grey, from the truth as displayed).
pub fn write_images(dir: &Path, name: &str, i: &Images) -> Result<()> {
    let path = |suffix: &str| dir.join(format!("{name}-{suffix}"));
    i.truth.raw.save_exr(&path("truth.exr"))?;
    i.stack.raw.save_exr(&path("stack.exr"))?;
    let errors = relative_errors(i.stack_luma, i.truth_luma);
    let mask = medium_mask(i.truth_luma, i.bare_luma);
    let (width, height) = (i.truth.raw.width, i.truth.raw.height);
    let rgba = errors
        .iter()
        .zip(&mask)
        .flat_map(|(&e, &counts)| {
            let e = e as f32;
            [e, e, e, if counts { 1.0 } else { 0.0 }]
        })
        .collect();
    FloatImage { width, height, rgba }.save_exr(&path("error.exr"))?;
    // The pictures for the book: JPEG, as noise defeats PNG's compression.
    save_jpeg(&i.truth.display, &path("truth.jpg"), 90)?;
    save_jpeg(&i.stack.display, &path("stack.jpg"), 90)?;
    let mut picture = i.truth.display.clone();
    for (k, pixel) in picture.pixels_mut().enumerate() {
        let [r, g, b] = if mask[k] {
            diverging(errors[k])
        } else {
            let [r, g, b, _] = pixel.0;
            let grey = (0.3 * (0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b))) as u8;
            [grey; 3]
        };
        pixel.0 = [r, g, b, 255];
    }
    save_jpeg(&picture, &path("error.jpg"), 90)
}
