//! Ground-truth parameters: how many paths a frame adds, where paths end, and which lights and
//! surfaces the tracer sees.

// ANCHOR: params
fogbook_core::parameters! {
    pub struct GroundTruthParams {
        "Paths" {
            /// Paths per pixel each frame adds to the running mean.
            samples_per_frame: u32 = 1,
                int(1, 256).help("Paths per pixel added each frame (one dispatch each)"),
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
            /// Top of the box the media are traced in (m): the global medium's height layers
            /// reach every height, so a path leaves them here.
            medium_top_m: f32 = 1000.0,
                log_float(1.0, 100_000.0).unit("m").help("Height where the media's box ends"),
        }
    }
}
// ANCHOR_END: params
