//! Ground-truth parameters: how many paths a frame adds, how much of the frame the viewer traces
//! each frame, where paths end, which lights and surfaces the tracer sees, and how it sees the sky.

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

// ANCHOR: sky_mode
/// How the tracer sees the sky, where the physically based sky is in the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkyMode {
    /// The sky's precomputed radiance as the light around the traced media (fast; no aerial
    /// perspective between the scene's surfaces).
    Environment,
    /// The atmosphere traced as a medium (Rayleigh, Mie, ozone on the round planet) over the
    /// planet's ground: the sky and the aerial perspective themselves.
    Medium,
}

fogbook_core::choice_enum!(SkyMode {
    Environment = "environment",
    Medium = "medium",
});
// ANCHOR_END: sky_mode

// ANCHOR: params
fogbook_core::parameters! {
    pub struct GroundTruthParams {
        "Paths" {
            /// Paths per pixel each frame adds to the running mean.
            samples_per_frame: u32 = 1,
                int(1, 256).help("Paths per pixel added each frame (one dispatch each)"),
            /// The viewer's GPU time for the trace per frame (ms): a frame traces 1/k of the
            /// screen's tiles, k chosen from the measured time of the trace (`budget`). 0 traces
            /// whole frames. Headless frames (figures, tests, `render`) are always whole.
            frame_budget_ms: f32 = 12.0,
                log_float(0.0, 1000.0).unit("ms").help("Viewer: GPU time of the trace per frame (0: whole frames)"),
            /// k fixed instead of chosen from the budget: the viewer traces 1/k of the tiles a
            /// frame. 0 leaves k to the budget.
            interleave: u32 = 0,
                int(0, 1024).help("Viewer: trace 1/k of the tiles a frame (0: k from the budget)"),
            /// Tentative collisions a path may take a frame (one dispatch) before it waits, at a
            /// null collision, for the next: a long path then spreads over frames and no
            /// dispatch waits for one path. 0: in the viewer's frames under a budget, as many as
            /// the budget allows (`budget::StepBudget`); in headless frames, whole paths.
            path_steps: u32 = 0,
                int(0, 1_000_000).help("Collisions a path may take a frame before it goes on in the next (0: from the budget; headless whole)"),
            /// Scattering or surface vertices a path may have; 0 leaves the end to Russian
            /// roulette (unbiased). 1 is single scattering.
            max_bounces: u32 = 0,
                int(0, 1024).help("Vertices per path (0: no cap, Russian roulette ends paths)"),
            /// Tentative collisions after which a path is cut; cut paths are counted and shown
            /// in the `cut` view, since they bias the pixel.
            max_collisions: u32 = 4096,
                int(16, 1_000_000).help("Tentative collisions before a path is cut (biased)"),
            /// Seed of the pixels' random streams: the same seed gives the same image on one adapter.
            seed: u32 = 1,
                int(0, 1_000_000).help("Random seed"),
        }
        "Scene" {
            /// The ground and the boxes as diffuse surfaces; off for media alone.
            surfaces: bool = true,
                boolean().help("Trace the test scene's surfaces"),
            sun: bool = true,
                boolean().help("Light by the sun (next-event estimation)"),
            local_lights: bool = true,
                boolean().help("Light by the scene's point and spot lights"),
            /// A constant environment of this radiance instead of the scene's sky gradient
            /// (the furnace tests).
            constant_environment: bool = false,
                boolean().help("A uniform environment instead of the scene's sky"),
            environment: [f32; 4] = [1.0, 1.0, 1.0, 1.0],
                color(false, 16.0).help("Radiance of the uniform environment"),
            /// Where the sky is in the stack: its tables as the environment, or its atmosphere
            /// traced as a medium.
            sky: SkyMode = SkyMode::Environment,
                choice(SkyMode::OPTIONS).help("The sky as the environment, or its atmosphere traced as a medium"),
            /// Top of the box the media are traced in (m): the global medium's height layers
            /// reach every height, so a path leaves them here.
            medium_top_m: f32 = 1000.0,
                log_float(1.0, 100_000.0).unit("m").help("Height where the media's box ends"),
        }
    }
}
// ANCHOR_END: params
