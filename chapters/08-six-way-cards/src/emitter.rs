//! The particle emitter near the camera, simulated on the CPU: particles are born at a steady
//! rate in a disc, move with their birth velocity, grow from a start to an end size and fade in
//! and out over their life. Everything random comes from a hash of the particle's serial number,
//! so a run is the same on every machine and after a reset.

use crate::params::CardParams;
use fogbook_core::noise::pcg3d;
use glam::Vec3;

/// A uniform number in [0, 1) from a serial number and a stream: the core's PCG3D hash
/// (`fogbook_core::noise::pcg3d`), so no state but the serial is needed.
pub fn hash01(serial: u32, stream: u32) -> f32 {
    (pcg3d([serial, stream, 0])[0] >> 8) as f32 / (1u32 << 24) as f32
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Particle {
    pub serial: u32,
    pub position: Vec3,
    pub velocity: Vec3,
    /// Seconds since birth.
    pub age_s: f32,
}

impl Particle {
    /// Age as a fraction of the lifetime.
    pub fn life(&self, lifetime_s: f32) -> f32 {
        (self.age_s / lifetime_s.max(1e-3)).clamp(0.0, 1.0)
    }
}

// ANCHOR: over_life
/// Size over life: linear from the start to the end size.
pub fn size_at(p: &CardParams, life: f32) -> f32 {
    p.size_start_m + (p.size_end_m - p.size_start_m) * life
}

/// Opacity over life: fades in over the first 10 % and out over the last 30 %.
pub fn opacity_at(life: f32) -> f32 {
    let smooth = |e0: f32, e1: f32, x: f32| {
        let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    };
    smooth(0.0, 0.1, life) * (1.0 - smooth(0.7, 1.0, life))
}
// ANCHOR_END: over_life

/// The emitter's state: the live particles (oldest first) and the births owed.
#[derive(Clone, Debug, Default)]
pub struct Emitter {
    pub particles: Vec<Particle>,
    next_serial: u32,
    /// Fraction of a particle owed to the next step (rate × dt is rarely whole).
    owed: f64,
}

impl Emitter {
    fn spawn(&mut self, p: &CardParams) {
        let s = self.next_serial;
        self.next_serial = self.next_serial.wrapping_add(1);
        // A uniform point in the disc, and a velocity within the spread of the mean.
        let (r, phi) = (p.emitter_radius_m * hash01(s, 1).sqrt(), std::f32::consts::TAU * hash01(s, 2));
        let position = Vec3::new(p.emitter_x_m + r * phi.cos(), p.emitter_y_m, p.emitter_z_m + r * phi.sin());
        let jitter = Vec3::new(hash01(s, 3), hash01(s, 4), hash01(s, 5)) * 2.0 - Vec3::ONE;
        let velocity = Vec3::new(p.velocity_x_m_s, p.velocity_y_m_s, p.velocity_z_m_s) + jitter * p.velocity_spread_m_s;
        self.particles.push(Particle { serial: s, position, velocity, age_s: 0.0 });
    }

    // ANCHOR: step
    /// Advances `dt` seconds: ages and moves the particles, drops the dead, then adds the births
    /// owed (at most `max_particles` alive: the oldest make room).
    pub fn step(&mut self, p: &CardParams, dt: f32) {
        if !(dt.is_finite() && dt > 0.0) {
            return;
        }
        for q in &mut self.particles {
            q.age_s += dt;
            q.position += q.velocity * dt;
        }
        self.particles.retain(|q| q.age_s < p.lifetime_s);
        if !p.particles {
            self.owed = 0.0;
            return;
        }
        self.owed += p.spawn_rate.max(0.0) as f64 * dt as f64;
        let births = self.owed.floor();
        self.owed -= births;
        for _ in 0..(births as u64).min(p.max_particles as u64) {
            self.spawn(p);
        }
        let max = p.max_particles as usize;
        if self.particles.len() > max {
            self.particles.drain(..self.particles.len() - max);
        }
    }
    // ANCHOR_END: step

    /// Starts again; with `prewarm` the emitter runs one lifetime at once, in steps of `dt`.
    pub fn reset(&mut self, p: &CardParams, dt: f32) {
        *self = Self::default();
        if p.prewarm && p.particles && dt > 0.0 {
            let steps = (p.lifetime_s / dt).ceil().min(100_000.0) as u32;
            for _ in 0..steps {
                self.step(p, dt);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_uniform_enough() {
        let n = 100_000;
        let mut bins = [0u32; 10];
        for i in 0..n {
            let v = hash01(i, 7);
            assert!((0.0..1.0).contains(&v));
            bins[(v * 10.0) as usize] += 1;
        }
        for b in bins {
            assert!((b as f64 - 10_000.0).abs() < 400.0, "{bins:?}");
        }
    }

    #[test]
    fn a_steady_emitter_holds_rate_times_lifetime() {
        let p = CardParams::default();
        let mut e = Emitter::default();
        e.reset(&p, 1.0 / 60.0);
        assert_eq!(e.particles.len(), 2000, "200/s for 10 s");
        for _ in 0..60 {
            e.step(&p, 1.0 / 60.0);
        }
        assert_eq!(e.particles.len(), 2000);
        assert!(e.particles.iter().all(|q| q.age_s < p.lifetime_s));
        // Capped: a higher rate keeps at most max_particles, the youngest.
        let dense = CardParams { spawn_rate: 1000.0, ..p.clone() };
        e.step(&dense, 0.5);
        assert_eq!(e.particles.len(), 2000);
        assert!(e.particles.iter().any(|q| q.age_s == 0.0));
    }

    #[test]
    fn the_same_settings_give_the_same_particles() {
        let p = CardParams::default();
        let (mut a, mut b) = (Emitter::default(), Emitter::default());
        a.reset(&p, 1.0 / 60.0);
        b.reset(&p, 1.0 / 60.0);
        assert_eq!(a.particles, b.particles);
    }

    #[test]
    fn bad_steps_change_nothing() {
        let p = CardParams::default();
        let mut e = Emitter::default();
        e.reset(&p, 1.0 / 60.0);
        let before = e.particles.clone();
        for dt in [f32::NAN, -1.0, 0.0, f32::INFINITY] {
            e.step(&p, dt);
        }
        assert_eq!(e.particles, before);
    }

    #[test]
    fn opacity_fades_in_and_out() {
        assert_eq!(opacity_at(0.0), 0.0);
        assert_eq!(opacity_at(0.5), 1.0);
        assert_eq!(opacity_at(1.0), 0.0);
    }
}
