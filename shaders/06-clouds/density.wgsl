// The cloud layer's density after Schneider & Vos 2015 ("The Real-time Volumetric Cloudscapes
// of Horizon Zero Dawn") and Schneider 2017 ("Nubis"): a spherical shell on chapter 3's planet;
// in it, the base-shape noise shaped by a height gradient per cloud type (stratus,
// stratocumulus, cumulus, from the weather map's g), cut down to the weather map's coverage, its
// edges eroded by the detail noise; the whole field carried by the wind.
// Also the shell's geometry: where a ray enters and leaves it.
// #import common/scene_inputs.wgsl
// #import common/sky_light.wgsl
// #import common/media/medium.wgsl

// ANCHOR: uniform
struct CloudParams {
    shell: vec4<f32>,   // x: planet radius (m); y: layer bottom altitude (m); z: thickness (m); w: march cap (m)
    shape: vec4<f32>,   // x: coverage; y: cloud type; z: type variation; w: detail erosion
    scales: vec4<f32>,  // x, y, z: 1 / tile size of the base shape, detail and weather map (1/m); w: curl strength (m)
    wind: vec4<f32>,    // xy: the field's offset along x and z (m); z: shear (m per metre of height); w: heading (rad)
    medium: vec4<f32>,  // x: extinction σt at density 1 (1/m); y: albedo; z: ambient factor; w: sun factor
    phase: vec4<f32>,   // x: forward g; y: backward g; z: forward weight; w: 1 = powder
    octaves: vec4<f32>, // x: a (extinction); y: b (contribution); z: c (eccentricity); w: cone spread
    light: vec4<f32>,   // x: light march length (m); y: ground albedo; z: noise slice (0..1); w: aerial perspective (0/1)
    counts: vec4<u32>,  // x: view steps; y: light steps; z: octaves; w: the debug view
    flags: vec4<u32>,   // x: 1 = slab (constant density); y: 1 = jitter; z: 1 = draw the clouds; w: shadow-map steps (shadow_map.wgsl)
    // The real-time mode's (realtime.wgsl): xy this frame's pixel in each 4×4 block; z: 1 = the
    // history holds last frame; w: 1 = reproject it (0: each pixel keeps its own).
    realtime: vec4<u32>,
    // xy: the wind's step since last frame along x and z (m); z: neighbourhood margin (fraction
    // of the box); w: scene-distance tolerance (relative).
    reprojection: vec4<f32>,
}
// ANCHOR_END: uniform

// Bindings 24–29 of group 2, the media layer's place for a cloud layer's field
// (fogbook_core::media::point), so that a pass sampling every medium binds it beside the fogs'.
@group(2) @binding(24) var<uniform> clouds: CloudParams;
@group(2) @binding(25) var base_noise: texture_3d<f32>;
@group(2) @binding(26) var detail_noise: texture_3d<f32>;
@group(2) @binding(27) var weather_map: texture_2d<f32>;
@group(2) @binding(28) var noise_sampler: sampler; // trilinear, repeating
@group(2) @binding(29) var curl_noise: texture_2d<f32>; // rg: ½ + ½·curl, tiled with the base shape

const MAX_OCTAVES: u32 = 3u;

// Chapter 3's planet when the sky is in the stack (its ground radius, and its
// `camera_altitude_m` as the altitude of the scene's y = 0), else the chapter's own radius with
// y = 0 on the ground.
fn planet_radius() -> f32 {
    return select(clouds.shell.x, shared_atmosphere.radii.x, sky_in_stack());
}

fn planet_centre() -> vec3<f32> {
    let origin_altitude = select(0.0, shared_atmosphere.radii.z, sky_in_stack());
    return vec3(0.0, -(planet_radius() + origin_altitude), 0.0);
}

fn layer_bottom_radius() -> f32 {
    return planet_radius() + clouds.shell.y;
}

fn layer_top_radius() -> f32 {
    return planet_radius() + clouds.shell.y + clouds.shell.z;
}

// ANCHOR: segment
// Distances (near, far) along a unit ray from a point at radius r whose direction has cosine μ
// with the zenith, to a sphere of radius s; far < 0 when the ray misses it or it lies behind.
// (s − r)(s + r) rather than s² − r²: near the surface the naive difference loses every digit.
fn sphere_hits(r: f32, mu: f32, s: f32) -> vec2<f32> {
    let b = r * mu;
    let disc = b * b + (s - r) * (s + r);
    if disc < 0.0 {
        return vec2(-1.0, -1.0);
    }
    let q = sqrt(disc);
    return vec2(-b - q, -b + q);
}

// The first stretch [t0, t1] of the ray o + t·dir (t ≥ 0) inside the layer, up to `end` (the
// scene's surface); t1 ≤ t0 when there is none. Rays that reach the ground first see none.
fn layer_segment(o: vec3<f32>, dir: vec3<f32>, end: f32) -> vec2<f32> {
    let rel = o - planet_centre();
    let r = length(rel);
    let mu = dot(rel, dir) / r;
    let top = sphere_hits(r, mu, layer_top_radius());
    if top.y <= 0.0 {
        return vec2(0.0, -1.0);
    }
    var t0 = max(top.x, 0.0);
    var t1 = top.y;
    let bottom = sphere_hits(r, mu, layer_bottom_radius());
    if bottom.y > t0 {
        if bottom.x > t0 {
            t1 = min(t1, bottom.x); // from above or inside: up to where the ray dips below the layer
        } else {
            t0 = bottom.y; // from below: from where the ray rises out of the bottom sphere
        }
    }
    let ground = sphere_hits(r, mu, planet_radius());
    if ground.y > 0.0 && max(ground.x, 0.0) < t0 {
        return vec2(0.0, -1.0);
    }
    t1 = min(min(t1, end), t0 + clouds.shell.w);
    return vec2(t0, t1);
}
// ANCHOR_END: segment

// Height in the layer, 0 at its bottom and 1 at its top, and the distance from the centre.
fn radius_at(p: vec3<f32>) -> f32 {
    return length(p - planet_centre());
}

fn height_fraction(r: f32) -> f32 {
    return clamp((r - layer_bottom_radius()) / max(clouds.shell.z, 1.0), 0.0, 1.0);
}

fn remap(x: f32, lo0: f32, hi0: f32, lo1: f32, hi1: f32) -> f32 {
    return lo1 + (x - lo0) * (hi1 - lo1) / max(hi0 - lo0, 1e-5);
}

// ANCHOR: height_gradient
// Density against height fraction h for a cloud type t: stratus (0) low and flat, stratocumulus
// (0.5) a little taller, cumulus (1) through the whole layer; each a ramp up at the bottom and a
// ramp down at its top (Schneider & Vos 2015's gradients), blended between the three.
fn type_gradient(h: f32, rise: vec2<f32>, fall: vec2<f32>) -> f32 {
    return smoothstep(rise.x, rise.y, h) * (1.0 - smoothstep(fall.x, fall.y, h));
}

fn height_gradient(h: f32, cloud_type: f32) -> f32 {
    let stratus = type_gradient(h, vec2(0.0, 0.08), vec2(0.15, 0.25));
    let stratocumulus = type_gradient(h, vec2(0.0, 0.15), vec2(0.35, 0.55));
    let cumulus = type_gradient(h, vec2(0.0, 0.1), vec2(0.65, 0.95));
    let t = clamp(cloud_type, 0.0, 1.0) * 2.0;
    return select(mix(stratocumulus, cumulus, t - 1.0), mix(stratus, stratocumulus, t), t < 1.0);
}
// ANCHOR_END: height_gradient

// Where the noise is looked up: scene x and z and the height in the layer (m), moved by the
// wind, the top leaning downwind (shear).
fn noise_position(p: vec3<f32>, height_m: f32) -> vec3<f32> {
    let shift = vec3(clouds.wind.x, 0.0, clouds.wind.y);
    let downwind = vec3(cos(clouds.wind.w), 0.0, sin(clouds.wind.w));
    return vec3(p.x, height_m, p.z) - shift - downwind * (clouds.wind.z * height_m);
}

fn weather_at(q: vec3<f32>) -> vec4<f32> {
    return textureSampleLevel(weather_map, noise_sampler, q.xz * clouds.scales.z, 0.0);
}

// The weather map's coverage moved by the `coverage` parameter: 0 clears every cloud, 1 covers
// the sky, ½ keeps the map as it is.
fn coverage_at(weather: vec4<f32>) -> f32 {
    return clamp(weather.r + 2.0 * clouds.shape.x - 1.0, 0.0, 1.0);
}

// ANCHOR: density
// Cloud density (0..1, × σt for the extinction) at p, radius r. `detailed`: erode with the detail
// noise (far light-march samples skip it), at the mip whose texels match the step `footprint_m`.
fn cloud_density(p: vec3<f32>, r: f32, detailed: bool, footprint_m: f32) -> f32 {
    let h = height_fraction(r);
    if r < layer_bottom_radius() || r > layer_top_radius() {
        return 0.0;
    }
    if clouds.flags.x == 1u {
        return 1.0; // the slab: constant density, no noise (the reference check)
    }
    let q = noise_position(p, h * clouds.shell.z);
    let weather = weather_at(q);
    let coverage = coverage_at(weather);
    if coverage <= 0.0 {
        return 0.0;
    }
    let cloud_type = clamp(clouds.shape.y + (weather.g - 0.5) * clouds.shape.z, 0.0, 1.0);
    let n = textureSampleLevel(base_noise, noise_sampler, q * clouds.scales.x, 0.0);
    // The Worley sums build the low-frequency fbm that the Perlin–Worley channel is cut by.
    let low_fbm = n.g * 0.625 + n.b * 0.25 + n.a * 0.125;
    var base = clamp(remap(n.r, low_fbm - 1.0, 1.0, 0.0, 1.0), 0.0, 1.0) * height_gradient(h, cloud_type);
    // Coverage: keep the part of the shape above 1 − coverage, and scale it down with it.
    base = clamp(remap(base, 1.0 - coverage, 1.0, 0.0, 1.0), 0.0, 1.0) * coverage;
    if base <= 0.0 || !detailed {
        return base * weather.b;
    }
    let texels = footprint_m * clouds.scales.y * f32(textureDimensions(detail_noise).x);
    let lod = log2(max(texels, 1.0));
    // ANCHOR: curl
    // Curl noise swirls the detail's lookup (Schneider & Vos 2015), most at the layer's bottom.
    var qd = q;
    if clouds.scales.w > 0.0 {
        let c = textureSampleLevel(curl_noise, noise_sampler, q.xz * clouds.scales.x, 0.0).xy * 2.0 - 1.0;
        qd += vec3(c.x, 0.0, c.y) * clouds.scales.w * (1.0 - h);
    }
    // ANCHOR_END: curl
    let d = textureSampleLevel(detail_noise, noise_sampler, qd * clouds.scales.y, lod).rgb;
    let high_fbm = d.r * 0.625 + d.g * 0.25 + d.b * 0.125;
    // Wispy at the bottom, billowy at the top: the detail is inverted with height.
    let erosion = mix(high_fbm, 1.0 - high_fbm, clamp(h * 10.0, 0.0, 1.0)) * clouds.shape.w;
    return clamp(remap(base, erosion, 1.0, 0.0, 1.0), 0.0, 1.0) * weather.b;
}
// ANCHOR_END: density

// ANCHOR: cloud_medium
// The clouds as a medium of the media layer (common/media/medium.wgsl), at p with the detail
// noise at its finest mip: σt = σt,1 · density, σs = albedo · σt, the two HG lobes' mean g
// (w g_f + (1 − w) g_b), the forward lobe kept. The march (march.wgsl, lighting.wgsl) calls
// `cloud_density` itself, hand-fused with its step's footprint and its skipping of the detail,
// and does not go through this.
fn cloud_medium_at(p: vec3<f32>) -> Medium {
    let t = clouds.medium.x * cloud_density(p, radius_at(p), true, 0.0);
    let w = clouds.phase.z;
    var m = medium_of(vec3(t), vec3(clouds.medium.y * t), vec3(0.0), mix(clouds.phase.y, clouds.phase.x, w), PHASE_HENYEY_GREENSTEIN);
    m.lobe.g = clouds.phase.x;
    return m;
}

// A bound over the box [box_min, box_max]: the density is at most 1 (clamped, times a weather
// channel ≤ 1) inside the shell and 0 outside it, so σt,1 where the box's radii meet the shell's.
fn cloud_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    let c = planet_centre();
    let near = length(clamp(c, box_min, box_max) - c);
    let far = length(max(abs(box_min - c), abs(box_max - c)));
    if far < layer_bottom_radius() || near > layer_top_radius() {
        return majorant_none();
    }
    return Majorant(vec3(max(clouds.medium.x, 0.0)));
}
// ANCHOR_END: cloud_medium
