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
use fogbook_core::stack::Stack;
use fogbook_core::stage::{Resource, Stage};
use fogbook_core::time::TimeControl;

const SIZE: [u32; 2] = [64, 36];

/// Every subset of the chapters that draw into the scene, in every order given: the colour
/// stages run in the order the full stack runs them, prepare first, the scene before any colour
/// stage, display last. (Standalone chapters, which draw a picture of their own, are checked by
/// `chapters_that_share_a_number_and_stage_order_by_id`.)
#[test]
fn stage_order_is_the_same_whatever_is_enabled() {
    let all = registry::stack("everything").unwrap();
    let full: Vec<&str> = all.plan().iter().filter(|p| p.stage.is_colour_stage()).map(|p| p.by).collect();
    let ids: Vec<&str> =
        registry::chapters().iter().map(|c| c.info().id).filter(|id| registry::in_everything(id)).collect();
    // The colour order, from each chapter's declared stage walked in `Stage::ALL`'s order (not
    // through `frame_plan`), so a new chapter needs no line here.
    let declared: Vec<&str> =
        expected_plan(&ids).into_iter().filter(|(stage, _)| stage.is_colour_stage()).map(|(_, id)| id).collect();
    assert_eq!(full, declared);
    assert_eq!(all.ids().len(), ids.len(), "the `everything` stack names every chapter that draws into the scene");
    assert!(ids.iter().all(|id| all.ids().contains(id)));
    assert!(!registry::STANDALONE.is_empty() && registry::STANDALONE.iter().all(|id| registry::find(id).is_ok()));
    assert!(registry::REFERENCES.iter().all(|id| registry::find(id).is_ok() && !all.ids().contains(id)));
    for mask in 1u32..(1 << ids.len()) {
        let subset: Vec<&str> =
            ids.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, id)| *id).collect();
        let forwards = registry::stack(&subset.join(",")).unwrap();
        let mut reversed_ids = subset.clone();
        reversed_ids.reverse();
        let backwards = registry::stack(&reversed_ids.join(",")).unwrap();
        assert_eq!(forwards.plan(), backwards.plan(), "{subset:?}");
        // The order the renderer runs the chapters in: the stack's own, not a re-sorted copy.
        let expected: Vec<&str> = full.iter().copied().filter(|id| subset.contains(id)).collect();
        assert_eq!(forwards.ids(), expected, "{subset:?}");
        assert_eq!(backwards.ids(), expected, "{subset:?}");
        let plan = forwards.plan();
        assert_eq!(planned(&plan), expected_plan(&subset), "{subset:?}");
        let colour: Vec<&str> = plan.iter().filter(|p| p.stage.is_colour_stage()).map(|p| p.by).collect();
        assert_eq!(colour, expected, "{subset:?}");
        let stages: Vec<Stage> = plan.iter().map(|p| p.stage).collect();
        assert!(stages.windows(2).all(|w| w[0] <= w[1]), "{subset:?}: {stages:?}");
        let preparing = forwards.registrations().iter().filter(|(_, _, io)| !io.prepare.is_empty()).count();
        let first = if preparing > 0 { Stage::Prepare } else { Stage::Scene };
        assert_eq!(stages.first(), Some(&first), "{subset:?}");
        assert_eq!(stages.last(), Some(&Stage::Display));
        assert_eq!(
            plan.len(),
            preparing + subset.len() + 2,
            "prepare work, one colour stage per chapter, scene, display"
        );
    }
    // The whole plan of every registered chapter at once, prepare order included, against one
    // built here from each chapter's declared stage (not through `frame_plan`).
    let every: Vec<&str> = registry::chapters().iter().map(|c| c.info().id).collect();
    let stack = registry::stack(&every.join(",")).unwrap();
    assert_eq!(planned(&stack.plan()), expected_plan(&every));
    assert_eq!(planned(&all.plan()), expected_plan(&ids));
    // Each chapter's colour pass appears once, in the stage it declares.
    for c in registry::chapters() {
        let passes: Vec<_> = stack.plan().into_iter().filter(|p| p.by == c.info().id).collect();
        let colour: Vec<_> = passes.iter().filter(|p| p.stage.is_colour_stage()).collect();
        assert_eq!(colour.len(), 1, "{}: {passes:?}", c.info().id);
        assert_eq!(colour[0].stage, c.stage_io().stage, "{}", c.info().id);
        let prepares = passes.iter().filter(|p| p.stage == Stage::Prepare).count();
        assert_eq!(prepares, usize::from(!c.stage_io().prepare.is_empty()), "{}", c.info().id);
    }
}

/// A plan as (stage, by) pairs.
fn planned(plan: &[fogbook_core::stage::PlannedPass]) -> Vec<(Stage, &'static str)> {
    plan.iter().map(|p| (p.stage, p.by)).collect()
}

/// The plan the stage model promises for chapters `ids`, built from each chapter's declared
/// stage and prepare work without `frame_plan`: walk `Stage::ALL` in its order and, in each
/// colour stage, take the chapters that declare it by book number, then id; the prepare passes
/// are the chapters with prepare work, in that same order; the core's scene before the colour
/// stages, display after.
fn expected_plan(ids: &[&str]) -> Vec<(Stage, &'static str)> {
    let chapters: Vec<_> = registry::chapters().into_iter().filter(|c| ids.contains(&c.info().id)).collect();
    assert_eq!(chapters.len(), ids.len(), "every id names a registered chapter: {ids:?}");
    let mut colour = Vec::new();
    for stage in Stage::ALL.into_iter().filter(|s| s.is_colour_stage()) {
        let mut here: Vec<(u32, &'static str, bool)> = chapters
            .iter()
            .filter(|c| c.stage_io().stage == stage)
            .map(|c| (c.info().number, c.info().id, !c.stage_io().prepare.is_empty()))
            .collect();
        here.sort();
        colour.extend(here.into_iter().map(|(_, id, prepares)| (stage, id, prepares)));
    }
    let mut plan: Vec<(Stage, &'static str)> =
        colour.iter().filter(|c| c.2).map(|&(_, id, _)| (Stage::Prepare, id)).collect();
    plan.push((Stage::Scene, "core"));
    plan.extend(colour.iter().map(|&(stage, id, _)| (stage, id)));
    plan.push((Stage::Display, "core"));
    plan
}

/// Chapter 7's two sections share the number 7 and the transparent stage: the id breaks the tie,
/// so a stack of both runs in one order whichever is named first.
#[test]
fn chapters_that_share_a_number_and_stage_order_by_id() {
    let a = registry::stack("smoke,smoke-2d").unwrap();
    let b = registry::stack("smoke-2d,smoke").unwrap();
    assert_eq!(a.ids(), ["smoke", "smoke-2d"]);
    assert_eq!(b.ids(), a.ids());
    assert_eq!(a.plan(), b.plan());
    assert_eq!(planned(&b.plan()), expected_plan(&["smoke-2d", "smoke"]));
    let colour: Vec<_> = a.plan().into_iter().filter(|p| p.stage.is_colour_stage()).map(|p| (p.stage, p.by)).collect();
    assert_eq!(colour, [(Stage::Transparent, "smoke"), (Stage::Transparent, "smoke-2d")]);
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

/// Sun and sky light at 0, 100, 2000 and 8000 m, as a later stage gets them through
/// `common/sky_light.wgsl`: written by a probe shader into the view target's first two rows.
fn probe_sky_light(h: &mut fogbook_core::headless::Headless, setup: &mut Setup) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let view = setup.stack.views()[0].at;
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
    let store = fogbook_core::shaders::ShaderStore::discover();
    let mut source = store.compose("common/sky_light.wgsl").unwrap().source;
    source.push_str(
        "@compute @workgroup_size(1)
fn probe(@builtin(global_invocation_id) id: vec3<u32>) {
    var heights = array<f32, 4>(0.0, 100.0, 2000.0, 8000.0);
    let p = vec3(10.0, heights[id.x], -50.0);
    textureStore(view_out, vec2(id.x, 0u), vec4(sun_light_at(p), 1.0));
    textureStore(view_out, vec2(id.x, 1u), vec4(sky_light_at(p), 1.0));
}
",
    );
    let device = &h.gpu.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("sky light probe"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let frame = &h.renderer.frame;
    let layouts =
        [Some(&frame.layouts.scene_inputs), Some(&frame.layouts.view_out), None, Some(&frame.layouts.shared_sky)];
    let pipeline = fogbook_core::shaders::compute_pipeline(device, &module, "probe", &layouts).unwrap();
    let sky = match setup.stack.chapters().iter().find_map(|c| c.lend(Resource::SkyTables)) {
        Some(fogbook_core::Loan::Group(group)) => group,
        _ => frame.stand_in(Resource::SkyTables).clone(),
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &frame.scene_inputs, &[]);
        pass.set_bind_group(1, &frame.view_out, &[]);
        pass.set_bind_group(3, &sky, &[]);
        pass.dispatch_workgroups(4, 1, 1);
    }
    h.gpu.submit([encoder.finish()]);
    let image = FloatImage::read(&h.gpu, &frame.view.texture).unwrap();
    let row = |y: usize| (0..4).map(|x| rgb(&image, y * image.width as usize + x)).collect();
    (row(0), row(1))
}

/// The sky's tables are a shared resource: a later stage gets the sun's light at any altitude
/// through them (against the f64 transmittance), and without the sky in the stack the same
/// functions return the frame's constant sun and ambient, through stand-in bindings.
#[test]
fn the_sky_tables_reach_later_stages_with_a_fallback_without_the_sky() {
    let mut h = headless(SIZE);
    let mut alone = Setup::new("height-fog").unwrap();
    h.prepare_stack(&mut alone.stack).unwrap();
    let (sun, sky) = probe_sky_light(&mut h, &mut alone);
    let scene = fogbook_core::scene_settings::SceneSettings::default();
    for (s, a) in sun.iter().zip(&sky) {
        assert_eq!(s[..], scene.sun_color[..3], "no sky: the scene's constant sun");
        assert_eq!(a[..], scene.ambient[..3], "no sky: the scene's constant ambient");
    }

    let mut stacked = Setup::new("sky,height-fog").unwrap();
    stacked.set("lut_resolution=quarter").unwrap();
    h.prepare_stack(&mut stacked.stack).unwrap();
    let (sun, sky) = probe_sky_light(&mut h, &mut stacked);
    let frame = h.renderer.frame.read_uniform(&h.gpu).unwrap();
    eprintln!("sun light at 0, 100, 2000, 8000 m: {sun:?}\nsky light: {sky:?}");
    // On the ground: what the sky gave the scene.
    for k in 0..3 {
        assert!((sun[0][k] - frame.sun_color[k]).abs() <= 1e-6 * frame.sun_color[k], "{sun:?} {frame:?}");
        assert!((sky[0][k] - frame.ambient[k]).abs() <= 1e-6 * frame.ambient[k]);
    }
    // Higher up: more of the sun, as the f64 transmittance says.
    let atm = fogbook_sky::reference::Atmosphere::default();
    let mu_s = (scene.sun_elevation_deg as f64).to_radians().sin();
    let scale = fogbook_sky::SkyParams::default().exposure as f64 / std::f64::consts::PI;
    for (i, height) in [0.0, 100.0, 2000.0, 8000.0].into_iter().enumerate() {
        let t = atm.transmittance_to_top(atm.bottom_radius + 1.0 + height, mu_s, 2000);
        for k in 0..3 {
            let want = atm.solar_irradiance[k] * t[k] * scale;
            let err = (sun[i][k] as f64 / want).ln().abs();
            assert!(err <= 1e-3 * -t[k].ln() + 1e-3, "{height} m, channel {k}: {} vs {want}", sun[i][k]);
        }
        if i > 0 {
            assert!(sun[i][2] > sun[i - 1][2], "less atmosphere above, more blue sunlight");
        }
    }
}

/// The history pair a temporal stage keeps: swapping exchanges the textures, following a new
/// frame size re-creates both at that size and only then.
#[test]
fn history_targets_swap_and_follow_the_frame_size() {
    use fogbook_core::history::HistoryTargets;
    let h = headless(SIZE);
    let device = &h.gpu.device;
    let mut pair = HistoryTargets::new(device, "history", wgpu::TextureFormat::Rgba16Float, [64, 36]);
    let (a, b) = (pair.current().texture.clone(), pair.previous().texture.clone());
    assert_ne!(a, b);
    pair.swap();
    assert_eq!((pair.current().texture.clone(), pair.previous().texture.clone()), (b.clone(), a.clone()));
    assert!(!pair.follow(device, [64, 36]), "same size: nothing re-created");
    assert_eq!(pair.current().texture, b);
    assert!(pair.follow(device, [32, 20]));
    assert_eq!(pair.size(), [32, 20]);
    for t in [pair.current(), pair.previous()] {
        assert_eq!((t.texture.width(), t.texture.height()), (32, 20));
        assert_ne!(t.texture, a);
        assert_ne!(t.texture, b);
    }
}

/// Switching chapters on and off, as the viewer's checkboxes do: the running chapters are kept
/// (the same GPU objects — the sky's shared tables are the very bind group it made before —
/// and the same parameters), new ones join in stage order with the GPU state their caller made,
/// and a set that would be empty or repeat a chapter changes nothing.
#[test]
fn restacking_keeps_running_chapters_and_refuses_bad_sets() {
    let h = headless(SIZE);
    let mut stack = registry::stack("sky").unwrap();
    stack.set("exposure", "12").unwrap();
    h.prepare_stack(&mut stack).unwrap();
    let lent_group = |c: &dyn fogbook_core::DynChapter| match c.lend(Resource::SkyTables) {
        Some(fogbook_core::Loan::Group(group)) => Some(group),
        _ => None,
    };
    let tables = lent_group(stack.chapters()[0].as_ref()).expect("the sky made its tables");
    let sky_tables = |stack: &Stack| lent_group(stack.chapters()[stack.position("sky").unwrap()].as_ref());
    let mut fog = registry::find("height-fog").unwrap();
    h.prepare(fog.as_mut()).unwrap();
    let fog_uniform = |c: &dyn fogbook_core::DynChapter| match c.lend(Resource::TransparentFog) {
        Some(fogbook_core::Loan::FogPart(fogbook_core::transparent_fog::FogPart::HeightLayers { uniform })) => {
            Some(uniform)
        }
        _ => None,
    };
    let uniform = fog_uniform(fog.as_ref()).expect("the height fog made its uniform");
    stack.restack(&["sky"], vec![fog]).unwrap();
    assert_eq!(stack.ids(), ["sky", "height-fog"]);
    assert_eq!(sky_tables(&stack).as_ref(), Some(&tables), "the sky kept its GPU objects");
    assert_eq!(
        fog_uniform(stack.chapters()[1].as_ref()),
        Some(uniform),
        "the height fog joined with its own GPU state"
    );
    assert!(stack.settings_key().contains("exposure: 12.0"), "the sky kept its parameters");
    let before = stack.settings_key();
    assert!(stack.restack(&[], Vec::new()).is_err());
    assert!(stack.restack(&["sky"], vec![registry::find("sky").unwrap()]).is_err());
    assert_eq!(stack.settings_key(), before, "a refused set changes nothing");
    assert_eq!(sky_tables(&stack).as_ref(), Some(&tables), "a refused set keeps the sky's GPU objects");
    stack.restack(&["sky"], Vec::new()).unwrap();
    assert_eq!(stack.ids(), ["sky"]);
    assert_eq!(sky_tables(&stack).as_ref(), Some(&tables), "dropping another chapter keeps the sky's");
    // A sky created afresh has none until it is prepared, and then other ones.
    stack.restack(&[], vec![registry::find("height-fog").unwrap()]).unwrap();
    stack.restack(&["height-fog"], vec![registry::find("sky").unwrap()]).unwrap();
    assert_eq!(sky_tables(&stack), None, "a fresh sky has no GPU state");
    h.prepare_stack(&mut stack).unwrap();
    assert_ne!(sky_tables(&stack).as_ref(), Some(&tables), "a new sky makes new tables");
}

// ANCHOR: rewrites_test
#[test]
fn a_buffer_written_twice_before_a_submission_is_caught() {
    // The check every rendering test runs (`common::checked_capture`) finds a planted rewrite:
    // two queue writes that overlap by one word before one submission.
    let h = headless([64, 36]);
    let probe = h.gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("rewrite probe"),
        size: 16,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    h.gpu.write_buffer(&probe, 0, &[0; 8]);
    h.gpu.write_buffer(&probe, 8, &[0; 8]);
    assert!(h.gpu.take_rewrites().is_empty(), "writes of separate ranges are not rewrites");
    h.gpu.write_buffer(&probe, 4, &[1; 8]);
    let found = h.gpu.take_rewrites();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("tests/stack.rs"), "names the place: {}", found[0]);
    // A submission in between makes the second write a new one.
    h.gpu.submit([]);
    h.gpu.write_buffer(&probe, 0, &[2; 16]);
    assert!(h.gpu.take_rewrites().is_empty());
    // Writes in order with the passes are never rewrites: the smoke's batched steps.
    let mut smoke = fogbook_core::Loaded::new(fogbook_smoke::Smoke::new());
    fogbook_core::params::set_by_name(&mut smoke.chapter.params, "grid_size", "16").unwrap();
    fogbook_core::params::set_by_name(&mut smoke.chapter.params, "sphere_enabled", "true").unwrap();
    h.prepare(&mut smoke).unwrap();
    let (chapter, state) = smoke.parts().unwrap();
    chapter.steps(state, &h.gpu, 12);
    let found = h.gpu.take_rewrites();
    assert!(found.is_empty(), "the smoke's batched steps: {found:?}");
}
// ANCHOR_END: rewrites_test

/// Every buffer write and submission of the renderer goes through `GpuContext::write_buffer`
/// and `GpuContext::submit`, so that the check above sees them all.
#[test]
fn the_queue_is_written_and_submitted_only_through_the_core() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["chapters", "src", "benches"] {
        walk(&root.join(dir), &mut files);
    }
    let gpu_rs = root.join("chapters/core/src/gpu.rs");
    let mut offenders = Vec::new();
    for file in files.iter().filter(|f| **f != gpu_rs) {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("queue.write_buffer(") || line.contains("queue.submit(") {
                offenders.push(format!("{}:{}", file.strip_prefix(root).unwrap().display(), i + 1));
            }
        }
    }
    assert!(files.len() > 50, "found only {} sources", files.len());
    assert!(offenders.is_empty(), "use GpuContext::write_buffer / submit: {offenders:?}");
}

// ANCHOR: contract_test
/// The stack's contract is what runs. In a frame of `everything`, each chapter lends exactly the shared resources it declares it writes, and
/// looks up exactly those it declares it reads, of the kinds a chapter reaches only through the
/// core (`lend`); none is looked up before the chapter that makes it has lent it; and a chapter
/// declares it reads the handover exactly when its shaders read the handover's fields of the
/// frame uniform.
#[test]
fn declared_reads_and_writes_are_what_each_chapter_lends_and_looks_up() {
    use fogbook_core::lend::{LENT_ON_GPU, PUBLISHED};
    use std::collections::BTreeSet;
    let lent_kinds: BTreeSet<Resource> = LENT_ON_GPU.iter().map(|&(k, _)| k).chain(PUBLISHED).collect();
    let looked_up_kinds: BTreeSet<Resource> = [
        Resource::SkyTables,
        Resource::CloudShadow,
        Resource::VolumeShadow,
        Resource::TransparentFog,
        Resource::FogVolumes,
    ]
    .into();
    let shaders = fogbook_core::shaders::ShaderStore::discover();
    let mut h = headless(SIZE);
    let mut checked = 0;
    for spec in ["everything"] {
        let mut setup = Setup::new(spec).unwrap();
        // The snapshot tests' lighter settings (coarser tables and grids) keep it fast.
        for chapter in setup.stack.chapters().iter().map(|c| (c.info().id, c.book().test_settings)).collect::<Vec<_>>()
        {
            for setting in chapter.1 {
                let (name, value) = setting.split_once('=').unwrap();
                setup.stack.set(&format!("{}.{name}", chapter.0), value).unwrap();
            }
        }
        h.prepare_stack(&mut setup.stack).unwrap();
        let view = setup.stack.views()[0].at;
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
        for (chapter, seen) in setup.stack.chapters().iter().zip(&h.renderer.observed) {
            let (id, io) = (chapter.info().id, chapter.stage_io());
            let declared = |list: &[Resource], kinds: &BTreeSet<Resource>| -> BTreeSet<Resource> {
                list.iter().copied().filter(|k| kinds.contains(k)).collect()
            };
            assert_eq!(seen.lent, declared(io.writes, &lent_kinds), "{spec}: what {id} lends");
            assert_eq!(seen.looked_up, declared(io.reads, &looked_up_kinds), "{spec}: what {id} looks up");
            assert!(seen.before_maker.is_empty(), "{spec}: {id} read {:?} before its maker", seen.before_maker);
            let own = shaders.with_constants(chapter.shader_prelude());
            let source: String = chapter.shader_files().iter().map(|f| own.load(f).unwrap().source).collect();
            let reads_handover = ["frame.height_layers", "frame.volumetric_far_m"].iter().any(|f| source.contains(f));
            assert_eq!(
                reads_handover,
                io.reads.contains(&Resource::Handover),
                "{spec}: {id}'s shaders and the handover"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, registry::stack("everything").unwrap().len());
}
// ANCHOR_END: contract_test
