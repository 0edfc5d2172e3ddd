//! The crop: the smoke's bounds over every frame decide which part of the grid the frames show,
//! so that no atlas texel is spent on empty space and the flipbook does not jump from frame to
//! frame (one rectangle for all frames).
//!
//! A pixel counts as smoke when its alpha is at least `ALPHA_THRESHOLD`, half an 8-bit step
//! (0.5/255): anything thinner rounds to 0 in the PNG atlas. The bounds grow by `MARGIN_CELLS`
//! on each side (so bilinear filtering at the frame's edge reads transparent texels), then the
//! shorter side grows about the centre until the rectangle has the frame's aspect, so that cells
//! stay square in the atlas; the rectangle is moved back inside the grid where it fits, and may
//! reach outside it (transparent) where it does not. No smoke at all: the whole grid.

/// Alpha below which a pixel is empty for the crop.
pub const ALPHA_THRESHOLD: f32 = 0.5 / 255.0;
/// Cells of transparent border around the bounds.
pub const MARGIN_CELLS: f64 = 1.0;

/// A rectangle in the grid's image, in cells (x right from the left edge, y down from the top).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CropRect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// Pixel bounds `[x0, y0, x1, y1)` of alpha ≥ the threshold over every frame's alpha image
/// (`n` × `n` each, row 0 at the top); `None` when no pixel of any frame has smoke.
pub fn bounds<'a>(n: usize, alphas: impl IntoIterator<Item = &'a [f32]>) -> Option<[usize; 4]> {
    let mut b: Option<[usize; 4]> = None;
    for alpha in alphas {
        for (i, &a) in alpha.iter().enumerate() {
            if a >= ALPHA_THRESHOLD {
                let (x, y) = (i % n, i / n);
                b = Some(match b {
                    None => [x, y, x + 1, y + 1],
                    Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1)],
                });
            }
        }
    }
    b
}

// ANCHOR: crop_rect
/// The crop rectangle for `bounds` in an `n` × `n` image, with the aspect `frame_w / frame_h`.
pub fn crop_rect(n: usize, bounds: Option<[usize; 4]>, frame_w: u32, frame_h: u32) -> CropRect {
    let n_f = n as f64;
    let [x0, y0, x1, y1] = match bounds {
        Some(b) => b.map(|v| v as f64),
        None => [0.0, 0.0, n_f, n_f],
    };
    let margin = if bounds.is_some() { MARGIN_CELLS } else { 0.0 };
    let (mut w, mut h) = (x1 - x0 + 2.0 * margin, y1 - y0 + 2.0 * margin);
    let aspect = frame_w as f64 / frame_h as f64;
    if w / h < aspect {
        w = h * aspect;
    } else {
        h = w / aspect;
    }
    let place = |centre: f64, size: f64| {
        let start = centre - size / 2.0;
        if size <= n_f { start.clamp(0.0, n_f - size) } else { start }
    };
    CropRect { x: place((x0 + x1) / 2.0, w), y: place((y0 + y1) / 2.0, h), w, h }
}
// ANCHOR_END: crop_rect

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_every_frame_and_ignore_thin_smoke() {
        let n = 8;
        let mut a = vec![0.0; 64];
        let mut b = vec![0.0; 64];
        a[2 + 3 * n] = 0.5;
        b[5 + 6 * n] = 0.1;
        b[7 + 7 * n] = ALPHA_THRESHOLD * 0.99;
        assert_eq!(bounds(n, [&a[..], &b[..]]), Some([2, 3, 6, 7]));
        assert_eq!(bounds(n, [&vec![0.0; 64][..]]), None);
    }

    #[test]
    fn crop_has_the_frame_aspect_and_stays_inside_when_it_fits() {
        let r = crop_rect(64, Some([10, 20, 20, 60]), 1, 1);
        assert_eq!((r.w, r.h), (42.0, 42.0));
        assert!(r.x >= 0.0 && r.y >= 0.0 && r.y + r.h <= 64.0, "{r:?}");
        // Centred on the smoke where the grid allows (y), moved inside where it does not (x).
        assert!((r.y + r.h / 2.0 - 40.0).abs() < 1e-9 && r.x == 0.0, "{r:?}");
        let wide = crop_rect(64, Some([0, 0, 64, 64]), 2, 1);
        assert_eq!((wide.w / wide.h, wide.w), (2.0, 132.0));
        assert_eq!(crop_rect(64, None, 1, 1), CropRect { x: 0.0, y: 0.0, w: 64.0, h: 64.0 });
    }
}
