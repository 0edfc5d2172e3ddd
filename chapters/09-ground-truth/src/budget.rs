//! The viewer's frame budget: how much of the frame the progressive trace covers each frame.
//!
//! The frame's 8 × 8 screen tiles are dealt into k interleaved classes, tile t into class
//! t mod k; a frame traces one class, the next frame the next, so that over k frames every pixel
//! gains `samples_per_frame` paths once. k comes from the trace's measured GPU time per path,
//! k = ⌈(time of a whole frame) / budget⌉, where a whole frame is every pixel times
//! `samples_per_frame` paths. Each pixel keeps its own path count, which the views divide by, so
//! the mean is the same whatever k was when.
//!
//! k cannot make a dispatch shorter than its longest path: below the occupancy cap a class does
//! not fill the GPU, and the dispatch lasts as long as its slowest invocation. There a step
//! budget bounds each invocation instead (`StepBudget`): a path takes so many tentative
//! collisions a frame, waits at a null collision and goes on in the next frame.

/// GPU time (ms) of one path of one pixel where no GPU timestamp has measured it yet, or none
/// ever will (lavapipe, a browser without `timestamp-query`): the dearest stack measured, the
/// clouds' on an H100, 66 ms for a path per pixel at 1280 × 720. A slower GPU overruns the
/// budget by its own factor.
pub const FALLBACK_MS_PER_PATH: f64 = 66.0 / (1280.0 * 720.0);

/// The most classes the tiles are dealt into (and never more than there are tiles).
pub const MAX_SHARE: u32 = 1024;

/// The fewest paths a measured class may hold: a time per path is a throughput only where the
/// dispatch fills the GPU. Below that a dispatch takes one long path's latency whatever its
/// size, the time per path it reports grows as the class shrinks, and k would run away: the
/// clouds on an H100 went to 1/301 of the tiles (3 k paths in 10.9 ms) where 1/6 fits.
pub const MIN_MEASURED_PATHS: f64 = 65_536.0;

/// The most classes `tiles` tiles of `pixels` each are dealt into once times are measured:
/// each class keeps at least `MIN_MEASURED_PATHS` paths (at 1280 × 720, 14).
pub fn occupancy_cap(tiles: u32, pixels: f64) -> u32 {
    ((f64::from(tiles) * pixels / MIN_MEASURED_PATHS).floor() as u32).clamp(1, tiles.max(1))
}

/// How fast a falling cost is believed (the weight of each new measurement); a rising one is
/// taken at once, so that frames come back inside the budget the frame after it arrives.
const FALLING_WEIGHT: f64 = 0.25;

/// Chooses k from measured GPU times.
#[derive(Clone, Debug, Default)]
pub struct ShareController {
    /// Smoothed GPU ms per path (one pixel, one path); `None` until measured.
    ms_per_path: Option<f64>,
    /// The last measured trace: its GPU time (ms) and its paths.
    pub last: Option<(f64, f64)>,
    /// Measurements taken so far.
    observations: u64,
}

impl ShareController {
    // ANCHOR: controller
    /// Takes a trace pass's GPU time (ms) and the paths it traced; ignores what is not a time
    /// (NaN, infinite, negative) or traced nothing.
    pub fn observe(&mut self, ms: f64, paths: f64) {
        if !(ms.is_finite() && ms >= 0.0 && paths.is_finite() && paths >= 1.0) {
            return;
        }
        let x = ms / paths;
        self.ms_per_path = Some(match self.ms_per_path {
            Some(s) if x < s => s + FALLING_WEIGHT * (x - s),
            _ => x,
        });
        self.last = Some((ms, paths));
        self.observations += 1;
    }

    /// k for a whole frame of `paths` paths to fit `budget_ms`, in 1..=`max` (itself at most
    /// `MAX_SHARE`); 1 for a budget of 0 (off) or one that is not a number.
    pub fn share(&self, budget_ms: f64, paths: f64, max: u32) -> u32 {
        let max = max.clamp(1, MAX_SHARE);
        if !(budget_ms > 0.0 && budget_ms.is_finite() && paths.is_finite()) {
            return 1;
        }
        let k = (self.ms_per_path() * paths / budget_ms).ceil();
        // A NaN fails both comparisons and gives 1.
        if k >= f64::from(max) {
            max
        } else if k > 1.0 {
            k as u32
        } else {
            1
        }
    }
    // ANCHOR_END: controller

    /// Measurements taken so far: a step budget is revised once for each.
    pub fn observations(&self) -> u64 {
        self.observations
    }

    /// The classes a whole frame of `paths` paths needs to fit `budget_ms`, unrounded and
    /// uncapped: the estimated time of the frame over the budget (0 where either is no number).
    pub fn classes_wanted(&self, budget_ms: f64, paths: f64) -> f64 {
        let k = self.ms_per_path() * paths / budget_ms;
        if k.is_finite() && k > 0.0 { k } else { 0.0 }
    }

    /// Whether a GPU time has been measured (else the fallback estimate is in use).
    pub fn measured(&self) -> bool {
        self.ms_per_path.is_some()
    }

    /// The estimated GPU time (ms) of one path of one pixel.
    pub fn ms_per_path(&self) -> f64 {
        self.ms_per_path.unwrap_or(FALLBACK_MS_PER_PATH)
    }
}

/// The most tentative collisions a path takes a frame under the viewer's budget, and where it
/// starts before any time is measured: the dearest paths measured (the clouds', hundreds of
/// collisions) take several frames, the fogs' few dozen one.
pub const MAX_PATH_STEPS: u32 = 256;
/// The fewest: each wait costs the path a store, a load and the scene's intersection again.
pub const MIN_PATH_STEPS: u32 = 8;

// ANCHOR: step_budget
/// The viewer's step budget: tentative collisions a path may take per dispatch before it waits
/// for the next frame. Revised once per measurement of the trace: cut in proportion where even
/// the occupancy cap's share of the tiles overran the budget (`overrun`, its time over the
/// budget, above 1), doubled again where that share would take less than half of it.
#[derive(Clone, Debug)]
pub struct StepBudget {
    steps: u32,
    /// The measurement the budget was last revised for.
    revised_for: u64,
}

impl Default for StepBudget {
    fn default() -> Self {
        Self { steps: MAX_PATH_STEPS, revised_for: 0 }
    }
}

impl StepBudget {
    /// The budget after measurement number `observation` (0: none yet), at which the capped
    /// share takes `overrun` times the frame budget; a value that is no number changes nothing.
    pub fn next(&mut self, observation: u64, overrun: f64) -> u32 {
        if observation > self.revised_for && overrun.is_finite() && overrun > 0.0 {
            self.revised_for = observation;
            let steps = f64::from(self.steps);
            let revised = if overrun > 1.0 {
                (steps / overrun).floor()
            } else if overrun < 0.5 {
                steps * 2.0
            } else {
                steps
            };
            self.steps = revised.clamp(f64::from(MIN_PATH_STEPS), f64::from(MAX_PATH_STEPS)) as u32;
        }
        self.steps
    }
}
// ANCHOR_END: step_budget

/// The class of tiles one frame traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    /// Classes in the cycle (1: the whole frame).
    pub share: u32,
    /// This one: the tiles t with t mod share = phase.
    pub phase: u32,
    /// Tiles in it.
    pub tiles: u32,
}

// ANCHOR: interleave
/// Which class each frame traces, and the paths each tile holds so far.
#[derive(Clone, Debug, Default)]
pub struct Interleave {
    share: u32,
    /// The class the next frame traces.
    phase: u32,
    /// Paths per pixel so far, per tile.
    tile_paths: Vec<u32>,
}

impl Interleave {
    /// The class this frame traces with `wanted` classes over `tiles` tiles, `samples` paths per
    /// pixel each. A restart (or a new tile count) starts a cycle at once with `wanted`; a larger
    /// k starts one at once too (the frames must come back inside the budget), a smaller one
    /// waits for the cycle to end, so that the counts stay even.
    pub fn next(&mut self, wanted: u32, tiles: u32, samples: u32, restart: bool) -> Class {
        let tiles = tiles.max(1);
        let wanted = wanted.clamp(1, tiles);
        if restart || self.tile_paths.len() != tiles as usize {
            self.tile_paths = vec![0; tiles as usize];
            (self.share, self.phase) = (wanted, 0);
        } else if wanted > self.share || self.phase == 0 {
            (self.share, self.phase) = (wanted, 0);
        }
        let class = Class { share: self.share, phase: self.phase, tiles: (tiles - self.phase).div_ceil(self.share) };
        for t in (class.phase as usize..self.tile_paths.len()).step_by(class.share as usize) {
            self.tile_paths[t] = self.tile_paths[t].saturating_add(samples);
        }
        self.phase = (self.phase + 1) % self.share;
        class
    }

    /// The fewest and the most paths a pixel holds so far.
    pub fn paths_range(&self) -> (u32, u32) {
        let min = self.tile_paths.iter().copied().min().unwrap_or(0);
        (min, self.tile_paths.iter().copied().max().unwrap_or(0))
    }
}
// ANCHOR_END: interleave

/// Workgroups (x, y) of a dispatch of `groups` workgroups in one class: as few rows as the
/// per-dimension limit of 65 535 allows, the last row's spare ones returning at once.
pub fn dispatch_size(groups: u32) -> [u32; 2] {
    let rows = groups.div_ceil(65_535).max(1);
    [groups.div_ceil(rows), rows]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1280 × 720 at one path per pixel.
    const PATHS: f64 = 1280.0 * 720.0;

    #[test]
    fn a_latency_bound_measurement_keeps_every_class_filling_the_gpu() {
        // The clouds' measurement at 1/301 of 14 400 tiles: 3 k paths in 10.9 ms.
        let mut c = ShareController::default();
        c.observe(10.93, 3072.0);
        let cap = occupancy_cap(14_400, 64.0);
        assert_eq!(cap, 14);
        assert_eq!(c.share(12.0, PATHS, cap), 14);
        assert_eq!(occupancy_cap(15, 64.0), 1, "a small frame is one class");
        assert_eq!(occupancy_cap(0, 64.0), 1);
    }

    #[test]
    fn the_share_fits_the_measured_cost_into_the_budget() {
        let mut c = ShareController::default();
        // Unmeasured: the fallback, 66 ms a frame against 12 ms: ⌈5.5⌉ = 6.
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 6);
        // The froxel fog's 10 ms fits whole; the smoke's 16 ms takes two frames.
        c.observe(10.0, PATHS);
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 1);
        c.observe(16.0, PATHS);
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 2, "a rising cost is taken at once");
        // Measured on a sixth of the pixels: the same cost per path.
        c.observe(66.0 / 6.0, PATHS / 6.0);
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 6);
        // Four paths per pixel a frame cost four times as much: ⌈22⌉.
        assert_eq!(c.share(12.0, 4.0 * PATHS, MAX_SHARE), 22);
    }

    #[test]
    fn a_falling_cost_is_smoothed() {
        let mut c = ShareController::default();
        c.observe(66.0, PATHS);
        c.observe(1.0, PATHS);
        // 66 + ¼ (1 − 66) = 49.75 ms: ⌈4.1⌉.
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 5);
        for _ in 0..40 {
            c.observe(1.0, PATHS);
        }
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 1);
    }

    #[test]
    fn the_share_is_bounded_and_never_nan() {
        let mut c = ShareController::default();
        c.observe(0.0, PATHS);
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), 1, "a zero time traces the whole frame");
        c.observe(1.0e30, PATHS);
        assert_eq!(c.share(12.0, PATHS, MAX_SHARE), MAX_SHARE, "a huge time is capped");
        assert_eq!(c.share(12.0, PATHS, 40), 40, "never more classes than tiles");
        assert_eq!(c.share(1.0e-30, PATHS, MAX_SHARE), MAX_SHARE);
        let before = c.ms_per_path();
        for (ms, paths) in [(f64::NAN, PATHS), (f64::INFINITY, PATHS), (-1.0, PATHS), (1.0, 0.0), (1.0, f64::NAN)] {
            c.observe(ms, paths);
        }
        assert_eq!(c.ms_per_path(), before, "what is not a time is ignored");
        assert_eq!(c.share(0.0, PATHS, MAX_SHARE), 1, "a budget of 0 is off");
        assert_eq!(c.share(f64::NAN, PATHS, MAX_SHARE), 1);
        assert_eq!(c.share(12.0, f64::INFINITY, MAX_SHARE), 1);
        assert_eq!(c.share(12.0, PATHS, 0), 1);
    }

    #[test]
    fn every_tile_is_traced_once_a_cycle() {
        let mut s = Interleave::default();
        let tiles = 10;
        let phases: Vec<u32> = (0..8).map(|i| s.next(3, tiles, 1, i == 0).phase).collect();
        assert_eq!(phases, [0, 1, 2, 0, 1, 2, 0, 1]);
        assert_eq!(s.paths_range(), (2, 3));
        // Classes of 10 tiles by 3: 4, 3, 3.
        let sizes: Vec<u32> = (0..4).map(|_| s.next(3, tiles, 1, false).tiles).collect();
        assert_eq!(sizes, [3, 4, 3, 3]);
        // A smaller k waits for the cycle's end; a larger one starts at once.
        let mut s = Interleave::default();
        s.next(4, tiles, 1, true);
        assert_eq!(s.next(2, tiles, 1, false).share, 4);
        s.next(2, tiles, 1, false);
        s.next(2, tiles, 1, false);
        assert_eq!(s.next(2, tiles, 1, false), Class { share: 2, phase: 0, tiles: 5 });
        assert_eq!(s.next(5, tiles, 1, false), Class { share: 5, phase: 0, tiles: 2 });
        assert_eq!(s.next(50, tiles, 1, false).share, 10, "never more classes than tiles");
    }

    #[test]
    fn the_step_budget_shrinks_until_the_capped_share_fits() {
        let mut s = StepBudget::default();
        assert_eq!(s.next(0, 5.0), MAX_PATH_STEPS, "no measurement yet: the start");
        // The smoke's 20 ms at the cap against 12 ms: 256 / (20 / 12) = 153.6.
        assert_eq!(s.next(1, 20.0 / 12.0), 153);
        assert_eq!(s.next(1, 20.0 / 12.0), 153, "once per measurement, not per frame");
        // The cards' 2.4 s against 12 ms: down to the floor.
        assert_eq!(s.next(2, 200.0), MIN_PATH_STEPS);
        // Inside the budget: kept; far inside: doubled, up to the top.
        assert_eq!(s.next(3, 0.8), MIN_PATH_STEPS);
        assert_eq!(s.next(4, 0.3), 2 * MIN_PATH_STEPS);
        for n in 5..20 {
            s.next(n, 0.1);
        }
        assert_eq!(s.next(20, 0.1), MAX_PATH_STEPS);
        for bad in [f64::NAN, f64::INFINITY, -1.0, 0.0] {
            assert_eq!(s.next(21, bad), MAX_PATH_STEPS, "{bad} is no overrun");
        }
    }

    #[test]
    fn the_classes_wanted_are_the_frame_over_the_budget() {
        let mut c = ShareController::default();
        c.observe(20.0, PATHS / 14.0);
        assert!((c.classes_wanted(12.0, PATHS) - 20.0 * 14.0 / 12.0).abs() < 1e-9);
        assert_eq!(c.observations(), 1);
        assert_eq!(c.classes_wanted(0.0, PATHS), 0.0);
        assert_eq!(c.classes_wanted(f64::NAN, PATHS), 0.0);
    }

    #[test]
    fn dispatches_stay_inside_the_limit() {
        assert_eq!(dispatch_size(1), [1, 1]);
        assert_eq!(dispatch_size(14_400), [14_400, 1]);
        assert_eq!(dispatch_size(129_600), [64_800, 2]);
        assert_eq!(dispatch_size(0), [0, 1]);
    }
}
