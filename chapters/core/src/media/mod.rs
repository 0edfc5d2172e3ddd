//! The media layer: bounded and global participating media that chapters publish for each other
//! and the core carries between them, so that a chapter drawing fog reads the same media another
//! one defined, without either naming the other. A publisher hands its list of fog volumes to
//! `Chapter::publish`; the core gathers the stack's lists once a frame, bins their shadow casters
//! and uploads their density grids once for every chapter, and hands all of it to each stage
//! through `StackMedia`.
//!
//! - [`volumes`]: the fog-volume list: a volume's shape, placement and density at a point
//!   (`FogVolume`), and the tile bins readers sort them into.
//! - [`density`]: what multiplies a volume's density inside it (noise or a density grid), in f64.
//! - [`textures`]: the GPU copies of the frame's density grids and the baked noise.
//! - [`casters`]: which volumes shadow which from the sun, binned once a frame.
//! - [`point`]: what a pass that samples media at points binds (a path tracer), and where.

pub mod casters;
pub mod density;
pub mod point;
pub mod textures;
pub mod volumes;
