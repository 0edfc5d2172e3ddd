//! The cloud textures: the noise against the f64 noise and its tiling, the curl noise, a weather map file.

use crate::common::*;
use crate::{draw, stack};
use fogbook::state::Setup;
use fogbook_clouds::textures::read_volume;
use fogbook_clouds::{Clouds, noise};
use fogbook_core::Loaded;
use fogbook_core::time::TimeControl;
use glam::DVec3;

/// One noise texture as the GPU made it and as the f64 noise has it: (name, side, depth, the
/// GPU's texels, the CPU's values).
type NoiseCase = (&'static str, u32, u32, Vec<[u8; 4]>, Vec<[f64; 4]>);

/// The four textures at the tests' low resolution and seed 7, read back, beside the f64 noise at
/// each texel's centre.
fn noise_textures_and_their_cpu_values() -> [NoiseCase; 4] {
    let mut h = headless([16, 16]);
    let mut setup = fogbook::state::Setup::new("clouds").unwrap();
    setup.apply(None, &["noise_resolution=low".to_string(), "noise_seed=7".to_string()], None).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("base-noise").unwrap();
    h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
    let loaded = setup.stack.chapters_mut()[0].as_any_mut().downcast_mut::<Loaded<Clouds>>().unwrap();
    let noise_gpu = &loaded.gpu.as_ref().unwrap().noise;
    let base = read_volume(&h.gpu, &noise_gpu.base).unwrap();
    let detail = read_volume(&h.gpu, &noise_gpu.detail).unwrap();
    let weather = read_volume(&h.gpu, &noise_gpu.weather).unwrap();
    let curl = read_volume(&h.gpu, &noise_gpu.curl).unwrap();
    let [nb, nd, nw] = fogbook_clouds::NoiseResolution::Low.sizes();
    let volume = |n: u32, f: &dyn Fn(DVec3) -> [f64; 4]| -> Vec<[f64; 4]> {
        let mut out = Vec::new();
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    out.push(f(noise::texel_uvw([x, y, z], n)));
                }
            }
        }
        out
    };
    let nc = nw / 4;
    [
        ("base shape", nb, nb, base, volume(nb, &|p| noise::base_shape(p, 7))),
        ("detail", nd, nd, detail, volume(nd, &|p| noise::detail(p, 7))),
        (
            "weather map",
            nw,
            1,
            weather,
            (0..nw * nw)
                .map(|i| {
                    let uvw = noise::texel_uvw([i % nw, i / nw, 0], nw);
                    noise::weather([uvw.x, uvw.y], 7)
                })
                .collect(),
        ),
        (
            "curl noise",
            nc,
            1,
            curl,
            (0..nc * nc)
                .map(|i| {
                    let uvw = noise::texel_uvw([i % nc, i / nc, 0], nc);
                    noise::curl([uvw.x, uvw.y], nc, 7)
                })
                .collect(),
        ),
    ]
}

/// Every texel of the four textures (at the tests' low resolution: 32³, 16³, 128² and the curl
/// noise's 32²) is the f64 noise at its centre, to the rgba8 rounding (±1/255 with a little for f32); and each
/// texture tiles: across each wrapping edge the step between neighbouring texels is no larger
/// than the largest step inside the texture (a seam would be a step of any size).
#[test]
fn noise_textures_match_the_cpu_noise_and_tile() {
    for case in noise_textures_and_their_cpu_values() {
        texture_matches_and_tiles(&case);
    }
}

// ANCHOR: noise_test
fn texture_matches_and_tiles((name, n, depth, gpu, cpu): &NoiseCase) {
    assert_eq!(gpu.len(), cpu.len(), "{name}");
    let mut worst = 0.0f64;
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        for k in 0..4 {
            let err = (g[k] as f64 / 255.0 - c[k]).abs();
            worst = worst.max(err);
            assert!(err <= 0.51 / 255.0 + 1e-4, "{name} texel {i} channel {k}: GPU {} CPU {:.5}", g[k], c[k] * 255.0);
        }
    }
    // Edge continuity along x (and y): the step from the last texel to the first, against
    // the largest step between neighbours inside.
    let at = |x: u32, y: u32, z: u32, k: usize| gpu[((z * n + y) * n + x) as usize][k] as i32;
    for axis in 0..2 {
        let (mut inside, mut seam) = (0, 0);
        for z in 0..*depth {
            for a in 0..*n {
                for k in 0..4 {
                    let v = |i: u32| if axis == 0 { at(i, a, z, k) } else { at(a, i, z, k) };
                    for i in 0..n - 1 {
                        inside = inside.max((v(i + 1) - v(i)).abs());
                    }
                    seam = seam.max((v(0) - v(n - 1)).abs());
                }
            }
        }
        eprintln!(
            "{name}: worst texel error {:.2}/255; axis {axis}: largest step inside {inside}, across the seam {seam}",
            worst * 255.0
        );
        assert!(seam <= inside && inside > 0, "{name}: a seam along axis {axis} ({seam} > {inside})");
    }
}
// ANCHOR_END: noise_test

// ANCHOR: weather_file_test
/// The weather map from a PNG: a good file of the map's size, one of another size (resampled), a
/// missing file and a corrupt one. The weather-map view's first three panels show the map's
/// red, green and blue; a bad file leaves the previous map in place with a message, never a panic.
#[test]
fn weather_map_from_a_png_file() {
    let dir = std::env::temp_dir().join(format!("fogbook-weather-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, w: u32, h: u32, rgb: [u8; 3]| {
        let path = dir.join(name);
        image::RgbaImage::from_pixel(w, h, image::Rgba([rgb[0], rgb[1], rgb[2], 255])).save(&path).unwrap();
        path.display().to_string()
    };
    let good = write("good.png", 128, 128, [200, 100, 50]);
    let odd = write("odd.png", 37, 53, [40, 220, 120]);
    let corrupt = dir.join("corrupt.png");
    std::fs::write(&corrupt, b"\x89PNG\r\n\x1a\nnot really a png").unwrap();
    let missing = dir.join("missing.png");

    let mut h = headless([32, 32]);
    let mut setup = stack(&h, "clouds");
    let view = setup.stack.find_view("weather-map").unwrap();
    let mut time = TimeControl::fixed(0.0);
    // The mean of each of the four panels (r | g over b | the coverage after the remap), and the
    // chapter's message.
    let mut show = |setup: &mut Setup, file: &str, coverage: f32| -> ([f32; 4], Option<String>) {
        let sets =
            ["noise_resolution=low".to_string(), format!("weather_map_file={file}"), format!("coverage={coverage}")];
        setup.apply(None, &sets, None).unwrap();
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        let image = h.capture().unwrap().raw;
        let panel = |x0: u32, y0: u32| {
            let mut sum = 0.0;
            for y in y0..y0 + 16 {
                for x in x0..x0 + 16 {
                    sum += image.pixel(x, y)[0];
                }
            }
            sum / 256.0
        };
        ([panel(0, 0), panel(16, 0), panel(0, 16), panel(16, 16)], setup.stack.chapters()[0].status())
    };
    let close =
        |got: [f32; 4], want: [u8; 3]| got.iter().zip(want).all(|(g, w)| (g - w as f32 / 255.0).abs() < 1.5 / 255.0);

    let (generated, status) = show(&mut setup, "", 0.5);
    assert_eq!(status, None);
    let (got, status) = show(&mut setup, &good, 0.5);
    assert!(close(got, [200, 100, 50]) && status.is_none(), "good file: {got:?} {status:?}");
    // The fourth panel is the map's coverage moved by the `coverage` parameter, as the f64
    // `coverage_at` moves it: unchanged at ½.
    for coverage in [0.5f32, 0.3, 0.8] {
        let want = fogbook_clouds::reference::coverage_at(200.0 / 255.0, coverage as f64) as f32;
        let (got, _) = show(&mut setup, &good, coverage);
        assert!((got[3] - want).abs() < 1.5 / 255.0, "coverage {coverage}: the panel shows {}, not {want}", got[3]);
    }
    let (got, status) = show(&mut setup, &odd, 0.5);
    assert!(close(got, [40, 220, 120]) && status.is_none(), "37×53 file: {got:?} {status:?}");
    for (bad, says) in
        [(missing.display().to_string(), "cannot read"), (corrupt.display().to_string(), "not a readable image")]
    {
        let (got, status) = show(&mut setup, &bad, 0.5);
        let status = status.unwrap_or_default();
        eprintln!("{bad}: {status}");
        assert!(status.contains(says) && status.contains("keeping"), "{bad}: {status:?}");
        assert!(close(got, [40, 220, 120]), "{bad}: the previous map was not kept: {got:?}");
    }
    // Back to the generated map.
    let (got, status) = show(&mut setup, "", 0.5);
    assert!(got == generated && status.is_none(), "generated again: {got:?} against {generated:?}, {status:?}");
    std::fs::remove_dir_all(&dir).ok();
}
// ANCHOR_END: weather_file_test

/// The curl noise moves the detail: at 300 m the eroded edges move, and the transmittance of
/// the rays through them changes.
#[test]
fn curl_noise_distorts_the_detail() {
    let mut h = headless([48, 27]);
    let mut setup = stack(&h, "clouds");
    let camera = "0,2,0,0,30,70";
    let sets = |s: &'static str| vec!["noise_resolution=low", "view_steps=16", "light_steps=2", "jitter=false", s];
    let plain = &draw(&mut h, &mut setup, &sets("curl_strength_m=0"), camera, &["transmittance"])[0];
    let swirled = &draw(&mut h, &mut setup, &sets("curl_strength_m=300"), camera, &["transmittance"])[0];
    let moved = plain.rgba.chunks(4).zip(swirled.rgba.chunks(4)).filter(|(a, b)| (a[0] - b[0]).abs() > 0.01).count();
    eprintln!("curl noise at 300 m changes the transmittance of {moved} of {} pixels", plain.rgba.len() / 4);
    assert!(moved > 50, "the curl noise moved only {moved} pixels");
}
