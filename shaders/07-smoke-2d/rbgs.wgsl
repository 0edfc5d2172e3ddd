// 2D smoke, step 4 (`pressure_solver = red-black-gs`) — one red–black Gauss–Seidel sweep with
// over-relaxation (SOR; Young 1954): `rbgs_red` updates the cells with i + j even, `rbgs_black`
// the others. A cell's four neighbours have the other colour, so the cells of one colour are
// independent, and the black half already sees the new red values. Each update over-relaxes:
// q ← q + ω ((Σ − h² f) / d − q). The passes ping-pong between the two pressure textures, each
// copying the colour it does not update; a sweep (red, then black) ends where it started.
// Inputs: q (read side), divergence. Output: q (write side).
// #import 07-smoke-2d/poisson.wgsl

@group(3) @binding(0) var pressure_in: texture_2d<f32>;
@group(3) @binding(1) var divergence_in: texture_2d<f32>;
@group(3) @binding(2) var pressure_out: texture_storage_2d<r32float, write>;

// ANCHOR: rbgs
fn relax(c: vec2<i32>, colour: i32) {
    if !in_cells(c) {
        return;
    }
    var q = textureLoad(pressure_in, c, 0).x;
    if ((c.x + c.y) & 1) == colour {
        let s = stencil(pressure_in, c);
        let h = smoke.cell_m;
        let gauss_seidel = (s.x - h * h * textureLoad(divergence_in, c, 0).x) / s.y;
        q += smoke.sor_omega * (gauss_seidel - q);
    }
    textureStore(pressure_out, c, vec4(q, 0.0, 0.0, 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn rbgs_red(@builtin(global_invocation_id) id: vec3<u32>) {
    relax(vec2<i32>(id.xy), 0);
}

@compute @workgroup_size(8, 8, 1)
fn rbgs_black(@builtin(global_invocation_id) id: vec3<u32>) {
    relax(vec2<i32>(id.xy), 1);
}
// ANCHOR_END: rbgs
