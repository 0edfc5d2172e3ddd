//! What a stack of chapters 4 and 5 shares: density textures and shadow casters, made once.

use crate::common::*;
use crate::{CAMERA, TEXTURE_SIZE, smoke_file};

// ANCHOR: shared_density_test
/// The density grids and the baked noise are the stack's, one set the core owns
/// (`Renderer::fog_density`) and both chapters bind: in a stack of chapters 4 and 5 with a noise
/// volume and a volume read from a file, three frames bake the noise once and upload the grid
/// once (when each chapter owned a set, both happened twice), and the frames that follow do
/// neither. The counters are this thread's, so tests running beside it do not disturb them.
#[test]
fn a_stack_bakes_the_noise_and_uploads_a_grid_once() {
    use fogbook_core::media::textures::{DensityWork, work_on_this_thread};
    use fogbook_core::time::TimeControl;
    let file = smoke_file("shared-density.fbvol", 8);
    let preset = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-density.ron");
    let text = format!(
        "(chapter: \"froxel-fog,local-fog\", params: {{\"local-fog\": (volumes: [(density_source: noise), \
         (x_m: 3.0, z_m: -24.0, density_source: file, density_file: {:?})])}})",
        file.display().to_string()
    );
    std::fs::write(&preset, text).unwrap();
    let mut h = headless(TEXTURE_SIZE);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    let sets: Vec<String> =
        fogbook_froxel_fog::FroxelFog::test_settings().iter().map(|s| format!("froxel-fog.{s}")).collect();
    setup.apply(Some(&preset), &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("final").unwrap();
    let mut time = TimeControl::fixed(0.0);
    let before = work_on_this_thread();
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 3);
    let after = work_on_this_thread();
    let work = DensityWork {
        noise_bakes: after.noise_bakes - before.noise_bakes,
        grid_uploads: after.grid_uploads - before.grid_uploads,
    };
    eprintln!("three frames of the stack: {work:?}");
    assert_eq!(work, DensityWork { noise_bakes: 1, grid_uploads: 1 });
    let img = h.capture().unwrap().raw;
    assert!(img.rgba.iter().all(|c| c.is_finite()), "a non-finite pixel");
}
// ANCHOR_END: shared_density_test

/// The shadow casters' masks are the stack's too, binned once a frame by the core
/// (`Renderer::fog_casters`) and bound by both chapters: in a stack of chapters 4 and 5 the first
/// frame bins once, frames that change nothing bin no more, and each change of a volume, the
/// sun's direction or the switch bins once (when each chapter binned its own list, twice).
#[test]
fn a_stack_bins_the_shadow_casters_once_per_change() {
    use fogbook_core::media::casters::binnings_on_this_thread;
    use fogbook_core::time::TimeControl;
    let mut h = headless(TEXTURE_SIZE);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    let mut sets: Vec<String> =
        fogbook_froxel_fog::FroxelFog::test_settings().iter().map(|s| format!("froxel-fog.{s}")).collect();
    sets.extend(
        ["local-fog.volume_count=2", "local-fog.volumes[1].y_m=9", "local-fog.volume_shadows=true"].map(String::from),
    );
    setup.apply(None, &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("final").unwrap();
    let mut time = TimeControl::fixed(0.0);
    let mut binnings = |setup: &mut fogbook::state::Setup, change: Option<&str>, frames: u32| {
        if let Some(c) = change {
            setup.set(c).unwrap();
        }
        let before = binnings_on_this_thread();
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
        binnings_on_this_thread() - before
    };
    assert_eq!(binnings(&mut setup, None, 2), 1, "the first frames bin once");
    assert_eq!(binnings(&mut setup, None, 2), 0, "nothing changed");
    assert_eq!(binnings(&mut setup, Some("local-fog.volumes[0].x_m=1"), 2), 1, "a volume moved");
    assert_eq!(binnings(&mut setup, Some("scene.sun_elevation_deg=40"), 2), 1, "the sun moved");
    assert_eq!(binnings(&mut setup, Some("local-fog.volume_shadows=false"), 2), 1, "the switch changed");
}
