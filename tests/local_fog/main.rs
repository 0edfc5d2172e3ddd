//! Chapter 5 on the GPU against its f64 reference, and its handling of bad input.
//!
//! The optical-depth view (raw floats) is compared per pixel with the closed form evaluated in
//! f64 along rays built from the camera pose alone, up to the GPU's own surface distance (the
//! volumes float in the air, so the distance only decides which are hidden behind the boxes).

mod bad_input;
mod closed_form;
#[path = "../common/mod.rs"]
mod common;
mod culling;
mod editing;
mod froxels;
mod shadows;
mod sharing;
mod snapshots;
mod sun_grid;
mod textures;

use fogbook_core::media::volumes::FogVolume;
use fogbook_local_fog::reference::optical_depth;
use glam::DVec3;

pub(crate) const SIZE: [u32; 2] = [160, 90];
pub(crate) const CAMERA: &str = "-2,3.5,-14,0,-3,50";

/// One volume in front of the camera, no edge fade (its closed form), with `extra` settings
/// (which may grow the list with `volume_count` and then set the new volumes).
pub(crate) fn settings<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut s = vec![
        "volume_count=1",
        "volumes[0].x_m=-2",
        "volumes[0].y_m=3.5",
        "volumes[0].z_m=-30",
        "volumes[0].size_x_m=9",
        "volumes[0].size_y_m=4",
        "volumes[0].size_z_m=7",
        "volumes[0].yaw_deg=0",
        "volumes[0].falloff=0",
        "volumes[0].edge_fade_m=0",
        "volumes[0].density=0.2",
    ];
    s.extend_from_slice(extra);
    s
}

/// τ of every volume along the pose's ray through pixel (x, y), up to distance d.
pub(crate) fn reference_tau(volumes: &[FogVolume], o: DVec3, v: DVec3, d: f64) -> f64 {
    volumes.iter().map(|vol| optical_depth(vol, o, v, 0.0, d)).sum()
}

/// A unit vector perpendicular to v and another to both.
pub(crate) fn perpendiculars(v: DVec3) -> [DVec3; 2] {
    let a = v.cross(DVec3::Y).normalize();
    [a, a.cross(v)]
}

/// Chapter 4's grid for the froxel tests: 64×36 columns, 32 slices from 1 m to `far`, no
/// medium of its own, no jitter.
pub(crate) fn froxel_grid(far: &str) -> Vec<String> {
    let mut s: Vec<String> =
        ["grid_width=64", "grid_height=36", "grid_depth=32", "constant_density=0", "layer_density=0"]
            .iter()
            .map(|s| format!("froxel-fog.{s}"))
            .collect();
    s.push(format!("froxel-fog.fog_distance_m={far}"));
    s
}

/// A smoke volume file of an n³ grid whose density varies smoothly across the box plus a
/// cell-to-cell ripple (so that the trilinear kinks matter), written with the core's writer (the
/// format chapter 7's `save` writes). Returns its path.
pub(crate) fn smoke_file(name: &str, n: u32) -> std::path::PathBuf {
    use fogbook_core::volume_file::{VolumeField, VolumeFile};
    let cells = (n as usize).pow(3);
    let density = (0..cells)
        .map(|i| {
            let (x, y, z) = (i % n as usize, (i / n as usize) % n as usize, i / (n * n) as usize);
            let ripple = if (x + 2 * y + 3 * z) % 3 == 0 { 0.6 } else { 0.0 };
            (1.0 + (x as f32 * 0.4).sin() * (z as f32 * 0.3).cos() + y as f32 / n as f32 + ripple).max(0.0)
        })
        .collect();
    let file = VolumeFile {
        n,
        box_m: 8.0,
        ambient_k: 293.15,
        fields: vec![
            VolumeField { name: "density".into(), components: 1, values: density },
            VolumeField { name: "temperature".into(), components: 1, values: vec![0.0; cells] },
        ],
    };
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    file.write(&path).unwrap();
    path
}

pub(crate) const TEXTURE_SIZE: [u32; 2] = [80, 45];

/// A box of density 0.2 /m (5×4×5 m, volume 0 of `settings`) and, 9 m from it towards the sun
/// (unit `sun`), a slab of 0.15 /m (12×2×12 m) that shadows it; no scene shadows.
pub(crate) fn shadowing_slab_settings(sun: DVec3) -> Vec<String> {
    let big = DVec3::new(-2.0, 3.5, -30.0) + sun * 9.0;
    [
        "volume_scene_shadows=false".to_string(),
        "volumes[0].size_x_m=5".to_string(),
        "volumes[0].size_z_m=5".to_string(),
        "volume_count=2".to_string(),
        format!("volumes[1].x_m={}", big.x),
        format!("volumes[1].y_m={}", big.y),
        format!("volumes[1].z_m={}", big.z),
        "volumes[1].size_x_m=12".to_string(),
        "volumes[1].size_y_m=2".to_string(),
        "volumes[1].size_z_m=12".to_string(),
        "volumes[1].yaw_deg=0".to_string(),
        "volumes[1].falloff=0".to_string(),
        "volumes[1].edge_fade_m=0".to_string(),
        "volumes[1].density=0.15".to_string(),
    ]
    .into()
}
