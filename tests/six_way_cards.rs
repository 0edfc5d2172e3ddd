//! Chapter 8's runtime on the GPU against its CPU references: the six-way blend of atlases of
//! known values (every map constant over the card) for suns all round the card, each weighting
//! against `blend.rs`; the flipbook's frame addressing; and the two packings decoding alike.

mod common;

use common::*;
use fogbook_six_way::atlas::Layout;
use fogbook_six_way::baked::{BakeKey, Baked, remember};
use fogbook_six_way::blend;
use fogbook_six_way::card::Dir;
use fogbook_six_way::params::CardParams;
use fogbook_six_way::swizzle::Channel;

const SIZE: [u32; 2] = [96, 64];
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
    Baked { layout, frames: key.0.frames, swizzle, emission: false, atlases, seconds: 0.0, key }
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

// ANCHOR: gpu_blend
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
    let weightings: [(&str, fn([f64; 3]) -> [f64; 6]); 3] = [
        ("squared", blend::weights),
        ("linear", blend::weights_linear),
        ("linear-normalised", blend::weights_linear_normalised),
    ];
    let mut worst: f64 = 0.0;
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    for (weighting, weights) in weightings {
        for (el, az) in suns {
            let sun = [format!("scene.sun_elevation_deg={el}"), format!("scene.sun_azimuth_deg={az}")];
            let w = format!("weighting={weighting}");
            let sets = settings(&[sun[0].as_str(), sun[1].as_str(), w.as_str()]);
            let capture = render_with(h, "six-way-cards", "lit", &sets, Some(CAMERA), 2);
            let (value, spread, _) = card_values(&capture);
            let l = sun_dir(el, az);
            let want: f64 = weights(l).iter().zip(maps).map(|(w, m)| w * m as f64).sum();
            let error = (value[0] as f64 - want).abs();
            eprintln!(
                "{weighting:>17} sun el {el:>5} az {az:>5}: GPU {:.5}, f64 {want:.5} (spread {spread:.1e})",
                value[0]
            );
            assert!(error < 2e-3 && spread < 2e-3, "{weighting}, sun ({el}, {az}): GPU {value:?} against {want}");
            worst = worst.max(error);
        }
    }
    eprintln!("worst |GPU − f64| = {worst:.2e}");
}
// ANCHOR_END: gpu_blend

/// With six equal maps the squared weights shade the card the same for every sun, and the
/// linear weights do not (they brighten a diagonal sun by up to √3).
#[test]
fn six_equal_maps_shade_alike_from_every_sun() {
    let (params, _) = typed_settings::<CardParams>(&settings(&["bake_frames=3"]));
    remember(atlas(&params, |_| [0.5; 6])).unwrap();
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    for (el, az) in [(89.9, 0.0), (0.0, 90.0), (35.26, -45.0), (-12.0, 150.0), (50.0, 120.0)] {
        let sun = [format!("scene.sun_elevation_deg={el}"), format!("scene.sun_azimuth_deg={az}")];
        for (weighting, want) in
            [("squared", 0.5), ("linear", 0.5 * sun_dir(el, az).iter().map(|c| c.abs()).sum::<f64>())]
        {
            let w = format!("weighting={weighting}");
            let sets = settings(&["bake_frames=3", sun[0].as_str(), sun[1].as_str(), w.as_str()]);
            let (value, ..) = card_values(&render_with(h, "six-way-cards", "lit", &sets, Some(CAMERA), 2));
            assert!(
                (value[0] as f64 - want).abs() < 2e-3,
                "{weighting}, sun ({el}, {az}): {} against {want}",
                value[0]
            );
        }
    }
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
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    let mut seen = std::collections::BTreeSet::new();
    // Two frames are drawn 1/60 s apart; at t = 1/60 s a rate of 60·k + 30 frames a second (15·k
    // + 7.5 at the fog cards' speed 4) puts the card half-way through frame k (mod 7).
    for k in 0..7 {
        let rate = format!("frames_per_s={}", 15.0 * k as f64 + 7.5);
        let sets = settings(&["bake_frames=7", "fog_card_speed=4", "scene.sun_elevation_deg=89.9", rate.as_str()]);
        let caps = render_views(h, "six-way-cards", &["frame", "lit"], &sets, Some(CAMERA), 2);
        let (frame, ..) = card_values(&caps[0]);
        let (lit, ..) = card_values(&caps[1]);
        let f = frame[0].round() as u32;
        assert!((lit[0] - (f + 1) as f32 / 8.0).abs() < 2e-3, "frame {f}: lit {} (rate {rate})", lit[0]);
        seen.insert(f);
    }
    assert_eq!(seen.len(), 7, "every frame was read: {seen:?}");
}

/// Real bakes with the two packings: the same smoke, the channels in other places; the runtime
/// reads them through its table, so every view of the maps is the same.
#[test]
fn both_packings_decode_to_the_same_maps() {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    let base = ["bake_grid=16", "bake_frames=2", "bake_frame_size=16", "bake_warmup_steps=20", "particles=false"];
    let views = ["map-top", "map-bottom", "map-left", "map-right", "map-back", "map-front", "alpha"];
    let render = |h: &mut _, packing: &str| {
        let mut sets: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        sets.push(format!("packing={packing}"));
        render_views(h, "six-way-cards", &views, &sets, None, 2)
    };
    let a = render(h, "tlr-bbf");
    let b = render(h, "rtb-lbf");
    for ((view, a), b) in views.iter().zip(&a).zip(&b) {
        assert_eq!(a.raw.rgba, b.raw.rgba, "{view}");
        let (lo, hi, _) = a.raw.red_stats();
        assert!(hi > lo, "{view} shows something");
    }
}

// ANCHOR: fogged
/// A card fogged at its own depth: behind chapter 2's height fog, the `fog-transmittance` view
/// at each card pixel is the fog's transmittance from the eye to where that pixel's ray meets
/// the card, against chapter 2's f64 closed form (`HeightFogModel`) along the same ray. A card
/// fogged at the scene's depth instead of its own, or with the wrong ray, misses by 0.05 or more.
#[test]
fn a_card_is_fogged_at_its_own_depth() {
    let (params, _) = typed_settings::<CardParams>(&settings(&["bake_frames=5", "fogged=true"]));
    remember(atlas(&params, |_| [0.5; 6])).unwrap();
    let sets: Vec<String> = settings(&["bake_frames=5", "fogged=true"])
        .into_iter()
        .map(|s| format!("six-way-cards.{s}"))
        .chain(["height-fog.fog_density=0.03".to_string()])
        .collect();
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    let capture = render_with(h, "height-fog,six-way-cards", "six-way-cards/fog-transmittance", &sets, Some(CAMERA), 2);
    let (fog_params, _) = typed_settings::<fogbook_height_fog::HeightFogParams>(&["fog_density=0.03"]);
    let model = fogbook_height_fog::model(&fog_params);
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
    eprintln!("{count} card pixels, T down to {lowest:.4}, worst |GPU − f64| {worst:.2e}");
    assert!(count > 100 && lowest < 0.7, "{count} pixels, T ≥ {lowest}: the test needs fog to see");
    assert!(worst < 2e-3, "worst {worst}");
}
// ANCHOR_END: fogged
