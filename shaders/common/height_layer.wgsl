// One exponential height fog layer, ρ(h) = d · e^(−k (h − h₀)), packed as vec4(d, k, h₀, _): its
// density and its optical depth along a ray segment in closed form, as the height fog teaches
// it. Shared by the analytic height fog, the froxel fog (its media and its continuation beyond
// the grid) and the local fog volumes' shapes (common/media/shapes.wgsl), so
// the chapters describe one medium. After Wenzel 2006 (the closed form). The layers as a medium
// of the media layer (common/media/medium.wgsl): `height_layers_medium` and `layer_majorant`.
// #import common/media/medium.wgsl

// ANCHOR: density
const MAX_EXPONENT: f32 = 80.0;        // the density alone (density view, plot)
const MAX_DIRECT_EXPONENT: f32 = 60.0; // see layer_optical_depth
const MAX_OPTICAL_DEPTH: f32 = 1.0e4;
const SERIES_THRESHOLD: f32 = 0.01;

fn layer_density(layer: vec4<f32>, h: f32) -> f32 {
    return layer.x * exp(clamp(-layer.y * (h - layer.z), -MAX_EXPONENT, MAX_EXPONENT));
}
// ANCHOR_END: density

// ANCHOR: optical_depth
// τ = ∫ ρ(o_y + v_y t) dt over [t0, t1] for one layer, in closed form, from the segment's
// denser end: where the density falls along the ray (x > 0) from its start, where it rises
// (x < 0) from its end, so that the shape factor lies in (0, 1] and only the density at the
// denser end can be large. (Taken from the start, a ray that descends far into the fog forms
// e^(−x) × e^(a) — one beyond f32, the other below it — although τ is moderate.)
fn layer_optical_depth(layer: vec4<f32>, origin_y: f32, dir_y: f32, t0: f32, t1: f32) -> f32 {
    let len = max(t1 - t0, 0.0);
    if layer.x <= 0.0 || len <= 0.0 {
        return 0.0;
    }
    let x = layer.y * dir_y * len; // how much the exponent falls along the segment
    var dense_y: f32;
    var shape: f32; // (1 − e^(−|x|)) / |x|, which tends to 1 as x → 0
    if abs(x) < SERIES_THRESHOLD {
        dense_y = origin_y + dir_y * t0;
        shape = 1.0 - x * (0.5 - x * (1.0 / 6.0 - x / 24.0));
    } else if x > 0.0 {
        dense_y = origin_y + dir_y * t0;
        shape = (1.0 - exp(-x)) / x;
    } else {
        dense_y = origin_y + dir_y * t1;
        shape = (1.0 - exp(x)) / -x;
    }
    let a = -layer.y * (dense_y - layer.z); // the density's exponent at the denser end
    if a < MAX_DIRECT_EXPONENT {
        return min(layer.x * exp(a) * len * shape, MAX_OPTICAL_DEPTH);
    }
    // Fog e^60 times denser than at its reference height: summed in logarithms, then capped.
    let ln_tau = log(layer.x) + a + log(len) + log(shape);
    return min(exp(min(ln_tau, log(MAX_OPTICAL_DEPTH) + 1.0)), MAX_OPTICAL_DEPTH);
}
// ANCHOR_END: optical_depth

// ANCHOR: layer_medium
// Two layers as a medium at height h: grey σt = ρ₁(h) + ρ₂(h), σs = albedo · σt, one lobe of
// asymmetry g; no emission. Horizontally uniform: only the height matters.
fn height_layers_medium(l1: vec4<f32>, l2: vec4<f32>, h: f32, albedo: vec3<f32>, g: f32) -> Medium {
    let t = layer_density(l1, h) + layer_density(l2, h);
    return medium_of(vec3(t), albedo * t, vec3(0.0), g, PHASE_HENYEY_GREENSTEIN);
}

// The largest ρ over heights [lo, hi]: ρ is monotone in h (for either sign of the falloff), so
// the larger of its ends.
fn layer_majorant(layer: vec4<f32>, lo: f32, hi: f32) -> f32 {
    return max(layer_density(layer, lo), layer_density(layer, hi)) * MAJORANT_MARGIN;
}
// ANCHOR_END: layer_medium
