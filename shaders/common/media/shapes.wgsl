// Local fog volumes, shapes: where a ray crosses a box, an ellipsoid or a cylinder, and the
// optical depth along a piece of the crossing. Taught with the local fog volumes; kept in
// common because the froxel fog's injection reads the same volumes as the local fog volumes'
// analytic pass.
// Intersection in the volume's local frame scaled to unit size (the unit cube, sphere, cylinder),
// where t is unchanged: the slab test (Kay & Kajiya 1986; Williams et al. 2005) and the quadrics
// from the closest point to the centre or axis first (Haines et al., "Precision Improvements for
// Ray/Sphere Intersection", Ray Tracing Gems 2019), which avoids the cancellation in b² − ac.
// Optical depth: the closed form of a height falloff along the ray (the height fog's
// `layer_optical_depth` in common/height_layer.wgsl, after Wenzel 2006) where the volume has no
// edge fade and no density texture, else the midpoint rule in FADE_STEPS steps (not jittered:
// nothing here accumulates over frames) of `fog_volume_weight` times the texture
// (common/media/fog_volume_density.wgsl).
// Mirrors the local fog volumes' f64 reference (their crate's reference.rs).
// #import common/media/fog_volume.wgsl
// #import common/media/fog_volume_density.wgsl
// #import common/height_layer.wgsl

const FADE_STEPS: u32 = 32u;
const NO_HIT: vec2<f32> = vec2(1.0, -1.0);

// ANCHOR: chord
// The interval of t where o + t·d lies inside the volume (x > y when the line misses it).
fn fog_volume_chord(v: FogVolume, o: vec3<f32>, d: vec3<f32>) -> vec2<f32> {
    let half = fog_volume_half(v);
    let lo = fog_volume_local_dir(v, o - v.centre.xyz) / half;
    let ld = fog_volume_local_dir(v, d) / half;
    var t = vec2(-3.0e38, 3.0e38);
    let cylinder = fog_volume_is(v, FOG_SHAPE_CYLINDER);
    let ellipsoid = fog_volume_is(v, FOG_SHAPE_ELLIPSOID);
    // Slabs |x| ≤ 1: all three axes of a box, the caps (y) of a cylinder.
    for (var a = 0; a < 3; a++) {
        if ellipsoid || (cylinder && a != 1) {
            continue;
        }
        if ld[a] == 0.0 {
            if abs(lo[a]) > 1.0 {
                return NO_HIT;
            }
            continue;
        }
        let ta = (-1.0 - lo[a]) / ld[a];
        let tb = (1.0 - lo[a]) / ld[a];
        t = vec2(max(t.x, min(ta, tb)), min(t.y, max(ta, tb)));
    }
    // ANCHOR_END: chord
    // ANCHOR: chord_quadrics
    // The unit sphere, or the cylinder's side x² + z² ≤ 1.
    if ellipsoid || cylinder {
        let mask = select(vec3(1.0), vec3(1.0, 0.0, 1.0), cylinder);
        let po = lo * mask;
        let pd = ld * mask;
        let a = dot(pd, pd);
        if a == 0.0 {
            if dot(po, po) > 1.0 {
                return NO_HIT;
            }
        } else {
            let tm = -dot(po, pd) / a;
            let c = po + pd * tm; // the closest point to the centre (axis)
            let k = 1.0 - dot(c, c);
            if k < 0.0 {
                return NO_HIT;
            }
            let h = sqrt(k / a);
            t = vec2(max(t.x, tm - h), min(t.y, tm + h));
        }
    }
    return t;
}
// ANCHOR_END: chord_quadrics

// ANCHOR: faded_march
// The midpoint rule over [a, b] of `fog_volume_weight` through an edge fade (no texture),
// strength-reduced: the
// sample point moves by a constant step in the volume's frame scaled to unit size, so each step
// is three additions and the shape's distance there; the falloff's exponential is a geometric
// sequence, one multiplication a step, wherever its exponent stays under FOG_MAX_EXPONENT (else
// each step takes its own, capped, as the weight does).
fn fog_volume_march(v: FogVolume, o: vec3<f32>, d: vec3<f32>, a: f32, b: f32, steps: u32) -> f32 {
    if steps == 0u || b <= a {
        return 0.0;
    }
    let h = (b - a) / f32(steps);
    let half = fog_volume_half(v);
    let first = a + 0.5 * h;
    var q = fog_volume_local_dir(v, o + d * first - v.centre.xyz) / half;
    let dq = fog_volume_local_dir(v, d) * h / half;
    let k = max(v.emission_falloff.w, 0.0);
    let x0 = -k * (o.y + d.y * first - (v.centre.y - half.y)); // the exponent at the first point
    let dx = -k * d.y * h;
    let geometric = max(x0, x0 + dx * f32(steps - 1u)) <= FOG_MAX_EXPONENT;
    var e = exp(min(x0, FOG_MAX_EXPONENT));
    let ratio = exp(dx);
    let per_fade = 1.0 / v.half_size.w; // > 0: without a fade the closed form is taken
    let cylinder = fog_volume_is(v, FOG_SHAPE_CYLINDER);
    let ellipsoid = fog_volume_is(v, FOG_SHAPE_ELLIPSOID);
    let m = select(min(half.x, min(half.y, half.z)), min(half.x, half.z), cylinder);
    var sum = 0.0;
    for (var i = 0u; i < steps; i++) {
        // Distance from the surface inwards (m), as `fog_volume_weight` takes it (here from the
        // scaled point, with the shape tests hoisted out of the loop).
        var inside: f32;
        if cylinder {
            inside = min((1.0 - length(q.xz)) * m, half.y * (1.0 - abs(q.y)));
        } else if ellipsoid {
            inside = (1.0 - length(q)) * m;
        } else {
            let s = half * (1.0 - abs(q));
            inside = min(s.x, min(s.y, s.z));
        }
        let fade = clamp(inside * per_fade, 0.0, 1.0);
        if geometric {
            sum += fade * e;
            e *= ratio;
        } else {
            sum += fade * exp(min(x0 + dx * f32(i), FOG_MAX_EXPONENT));
        }
        q += dq;
    }
    return min(sum * h, MAX_OPTICAL_DEPTH); // as the closed form caps it
}
// ANCHOR_END: faded_march

// ANCHOR: unit_depth
// ∫ weight · texture dt over [a, b] (a piece of the crossing): the optical depth at unit density.
// Without an edge fade or a texture the weight is e^(−k (y − y₀)) along the whole crossing, in
// closed form; with either, the midpoint rule in `steps` steps (a textured volume has no closed
// form: a short march inside the crossing).
fn fog_volume_inside_depth(v: FogVolume, o: vec3<f32>, d: vec3<f32>, a: f32, b: f32, steps: u32) -> f32 {
    if b <= a {
        return 0.0;
    }
    let textured = fog_volume_textured(v);
    if v.half_size.w <= 0.0 && !textured {
        let y0 = v.centre.y - fog_volume_half(v).y;
        return layer_optical_depth(vec4(1.0, max(v.emission_falloff.w, 0.0), y0, 0.0), o.y, d.y, a, b);
    }
    if !textured {
        return fog_volume_march(v, o, d, a, b, steps);
    }
    let h = (b - a) / f32(steps);
    var sum = 0.0;
    for (var i = 0u; i < steps; i++) {
        let p = o + d * (a + (f32(i) + 0.5) * h);
        sum += fog_volume_weight(v, p) * fog_volume_texture_factor(v, p);
    }
    return min(sum * h, MAX_OPTICAL_DEPTH); // as the closed form caps it
}

fn fog_volume_unit_depth(v: FogVolume, o: vec3<f32>, d: vec3<f32>, a: f32, b: f32) -> f32 {
    return fog_volume_inside_depth(v, o, d, a, b, FADE_STEPS);
}

// ANCHOR_END: unit_depth
