//! Chapter 8: six-way lit smoke cards. The *baker*: from a sequence of density volumes
//! (chapter 7's smoke, one per flipbook frame) it computes, for every frame, the smoke seen
//! orthographically along one axis and lit in turn from each of the six axis directions, then
//! crops the frames to the smoke's bounds and packs them into two RGBA atlases. The *runtime*:
//! fog cards and particles drawn with those atlases, blended by the sun's direction.
//!
//! The crate does no file access (the app's `fogbook bake` command writes the files), so it
//! builds for the browser too.
//!
//! Baker:
//!
//! - `card`: the card frame of each view axis, and the volume reordered into it.
//! - `gpu`: the same bake of one frame on the GPU, from the smoke's texture (what `fogbook bake` runs).
//! - `light`: the production bake of one frame in f32 (prefix sums of optical depth, one march
//!   per column).
//! - `reference`: the same bake in f64, and an independent brute-force ray march.
//! - `crop`: the smoke's bounds over all frames, and the crop rectangle.
//! - `atlas`: frame addressing, resampling the cropped frames and packing the two atlases.
//! - `swizzle`: which map goes in which channel (TLR/BBF, RTB/LBF, or any other).
//! - `blend`: the runtime's six-way blend as an f64 CPU reference.
//! - `settings` and `metadata`: what a bake is asked for, and what it writes beside the atlases.
//! - `from_smoke`: runs chapter 7's smoke and bakes its frames (what `fogbook bake` and the
//!   runtime call).
//!
//! Runtime:
//! - `runtime`: the chapter (`SixWayCards`): its passes, views and parameters (`params`).
//! - `baked`: the flipbook it draws, baked at start and cached by its settings.
//! - `instances`: the fog cards' places, billboards and the back-to-front order.
//! - `emitter`: the particle emitter near the camera (CPU, deterministic).
//! - `prepare`: the pass that computes what is constant over each card, once per card.
//! - `tiles` and `splat`: the compute renderer — the cards binned into screen tiles on the CPU,
//!   and the pass that composites each tile's cards front to back.
//!
//! Ground truth:
//! - `source`: the smoke frames a flipbook was baked from, kept beside its atlases.
//! - `medium` and `bvh`: each card's source volume placed where the card stands, and the tree
//!   over their boxes, lent to a path tracer (`shaders/08-six-way-cards/medium.wgsl`).
//!
//! Validation: `validation` relights baked cards and compares them with an independent f64 ray
//! march for any light direction (PSNR, and the book's plot of it against the light's angle).

pub mod atlas;
pub mod baked;
pub mod blend;
pub mod bvh;
pub mod card;
pub mod crop;
pub mod emitter;
pub mod flipbook;
pub mod from_smoke;
pub mod gpu;
pub mod instances;
pub mod light;
pub mod medium;
pub mod metadata;
pub mod params;
pub mod prepare;
pub mod reference;
pub mod runtime;
pub mod settings;
pub mod source;
pub mod splat;
pub mod swizzle;
pub mod tiles;
pub mod validation;

pub use card::{Dir, ViewAxis};
pub use light::{FrameMaps, bake_frame};
pub use runtime::SixWayCards;
pub use settings::BakeSettings;
pub use swizzle::Swizzle;
