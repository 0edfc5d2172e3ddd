//! Time control shared by every chapter: pause, resume, single-frame step, speed and an optional
//! fixed time step. Headless runs always use a fixed step, so they are deterministic.

/// Default fixed step: 60 steps per second.
pub const DEFAULT_STEP_S: f32 = 1.0 / 60.0;

#[derive(Clone, Debug)]
pub struct TimeControl {
    pub paused: bool,
    /// Multiplies real time (0.0 ..= 8.0).
    pub speed: f32,
    /// When set, every advanced frame moves time by exactly this many seconds.
    pub fixed_step: Option<f32>,
    /// Simulated time (s) and the number of simulated frames so far.
    pub time: f64,
    pub frame: u64,
    pending_steps: u32,
}

impl Default for TimeControl {
    fn default() -> Self {
        Self { paused: false, speed: 1.0, fixed_step: None, time: 0.0, frame: 0, pending_steps: 0 }
    }
}

impl TimeControl {
    /// Deterministic time for headless rendering: fixed step, starting at `start_s`.
    pub fn fixed(start_s: f64) -> Self {
        Self { fixed_step: Some(DEFAULT_STEP_S), time: start_s, ..Default::default() }
    }

    /// Back to t = 0, frame 0; pause, speed and step settings stay.
    pub fn reset(&mut self) {
        self.time = 0.0;
        self.frame = 0;
        self.pending_steps = 0;
    }

    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
    }

    /// Advances exactly one frame on the next `tick`, even while paused.
    pub fn request_step(&mut self) {
        self.paused = true;
        self.pending_steps += 1;
    }

    // ANCHOR: tick
    /// Called once per displayed frame with the real elapsed time. Returns the simulation time
    /// step to apply this frame, or `None` when time stands still.
    pub fn tick(&mut self, real_dt: f32) -> Option<f32> {
        let step = self.fixed_step.unwrap_or((real_dt * self.speed).clamp(0.0, 0.1));
        if self.paused {
            if self.pending_steps == 0 {
                return None;
            }
            self.pending_steps -= 1;
            let dt = self.fixed_step.unwrap_or(DEFAULT_STEP_S);
            return Some(self.advance(dt));
        }
        Some(self.advance(step))
    }

    fn advance(&mut self, dt: f32) -> f32 {
        self.time += dt as f64;
        self.frame += 1;
        dt
    }
    // ANCHOR_END: tick
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paused_time_stands_still_until_stepped() {
        let mut t = TimeControl::default();
        t.toggle_pause();
        assert_eq!(t.tick(0.5), None);
        t.request_step();
        assert_eq!(t.tick(0.5), Some(DEFAULT_STEP_S));
        assert_eq!(t.tick(0.5), None);
        assert_eq!(t.frame, 1);
    }

    #[test]
    fn fixed_step_ignores_real_time() {
        let mut t = TimeControl::fixed(0.0);
        for _ in 0..60 {
            assert_eq!(t.tick(1.0), Some(DEFAULT_STEP_S));
        }
        assert!((t.time - 1.0).abs() < 1e-5);
    }
}
