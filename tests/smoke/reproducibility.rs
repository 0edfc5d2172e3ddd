//! Reproducibility: repeated runs, batched steps and warm-up without drawing give the same state.

use crate::{UnderTest, lighting::lit_setup, lighting::smoke_in, save::bits, smoke, smoke_from, smoke_on, steps};
use fogbook_core::Loaded;
use fogbook_core::headless::Headless;
use fogbook_smoke::Smoke;
use fogbook_smoke::fields::FieldId;

#[test]
fn stepping_is_bit_reproducible() {
    let run = || {
        let (h, mut s) = smoke(&[]);
        steps(&h, &mut s, 25);
        [FieldId::Velocity, FieldId::Pressure, FieldId::Fluid, FieldId::Divergence]
            .map(|id| s.download(&h.gpu, id).unwrap())
    };
    let (a, b) = (run(), run());
    for (x, y) in a.iter().zip(&b) {
        assert!(x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits()), "two runs of 25 steps differ");
    }
}

// ANCHOR: batched_steps_test
/// Every field of the smoke, for comparisons bit for bit.
fn every_field(h: &Headless, s: &Loaded<Smoke>) -> Vec<(FieldId, Vec<f32>)> {
    [FieldId::Velocity, FieldId::Pressure, FieldId::Fluid, FieldId::Divergence, FieldId::Solid]
        .into_iter()
        .map(|id| (id, s.download(&h.gpu, id).unwrap()))
        .collect()
}

/// The largest difference between two states, and the field it is in.
fn largest_difference(a: &[(FieldId, Vec<f32>)], b: &[(FieldId, Vec<f32>)]) -> (f32, Option<FieldId>) {
    let mut worst = (0.0f32, None);
    for ((id, x), (_, y)) in a.iter().zip(b) {
        let d = x
            .iter()
            .zip(y)
            .map(|(p, q)| if p.to_bits() == q.to_bits() { 0.0 } else { (p - q).abs().max(f32::MIN_POSITIVE) })
            .fold(0.0, f32::max);
        if d > worst.0 {
            worst = (d, Some(*id));
        }
    }
    worst
}

#[test]
fn batched_steps_reach_the_state_of_single_steps() {
    // `smoke-save` and `bake` record many steps into one submission (`Smoke::steps`); the viewer,
    // `render --frames` and the figures submit one step a frame. The emitter's noise clock and a
    // moving obstacle change the parameter block every step: each step must read its own.
    let cases: [(&str, &[&str]); 2] =
        [("turbulence", &[]), ("a moving sphere", &["turbulence=0", "sphere_enabled=true", "sphere_velocity_x=3"])];
    for (what, sets) in cases {
        let (h, mut single) = smoke_from(16, &[], sets);
        steps(&h, &mut single, 20);
        let reference = every_field(&h, &single);
        for batch in [7, 50] {
            let mut batched = smoke_on(&h, 16, &[], sets);
            {
                let (smoke, g) = batched.parts().unwrap();
                smoke.steps_in_batches(g, &h.gpu, 20, batch);
            }
            let (diff, field) = largest_difference(&reference, &every_field(&h, &batched));
            eprintln!("{what}, 20 steps in batches of {batch}: largest difference {diff:e} ({field:?})");
            assert!(diff == 0.0, "{what}: batches of {batch} differ from single steps by {diff} in {field:?}");
            assert!(h.gpu.take_rewrites().is_empty(), "{what}: a buffer was written twice before one submission");
        }
    }
}
// ANCHOR_END: batched_steps_test

/// Figures step the smoke without drawing until their last frame (`Headless::run_warmed`); the
/// state must be the one drawing every frame gives. With turbulence on, it is not unless the
/// parameter block written for drawing keeps the noise clock of the step recorded before it in
/// the same submission (before, drawing moved the clock on by one step).
#[test]
fn warming_up_without_drawing_gives_the_drawn_state() {
    let sets = ["grid_size=16", "turbulence=1"];
    let download = |drawn: bool| {
        let (mut h, mut setup) = lit_setup(&sets);
        let view = setup.stack.find_view("density").unwrap();
        let mut time = fogbook_core::time::TimeControl::fixed(0.0);
        if drawn {
            h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 8);
        } else {
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 8);
        }
        smoke_in(&mut setup).download(&h.gpu, FieldId::Fluid).unwrap()
    };
    let (drawn, warmed) = (download(true), download(false));
    assert!(drawn.iter().any(|&v| v > 0.0), "the emitter added no smoke");
    let differing = bits(&drawn).iter().zip(bits(&warmed)).filter(|(a, b)| **a != *b).count();
    assert_eq!(differing, 0, "stepping without drawing changed {differing} of {} values", drawn.len());
}
