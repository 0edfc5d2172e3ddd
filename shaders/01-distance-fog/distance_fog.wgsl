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
// #import common/distance_fog_functions.wgsl
// ANCHOR_END: imports

@group(2) @binding(0) var<uniform> fog: FogParams;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    // ANCHOR: per_pixel
    let pixel = vec2<i32>(id.xy);
    let scene = textureLoad(scene_color, pixel, 0).rgb;
    let d = textureLoad(scene_distance, pixel, 0).r;
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    let amount = fog_amount(d);
    let a = fog.color.a;
    let view = fog.view;

    // The glow is only needed by the views that show it; the glow-shadow view marches the
    // shadow map everywhere, to show the whole lit-share field.
    var masked = MaskedGlow(vec3(0.0), 1.0);
    if view == VIEW_FINAL || view >= VIEW_FOG_COLOR {
        masked = masked_glow(dir, d, vec2<f32>(id.xy), view == VIEW_GLOW_SHADOW);
    }
    let glow = masked.glow;
    let fog_color = fog.color.rgb + glow;

    // ANCHOR_END: per_pixel
    switch view {
        case VIEW_FINAL: { write_color(id.xy, distance_fog_composite(scene, amount, glow)); }
        case VIEW_SCENE: { write_color(id.xy, scene); }
        case VIEW_DISTANCE: { write_scalar(id.xy, d); }
        case VIEW_FOG_FACTOR: { write_scalar(id.xy, a * dot(amount.extinction, vec3(1.0 / 3.0))); }
        case VIEW_EXTINCTION_R, VIEW_EXTINCTION_G, VIEW_EXTINCTION_B: { write_scalar(id.xy, a * amount.extinction[view - VIEW_EXTINCTION_R]); }
        case VIEW_INSCATTERING_R, VIEW_INSCATTERING_G, VIEW_INSCATTERING_B: { write_scalar(id.xy, a * amount.inscattering[view - VIEW_INSCATTERING_R]); }
        case VIEW_FOG_COLOR: { write_color(id.xy, fog_color); }
        case VIEW_GLOW: { write_color(id.xy, glow); }
        case VIEW_GLOW_SHADOW: { write_scalar(id.xy, masked.lit); }
        default: { write_scalar(id.xy, 0.0); }
    }
}
