// A participating medium's shadow on the scene: the sun's transmittance through a published
// light volume (the smoke's), as a deep shadow map in world space (Lokovic and Veach 2000,
// "Deep Shadow Maps"; here the map is a 3D grid of optical depth towards the sun, like the
// light volumes of Wrenninge 2012, "Production Volume Rendering"). `fogbook_core::volume_shadow`
// owns the layout; without a publishing chapter a stand-in with `enabled = 0` is bound.
// Needs a `group(2)` free in the pass that imports it.

struct VolumeShadow {
    box_min: vec3<f32>,   // lowest corner of the box (m)
    box_side_m: f32,      // side of the cubic box (m)
    tint: vec3<f32>,      // optical depth multiplier per colour channel
    enabled: u32,         // 0: no medium publishes a shadow
}

@group(2) @binding(0) var<uniform> volume_shadow: VolumeShadow;
@group(2) @binding(1) var volume_shadow_depth: texture_3d<f32>;
@group(2) @binding(2) var volume_shadow_sampler: sampler;

// ANCHOR: volume_shadow
// Transmittance towards the sun (unit `towards_sun`) from scene point p, per colour channel.
fn volume_shadow_at(p: vec3<f32>, towards_sun: vec3<f32>) -> vec3<f32> {
    if volume_shadow.enabled == 0u {
        return vec3(1.0);
    }
    // Where the ray towards the sun enters the box (p itself when p is inside).
    let lo = volume_shadow.box_min;
    let hi = lo + vec3(volume_shadow.box_side_m);
    let inv = 1.0 / select(towards_sun, vec3(1e-9), abs(towards_sun) < vec3(1e-9));
    let t0 = (lo - p) * inv;
    let t1 = (hi - p) * inv;
    let near = max(max(min(t0.x, t1.x), min(t0.y, t1.y)), min(t0.z, t1.z));
    let far = min(min(max(t0.x, t1.x), max(t0.y, t1.y)), max(t0.z, t1.z));
    if far <= max(near, 0.0) {
        return vec3(1.0);
    }
    let entry = p + towards_sun * max(near, 0.0);
    let n = f32(textureDimensions(volume_shadow_depth).x);
    let half_texel = 0.5 / n;
    let uv = clamp((entry - lo) / volume_shadow.box_side_m, vec3(half_texel), vec3(1.0 - half_texel));
    let tau = max(textureSampleLevel(volume_shadow_depth, volume_shadow_sampler, uv, 0.0).r, 0.0);
    return exp(-tau * volume_shadow.tint);
}
// ANCHOR_END: volume_shadow
