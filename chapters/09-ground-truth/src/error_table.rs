//! The error table's statistics: how far a stack's picture is from the path-traced ground truth,
//! over the pixels where the medium matters, and whether the truth's own noise is small enough
//! for the number to mean anything. Pure functions of per-pixel luminances; `fogbook
//! error-table` renders them.
//!
//! The rules (the book's "The error table"):
//! - the error of a pixel is `e = (Y_stack − Y_truth) / max(Y_truth, 1 % of the frame's mean
//!   Y_truth)`, the `error` view's formula, on linear values before the display pass;
//! - a pixel counts where the medium matters: where the truth with and without the medium differ
//!   by more than 5 % of the same denominator, `|Y_truth − Y_bare| > 0.05 · max(Y_truth, 1 % of
//!   the mean)`;
//! - over the counted pixels: the mean and 95th percentile of `|e|`, the mean of `e` (the bias),
//!   and the median and 95th percentile of the truth's relative standard error (the `noise`
//!   view, relative to the same denominator);
//! - a row is reportable where the noise is below a third of the error it reports, for both
//!   numbers it reports: median noise < mean `|e|` / 3, and 95th-percentile noise <
//!   95th-percentile `|e|` / 3. Noise σ under an error e inflates what is measured, about
//!   √(e² + σ²), by at most √(1 + 1/9) − 1 ≈ 5.4 %.

use serde::Serialize;

// ANCHOR: rules
/// Rec. 709 luminance weights, as `MEDIUM_LUMA` in `shaders/common/media/medium.wgsl`.
pub const LUMA: [f64; 3] = [0.2126, 0.7152, 0.0722];
/// The denominator's floor, a share of the frame's mean truth luminance (the `error` view's).
pub const FLOOR_OF_MEAN: f64 = 0.01;
/// A pixel counts where the medium changes the truth by more than this share.
pub const MEDIUM_MATTERS: f64 = 0.05;
/// A row is reported where the truth's noise is below this share of the error.
pub const NOISE_SHARE: f64 = 1.0 / 3.0;
/// The upper percentile reported (of the error and of the noise).
pub const UPPER_PERCENTILE: f64 = 95.0;
// ANCHOR_END: rules

/// Luminance of a linear RGB value.
pub fn luminance(rgb: [f32; 3]) -> f64 {
    (0..3).map(|c| LUMA[c] * f64::from(rgb[c])).sum()
}

/// Per-pixel luminances of one frame, all the same length.
#[derive(Clone, Copy, Debug)]
pub struct Luminances<'a> {
    /// The stack's own picture (the ground-truth chapter's `stack` view).
    pub stack: &'a [f64],
    /// The path-traced truth with the medium.
    pub truth: &'a [f64],
    /// The path-traced truth with the medium removed.
    pub bare: &'a [f64],
    /// The truth's relative standard error (the `noise` view).
    pub noise: &'a [f64],
}

/// The statistics over the pixels where the medium matters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ErrorSummary {
    /// Mean of |e|.
    pub mean_abs: f64,
    /// 95th percentile of |e|.
    pub p95_abs: f64,
    /// Mean of e: positive where the stack is too bright.
    pub bias: f64,
    /// Median of the truth's relative standard error.
    pub noise_median: f64,
    /// 95th percentile of the truth's relative standard error.
    pub noise_p95: f64,
}

/// One row's measurement.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ErrorStats {
    /// Pixels in the frame.
    pub pixels: usize,
    /// Pixels where the medium matters.
    pub counted: usize,
    /// `None` where no pixel counts.
    pub summary: Option<ErrorSummary>,
    /// Whether the truth's noise is below a third of both reported errors.
    pub reportable: bool,
}

impl ErrorSummary {
    /// The rule: median noise < mean |e| / 3 and 95th-percentile noise < 95th-percentile |e| / 3.
    pub fn reportable(&self) -> bool {
        self.noise_median < NOISE_SHARE * self.mean_abs && self.noise_p95 < NOISE_SHARE * self.p95_abs
    }
}

/// The `q`-th percentile (0–100) of ascending `sorted` values, interpolated linearly between the
/// two nearest ranks (the median of 1, 2, 3, 4 is 2.5). NaN for no values.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else { return f64::NAN };
    let h = q.clamp(0.0, 100.0) / 100.0 * last as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The denominator's floor for `truth`: 1 % of its mean.
pub fn floor(truth: &[f64]) -> f64 {
    FLOOR_OF_MEAN * truth.iter().sum::<f64>() / truth.len().max(1) as f64
}

/// The signed relative error of every pixel, as the `error` view computes it.
pub fn relative_errors(stack: &[f64], truth: &[f64]) -> Vec<f64> {
    let floor = floor(truth);
    stack.iter().zip(truth).map(|(s, t)| (s - t) / t.max(floor)).collect()
}

/// Whether the medium matters at each pixel: the truth with and without it differ by more than
/// 5 % of `max(Y_truth, floor)`.
pub fn medium_mask(truth: &[f64], bare: &[f64]) -> Vec<bool> {
    let floor = floor(truth);
    truth.iter().zip(bare).map(|(t, b)| (t - b).abs() > MEDIUM_MATTERS * t.max(floor)).collect()
}

fn check(l: &Luminances) -> Result<(), String> {
    let n = l.truth.len();
    if n == 0 {
        return Err("no pixels".into());
    }
    let named =
        [("stack", l.stack), ("ground truth", l.truth), ("truth without the medium", l.bare), ("noise", l.noise)];
    for (name, values) in named {
        if values.len() != n {
            return Err(format!("the {name} has {} pixels, the ground truth {n}", values.len()));
        }
        let bad = values.iter().filter(|v| !v.is_finite()).count();
        if bad > 0 {
            return Err(format!("the {name} holds {bad} non-finite pixels"));
        }
    }
    if floor(l.truth) <= 0.0 {
        return Err("the ground truth is black: no light to measure the error against".into());
    }
    Ok(())
}

// ANCHOR: measure
/// The row's statistics; an error for mismatched lengths, non-finite values or a black truth.
pub fn measure(l: &Luminances) -> Result<ErrorStats, String> {
    check(l)?;
    let errors = relative_errors(l.stack, l.truth);
    let mask = medium_mask(l.truth, l.bare);
    let counted: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
    let sorted = |values: Vec<f64>| {
        let mut v = values;
        v.sort_by(f64::total_cmp);
        v
    };
    let summary = (!counted.is_empty()).then(|| {
        let n = counted.len() as f64;
        let abs = sorted(counted.iter().map(|&i| errors[i].abs()).collect());
        let noise = sorted(counted.iter().map(|&i| l.noise[i]).collect());
        ErrorSummary {
            mean_abs: abs.iter().sum::<f64>() / n,
            p95_abs: percentile(&abs, UPPER_PERCENTILE),
            bias: counted.iter().map(|&i| errors[i]).sum::<f64>() / n,
            noise_median: percentile(&noise, 50.0),
            noise_p95: percentile(&noise, UPPER_PERCENTILE),
        }
    });
    Ok(ErrorStats {
        pixels: mask.len(),
        counted: counted.len(),
        summary,
        reportable: summary.is_some_and(|s| s.reportable()),
    })
}
// ANCHOR_END: measure

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn percentiles_interpolate_between_ranks() {
        assert!(close(percentile(&[1.0, 2.0, 3.0, 4.0], 50.0), 2.5));
        assert!(close(percentile(&[1.0, 2.0, 3.0], 50.0), 2.0));
        // 0.95 · 4 = 3.8: 4 + 0.8 · (5 − 4).
        assert!(close(percentile(&[1.0, 2.0, 3.0, 4.0, 5.0], 95.0), 4.8));
        assert!(close(percentile(&[7.0], 95.0), 7.0));
        assert!(close(percentile(&[1.0, 2.0], 0.0), 1.0));
        assert!(close(percentile(&[1.0, 2.0], 100.0), 2.0));
        assert!(percentile(&[], 50.0).is_nan());
    }

    #[test]
    fn luminance_is_rec_709() {
        assert!(close(luminance([1.0, 1.0, 1.0]), 1.0));
        assert!(close(luminance([0.0, 1.0, 0.0]), 0.7152));
    }

    /// Four pixels, frame mean 1.0 (floor 0.01): pixels 0–2 fogged (the bare truth differs by
    /// far more than 5 %), pixel 3 not (it differs by 2 %).
    const TRUTH: [f64; 4] = [2.0, 1.0, 0.5, 0.5];
    const BARE: [f64; 4] = [1.0, 0.5, 1.0, 0.51];

    #[test]
    fn a_hand_computed_row() {
        // e = (1.2·2 − 2)/2 = 0.2, (0.9 − 1)/1 = −0.1, (0.55 − 0.5)/0.5 = 0.1 on the counted
        // pixels; pixel 3's error (1.0, +100 %) is outside the mask.
        let stack = [2.4, 0.9, 0.55, 1.0];
        let noise = [0.01, 0.02, 0.03, 0.5];
        let s = measure(&Luminances { stack: &stack, truth: &TRUTH, bare: &BARE, noise: &noise }).unwrap();
        assert_eq!((s.pixels, s.counted), (4, 3));
        let m = s.summary.unwrap();
        // |e| sorted 0.1, 0.1, 0.2: mean 0.4/3; p95 at rank 1.9: 0.1 + 0.9 · 0.1 = 0.19.
        assert!(close(m.mean_abs, 0.4 / 3.0), "{m:?}");
        assert!(close(m.p95_abs, 0.19), "{m:?}");
        assert!(close(m.bias, 0.2 / 3.0), "{m:?}");
        // Noise sorted 0.01, 0.02, 0.03: median 0.02, p95 0.02 + 0.9 · 0.01 = 0.029.
        assert!(close(m.noise_median, 0.02), "{m:?}");
        assert!(close(m.noise_p95, 0.029), "{m:?}");
        // 0.02 < 0.133/3 = 0.0444 and 0.029 < 0.19/3 = 0.0633.
        assert!(s.reportable);
    }

    #[test]
    fn the_floor_keeps_black_pixels_finite() {
        // Mean truth 25.0, floor 0.25: pixel 0 (truth 0) is divided by 0.25, not 0.
        let truth = [0.0, 100.0, 0.0, 0.0];
        let e = relative_errors(&[0.05, 100.0, 0.0, 0.0], &truth);
        assert!(close(e[0], 0.2) && close(e[1], 0.0), "{e:?}");
        // The mask takes the same floor: a change of 0.01 at a black pixel is 4 % of it.
        assert_eq!(medium_mask(&truth, &[0.01, 100.0, 0.02, 0.0]), [false, false, true, false]);
    }

    #[test]
    fn noise_above_a_third_of_the_error_is_not_reported() {
        let stack = [2.4, 0.9, 0.55, 1.0];
        // Median noise 0.05 ≥ 0.0444: the mean is not trusted.
        let noisy = [0.04, 0.05, 0.06, 0.0];
        let s = measure(&Luminances { stack: &stack, truth: &TRUTH, bare: &BARE, noise: &noisy }).unwrap();
        assert!(!s.reportable, "{s:?}");
        // The median passes, the 95th percentile does not: 0.02 + 0.9 · 0.08 = 0.092 ≥ 0.0633.
        let tail = [0.01, 0.02, 0.1, 0.0];
        let s = measure(&Luminances { stack: &stack, truth: &TRUTH, bare: &BARE, noise: &tail }).unwrap();
        assert!(close(s.summary.unwrap().noise_median, 0.02) && !s.reportable, "{s:?}");
    }

    #[test]
    fn a_planted_fault_is_found_only_where_the_medium_matters() {
        // A stack that matches the truth, with a fault of +30 % planted on every pixel where
        // the medium matters and −50 % on the rest: the table sees +30 % exactly, and nothing
        // of the rest.
        let n = 64;
        let truth: Vec<f64> = (0..n).map(|i| 0.2 + 0.01 * i as f64).collect();
        let fogged = |i: usize| !i.is_multiple_of(4);
        let bare: Vec<f64> = (0..n).map(|i| if fogged(i) { truth[i] * 0.7 } else { truth[i] }).collect();
        let stack: Vec<f64> = (0..n).map(|i| truth[i] * if fogged(i) { 1.3 } else { 0.5 }).collect();
        let noise = vec![0.01; n];
        let s = measure(&Luminances { stack: &stack, truth: &truth, bare: &bare, noise: &noise }).unwrap();
        assert_eq!(s.counted, 48);
        let m = s.summary.unwrap();
        assert!(close(m.mean_abs, 0.3) && close(m.p95_abs, 0.3) && close(m.bias, 0.3), "{m:?}");
        assert!(s.reportable);
        // The stack unchanged: no error at all, and nothing to report above the noise.
        let s = measure(&Luminances { stack: &truth, truth: &truth, bare: &bare, noise: &noise }).unwrap();
        let m = s.summary.unwrap();
        assert!(close(m.mean_abs, 0.0) && close(m.bias, 0.0) && !s.reportable, "{m:?}");
    }

    #[test]
    fn no_fog_anywhere_counts_no_pixel() {
        let s = measure(&Luminances { stack: &TRUTH, truth: &TRUTH, bare: &TRUTH, noise: &[0.0; 4] }).unwrap();
        assert_eq!((s.counted, s.summary, s.reportable), (0, None, false));
    }

    #[test]
    fn bad_input_is_an_error() {
        let short = [1.0; 3];
        let l = Luminances { stack: &short, truth: &TRUTH, bare: &BARE, noise: &TRUTH };
        assert!(measure(&l).unwrap_err().contains("3 pixels"));
        let nan = [1.0, f64::NAN, 1.0, 1.0];
        let l = Luminances { stack: &nan, truth: &TRUTH, bare: &BARE, noise: &TRUTH };
        assert!(measure(&l).unwrap_err().contains("non-finite"));
        let black = [0.0; 4];
        let l = Luminances { stack: &TRUTH, truth: &black, bare: &BARE, noise: &TRUTH };
        assert!(measure(&l).unwrap_err().contains("black"));
        let l = Luminances { stack: &[], truth: &[], bare: &[], noise: &[] };
        assert!(measure(&l).is_err());
    }
}
