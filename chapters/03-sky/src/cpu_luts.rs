//! CPU reference, in f64, of the GPU precomputation and rendering of this chapter (the compute
//! shaders in shaders/03-sky/ and `luts::record_precompute`): the same passes in the same order
//! with the same sample counts, the same texture layouts and parameterisations, and lookups that
//! emulate the GPU's linear sampler with clamp-to-edge addressing. Only the precision differs,
//! so comparing the GPU's images with these tables' checks the shaders numerically — Bruneton's
//! own tests (2017) compare his GPU model with a CPU port of it the same way.
//!
//! Tables hold `[f64; 3]` texels. The 4D scattering function (r, μ, μ_s, ν) lives in a 3D table
//! of (ν·μ_s) × μ × r texels, as on the GPU. Lengths in metres.
//!
//! - `tables`: the f64 tables, their GPU-like linear sampler, and `Luts`, the set the renderer reads.
//! - `layout`: the textures' parameterisations (common/atmosphere_tables.wgsl,
//!   03-sky/atmosphere.wgsl).
//! - `context`: what every pass reads (atmosphere, layout, transmittance table).
//! - `passes`: the precomputation, one function per shader, in the GPU's order.
//! - `render`: radiance and irradiance from the tables (sky.wgsl).
//! - `math`: WGSL's built-ins on `Rgb` and `f64`.

mod context;
mod layout;
mod math;
mod passes;
pub(crate) use passes::{DENSITY_SAMPLES, IRRADIANCE_SAMPLES, RAY_SAMPLES, TRANSMITTANCE_SAMPLES};
mod render;
mod tables;
#[cfg(test)]
mod testing;

pub use layout::{ScatteringCoord, scattering_coord, scattering_coord_of_texel, scattering_uvwz};
pub use passes::{precompute, precompute_each_order};
pub use render::{Irradiance, Orders, Radiance, horizon_half_width};
pub use tables::{Luts, Table2, Table3};

/// One texel or one radiance: three wavelengths (680, 550, 440 nm).
pub type Rgb = [f64; 3];

/// Sun angular radius as the GPU sees it (the f32 constant).
fn sun_angular_radius() -> f64 {
    crate::SUN_ANGULAR_RADIUS as f64
}
