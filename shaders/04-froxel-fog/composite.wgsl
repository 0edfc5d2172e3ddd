// Froxel fog, pass 4 of 4 — composite: applies the integrated volume at each pixel's depth d,
//   colour · T(d) + L_in(d),
// where T and L_in come from the integrated texel of the slice before d (bilinear across
// columns) and the partial slice up to d is finished with the same step integral, using that
// slice's S and σt (so a homogeneous medium is exact at any depth, not only at slice ends).
// Beyond the grid's far distance nothing more is added. Also writes the debug views.
// After Wronski 2014 (the lookup at the pixel's depth) and Hillaire 2015.
// Stage: froxel fog (after the sky and the analytic fogs). Output: `view_out`.
// #import 04-froxel-fog/common.wgsl
// #import common/shadow.wgsl

@group(2) @binding(1) var scatter_tex: texture_3d<f32>;
@group(2) @binding(2) var integrated_tex: texture_3d<f32>;
@group(2) @binding(3) var media_tex: texture_3d<f32>;

// Views, in the order of `FroxelFog::views()`.
const VIEW_FINAL: u32 = 0u;
const VIEW_SCENE: u32 = 1u;
const VIEW_DENSITY_SLICE: u32 = 2u;
const VIEW_INSCATTERING_SLICE: u32 = 3u;
const VIEW_INSCATTERING: u32 = 4u;
const VIEW_TRANSMITTANCE: u32 = 5u;
const VIEW_SLICES: u32 = 6u;
const VIEW_SHADOW: u32 = 7u;

const VOLUME_SHADOW_BIAS: f32 = 0.0005; // as lighting.wgsl

// Bilinear across columns and rows, at slice k exactly (no filtering in depth), in f32.
fn load_bilinear(tex: texture_3d<f32>, uv: vec2<f32>, k: u32) -> vec4<f32> {
    let grid = vec2<i32>(froxel.grid.xy);
    let p = uv * vec2<f32>(froxel.grid.xy) - 0.5;
    let base = floor(p);
    let f = p - base;
    let i0 = clamp(vec2<i32>(base), vec2(0), grid - 1);
    let i1 = clamp(vec2<i32>(base) + 1, vec2(0), grid - 1);
    let z = i32(k);
    let a = mix(textureLoad(tex, vec3(i0.x, i0.y, z), 0), textureLoad(tex, vec3(i1.x, i0.y, z), 0), f.x);
    let b = mix(textureLoad(tex, vec3(i0.x, i1.y, z), 0), textureLoad(tex, vec3(i1.x, i1.y, z), 0), f.x);
    return mix(a, b, f.y);
}

// ANCHOR: fog_at_depth
struct FogAtDepth {
    inscattering: vec3<f32>,
    transmittance: f32,
}

fn fog_at_depth(uv: vec2<f32>, d: f32) -> FogAtDepth {
    let n = froxel.grid.z;
    let z = clamp(d, 0.0, froxel.slices.y);
    let k = u32(clamp(floor(depth_slice(z)), 0.0, f32(n - 1u)));
    var before = vec4(0.0, 0.0, 0.0, 1.0); // eye to the start of slice k
    if k > 0u {
        before = load_bilinear(integrated_tex, uv, k - 1u);
    }
    let s = load_bilinear(scatter_tex, uv, k);
    let len = max(z - slice_begin(k), 0.0);
    var fog: FogAtDepth;
    fog.inscattering = before.rgb + before.a * step_integral(s.rgb, s.a, len);
    fog.transmittance = before.a * exp(-s.a * len);
    return fog;
}
// ANCHOR_END: fog_at_depth

fn luminance(c: vec3<f32>) -> f32 {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

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
    let fog = fog_at_depth(uv, d);
    var color = scene;
    if froxel.light.w > 0.5 {
        color = scene * fog.transmittance + fog.inscattering;
    }
    // ANCHOR_END: per_pixel
    let slice = min(froxel.debug.x, froxel.grid.z - 1u);
    let texel = vec3<i32>(vec2<i32>(uv * vec2<f32>(froxel.grid.xy)), i32(slice));
    switch froxel.grid.w {
        case VIEW_FINAL: { write_color(id.xy, color); }
        case VIEW_SCENE: { write_color(id.xy, scene); }
        case VIEW_DENSITY_SLICE: { write_scalar(id.xy, textureLoad(media_tex, texel, 0).a); }
        case VIEW_INSCATTERING_SLICE: { write_scalar(id.xy, luminance(textureLoad(scatter_tex, texel, 0).rgb)); }
        case VIEW_INSCATTERING: { write_color(id.xy, fog.inscattering); }
        case VIEW_TRANSMITTANCE: { write_scalar(id.xy, fog.transmittance); }
        case VIEW_SLICES: { write_scalar(id.xy, clamp(depth_slice(min(d, froxel.slices.y)), 0.0, f32(froxel.grid.z))); }
        case VIEW_SHADOW: {
            // The sun's visibility along this pixel's ray at the middle of the chosen slice.
            let middle = 0.5 * (slice_begin(slice) + slice_end(slice));
            let p = frame.camera_pos.xyz + view_ray_dir(frame, vec2<f32>(id.xy)) * middle;
            write_scalar(id.xy, shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, VOLUME_SHADOW_BIAS));
        }
        default: { write_scalar(id.xy, 0.0); }
    }
}
