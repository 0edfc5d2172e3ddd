//! The simulated plume the relighting tests and the book's thick-cell numbers start from.

use fogbook_core::timing::run_now;
use fogbook_core::{Chapter, Loaded};
use fogbook_six_way::light::Medium;
use fogbook_smoke::fields::FieldId;

/// The default plume on an `n`³ grid after `steps` steps on the GPU: its density and medium
/// (chapter 7's extinction, albedo 1).
pub fn simulated(n: usize, steps: u32) -> (Vec<f32>, Medium) {
    let mut smoke = Loaded::new(fogbook_smoke::Smoke::new());
    smoke.chapter.params.grid_size = n as u32;
    let headless = fogbook_core::headless::Headless::new(&smoke.chapter.requirements(), [16, 16]).unwrap();
    headless.prepare(&mut smoke).unwrap();
    let (chapter, state) = smoke.parts().unwrap();
    run_now(&headless.gpu, |passes| {
        for _ in 0..steps {
            chapter.step(state, &headless.gpu, passes);
        }
    });
    let fluid = state.download(&headless.gpu, FieldId::Fluid).unwrap();
    let p = &chapter.params;
    let medium = Medium { extinction: p.extinction, cell_m: p.box_size_m / n as f32, albedo: 1.0 };
    (fluid.chunks_exact(4).map(|c| c[3]).collect(), medium)
}
