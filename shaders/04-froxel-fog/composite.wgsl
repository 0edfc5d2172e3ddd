// Froxel fog, pass 4 of 4 — composite: applies the integrated volume at each pixel's depth d,
//   colour · T(d) + L_in(d),
// where T and L_in come from the integrated texel of the slice before d (bilinear across
// columns) and the partial slice up to d is finished with the same step integral, using that
// slice's S and σt (so a homogeneous medium is exact at any depth, not only at slice ends).
// Beyond the grid's far distance f the same medium continues in closed form up to d (the
// constant density and the height layer: T_b = e^(−τ(f, d)), L_b = albedo · L · (1 − T_b) with
// the unshadowed sun and ambient at f), unless chapter 2 is in the stack, which takes over there.
// Both lookups live in common/fog_at_depth.wgsl, shared with the core's transparent-fog module.
// Also writes the debug views, among them a per-pixel reference march of the same medium and
// lights, against which the grid's error is shown. After Wronski 2014 (the lookup at the pixel's depth) and
// Hillaire 2015.
// Stage: froxel fog (after the sky and the analytic fogs). Output: `view_out`.
// #import 04-froxel-fog/common.wgsl
// #import common/fog_at_depth.wgsl
// #import common/shadow.wgsl

@group(2) @binding(3) var media_tex: texture_3d<f32>;
@group(2) @binding(4) var emission_tex: texture_3d<f32>;
@group(2) @binding(5) var history_weight_tex: texture_3d<f32>;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

const VOLUME_SHADOW_BIAS: f32 = 0.0005; // as lighting.wgsl

fn luminance(c: vec3<f32>) -> f32 {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

// The grid-overlay view: column edges (yellow) and slice edges at the surfaces (cyan) over the
// final colour, where this pixel and its right or lower neighbour fall in different froxels.
fn grid_overlay(pixel: vec2<i32>, color: vec3<f32>) -> vec3<f32> {
    let size = vec2<i32>(textureDimensions(view_out));
    let columns = vec2<f32>(froxel.grid.xy) * frame.viewport.zw;
    let cell = vec2<i32>((vec2<f32>(pixel) + 0.5) * columns);
    let slice = i32(floor(depth_slice(min(textureLoad(scene_distance, pixel, 0).r, froxel.slices.y))));
    var column_edge = false;
    var slice_edge = false;
    for (var i = 0; i < 2; i++) {
        let next = min(pixel + vec2(1 - i, i), size - 1);
        column_edge = column_edge || any(vec2<i32>((vec2<f32>(next) + 0.5) * columns) != cell);
        let d = min(textureLoad(scene_distance, next, 0).r, froxel.slices.y);
        slice_edge = slice_edge || i32(floor(depth_slice(d))) != slice;
    }
    var out = color;
    if slice_edge {
        out = mix(out, vec3(0.1, 0.9, 1.0), 0.7);
    }
    if column_edge {
        out = mix(out, vec3(1.0, 0.85, 0.1), 0.25);
    }
    return out;
}

// The per-pixel reference: the global medium (constant, height layers, noise) and the same lights
// as the grid (sun through the shadow map, ambient, point and spot lights) marched along this
// pixel's own ray in REFERENCE_STEPS steps, spaced like the slices and each lit at its middle,
// integrated with the same step integral — no columns, no slices, no jitter, no history. It ends
// where the froxel stage's fog ends: at d, or at the grid's far end when the fog is not continued
// beyond it or chapter 2 takes over there. It leaves out the local volumes and the clouds'
// shadow, which the composite does not bind.
const REFERENCE_STEPS: u32 = 512u;

// ANCHOR: reference_march
fn reference_march(dir: vec3<f32>, d: f32) -> FogAtDepth {
    var fog: FogAtDepth;
    fog.inscattering = vec3(0.0);
    fog.transmittance = 1.0;
    var end = d;
    if froxel.noise.z < 0.5 || frame.height_layers[0].w > 0.5 {
        end = min(d, froxel.slices.y);
    }
    let near = min(froxel.slices.x, end);
    let eye = frame.camera_pos.xyz;
    let cos_sun = dot(dir, frame.sun_dir.xyz);
    var t0 = 0.0;
    for (var i = 1u; i <= REFERENCE_STEPS; i++) {
        // Boundary i at near · (end/near)^(i/M), as the slices: short steps near the eye.
        let t1 = select(near * pow(end / max(near, 1e-6), f32(i) / f32(REFERENCE_STEPS)), end, i == REFERENCE_STEPS);
        let len = t1 - t0;
        let p = eye + dir * (0.5 * (t0 + t1));
        let sigma_t = min(froxel_global_medium_at(p).extinction.x, MAX_EXTINCTION);
        var radiance = local_lights_at(p, dir);
        if froxel.debug.y == 0u {
            var visibility = 1.0;
            if froxel.light.z > 0.5 {
                visibility = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, VOLUME_SHADOW_BIAS);
            }
            radiance += sun_and_ambient_at(p, cos_sun, visibility);
        }
        let s = froxel.albedo.rgb * sigma_t * radiance;
        fog.inscattering += fog.transmittance * step_integral(s, sigma_t, len);
        fog.transmittance *= exp(-sigma_t * len);
        t0 = t1;
    }
    return fog;
}
// ANCHOR_END: reference_march

@compute @workgroup_size(8, 8, 1)
fn composite(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    // ANCHOR: per_pixel
    let pixel = vec2<i32>(id.xy);
    let uv = (vec2<f32>(id.xy) + 0.5) * frame.viewport.zw;
    let d = textureLoad(scene_distance, pixel, 0).r;
    let scene = textureLoad(scene_color, pixel, 0).rgb;
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    let fog = froxel_fog_at_depth(uv, dir, d);
    var color = scene;
    if froxel.light.w > 0.5 {
        color = scene * fog.transmittance + fog.inscattering;
    }
    // ANCHOR_END: per_pixel
    let slice = min(froxel.debug.x, froxel.grid.z - 1u);
    let texel = vec3<i32>(vec2<i32>(uv * vec2<f32>(froxel.grid.xy)), i32(slice));
    // The pixel's ray at the middle of the chosen slice, for the views evaluated there.
    let middle = 0.5 * (slice_begin(slice) + slice_end(slice));
    let at_slice = frame.camera_pos.xyz + dir * middle;
    switch froxel.grid.w {
        case VIEW_FINAL: { write_color(id.xy, color); }
        case VIEW_SCENE: { write_color(id.xy, scene); }
        case VIEW_DENSITY_SLICE: { write_scalar(id.xy, textureLoad(media_tex, texel, 0).a); }
        case VIEW_INSCATTERING_SLICE: { write_scalar(id.xy, luminance(textureLoad(scatter_tex, texel, 0).rgb)); }
        case VIEW_INSCATTERING: { write_color(id.xy, fog.inscattering); }
        case VIEW_TRANSMITTANCE: { write_scalar(id.xy, fog.transmittance); }
        case VIEW_SLICES: { write_scalar(id.xy, clamp(depth_slice(min(d, froxel.slices.y)), 0.0, f32(froxel.grid.z))); }
        case VIEW_SHADOW: {
            write_scalar(id.xy, shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, at_slice, VOLUME_SHADOW_BIAS));
        }
        case VIEW_NOISE_SLICE: { write_scalar(id.xy, textureLoad(emission_tex, texel, 0).a); }
        case VIEW_LIGHTS_SLICE: {
            // The local lights' share of S at the froxel's own sample: σs · Σ I a p.
            let sigma_s = textureLoad(media_tex, texel, 0).rgb;
            let p = froxel_sample_point(vec3<u32>(texel));
            let v = grid_ray_dir(vec2<f32>(texel.xy) + 0.5);
            write_scalar(id.xy, luminance(sigma_s * local_lights_at(p, v)));
        }
        case VIEW_HISTORY: {
            // Green: the history's weight; red: rejected (outside last frame's grid); black: none.
            let w = textureLoad(history_weight_tex, texel, 0).r;
            write_color(id.xy, vec3(select(0.0, 1.0, w < 0.0), max(w, 0.0), 0.0));
        }
        case VIEW_EMISSION_SLICE: { write_scalar(id.xy, luminance(textureLoad(emission_tex, texel, 0).rgb)); }
        case VIEW_GRID: { write_color(id.xy, grid_overlay(pixel, color)); }
        case VIEW_REFERENCE, VIEW_REFERENCE_ERROR: {
            let reference = reference_march(dir, d);
            let truth = scene * reference.transmittance + reference.inscattering;
            if froxel.grid.w == VIEW_REFERENCE {
                write_color(id.xy, truth);
            } else {
                // |ΔY| / Y of the final colour, the grid's against the reference's.
                let fogged = scene * fog.transmittance + fog.inscattering;
                write_scalar(id.xy, abs(luminance(fogged) - luminance(truth)) / max(luminance(truth), 1e-6));
            }
        }
        default: { write_scalar(id.xy, 0.0); }
    }
}
