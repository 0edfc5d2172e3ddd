// The clouds' shadow on everything below them: a top-down transmittance map on the ground plane
// (Schneider & Vos 2015, "The Real-time Volumetric Cloudscapes of Horizon Zero Dawn"; Hillaire
// 2016, "Physically Based Sky, Atmosphere and Cloud Rendering in Frostbite"), built by the
// chapter that draws the clouds (its shadow-map pass). `fogbook_core::cloud_shadow` owns the
// layout; without a publishing chapter a stand-in with `enabled = 0` is bound.
// Needs a `group(1)` free in the pass that imports it.

struct CloudShadow {
    centre_xz: vec2<f32>,    // the map's centre on the ground (x, z; m)
    extent_m: f32,           // side of the map's square (m)
    enabled: u32,            // 0: no clouds publish a shadow
    towards_sun: vec3<f32>,  // the direction the map was built along (unit, y ≥ sin 3°)
    strength: f32,           // 0: no shadow .. 1: the clouds' transmittance
}

@group(1) @binding(0) var<uniform> cloud_shadow: CloudShadow;
@group(1) @binding(1) var cloud_shadow_map: texture_2d<f32>;
@group(1) @binding(2) var cloud_shadow_sampler: sampler;

// ANCHOR: cloud_shadow
// The sun's transmittance through the clouds at scene point p (1 outside the map).
fn cloud_shadow_at(p: vec3<f32>) -> f32 {
    if cloud_shadow.enabled == 0u {
        return 1.0;
    }
    // The ground point whose ray towards the sun passes through p: below the cloud base both
    // cross the same clouds, so the map's value there is p's (exact). The builder keeps
    // towards_sun.y ≥ sin 3°, so the division is safe.
    let l = cloud_shadow.towards_sun;
    let ground = p.xz - l.xz * (p.y / l.y);
    let uv = (ground - cloud_shadow.centre_xz) / cloud_shadow.extent_m + 0.5;
    if any(uv < vec2(0.0)) || any(uv > vec2(1.0)) {
        return 1.0;
    }
    let t = textureSampleLevel(cloud_shadow_map, cloud_shadow_sampler, uv, 0.0).r;
    return mix(1.0, clamp(t, 0.0, 1.0), cloud_shadow.strength);
}
// ANCHOR_END: cloud_shadow
