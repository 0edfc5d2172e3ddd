// Sun transmittance through the smoke, per cell: march from the cell towards the sun through
// the density and keep exp(−σ Σ ρ ds). Done at grid resolution when the smoke or the sun changed, so the view's
// ray march needs one extra sample per step instead of a second march (a "light volume", as in
// deep shadow maps; Lokovic & Veach 2000).
// Inputs: fluid. Output: light (transmittance to the sun, 0..1).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var fluid_in: texture_3d<f32>;
@group(3) @binding(1) var light_out: texture_storage_3d<r32float, write>;

// ANCHOR: light
@compute @workgroup_size(8, 8, 4)
fn light(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let steps = max(smoke.shadow_steps, 1u);
    // Distance to the box's boundary along the sun direction, in box units.
    let start = cell_uv(cell);
    let dir = smoke.towards_sun;
    let t_exit = exit_distance(start, dir);
    let ds = t_exit / f32(steps);
    var optical = 0.0;
    for (var i = 0u; i < steps; i++) {
        let p = start + dir * ds * (f32(i) + 0.5);
        optical += textureSampleLevel(fluid_in, linear_clamp, p, 0.0).a;
    }
    let sigma = smoke.extinction * smoke.box_m; // per unit density, per box unit
    textureStore(light_out, cell, vec4(exp(-sigma * optical * ds), 0.0, 0.0, 0.0));
}
// ANCHOR_END: light

// Distance from `p` (inside the unit box) to its boundary along unit `dir`.
fn exit_distance(p: vec3<f32>, dir: vec3<f32>) -> f32 {
    let inv = 1.0 / select(dir, vec3(1e-9), abs(dir) < vec3(1e-9));
    let t = max((vec3(0.0) - p) * inv, (vec3(1.0) - p) * inv);
    return max(min(t.x, min(t.y, t.z)), 0.0);
}
