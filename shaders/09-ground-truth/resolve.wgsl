// Ground truth, the views: the path tracer's mean radiance from its sums (trace.wgsl), its
// estimated standard error, the sample count and the share of paths cut at the collision cap;
// and the stack's error against it, the signed relative luminance difference
//   e = (Y_stack − Y_truth) / max(Y_truth, 1 % of the frame's mean Y_truth),
// where Y_stack is the colour the stack handed on (group 0's colour: its final image before the
// display pass). `mean_partials` and `mean_luminance` first reduce the frame's mean into
// `frame_mean[0]`, in two levels (MEAN_GROUPS workgroups' sums into frame_mean[1..], then one
// workgroup over them), so that the reduction reads the frame at the GPU's width. Every view
// divides by the pixel's own path count: under the viewer's frame budget a frame traces only a
// share of the tiles, and the counts differ by a frame's paths until a cycle ends.
// #import common/scene_inputs.wgsl
// #import common/media/medium.wgsl

@group(2) @binding(0) var<storage, read> sums: array<vec4<f32>>;    // (Σ L.rgb, n)
@group(2) @binding(1) var<storage, read> moments: array<vec4<f32>>; // (Σ Y², Σ Y, paths cut, 0)
@group(2) @binding(2) var<storage, read_write> frame_mean: array<f32>; // the mean, then the groups' sums
@group(2) @binding(3) var<uniform> shown: vec4<u32>; // x: the view to write

const REDUCE_THREADS: u32 = 256u;

var<workgroup> partial: array<f32, REDUCE_THREADS>;

fn mean_radiance(pixel: u32) -> vec3<f32> {
    let sum = sums[pixel];
    return sum.rgb / max(sum.w, 1.0);
}

// MEAN_GROUPS, the first level's workgroups, comes from Rust (gpu.rs).

// A tree over the workgroup's threads' `total`s: the sum, in thread 0.
fn workgroup_sum(i: u32, total: f32) -> f32 {
    partial[i] = total;
    workgroupBarrier();
    for (var half = REDUCE_THREADS / 2u; half > 0u; half /= 2u) {
        if i < half {
            partial[i] += partial[i + half];
        }
        workgroupBarrier();
    }
    return partial[0];
}

// Workgroup g sums the luminance of pixels g·256 + i + k·256·MEAN_GROUPS, each thread a stride.
@compute @workgroup_size(256, 1, 1)
fn mean_partials(@builtin(workgroup_id) g: vec3<u32>, @builtin(local_invocation_index) i: u32) {
    let count = u32(frame.viewport.x) * u32(frame.viewport.y);
    var total = 0.0;
    for (var p = g.x * REDUCE_THREADS + i; p < count; p += REDUCE_THREADS * MEAN_GROUPS) {
        total += dot(mean_radiance(p), MEDIUM_LUMA);
    }
    let sum = workgroup_sum(i, total);
    if i == 0u {
        frame_mean[1u + g.x] = sum;
    }
}

// One workgroup over the first level's sums: the frame's mean.
@compute @workgroup_size(256, 1, 1)
fn mean_luminance(@builtin(local_invocation_index) i: u32) {
    let count = u32(frame.viewport.x) * u32(frame.viewport.y);
    var total = 0.0;
    for (var k = i; k < MEAN_GROUPS; k += REDUCE_THREADS) {
        total += frame_mean[1u + k];
    }
    let sum = workgroup_sum(i, total);
    if i == 0u {
        frame_mean[0] = sum / f32(max(count, 1u));
    }
}

// ANCHOR: error
// The stack's signed relative luminance error at a pixel.
fn relative_error(stack: vec3<f32>, truth: vec3<f32>) -> f32 {
    let y_truth = dot(truth, MEDIUM_LUMA);
    return (dot(stack, MEDIUM_LUMA) - y_truth) / max(y_truth, 0.01 * frame_mean[0]);
}

// The standard error of the pixel's mean luminance relative to it: sqrt(Var(Y) / n) / mean.
fn relative_noise(pixel: u32) -> f32 {
    let n = max(sums[pixel].w, 1.0);
    let m = moments[pixel];
    let mean = m.y / n;
    let variance = max(m.x / n - mean * mean, 0.0) * n / max(n - 1.0, 1.0);
    return sqrt(variance / n) / max(mean, 0.01 * frame_mean[0]);
}
// ANCHOR_END: error

// ANCHOR: preview
// Tiles searched back for a preview (see `preview_radiance`).
const PREVIEW_TILES: u32 = 64u;

// A pixel no path has reached since the sums restarted (the viewer traces a share of the 8 × 8
// tiles a frame) shows the same pixel of the nearest tile before it, in tile order, that has
// paths: a preview until its own arrive, in the ground-truth view only (its count stays 0).
fn preview_radiance(id: vec2<u32>, size: vec2<u32>) -> vec3<f32> {
    let tiles_x = (size.x + 7u) / 8u;
    let t = (id.y / 8u) * tiles_x + id.x / 8u;
    for (var j = 1u; j <= min(t, PREVIEW_TILES); j++) {
        let p = vec2((t - j) % tiles_x, (t - j) / tiles_x) * 8u + id % 8u;
        let pixel = p.y * size.x + p.x;
        if p.x < size.x && sums[pixel].w > 0.0 {
            return mean_radiance(pixel);
        }
    }
    return vec3(0.0);
}
// ANCHOR_END: preview

@compute @workgroup_size(8, 8, 1)
fn resolve(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let pixel = id.y * size.x + id.x;
    let truth = mean_radiance(pixel);
    let stack = textureLoad(scene_color, vec2<i32>(id.xy), 0).rgb;
    let n = sums[pixel].w;
    switch shown.x {
        case VIEW_GROUND_TRUTH: {
            if n > 0.0 {
                write_color(id.xy, truth);
            } else {
                write_color(id.xy, preview_radiance(id.xy, size));
            }
        }
        case VIEW_STACK: { write_color(id.xy, stack); }
        case VIEW_ERROR: { write_scalar(id.xy, relative_error(stack, truth)); }
        case VIEW_NOISE: { write_scalar(id.xy, relative_noise(pixel)); }
        case VIEW_SAMPLES: { write_scalar(id.xy, n); }
        case VIEW_CUT: { write_scalar(id.xy, moments[pixel].z / max(n, 1.0)); }
        case VIEW_VERTICES: { write_scalar(id.xy, moments[pixel].w / max(n, 1.0)); }
        default: { write_scalar(id.xy, 0.0); }
    }
}
