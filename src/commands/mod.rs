pub mod bake;
pub mod bench;
pub mod figures;
pub mod list;
pub mod render;
pub mod smoke_save;

use fogbook_core::gpu::GpuContext;
use fogbook_core::timing::run_now;
use fogbook_smoke::{Smoke, SmokeGpu};

/// `count` steps of the smoke, submitted in batches so that a long run does not record thousands
/// of passes at once (`smoke-save` and `bake`).
pub(crate) fn smoke_steps(gpu: &GpuContext, chapter: &mut Smoke, state: &mut SmokeGpu, count: u32) {
    let mut left = count;
    while left > 0 {
        let batch = left.min(50);
        run_now(gpu, |passes| {
            for _ in 0..batch {
                chapter.step(state, gpu, passes);
            }
        });
        left -= batch;
    }
}
