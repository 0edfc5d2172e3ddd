//! Chapter 8's runtime on the GPU against its CPU references: the six-way blend of atlases of
//! known values (every map constant over the card) for suns all round the card, each weighting
//! against `blend.rs`; the flipbook's frame addressing; and the two packings decoding alike —
//! each with both renderers (compute tile splatting and fragment quads). And the two renderers
//! against each other on the default particles, pixel by pixel.

mod common;

use common::*;
use fogbook_core::headless::Headless;
use fogbook_six_way::atlas::Layout;
use fogbook_six_way::baked::{BakeKey, Baked, remember};
use fogbook_six_way::blend;
use fogbook_six_way::card::Dir;
use fogbook_six_way::params::CardParams;
use fogbook_six_way::swizzle::Channel;

const SIZE: [u32; 2] = [96, 64];
/// The two renderers (the `renderer` parameter); the GPU-vs-f64 tests run with each.
const RENDERERS: [&str; 2] = ["renderer=compute", "renderer=fragment"];

/// The test process's device at `size`.
fn device<R>(size: [u32; 2], f: impl FnOnce(&mut Headless) -> R) -> R {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(size));
    h.resize(size).unwrap();
    f(h)
}
/// The eye 2 m up, looking down −z at the one fog card, 20 m away: the card's right is +x, its
/// up +y and "away" −z, so a sun s has the card-frame direction (s_x, s_y, −s_z).
const CAMERA: &str = "0,2,0,0,0";

/// One upright fog card straight ahead, no particles, nothing that changes a value across the
/// card; a bake key of its own (a 20³ grid no other test bakes) so the atlas comes from `atlas`.
fn settings(extra: &[&str]) -> Vec<String> {
    let mut s: Vec<String> = [
        "bake_grid=20",
        "bake_frames=4",
        "bake_frame_size=8",
        "bake_warmup_steps=0",
        "fog_cards=1",
        "particles=false",
        "fog_card_half_width_m=0",
        "fog_card_half_depth_m=0",
        "fog_card_centre_x_m=0",
        "fog_card_centre_z_m=-20",
        "fog_card_size_m=8",
        "random_start=false",
        "speed_variation=0",
        "frame_blend=none",
        "edge_softness=0",
        "scene_shadow=false",
        "fogged=false",
        "depth_fade_m=0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    s.extend(extra.iter().map(|s| s.to_string()));
    s
}

/// An atlas pair for the chapter's bake key whose frame f holds the maps `maps(f)` (in
/// `Dir::ALL`'s order) and alpha 0.8 on every texel, packed through the key's swizzle.
fn atlas(params: &CardParams, maps: impl Fn(u32) -> [f32; 6]) -> Baked {
    let key = BakeKey::new(params);
    let layout: Layout = key.0.layout().unwrap();
    let swizzle = key.0.swizzle().unwrap();
    let [w, h] = layout.size();
    let mut atlases = [vec![0.0f32; (w * h * 4) as usize], vec![0.0f32; (w * h * 4) as usize]];
    for f in 0..key.0.frames {
        let [x0, y0, fw, fh] = layout.rect(f).unwrap();
        let m = maps(f);
        for y in y0..y0 + fh {
            for x in x0..x0 + fw {
                for (a, channels) in swizzle.atlases.iter().enumerate() {
                    for (c, channel) in channels.iter().enumerate() {
                        atlases[a][((x + y * w) * 4) as usize + c] = match channel {
                            Channel::Map(d) => m[d.index()],
                            Channel::Alpha => 0.8,
                            Channel::Emission | Channel::Zero => 0.0,
                        };
                    }
                }
            }
        }
    }
    Baked { layout, frames: key.0.frames, swizzle, emission: false, atlases, source: None, seconds: 0.0, key }
}

/// The view's values where a card is (alpha 1 in the raw image): each channel's mean and the
/// largest deviation from it.
fn card_values(capture: &fogbook_core::headless::Capture) -> ([f32; 3], f32, usize) {
    let raw = &capture.raw;
    let texels: Vec<[f32; 4]> = (0..raw.height)
        .flat_map(|y| (0..raw.width).map(move |x| (x, y)))
        .map(|(x, y)| raw.pixel(x, y))
        .filter(|p| p[3] > 0.5)
        .collect();
    assert!(texels.len() > 100, "the card covers {} pixels", texels.len());
    let mean = |c: usize| texels.iter().map(|p| p[c]).sum::<f32>() / texels.len() as f32;
    let m = [mean(0), mean(1), mean(2)];
    let spread = texels.iter().flat_map(|p| (0..3).map(move |c| (p[c] - m[c]).abs())).fold(0.0, f32::max);
    (m, spread, texels.len())
}

fn sun_dir(elevation: f64, azimuth: f64) -> [f64; 3] {
    let (el, az) = (elevation.to_radians(), azimuth.to_radians());
    // `SceneSettings::sun_direction`, then into the card frame (x, y, −z).
    [-az.sin() * el.cos(), el.sin(), az.cos() * el.cos()]
}

/// Suns all round the card (the elevation stops at −12°: the scene's sun goes no lower), with
/// six distinct maps: the GPU's `lit` view against `blend::relight` for each weighting, and six
/// equal maps giving the same value for every sun. A swapped pair of maps, a flipped mask or a
/// wrong swizzle entry moves some of these by more than 0.04.
#[test]
fn the_gpu_blend_matches_the_f64_reference_for_suns_all_round() {
    let maps = [0.15f32, 0.95, 0.3, 0.45, 0.6, 0.75];
    let (params, _) = typed_settings::<CardParams>(&settings(&[]));
    let distinct = atlas(&params, |_| maps);
    remember(distinct).unwrap();
    let suns = [
        (89.9, 0.0),
        (0.0, -90.0),
        (0.0, 90.0),
        (0.0, 0.0),
        (0.0, 180.0),
        (-12.0, 30.0),
        (35.0, -135.0),
        (60.0, 45.0),
        (20.0, 160.0),
    ];
    type Weights = fn([f64; 3]) -> [f64; 6];
    // ANCHOR: gpu_blend
    let weightings: [(&str, Weights); 3] = [
        ("squared", blend::weights),
        ("linear", blend::weights_linear),
        ("linear-normalised", blend::weights_linear_normalised),
    ];
    let mut worst: f64 = 0.0;
    device(SIZE, |h| {
        for renderer in RENDERERS {
            for (weighting, weights) in weightings {
                for (el, az) in suns {
                    let sun = [format!("scene.sun_elevation_deg={el}"), format!("scene.sun_azimuth_deg={az}")];
                    let w = format!("weighting={weighting}");
                    let sets = settings(&[sun[0].as_str(), sun[1].as_str(), w.as_str(), renderer]);
                    let capture = render_with(h, "six-way-cards", "lit", &sets, Some(CAMERA), 2);
                    let (value, spread, _) = card_values(&capture);
                    let l = sun_dir(el, az);
                    let want: f64 = weights(l).iter().zip(maps).map(|(w, m)| w * m as f64).sum();
                    let error = (value[0] as f64 - want).abs();
                    eprintln!(
                        "{renderer} {weighting:>17} sun el {el:>5} az {az:>5}: GPU {:.5}, f64 {want:.5} (spread {spread:.1e})",
                        value[0]
                    );
                    assert!(
                        error < 2e-3 && spread < 2e-3,
                        "{renderer} {weighting}, sun ({el}, {az}): GPU {value:?} against {want}"
                    );
                    worst = worst.max(error);
                }
            }
        }
    });
    // ANCHOR_END: gpu_blend
    eprintln!("worst |GPU − f64| = {worst:.2e}");
}

/// With six equal maps the squared weights shade the card the same for every sun, and the
/// linear weights do not (they brighten a diagonal sun by up to √3).
#[test]
fn six_equal_maps_shade_alike_from_every_sun() {
    let (params, _) = typed_settings::<CardParams>(&settings(&["bake_frames=3"]));
    remember(atlas(&params, |_| [0.5; 6])).unwrap();
    device(SIZE, |h| {
        for renderer in RENDERERS {
            for (el, az) in [(89.9, 0.0), (0.0, 90.0), (35.26, -45.0), (-12.0, 150.0), (50.0, 120.0)] {
                let sun = [format!("scene.sun_elevation_deg={el}"), format!("scene.sun_azimuth_deg={az}")];
                for (weighting, want) in
                    [("squared", 0.5), ("linear", 0.5 * sun_dir(el, az).iter().map(|c| c.abs()).sum::<f64>())]
                {
                    let w = format!("weighting={weighting}");
                    let sets = settings(&["bake_frames=3", sun[0].as_str(), sun[1].as_str(), w.as_str(), renderer]);
                    let (value, ..) = card_values(&render_with(h, "six-way-cards", "lit", &sets, Some(CAMERA), 2));
                    assert!(
                        (value[0] as f64 - want).abs() < 2e-3,
                        "{renderer} {weighting}, sun ({el}, {az}): {} against {want}",
                        value[0]
                    );
                }
            }
        }
    });
}

/// Frame f of the atlas holds the top map (f + 1)/8 (a light from above: the lit value is the
/// top map): at any time the GPU's `frame` view names a frame and `lit` shows that frame's
/// value, so the frame index → atlas rectangle mapping of the shader agrees with `Layout::rect`.
#[test]
fn the_shader_reads_the_frame_it_names() {
    let (params, _) = typed_settings::<CardParams>(&settings(&["bake_frames=7"]));
    remember(atlas(&params, |f| {
        let mut m = [0.0; 6];
        m[Dir::Top.index()] = (f + 1) as f32 / 8.0;
        m
    }))
    .unwrap();
    device(SIZE, |h| {
        for renderer in RENDERERS {
            let mut seen = std::collections::BTreeSet::new();
            // Two steps of 1/60 s are taken before the frame is drawn; at t = 2/60 s a rate of
            // 30·k + 15 frames a second (7.5·k + 3.75 at the fog cards' speed 4) puts the card
            // half-way through frame k. Each view is drawn at that time (`render_views` draws the
            // views after the first with the clock at 0).
            for k in 0..7 {
                let rate = format!("frames_per_s={}", 7.5 * k as f64 + 3.75);
                let extra =
                    ["bake_frames=7", "fog_card_speed=4", "scene.sun_elevation_deg=89.9", rate.as_str(), renderer];
                let sets = settings(&extra);
                let (frame, ..) = card_values(&render_with(h, "six-way-cards", "frame", &sets, Some(CAMERA), 2));
                let (lit, ..) = card_values(&render_with(h, "six-way-cards", "lit", &sets, Some(CAMERA), 2));
                let f = frame[0].round() as u32;
                assert!((lit[0] - (f + 1) as f32 / 8.0).abs() < 2e-3, "{renderer}, frame {f}: lit {} ({rate})", lit[0]);
                seen.insert(f);
            }
            assert_eq!(seen.len(), 7, "{renderer}: every frame was read: {seen:?}");
        }
    });
}

/// Real bakes with the two packings: the same smoke, the channels in other places; the runtime
/// reads them through its table, so every view of the maps is the same.
#[test]
fn both_packings_decode_to_the_same_maps() {
    let base = ["bake_grid=16", "bake_frames=2", "bake_frame_size=16", "bake_warmup_steps=20", "particles=false"];
    let views = ["map-top", "map-bottom", "map-left", "map-right", "map-back", "map-front", "alpha"];
    device(SIZE, |h| {
        for renderer in RENDERERS {
            let mut render = |packing: &str| {
                let mut sets: Vec<String> = base.iter().map(|s| s.to_string()).collect();
                sets.push(format!("packing={packing}"));
                sets.push(renderer.to_string());
                render_views(h, "six-way-cards", &views, &sets, None, 2)
            };
            let a = render("tlr-bbf");
            let b = render("rtb-lbf");
            for ((view, a), b) in views.iter().zip(&a).zip(&b) {
                assert_eq!(a.raw.rgba, b.raw.rgba, "{renderer}: {view}");
                let (lo, hi, _) = a.raw.red_stats();
                assert!(hi > lo, "{renderer}: {view} shows something");
            }
        }
    });
}

// ANCHOR: renderers_agree
/// The compute and fragment renderers on the default fog cards and particles (up to ~150 cards
/// deep at this size): the final image and the debug views agree pixel by pixel, within what
/// rounding and the splat's early stop allow, to first order:
/// - the fragment renderer blends in the rgba16float layer, rounding at each of the n cards of a
///   pixel (its overdraw); every contribution is non-negative, so each rounding error, scaled by
///   the 1 − α of the cards after it, is at most 2⁻¹⁰ (toward-zero rounding; 2⁻¹¹ to nearest) of
///   the final value: |δC| ≤ n·2⁻¹⁰·C, and the transmittance likewise |δT| ≤ n·2⁻¹⁰·T; the
///   splat sums in f32 and rounds once;
/// - the splat stops a pixel once T < 1/1024, leaving out at most that fraction of what lies
///   behind: the scene, whose colour the final view adds × T, and the cards (at most
///   `CARD_RADIANCE` in the final view, the view's largest value in the others);
/// - the mean views divide the layer by the coverage 1 − T; they are compared where the coverage
///   is at least 1/16 (where it is near zero both divide rounding-sized numbers).
///
/// The bounds are reached at a few pixels only: the differences must also sum to under a quarter
/// of the bounds. A splat that drops every other card of a batch fails both (see the commit that
/// added this test).
#[test]
fn both_renderers_give_the_same_image() {
    const ROUNDING: f32 = 1.0 / 1024.0;
    const EARLY_STOP: f32 = 1.0 / 1024.0;
    const CARD_RADIANCE: f32 = 2.0;
    let size = [256, 144];
    let views = ["final", "alpha", "lit", "map-top", "frame", "weights", "depth-fade", "scene", "overdraw"];
    let chapter = fogbook::registry::find("six-way-cards").unwrap();
    let base = chapter.book().test_settings;
    let [compute, fragment] = device(size, |h| {
        RENDERERS.map(|r| {
            let sets: Vec<&str> = base.iter().copied().chain([r]).collect();
            render_views(h, "six-way-cards", &views, &sets, None, 2)
        })
    });
    let (coverage, scene, overdraw) = (&fragment[1].raw, &fragment[7].raw, &fragment[8].raw);
    let mut failures = Vec::new();
    for (i, view) in views.iter().enumerate().take(7) {
        let (a, b) = (&compute[i].raw, &fragment[i].raw);
        let largest = b.rgba.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let (mut worst, mut at, mut sum, mut sum_allowed) = (0.0f32, (0, 0), 0.0f64, 0.0f64);
        for y in 0..size[1] {
            for x in 0..size[0] {
                let (p, q) = (a.pixel(x, y), b.pixel(x, y));
                let n = overdraw.pixel(x, y)[0] + 1.0;
                let cov = coverage.pixel(x, y)[0];
                let t = 1.0 - cov;
                let s = scene.pixel(x, y);
                for c in 0..3 {
                    let v = q[c].abs();
                    let allowed = match *view {
                        "final" => n * ROUNDING * v + EARLY_STOP * s[0].max(s[1]).max(s[2]).max(CARD_RADIANCE),
                        "alpha" => n * ROUNDING * t + EARLY_STOP,
                        _ if cov < 1.0 / 16.0 => continue,
                        _ => (n * ROUNDING * (v * cov + v * t) + EARLY_STOP * (largest + v)) / cov,
                    } + 1e-4;
                    let error = (p[c] - q[c]).abs();
                    assert!(error.is_finite(), "{view} ({x}, {y}): {} against {}", p[c], q[c]);
                    if error / allowed > worst {
                        (worst, at) = (error / allowed, (x, y));
                    }
                    sum += error as f64;
                    sum_allowed += allowed as f64;
                }
            }
        }
        let share = sum / sum_allowed.max(1e-30);
        let line = format!(
            "{view:>10}: largest difference {worst:.3} of the allowed (at {at:?}: {:?} against {:?}), in all {share:.3} of the allowed",
            a.pixel(at.0, at.1),
            b.pixel(at.0, at.1)
        );
        eprintln!("{line}");
        if worst > 1.0 || share > 0.25 {
            failures.push(line);
        }
    }
    assert!(failures.is_empty(), "the renderers differ:\n{}", failures.join("\n"));
}
// ANCHOR_END: renderers_agree

/// A card fogged at its own depth: behind chapter 2's height fog, the `fog-transmittance` view
/// at each card pixel is the fog's transmittance from the eye to where that pixel's ray meets
/// the card, against chapter 2's f64 closed form (`HeightFogModel`) along the same ray, with each
/// renderer. A card fogged at the scene's depth instead of its own, or along the wrong ray,
/// misses by 0.05 or more.
// ANCHOR: fogged
#[test]
fn a_card_is_fogged_at_its_own_depth() {
    let (params, _) = typed_settings::<CardParams>(&settings(&["bake_frames=5", "fogged=true"]));
    remember(atlas(&params, |_| [0.5; 6])).unwrap();
    let (fog_params, _) = typed_settings::<fogbook_height_fog::HeightFogParams>(&["fog_density=0.03"]);
    let model = fogbook_height_fog::model(&fog_params);
    for renderer in RENDERERS {
        let sets: Vec<String> = settings(&["bake_frames=5", "fogged=true", renderer])
            .into_iter()
            .map(|s| format!("six-way-cards.{s}"))
            .chain(["height-fog.fog_density=0.03".to_string()])
            .collect();
        let capture = device(SIZE, |h| {
            render_with(h, "height-fog,six-way-cards", "six-way-cards/fog-transmittance", &sets, Some(CAMERA), 2)
        });
        let (mut worst, mut count, mut lowest) = (0.0f64, 0, 1.0f64);
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                let p = capture.raw.pixel(x, y);
                if p[3] < 0.5 {
                    continue;
                }
                let (eye, dir) = pose_ray(CAMERA, SIZE, x, y);
                // The card stands in the plane z = −20, facing the eye.
                let d = (-20.0 - eye.z) / dir.z;
                let want = 1.0 - model.fog_amount(eye.y, dir.y, d);
                worst = worst.max((p[0] as f64 - want).abs());
                lowest = lowest.min(want);
                count += 1;
            }
        }
        eprintln!("{renderer}: {count} card pixels, T down to {lowest:.4}, worst |GPU − f64| {worst:.2e}");
        assert!(count > 100 && lowest < 0.7, "{count} pixels, T ≥ {lowest}: the test needs fog to see");
        assert!(worst < 2e-3, "{renderer}: worst {worst}");
    }
}
// ANCHOR_END: fogged
