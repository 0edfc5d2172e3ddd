// Volumetric clouds in real time: temporal reconstruction after Schneider & Vos 2015 ("The
// Real-time Volumetric Cloudscapes of Horizon Zero Dawn": one pixel of each 4×4 block ray-marched
// per frame, the other fifteen reprojected from the frames before), with the history checked
// against the current neighbourhood as in Karis 2014 ("High Quality Temporal Supersampling").
// Two passes, both calling march.wgsl's march:
//  1. clouds_march_quarter, one thread per 4×4 block: marches the block's pixel of this frame (a
//     4×4 Bayer order, so that 16 frames cover the block) into quarter-resolution storage: the
//     cloud's light L as the eye sees it through the air (the sky's aerial perspective applied)
//     and transmittance T (`quarter_color`), its distance d and the scene's end (`quarter_aux`).
//  2. clouds_reconstruct, per pixel at full resolution: the fresh sample where this frame marched
//     the pixel; else last frame's full-resolution result at the pixel's cloud point, reprojected
//     with the previous view-projection; rejected when that point is off last frame's screen,
//     when the scene's distance there differs from this pixel's (the cloud was hidden, or is no
//     longer), or, where the cloud moved on the screen, when the history lies outside the box of
//     the 3×3 neighbouring fresh samples, widened by a margin; a rejected pixel takes the fresh samples, interpolated. Writes the new
//     history (L, T; scene end, d, age, why) and the frame, or a debug view.
// Rays that cannot meet the layer before the scene's surface need no history: no cloud, exactly.
// #import 06-clouds/march.wgsl

@group(2) @binding(5) var quarter_color_out: texture_storage_2d<rgba16float, write>;
@group(2) @binding(6) var quarter_aux_out: texture_storage_2d<rgba32float, write>;
@group(2) @binding(7) var quarter_color: texture_2d<f32>;
@group(2) @binding(8) var quarter_aux: texture_2d<f32>;
@group(2) @binding(9) var history_color: texture_2d<f32>;
@group(2) @binding(10) var history_aux: texture_2d<f32>;
@group(2) @binding(11) var history_color_out: texture_storage_2d<rgba16float, write>;
@group(2) @binding(12) var history_aux_out: texture_storage_2d<rgba32float, write>;

// VIEW_* (each debug view's index) come from the chapter's view list, and BLOCK (pixels per
// side of a block, one marched per frame) from `realtime::BLOCK`, composed ahead of this file.

// A pixel whose cloud moved less than this on the screen since last frame (pixels) is still.
const STILL_PX: f32 = 0.1;
// The age of a value no march of this pixel produced (interpolated from its neighbours).
const AGE_NONE: f32 = 255.0;

// ANCHOR: reasons
// Where a pixel's value came from this frame (the rejection view's colours in `reason_color`).
const KEPT: f32 = 0.0;          // last frame's, reprojected
const FRESH: f32 = 1.0;         // marched this frame
const NO_HISTORY: f32 = 2.0;    // rejected: no history (first frame, cut, resize, change)
const OFF_SCREEN: f32 = 3.0;    // rejected: the point was off last frame's screen
const OCCLUSION: f32 = 4.0;     // rejected: the scene's distance differs (occluded / disoccluded)
const NEIGHBOURHOOD: f32 = 5.0; // rejected: outside the box of the fresh samples around it
const NO_CLOUD: f32 = 6.0;      // the ray cannot meet the layer: no cloud, exactly
// ANCHOR_END: reasons

fn reason_color(why: f32) -> vec3<f32> {
    switch u32(why) {
        case 0u: { return vec3(0.0); }             // kept: black
        case 1u: { return vec3(1.0); }             // fresh: white
        case 2u: { return vec3(0.5, 0.0, 0.5); }   // no history: purple
        case 3u: { return vec3(1.0, 0.0, 0.0); }   // off-screen: red
        case 4u: { return vec3(0.0, 1.0, 0.0); }   // occlusion: green
        case 5u: { return vec3(0.0, 0.3, 1.0); }   // neighbourhood: blue
        default: { return vec3(0.15); }            // no cloud possible: dark grey
    }
}

fn luminance(c: vec3<f32>) -> f32 {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

// ANCHOR: marched_pixel
// The pixel of `block` that this frame marches (clamped to the frame at its right and bottom edges).
fn marched_pixel(block: vec2<i32>, size: vec2<i32>) -> vec2<i32> {
    return min(block * BLOCK + vec2<i32>(clouds.realtime.xy), size - 1);
}
// ANCHOR_END: marched_pixel

@compute @workgroup_size(8, 8, 1)
fn clouds_march_quarter(@builtin(global_invocation_id) id: vec3<u32>) {
    let blocks = textureDimensions(quarter_color_out);
    if id.x >= blocks.x || id.y >= blocks.y {
        return;
    }
    let pixel = marched_pixel(vec2<i32>(id.xy), vec2<i32>(textureDimensions(scene_distance)));
    let dir = view_ray_dir(frame, vec2<f32>(pixel));
    let end = scene_end(pixel);
    let m = march(frame.camera_pos.xyz, dir, end, pixel_jitter(vec2<u32>(pixel)));
    // The aerial perspective is applied here, at a sixteenth of the pixels, and travels with the
    // history: it changes slowly across the screen and from frame to frame.
    let through_air = cloud_through_air(dir, cloud_light(m), m.transmittance, m.distance);
    textureStore(quarter_color_out, id.xy, vec4(through_air, m.transmittance));
    textureStore(quarter_aux_out, id.xy, vec4(m.distance, end, 0.0, 0.0));
}

// Two scene distances agree (both the sky, or surfaces within the tolerance of each other).
fn same_surface(a: f32, b: f32) -> bool {
    return abs(a - b) <= clouds.reprojection.w * min(a, b);
}

struct Sample {
    light: vec4<f32>, // L, T
    distance: f32,
}

// ANCHOR: interpolate
// This frame's fresh samples at `pixel`, bilinear between the four nearest blocks' samples, each
// weighted down a thousandfold where its ray ended on another surface than this pixel's.
fn interpolate(pixel: vec2<i32>, end: f32) -> Sample {
    let blocks = vec2<i32>(textureDimensions(quarter_color));
    let g = (vec2<f32>(pixel - vec2<i32>(clouds.realtime.xy))) / f32(BLOCK);
    let base = vec2<i32>(floor(g));
    let f = g - floor(g);
    var light = vec4(0.0);
    var distance = 0.0;
    var total = 0.0;
    for (var c = 0; c < 4; c++) {
        let corner = vec2<i32>(c & 1, c >> 1);
        let b = clamp(base + corner, vec2(0), blocks - 1);
        let aux = textureLoad(quarter_aux, b, 0);
        let wf = mix(1.0 - f, f, vec2<f32>(corner));
        let w = wf.x * wf.y * select(1e-3, 1.0, same_surface(aux.y, end)) + 1e-6;
        light += w * textureLoad(quarter_color, b, 0);
        distance += w * aux.x;
        total += w;
    }
    return Sample(light / total, distance / total);
}
// ANCHOR_END: interpolate

// ANCHOR: history
// Catmull–Rom weights of the four texels around a sample at fraction f past the second.
fn catmull_rom(f: f32) -> vec4<f32> {
    let f2 = f * f;
    let f3 = f2 * f;
    return vec4(
        -0.5 * f3 + f2 - 0.5 * f,
        1.5 * f3 - 2.5 * f2 + 1.0,
        -1.5 * f3 + 2.0 * f2 + 0.5 * f,
        0.5 * f3 - 0.5 * f2,
    );
}

// Last frame's full-resolution result at uv, and its aux texel (nearest). The result is
// resampled with the Catmull–Rom spline over 4×4 texels, which blurs far less than bilinear
// filtering a value carried for up to 15 frames (Karis 2014); a still pixel takes its own texel.
fn history_at(uv: vec2<f32>, still: bool) -> array<vec4<f32>, 2> {
    let size = vec2<i32>(textureDimensions(history_color));
    let g = uv * vec2<f32>(size) - 0.5;
    let base = vec2<i32>(floor(g));
    let nearest = clamp(vec2<i32>(uv * vec2<f32>(size)), vec2(0), size - 1);
    let aux = textureLoad(history_aux, nearest, 0);
    if still {
        return array(textureLoad(history_color, nearest, 0), aux);
    }
    let wx = catmull_rom(g.x - floor(g.x));
    let wy = catmull_rom(g.y - floor(g.y));
    var light = vec4(0.0);
    for (var j = 0; j < 4; j++) {
        for (var i = 0; i < 4; i++) {
            let texel = clamp(base + vec2(i - 1, j - 1), vec2(0), size - 1);
            light += wx[i] * wy[j] * textureLoad(history_color, texel, 0);
        }
    }
    // The spline overshoots at edges: no negative light, transmittance in 0..1.
    return array(vec4(max(light.rgb, vec3(0.0)), clamp(light.a, 0.0, 1.0)), aux);
}
// ANCHOR_END: history

// The box (min, max) of the fresh samples of the 3×3 blocks around `block`.
fn neighbourhood(block: vec2<i32>) -> array<vec4<f32>, 2> {
    let blocks = vec2<i32>(textureDimensions(quarter_color));
    var lo = vec4(3.0e38);
    var hi = vec4(-3.0e38);
    for (var dy = -1; dy <= 1; dy++) {
        for (var dx = -1; dx <= 1; dx++) {
            let s = textureLoad(quarter_color, clamp(block + vec2(dx, dy), vec2(0), blocks - 1), 0);
            lo = min(lo, s);
            hi = max(hi, s);
        }
    }
    return array(lo, hi);
}

struct Resolved {
    light: vec4<f32>,
    distance: f32,
    age: f32,
    why: f32,
}

fn resolve(pixel: vec2<i32>, size: vec2<i32>, dir: vec3<f32>, end: f32) -> Resolved {
    let o = frame.camera_pos.xyz;
    let segment = layer_segment(o, dir, end);
    if segment.y <= segment.x {
        return Resolved(vec4(0.0, 0.0, 0.0, 1.0), 0.0, 0.0, NO_CLOUD);
    }
    // ANCHOR: resolve
    let block = pixel / BLOCK;
    if all(pixel == marched_pixel(block, size)) {
        return Resolved(textureLoad(quarter_color, block, 0), textureLoad(quarter_aux, block, 0).x, 0.0, FRESH);
    }
    var why = KEPT;
    if clouds.realtime.z == 0u {
        why = NO_HISTORY;
    } else {
        // The pixel's cloud point, at the distance of its block's fresh sample, where last
        // frame saw it: back by the wind's step, through last frame's view-projection.
        let d = clamp(textureLoad(quarter_aux, block, 0).x, segment.x, segment.y);
        let p = o + dir * d - vec3(clouds.reprojection.x, 0.0, clouds.reprojection.y);
        let clip = frame.prev_view_proj * vec4(p, 1.0);
        let ndc = clip.xy / clip.w;
        let own = (vec2<f32>(pixel) + 0.5) / vec2<f32>(size);
        let uv = select(own, vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5), clouds.realtime.w == 1u);
        if clip.w <= 0.0 || any(uv < vec2(0.0)) || any(uv > vec2(1.0)) {
            why = OFF_SCREEN;
        } else {
            // How far the pixel's cloud moved on the screen since last frame (pixels): a still
            // one is the same ray, whose history the fresh samples four pixels apart cannot judge.
            let moved = length(uv * vec2<f32>(size) - (vec2<f32>(pixel) + 0.5));
            let h = history_at(uv, moved <= STILL_PX);
            let box = neighbourhood(block);
            let margin = (box[1] - box[0]) * clouds.reprojection.z + vec4(vec3(2e-3 * max(max(box[1].r, box[1].g), box[1].b)), 2e-3);
            let outside = any(h[0] < box[0] - margin) || any(h[0] > box[1] + margin);
            if !same_surface(h[1].x, end) {
                why = OCCLUSION;
            } else if outside && moved > STILL_PX {
                why = NEIGHBOURHOOD;
            } else {
                let age = select(min(h[1].z + 1.0, AGE_NONE - 1.0), AGE_NONE, h[1].z >= AGE_NONE);
                return Resolved(h[0], h[1].y, age, KEPT);
            }
        }
    }
    let s = interpolate(pixel, end);
    return Resolved(s.light, s.distance, AGE_NONE, why);
    // ANCHOR_END: resolve
}

@compute @workgroup_size(8, 8, 1)
fn clouds_reconstruct(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(view_out));
    let pixel = vec2<i32>(id.xy);
    if any(pixel >= size) {
        return;
    }
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    let end = scene_end(pixel);
    let r = resolve(pixel, size, dir, end);
    textureStore(history_color_out, pixel, r.light);
    textureStore(history_aux_out, pixel, vec4(end, r.distance, r.age, r.why));
    let color = textureLoad(scene_color, pixel, 0).rgb;
    let out = color * r.light.a + r.light.rgb; // the light already seen through the air
    switch clouds.counts.w {
        case VIEW_AGE: {
            textureStore(view_out, id.xy, vec4(vec3(r.age), select(1.0, 0.0, r.age >= AGE_NONE)));
        }
        case VIEW_REJECTION: { write_color(id.xy, reason_color(r.why)); }
        case VIEW_REALTIME_ERROR: {
            // The same frame's full-resolution reference march at this pixel.
            let m = march(frame.camera_pos.xyz, dir, end, pixel_jitter(id.xy));
            let reference = luminance(composite(color, dir, cloud_light(m), m.transmittance, m.distance));
            write_scalar(id.xy, abs(luminance(out) - reference) / max(reference, 1e-6));
        }
        default: { write_color(id.xy, out); }
    }
}
