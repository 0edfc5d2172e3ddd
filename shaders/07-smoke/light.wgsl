// The smoke's light volume: per cell, the optical depth τ from the cell's centre to the box's
// boundary towards the sun, straight up (to the sky) and straight down (to the ground), by
// marching the density, τ = σ Σ ρ ds. Done at grid resolution when the smoke or the sun changed,
// so the view's ray march needs one extra sample per step instead of a second march (a "light
// volume", as in deep shadow maps; Lokovic and Veach 2000; Wrenninge 2012, "Production Volume
// Rendering"). Optical depth rather than transmittance: the march raises it to the powers its
// multiple-scattering octaves and colour channels need (exp(−a^i τ tint)), and the core's scene
// pass reads channel r as the smoke's shadow on the ground (common/volume_shadow.wgsl).
// Inputs: fluid. Output: light (r: τ to the sun, g: τ up, b: τ down; a: 0).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var fluid_in: texture_3d<f32>;
@group(3) @binding(1) var light_out: texture_storage_3d<rgba16float, write>;

// ANCHOR: light
// Optical depth from `start` (box units) along unit `dir` to the box's boundary, in `steps`
// midpoint samples.
fn optical_depth(start: vec3<f32>, dir: vec3<f32>, steps: u32) -> f32 {
    let ds = exit_distance(start, dir) / f32(steps);
    var sum = 0.0;
    for (var i = 0u; i < steps; i++) {
        let p = start + dir * ds * (f32(i) + 0.5);
        sum += max(textureSampleLevel(fluid_in, linear_clamp, p, 0.0).a, 0.0);
    }
    // σ per unit density per metre, times the step in metres.
    return smoke.extinction * sum * ds * smoke.box_m;
}

@compute @workgroup_size(8, 8, 4)
fn light(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let steps = max(smoke.shadow_steps, 1u);
    let start = cell_uv(cell);
    let to_sun = optical_depth(start, smoke.towards_sun, steps);
    let up = optical_depth(start, vec3(0.0, 1.0, 0.0), steps);
    let down = optical_depth(start, vec3(0.0, -1.0, 0.0), steps);
    textureStore(light_out, cell, vec4(to_sun, up, down, 0.0));
}
// ANCHOR_END: light

// Distance from `p` (inside the unit box) to its boundary along unit `dir`.
fn exit_distance(p: vec3<f32>, dir: vec3<f32>) -> f32 {
    let inv = 1.0 / select(dir, vec3(1e-9), abs(dir) < vec3(1e-9));
    let t = max((vec3(0.0) - p) * inv, (vec3(1.0) - p) * inv);
    return max(min(t.x, min(t.y, t.z)), 0.0);
}
