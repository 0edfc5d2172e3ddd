//! Stacks: several chapters in one frame. The stage order never depends on what is enabled; a
//! stack's image is the composition of its chapters' own outputs (checked against the
//! chapters rendered alone, not against a stored image); the sky's light reaches later stages;
//! history and jitter reach the GPU and are invalidated when they must be.

mod common;

use common::*;
use fogbook::registry;
use fogbook::state::Setup;
use fogbook_core::capture::FloatImage;
use fogbook_core::history::{JITTER_PERIOD, jitter};
use fogbook_core::stage::{Stage, frame_plan};
use fogbook_core::time::TimeControl;

const SIZE: [u32; 2] = [64, 36];

/// Every subset of the chapters, in every order given: the colour stages run in the order the
/// full stack runs them, prepare first, the scene before any colour stage, display last.
#[test]
fn stage_order_is_the_same_whatever_is_enabled() {
    let all = registry::stack("all").unwrap();
    let full: Vec<&str> = all.plan().iter().filter(|p| p.stage.is_colour_stage()).map(|p| p.by).collect();
    assert_eq!(full, ["sky", "distance-fog", "height-fog", "smoke"]);
    let ids: Vec<&str> = registry::chapters().iter().map(|c| c.info().id).collect();
    assert_eq!(all.ids().len(), ids.len(), "the `all` stack names every chapter");
    for mask in 1u32..(1 << ids.len()) {
        let subset: Vec<&str> =
            ids.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, id)| *id).collect();
        let forwards = registry::stack(&subset.join(",")).unwrap();
        let mut reversed_ids = subset.clone();
        reversed_ids.reverse();
        let backwards = registry::stack(&reversed_ids.join(",")).unwrap();
        assert_eq!(forwards.plan(), backwards.plan(), "{subset:?}");
        let plan = forwards.plan();
        let colour: Vec<&str> = plan.iter().filter(|p| p.stage.is_colour_stage()).map(|p| p.by).collect();
        let expected: Vec<&str> = full.iter().copied().filter(|id| subset.contains(id)).collect();
        assert_eq!(colour, expected, "{subset:?}");
        let stages: Vec<Stage> = plan.iter().map(|p| p.stage).collect();
        assert!(stages.windows(2).all(|w| w[0] <= w[1]), "{subset:?}: {stages:?}");
        assert_eq!(stages.first(), Some(&Stage::Prepare));
        assert_eq!(stages.last(), Some(&Stage::Display));
        assert_eq!(plan.len(), 2 * subset.len() + 2, "each chapter prepares and has one colour stage");
    }
    // The core's own plan function agrees with the stack's.
    assert_eq!(frame_plan(&all.registrations()), all.plan());
}

fn rgb(image: &FloatImage, i: usize) -> [f32; 3] {
    [image.rgba[4 * i], image.rgba[4 * i + 1], image.rgba[4 * i + 2]]
}

/// Height fog is linear in the colour it receives: out = c·(1 − f) + fog·f + directional. Over
/// distance fog, c is chapter 1's final image: the stack must equal chapter 1 rendered alone
/// composed with chapter 2's fog amount and sun term rendered alone.
#[test]
fn height_fog_over_distance_fog_is_the_composition_of_the_two() {
    let mut h = headless(SIZE);
    let sets = ["falloff=exponential", "density=0.01", "fog_density=0.05", "height_falloff=0.3"];
    let below = render_with(&mut h, "distance-fog", "final", &sets[..2], None, 1).raw;
    let amount = render_with(&mut h, "height-fog", "fog-amount", &sets[2..], None, 1).raw;
    let sun = render_with(&mut h, "height-fog", "directional", &sets[2..], None, 1).raw;
    let stack = render_with(&mut h, "distance-fog,height-fog", "final", &sets, None, 1).raw;
    let reversed = render_with(&mut h, "height-fog,distance-fog", "final", &sets, None, 1).raw;
    assert_eq!(stack.rgba, reversed.rgba, "the order the chapters are named in changes nothing");
    let fog = fogbook_height_fog::HeightFogParams::default().inscattering_color;
    let mut worst = 0.0f32;
    for i in 0..(SIZE[0] * SIZE[1]) as usize {
        let (c, f, d, got) = (rgb(&below, i), amount.rgba[4 * i], rgb(&sun, i), rgb(&stack, i));
        for k in 0..3 {
            let want = c[k] * (1.0 - f) + fog[k] * f + d[k];
            worst = worst.max((got[k] - want).abs() / (1.0 + want.abs()));
        }
    }
    eprintln!("stack vs composed chapters: worst relative difference {worst:.2e}");
    assert!(worst <= 1e-5, "height fog over distance fog differs from the composition by {worst}");
    // A debug view of a chapter in a stack is that chapter's view.
    let alone = render_with(&mut h, "height-fog", "optical-depth", &sets[2..], None, 1).raw;
    let in_stack = render_with(&mut h, "distance-fog,height-fog", "height-fog/optical-depth", &sets, None, 1).raw;
    assert_eq!(alone.rgba, in_stack.rgba);
    // And `chapter/final` of an earlier chapter is the frame as its stage leaves it.
    let stage = render_with(&mut h, "distance-fog,height-fog", "distance-fog/final", &sets, None, 1).raw;
    assert_eq!(stage.rgba, below.rgba);
}

/// The sky lights the stages after it: with `use_sky_color` the height fog's colour is the
/// ambient light the sky wrote into the frame uniform (not the scene settings' constant).
#[test]
fn the_sky_lights_the_height_fog_after_it() {
    let mut h = headless(SIZE);
    let sets = ["lut_resolution=quarter", "use_sky_color=true", "fog_density=0.05", "height_falloff=0.3"];
    let sky = render_with(&mut h, "sky", "final", &sets[..1], None, 1).raw;
    let amount = render_with(&mut h, "sky,height-fog", "height-fog/fog-amount", &sets, None, 1).raw;
    let sun = render_with(&mut h, "sky,height-fog", "height-fog/directional", &sets, None, 1).raw;
    let stack = render_with(&mut h, "sky,height-fog", "final", &sets, None, 1).raw;
    let ambient = h.renderer.frame.read_uniform(&h.gpu).unwrap().ambient;
    let constant = fogbook_core::scene_settings::SceneSettings::default().ambient;
    assert!((ambient[0] - constant[0]).abs() > 0.1 * constant[0], "the sky replaced the ambient: {ambient:?}");
    let factor = fogbook_height_fog::HeightFogParams::default().inscattering_color;
    let mut worst = 0.0f32;
    for i in 0..(SIZE[0] * SIZE[1]) as usize {
        let (c, f, d, got) = (rgb(&sky, i), amount.rgba[4 * i], rgb(&sun, i), rgb(&stack, i));
        for k in 0..3 {
            let want = c[k] * (1.0 - f) + ambient[k] * factor[k] * f + d[k];
            worst = worst.max((got[k] - want).abs() / (1.0 + want.abs()));
        }
    }
    eprintln!("sky + height fog vs composed: worst relative difference {worst:.2e}");
    assert!(worst <= 1e-4, "{worst}");
}

/// The frame uniform carries last frame's view-projection, the Halton jitter and whether
/// history is valid; resize, shader reload, a parameter change and a camera jump invalidate it.
#[test]
fn history_and_jitter_reach_the_gpu() {
    let mut h = headless(SIZE);
    let mut setup = Setup::new("distance-fog,height-fog").unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    let view = setup.stack.views()[0].at;
    let mut frame = |h: &mut fogbook_core::headless::Headless, setup: &mut Setup| {
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        h.renderer.frame.read_uniform(&h.gpu).unwrap()
    };
    let first = frame(&mut h, &mut setup);
    assert_eq!(first.history_valid, 0, "no history on the first frame");
    assert_eq!(first.prev_view_proj, first.view_proj);
    let mut last = first;
    for _ in 0..(JITTER_PERIOD + 2) {
        setup.camera.yaw_deg += 1.0;
        let u = frame(&mut h, &mut setup);
        assert_eq!(u.history_valid, 1);
        assert_eq!(u.prev_view_proj, last.view_proj, "last frame's matrix");
        assert_ne!(u.view_proj, last.view_proj);
        assert_eq!(u.jitter_px, jitter(u.frame_index as u64));
        assert_eq!(u.frame_index, last.frame_index + 1);
        assert_eq!(u.history_epoch, first.history_epoch);
        last = u;
    }
    let mut epoch = last.history_epoch;
    let mut expect_cut = |h: &mut fogbook_core::headless::Headless, setup: &mut Setup, what: &str| {
        let u = frame(h, setup);
        assert_eq!(u.history_valid, 0, "{what}");
        assert_eq!(u.prev_view_proj, u.view_proj, "{what}");
        epoch += 1;
        assert_eq!(u.history_epoch, epoch, "{what}");
        assert_eq!(frame(h, setup).history_valid, 1, "the frame after {what}");
    };
    h.resize([48, 36]).unwrap();
    expect_cut(&mut h, &mut setup, "resize");
    let shaders = fogbook_core::shaders::ShaderStore::discover();
    h.renderer.reload_shaders(&h.gpu, &shaders, &mut setup.stack).unwrap();
    expect_cut(&mut h, &mut setup, "shader reload");
    setup.set("fog_density=0.03").unwrap();
    expect_cut(&mut h, &mut setup, "parameter change");
    setup.set("scene.sun_elevation_deg=30").unwrap();
    expect_cut(&mut h, &mut setup, "scene change");
    setup.camera.position[2] -= 25.0;
    expect_cut(&mut h, &mut setup, "camera jump");
}

/// Bare view names stay valid for one chapter; in a stack they must name the chapter.
#[test]
fn view_names() {
    let single = registry::stack("height-fog").unwrap();
    assert_eq!(single.views()[0].name, "final");
    assert!(single.find_view("optical-depth").is_ok());
    assert!(single.find_view("height-fog/optical-depth").is_ok());
    let stack = registry::stack("atmosphere").unwrap();
    let names: Vec<String> = stack.views().into_iter().map(|v| v.name).collect();
    assert_eq!(names[0], "final");
    assert!(names.contains(&"sky/transmittance-lut".to_string()));
    assert!(names.contains(&"height-fog/optical-depth".to_string()));
    assert!(!names.contains(&"height-fog/final".to_string()), "the last chapter's final is the stack's");
    let err = stack.find_view("optical-depth").unwrap_err();
    assert!(err.contains("height-fog/optical-depth"), "{err}");
    // Every listed name finds itself.
    for v in stack.views() {
        assert_eq!(stack.find_view(&v.name), Ok(v.at));
    }
}
