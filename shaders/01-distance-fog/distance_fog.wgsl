// Distance fog: fog as a function of the true camera-to-surface distance d.
//   linear               f = 1 − clamp((end − d) / (end − start), 0, 1)
//   exponential          f = 1 − e^(−ρ d)
//   exponential squared  f = 1 − e^(−(ρ d)²)
//   atmospheric          ext = 1 − e^(−d β_e), ins = 1 − e^(−d β_i)  (per RGB channel)
// and out = c (1 − a·ext) + fog_colour · a·ins, where a is the fog colour's alpha. The first
// three use ext = ins = f, which makes the blend the classic mix(c, fog, a·f).
// The fog colour gains a glow towards the sun, max(v·l, 0)^exponent (the "directional
// inscattering" of OpenGL-era fog, as in Bevy's DistanceFog), masked by the sun's shadow map:
// the ray is marched in `shadow_steps` jittered steps and each step's shadow test is weighted by
// the share of the fog it holds, f(t_{i+1}) − f(t_i), i.e. single scattering in the same medium.
// Reference: Koschmieder (1924) for visibility; Bevy `bevy_pbr/src/fog.rs` for the model.
// Output: the debug view selected by `fog.view` into `view_out`.
// ANCHOR: imports
// #import common/scene_inputs.wgsl
// #import common/shadow.wgsl
// #import common/noise.wgsl
// ANCHOR_END: imports

// ANCHOR: uniform
struct FogParams {
    color: vec4<f32>,        // rgb: fog colour (linear); a: how much of the fog is applied
    extinction: vec4<f32>,   // rgb: β_e (1/m), atmospheric falloff only
    inscattering: vec4<f32>, // rgb: β_i (1/m), atmospheric falloff only
    glow_color: vec4<f32>,   // rgb: glow colour; a: its weight
    shape: vec4<f32>,        // x: start (m); y: end (m); z: density ρ (1/m); w: glow exponent
    march: vec4<f32>,        // x: distance (m) past which 99% of the fog lies; shadow marching stops there
    mode: vec4<u32>,         // x: falloff (0 linear, 1 exp, 2 exp², 3 atmospheric);
                             // y: shadow-mask the glow; z: shadow steps; w: debug view
}
// ANCHOR_END: uniform

@group(2) @binding(0) var<uniform> fog: FogParams;

const FALLOFF_LINEAR: u32 = 0u;
const FALLOFF_EXPONENTIAL: u32 = 1u;
const FALLOFF_EXPONENTIAL_SQUARED: u32 = 2u;

// ANCHOR: falloff
// Extinction (how much of the surface is hidden) and inscattering (how much fog colour is
// added), per channel, at distance d.
struct FogAmount {
    extinction: vec3<f32>,
    inscattering: vec3<f32>,
}

fn fog_amount(d: f32) -> FogAmount {
    var f: f32;
    switch fog.mode.x {
        case FALLOFF_LINEAR: {
            let span = max(fog.shape.y - fog.shape.x, 1e-6);
            f = 1.0 - clamp((fog.shape.y - d) / span, 0.0, 1.0);
        }
        case FALLOFF_EXPONENTIAL: {
            f = 1.0 - exp(-fog.shape.z * d);
        }
        case FALLOFF_EXPONENTIAL_SQUARED: {
            let x = fog.shape.z * d;
            f = 1.0 - exp(-x * x);
        }
        default: { // atmospheric: separate coefficients per channel
            return FogAmount(
                vec3(1.0) - exp(-d * fog.extinction.rgb),
                vec3(1.0) - exp(-d * fog.inscattering.rgb),
            );
        }
    }
    return FogAmount(vec3(f), vec3(f));
}
// ANCHOR_END: falloff

// ANCHOR: glow
// Share of the fog in front of the surface that the sun reaches (1 without shadow masking).
fn glow_lit_fraction(dir: vec3<f32>, d: f32, pixel: vec2<f32>) -> f32 {
    if fog.mode.y == 0u {
        return 1.0;
    }
    let steps = max(fog.mode.z, 1u);
    let jitter = interleaved_gradient_noise(pixel);
    let t_end = min(d, fog.march.x);
    var lit = 0.0;
    var previous = 0.0;
    for (var i = 1u; i <= steps; i++) {
        let t = t_end * f32(i) / f32(steps);
        let f_here = dot(fog_amount(t).inscattering, vec3(1.0 / 3.0));
        let weight = f_here - previous; // the fog held between the previous sample and this one
        previous = f_here;
        let p = frame.camera_pos.xyz + dir * (t_end * (f32(i) - jitter) / f32(steps));
        lit += weight * shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, 0.002);
    }
    // Fog beyond the marched range (at most 1% of it) counts as lit.
    let total = dot(fog_amount(d).inscattering, vec3(1.0 / 3.0));
    lit += total - previous;
    return select(1.0, lit / total, total > 1e-6);
}

// Radiance the sun adds to the fog colour when looking towards it.
fn glow_term(dir: vec3<f32>) -> vec3<f32> {
    let towards_sun = max(dot(dir, frame.sun_dir.xyz), 0.0);
    return pow(towards_sun, fog.shape.w) * frame.sun_color.rgb * fog.glow_color.rgb * fog.glow_color.a;
}
// ANCHOR_END: glow

// Debug views, in the order of `DistanceFog::views()`.
const VIEW_FINAL: u32 = 0u;
const VIEW_SCENE: u32 = 1u;
const VIEW_DISTANCE: u32 = 2u;
const VIEW_FOG_FACTOR: u32 = 3u;
const VIEW_EXTINCTION_R: u32 = 4u;
const VIEW_INSCATTERING_R: u32 = 7u;
const VIEW_FOG_COLOR: u32 = 10u;
const VIEW_GLOW: u32 = 11u;
const VIEW_GLOW_SHADOW: u32 = 12u;

// ANCHOR: main
@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let pixel = vec2<i32>(id.xy);
    let scene = textureLoad(scene_color, pixel, 0).rgb;
    let d = textureLoad(scene_distance, pixel, 0).r;
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    let amount = fog_amount(d);
    let a = fog.color.a;
    let view = fog.mode.w;

    // The glow is only needed by the views that show it.
    var glow = vec3(0.0);
    var lit = 1.0;
    if view == VIEW_FINAL || view >= VIEW_FOG_COLOR {
        lit = glow_lit_fraction(dir, d, vec2<f32>(id.xy));
        glow = glow_term(dir) * lit;
    }
    let fog_color = fog.color.rgb + glow;

    switch view {
        case VIEW_FINAL: {
            write_color(id.xy, scene * (1.0 - a * amount.extinction) + fog_color * a * amount.inscattering);
        }
        case VIEW_SCENE: { write_color(id.xy, scene); }
        case VIEW_DISTANCE: { write_scalar(id.xy, d); }
        case VIEW_FOG_FACTOR: { write_scalar(id.xy, a * dot(amount.extinction, vec3(1.0 / 3.0))); }
        case 4u, 5u, 6u: { write_scalar(id.xy, a * amount.extinction[view - VIEW_EXTINCTION_R]); }
        case 7u, 8u, 9u: { write_scalar(id.xy, a * amount.inscattering[view - VIEW_INSCATTERING_R]); }
        case VIEW_FOG_COLOR: { write_color(id.xy, fog_color); }
        case VIEW_GLOW: { write_color(id.xy, glow); }
        case VIEW_GLOW_SHADOW: { write_scalar(id.xy, lit); }
        default: { write_scalar(id.xy, 0.0); }
    }
}
// ANCHOR_END: main
