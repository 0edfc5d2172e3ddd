//! f64 references for the temperature field (Fedkiw, Stam and Jensen 2001): the buoyant
//! acceleration and Newtonian cooling.

// ANCHOR: buoyancy
/// Upward acceleration (m/s²) of a cell holding smoke density `rho` at `excess_k` = T − T_amb
/// kelvin: f = −α ρ + β (T − T_amb), with −α = `buoyancy` (m/s² per unit density) and
/// β = `heat_lift` (m/s² per K).
pub fn buoyant_acceleration(buoyancy: f64, heat_lift: f64, rho: f64, excess_k: f64) -> f64 {
    buoyancy * rho + heat_lift * excess_k
}
// ANCHOR_END: buoyancy

/// T − T_amb after time `t` (s) of Newtonian cooling at rate `k` (1/s) from `excess0`:
/// the solution of dT/dt = −k (T − T_amb), excess0 · exp(−k t).
pub fn cooled(excess0: f64, k: f64, t: f64) -> f64 {
    excess0 * (-k * t).exp()
}

/// The same law as the step the solver takes: `steps` steps of `dt`, each keeping the factor
/// `keep` (f32 on the GPU: `fogbook_smoke::temperature_keep`).
pub fn cooled_in_steps(excess0: f64, keep: f64, steps: u32) -> f64 {
    excess0 * keep.powi(steps as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_the_exponential_gives_the_exponential() {
        let (k, dt) = (3.0f64, 0.02f64);
        let keep = (-k * dt).exp();
        let stepped = cooled_in_steps(500.0, keep, 50);
        assert!((stepped / cooled(500.0, k, 50.0 * dt) - 1.0).abs() < 1e-12);
        // A semi-implicit step 1/(1 + k dt) would not: 9 % off after one second here.
        let implicit = cooled_in_steps(500.0, 1.0 / (1.0 + k * dt), 50);
        assert!((implicit / cooled(500.0, k, 1.0) - 1.0).abs() > 0.04);
    }

    #[test]
    fn hot_rises_and_heavy_sinks() {
        assert!(buoyant_acceleration(0.0, 0.01, 0.0, 300.0) > 0.0);
        assert!(buoyant_acceleration(-2.0, 0.01, 1.0, -50.0) < 0.0);
        assert_eq!(buoyant_acceleration(2.0, 0.0, 1.5, 1000.0), 3.0);
    }
}
