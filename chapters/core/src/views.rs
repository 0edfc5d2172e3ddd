//! Debug views: every chapter lists the intermediate quantities it can show.
//!
//! A chapter writes the selected view's raw values into the frame's view target; the display
//! pass then tonemaps colour views or maps scalar views through a false-colour map with a legend.
//! Captures save both: PNG as displayed, EXR with the raw values.

// ANCHOR: view_kind
/// False-colour maps for scalar views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMap {
    /// Google's Turbo: high contrast, for signed-looking or wide-range quantities.
    Turbo,
    /// Viridis: perceptually uniform, for fractions in [0, 1].
    Viridis,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewKind {
    /// Linear HDR radiance, tonemapped for display.
    Color,
    /// One quantity, stored in the red channel, shown in false colour between `min` and `max`.
    /// With `auto`, the display range is the min / max the chapter wrote into the frame's range
    /// buffer this frame (`min`, `max` are the fallback until it has).
    Scalar { min: f32, max: f32, unit: &'static str, map: ColorMap, log: bool, auto: bool },
}
// ANCHOR_END: view_kind

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewInfo {
    /// CLI name (kebab-case), e.g. `fog-factor`.
    pub name: &'static str,
    pub description: &'static str,
    pub kind: ViewKind,
}

impl ViewInfo {
    pub const fn color(name: &'static str, description: &'static str) -> Self {
        Self { name, description, kind: ViewKind::Color }
    }
    pub const fn scalar(name: &'static str, description: &'static str, min: f32, max: f32, unit: &'static str) -> Self {
        Self {
            name,
            description,
            kind: ViewKind::Scalar { min, max, unit, map: ColorMap::Turbo, log: false, auto: false },
        }
    }
    pub const fn fraction(name: &'static str, description: &'static str) -> Self {
        Self {
            name,
            description,
            kind: ViewKind::Scalar { min: 0.0, max: 1.0, unit: "", map: ColorMap::Viridis, log: false, auto: false },
        }
    }
    pub const fn log_scale(mut self) -> Self {
        if let ViewKind::Scalar { min, max, unit, map, auto, .. } = self.kind {
            self.kind = ViewKind::Scalar { min, max, unit, map, log: true, auto };
        }
        self
    }
    /// Display range from the field's own min / max (see `ViewKind::Scalar::auto`).
    pub const fn auto_range(mut self) -> Self {
        if let ViewKind::Scalar { min, max, unit, map, log, .. } = self.kind {
            self.kind = ViewKind::Scalar { min, max, unit, map, log, auto: true };
        }
        self
    }
}

/// How far a chapter's snapshot images may move on another GPU before a snapshot test fails:
/// at most `max_fraction` of the pixels may differ by more than `steps` steps of 1/255, after
/// averaging `block` × `block` pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SnapshotTolerance {
    pub steps: u8,
    pub max_fraction: f64,
    /// Pixels per side of the blocks averaged before the comparison (1: every pixel). A Monte
    /// Carlo image agrees with another adapter's in its block means, not pixel by pixel: where
    /// one path turns differently the adapters draw other samples.
    pub block: u32,
}

impl SnapshotTolerance {
    /// Pixel by pixel.
    pub const fn pixels(steps: u8, max_fraction: f64) -> Self {
        Self { steps, max_fraction, block: 1 }
    }
}

impl Default for SnapshotTolerance {
    /// Measured: lavapipe and an NVIDIA H200 differ by at most 1 step on every image of the
    /// fog chapters (3 on a few silhouette pixels); a 10% change of fog density moves 26% of the
    /// pixels by more than 2 steps.
    fn default() -> Self {
        Self::pixels(2, 0.002)
    }
}

/// Finds a view by CLI name; the error lists the valid names.
pub fn find_view(views: &[ViewInfo], name: &str) -> Result<usize, String> {
    views.iter().position(|v| v.name == name).ok_or_else(|| {
        let names: Vec<_> = views.iter().map(|v| v.name).collect();
        format!("unknown view {name:?} (views: {})", names.join(", "))
    })
}
