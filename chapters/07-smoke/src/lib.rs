//! Chapter 7 — 3D smoke: an Eulerian smoke solver on 3D textures (Stam 1999; Fedkiw, Stam and
//! Jensen 2001), stepped with the core's time control, every field inspectable as a slice or a
//! maximum-intensity projection, and the smoke itself ray-marched into the scene.

mod book;
mod chapter;
pub mod fields;
pub mod medium;
pub mod multigrid;
pub mod obstacles;
pub mod params;
pub mod passes;
#[cfg(feature = "book")]
pub mod plots;
pub mod reference;
pub mod save;
mod solver;
mod uniform;
/// The smoke volume file's format and loader live in the core, where chapter 5 reads them too.
pub use fogbook_core::volume_file;

pub use book::{CLOSE_CAMERA, FIRE, FIRE_CAMERA, OBSTACLE, SHADOW_CAMERA, SHADOW_SUN, TEXTBOOK};
use fogbook_core::ViewInfo;
pub use params::SmokeParams;
pub use solver::{STEP_BATCH, Smoke, SmokeGpu};
pub use uniform::{
    BOX_DISTANCE_M, SmokeCuboid, SmokeDisplay, SmokeEmitter, SmokeForces, SmokeGrid, SmokeLight, SmokeOptics,
    SmokeSolver, SmokeSphere, SmokeUniform, emitter_excess_k, extinction_tint, temperature_keep,
};

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color(
        "fluid",
        "The smoke, ray-marched through the density, lit by the sun with self-shadowing; hot smoke glows",
    ),
    ViewInfo::scalar("velocity", "Speed |u − grad q| after projection", 0.0, 1.0, "m/s").auto_range(),
    ViewInfo::scalar("pressure", "Pressure q of the projection (laplacian q = div u)", 0.0, 1.0, "m²/s").auto_range(),
    ViewInfo::scalar("divergence", "Divergence div u before the pressure solve", 0.0, 1.0, "1/s").auto_range(),
    ViewInfo::scalar("residual", "Divergence left after the sweeps: div u − laplacian q", 0.0, 1.0, "1/s").auto_range(),
    ViewInfo::scalar("pressure-gradient", "|grad q|, the velocity the projection removes", 0.0, 1.0, "m/s")
        .auto_range(),
    ViewInfo::scalar("vorticity", "Vorticity magnitude |curl u|", 0.0, 1.0, "1/s").auto_range(),
    ViewInfo::scalar("density", "Smoke density", 0.0, 1.0, "").auto_range(),
    ViewInfo::scalar("temperature", "Temperature T: ambient plus the advected excess", 0.0, 1.0, "K").auto_range(),
    ViewInfo::scalar(
        "sun-transmittance",
        "The light volume: transmittance to the sun through the smoke, exp(−τ)",
        0.0,
        1.0,
        "",
    ),
    ViewInfo::scalar(
        "sky-transmittance",
        "The light volume: mean transmittance to the sky above, E₂(τ up)",
        0.0,
        1.0,
        "",
    ),
    ViewInfo::scalar("obstacles", "Solid mask: 0 fluid, 1 the sphere, 2 the box", 0.0, 2.0, ""),
];
// ANCHOR_END: views
