//! Chapter 8: six-way lit smoke cards. This crate holds the *baker*: from a sequence of density
//! volumes (chapter 7's smoke, one per flipbook frame) it computes, for every frame, the smoke
//! seen orthographically along one axis and lit in turn from each of the six axis directions, then
//! crops the frames to the smoke's bounds and packs them into two RGBA atlases.
//!
//! Apart from `gpu` (the bake's compute passes, through wgpu), everything here is computation on
//! slices, with no file access (the app's `fogbook bake` command runs the smoke and writes the
//! files), so the crate builds for the browser too.
//!
//! - `card`: the card frame of each view axis, and the volume reordered into it.
//! - `gpu`: the same bake of one frame on the GPU, from the smoke's texture (what `fogbook bake` runs).
//! - `light`: the production bake of one frame in f32 (prefix sums of optical depth, one march
//!   per column).
//! - `reference`: the same bake in f64, and an independent brute-force ray march.
//! - `crop`: the smoke's bounds over all frames, and the crop rectangle.
//! - `atlas`: frame addressing, resampling the cropped frames and packing the two atlases.
//! - `swizzle`: which map goes in which channel (TLR/BBF, RTB/LBF, or any other).
//! - `blend`: the runtime's six-way blend as an f64 CPU reference (the GPU runtime is to come).
//! - `settings` and `metadata`: what a bake is asked for, and what it writes beside the atlases.

pub mod atlas;
pub mod blend;
pub mod card;
pub mod crop;
pub mod flipbook;
pub mod gpu;
pub mod light;
pub mod metadata;
pub mod reference;
pub mod settings;
pub mod swizzle;
pub mod validation;

pub use card::{Dir, ViewAxis};
pub use light::{FrameMaps, bake_frame};
pub use settings::BakeSettings;
pub use swizzle::Swizzle;
