//! Chapter 4 on the GPU against the f64 CPU reference (`fogbook_froxel_fog::reference`) and
//! chapter 2's closed form. Expected values come from the camera pose, the parameters and the
//! GPU's own surface distance (chapter 1's tests hold that distance to the ray cast); nothing else
//! the GPU computed enters them.

mod bad_input;
mod closed_form;
#[path = "../common/mod.rs"]
mod common;
mod height_fog;
mod lights;
mod noise;
mod temporal;
mod volumes;

use common::*;
use glam::DVec3;

pub(crate) const SIZE: [u32; 2] = [160, 90];
const GRID: [&str; 3] = ["grid_width=64", "grid_height=36", "grid_depth=32"];
pub(crate) const CAMERA: &str = "0,2,0,0,-2,60";

pub(crate) fn with_grid<'a>(sets: &[&'a str]) -> Vec<&'a str> {
    GRID.iter().copied().chain(sets.iter().copied()).collect()
}

pub(crate) fn gpu_distance(camera: &str) -> fogbook_core::capture::FloatImage {
    render("distance-fog", "distance", &[] as &[&str], Some(camera), SIZE).raw
}

/// Column-centre rays and bilinear weights of pixel (x, y), as the composite's `load_bilinear`
/// forms them: grid coordinate p = uv · (X, Y) − ½, neighbours clamped to the grid.
pub(crate) fn column_weights(camera: &str, grid: [u32; 2], x: u32, y: u32) -> Vec<(f64, DVec3)> {
    let u = (x as f64 + 0.5) / SIZE[0] as f64 * grid[0] as f64 - 0.5;
    let v = (y as f64 + 0.5) / SIZE[1] as f64 * grid[1] as f64 - 0.5;
    let (bu, bv) = (u.floor(), v.floor());
    let (fu, fv) = (u - bu, v - bv);
    let clampi = |i: f64, n: u32| i.clamp(0.0, n as f64 - 1.0) as u32;
    let mut out = Vec::new();
    for (du, wu) in [(0.0, 1.0 - fu), (1.0, fu)] {
        for (dv, wv) in [(0.0, 1.0 - fv), (1.0, fv)] {
            let (cx, cy) = (clampi(bu + du, grid[0]), clampi(bv + dv, grid[1]));
            // A column's ray is the ray through its centre on a grid-sized image.
            let (_, dir) = pose_ray(camera, grid, cx, cy);
            out.push((wu * wv, dir));
        }
    }
    out
}

/// A camera near the ring of lights (at the ring's centre, `RING_CENTRE`, when its radius is 0).
pub(crate) const LIGHT_CAMERA: &str = "30,5,-80,-18,3,60";
