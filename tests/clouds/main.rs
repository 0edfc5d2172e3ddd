//! Chapter 6 on the GPU against its f64 references: the noise textures texel by texel (and their
//! tiling), the homogeneous slab's single scattering per pixel and its shadow map (and that shadow
//! on the scene and in the froxel fog), and nothing non-finite in any view from the ground to
//! 100 km, with the sun below the horizon, at coverage 0 and 1.

mod bad_input;
#[path = "../common/mod.rs"]
mod common;
mod realtime;
mod shadows;
mod sky_stack;
mod slab;
mod textures;

use fogbook::state::Setup;
use fogbook_core::capture::FloatImage;
use fogbook_core::headless::Headless;
use fogbook_core::time::TimeControl;

pub(crate) const SIZE: [u32; 2] = [64, 36];

/// A stack made once and reused for several settings and cameras (pipelines, noise and the
/// sky's tables are made once).
pub(crate) fn stack(h: &Headless, spec: &str) -> Setup {
    let mut setup = Setup::new(spec).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    setup
}

/// `views` of `setup` after one step with its parameters and scene reset, then `sets` and
/// `camera` applied: the raw values.
pub(crate) fn draw(
    h: &mut Headless,
    setup: &mut Setup,
    sets: &[&str],
    camera: &str,
    views: &[&str],
) -> Vec<FloatImage> {
    for chapter in setup.stack.chapters_mut() {
        chapter.params().reset();
    }
    setup.scene = Default::default();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    setup.apply(None, &sets, Some(camera)).unwrap();
    let mut out = Vec::new();
    for (i, name) in views.iter().enumerate() {
        let view = setup.stack.find_view(name).unwrap();
        if i == 0 {
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
        } else {
            h.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
        }
        out.push(h.capture().unwrap().raw);
    }
    out
}
