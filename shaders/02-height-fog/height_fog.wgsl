// Analytic exponential height fog: density ρ(h) = d · e^(−k (h − h₀)) per layer, two layers,
// integrated in closed form along each view ray from the start distance to the surface:
//   τ = ρ(y₀) · L · (1 − e^(−x)) / x,   x = k · v_y · L
// with the series 1 − x/2 + x²/6 − x³/24 where |x| < 0.01 (horizontal rays, k → 0), taken from
// the segment's denser end so that nothing overflows f32, and τ capped at 1e4. Fog = min(1 − e^(−τ), max opacity);
// surfaces beyond the cutoff get none. Sun inscattering follows the engines' "directional
// inscattering": colour · max(v·l, 0)^n · (1 − e^(−τ_dir)), τ_dir from its own start distance.
// References: Wenzel, "Real-time Atmospheric Effects in Games" (SIGGRAPH 2006 course) for the
// closed form; Unreal Engine's ExponentialHeightFog for the parameter set.
// Stage: height fog (after the sky and distance fog of a stack). Reads the colour the stage
// before left (the scene's when alone); with `use_sky_color` the fog colour is the frame's
// ambient light, which the sky writes when it is in the stack.
// Output: the debug view selected by `height.view` into `view_out`. The parameter block, the
// optical depths along a ray and the fog's terms live in common/height_fog_functions.wgsl.
// #import common/scene_inputs.wgsl
// #import common/height_fog_functions.wgsl

@group(2) @binding(0) var<uniform> height: HeightFogParams;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

// ANCHOR: density_profile
// The density-profile view: ρ(h) as a plot, height up the image, density across it (linear,
// full width = the largest density in the range). Each curve is drawn as the span it covers
// between this pixel row's top and bottom edges, so steep and flat parts both stay connected.
fn on_curve(pixel_x: f32, x_top: f32, x_bottom: f32) -> bool {
    return pixel_x >= min(x_top, x_bottom) - 1.0 && pixel_x <= max(x_top, x_bottom) + 1.0;
}

fn profile_height(y: f32, rows: f32) -> f32 {
    return mix(height.plot.y, height.plot.x, y / rows);
}

fn density_profile(pixel: vec2<f32>, size: vec2<f32>) -> vec3<f32> {
    let h = profile_height(pixel.y + 0.5, size.y);
    let h_top = profile_height(pixel.y, size.y);
    let h_bottom = profile_height(pixel.y + 1.0, size.y);
    let px_per_m = size.y / (height.plot.y - height.plot.x);
    let scale = size.x * 0.95 / max(height.plot.z, 1e-30);
    var c = vec3(0.02);
    if abs(h) * px_per_m < 0.75 { c = vec3(0.35); }                                   // ground
    if abs(h - frame.camera_pos.y) * px_per_m < 0.75 { c = vec3(0.9, 0.8, 0.1); }     // eye height
    let l1 = vec2(layer_density(height.layer1, h_top), layer_density(height.layer1, h_bottom)) * scale;
    let l2 = vec2(layer_density(height.layer2, h_top), layer_density(height.layer2, h_bottom)) * scale;
    if on_curve(pixel.x, l1.x, l1.y) { c = vec3(0.95, 0.25, 0.2); }                  // layer 1
    if height.layer2.x > 0.0 && on_curve(pixel.x, l2.x, l2.y) { c = vec3(0.2, 0.45, 0.95); } // layer 2
    if height.layer2.x > 0.0 && on_curve(pixel.x, l1.x + l2.x, l1.y + l2.y) { c = vec3(1.0); } // total
    return c;
}
// ANCHOR_END: density_profile

@compute @workgroup_size(8, 8, 1)
fn height_fog(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    // ANCHOR: per_pixel
    let pixel = vec2<i32>(id.xy);
    let d = textureLoad(scene_distance, pixel, 0).r;
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    var color = textureLoad(scene_color, pixel, 0).rgb;

    let s = height_fog_along(dir, d);
    let tau = s.tau1 + s.tau2;
    let terms = height_fog_terms(dir, s);
    let fog_amount = terms.amount;
    let directional = terms.directional;
    if height.height_fog_on == 1u {
        color = color * (1.0 - fog_amount) + terms.fog_color * fog_amount + directional;
    }

    // ANCHOR_END: per_pixel
    switch height.view {
        case VIEW_FINAL: { write_color(id.xy, color); }
        case VIEW_OPTICAL_DEPTH: { write_scalar(id.xy, tau); }
        case VIEW_TRANSMITTANCE: { write_scalar(id.xy, exp(-tau)); }
        case VIEW_FOG_AMOUNT: { write_scalar(id.xy, fog_amount); }
        case VIEW_DENSITY: {
            let h = frame.camera_pos.y + dir.y * d;
            // The layers' medium at the pixel's height, shown even while the fog is off.
            write_scalar(id.xy, height_layers_medium(height.layer1, height.layer2, h, vec3(1.0), 0.0).extinction.x);
        }
        case VIEW_LAYER_1: { write_scalar(id.xy, s.tau1); }
        case VIEW_LAYER_2: { write_scalar(id.xy, s.tau2); }
        case VIEW_DIRECTIONAL: { write_color(id.xy, directional); }
        case VIEW_MASKS: { write_color(id.xy, vec3(f32(s.before_start), f32(s.beyond_cutoff), 0.0)); }
        case VIEW_DENSITY_PROFILE: { write_color(id.xy, density_profile(vec2<f32>(id.xy), vec2<f32>(size))); }
        default: { write_scalar(id.xy, 0.0); }
    }
}
