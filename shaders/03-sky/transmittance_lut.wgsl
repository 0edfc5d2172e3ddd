// Transmittance LUT (Bruneton 2017): for every (r, μ) the transmittance from radius r along a
// direction of cosine μ to the top of the atmosphere, exp(−∫ σ_t), by the trapezoidal rule with
// 500 intervals. 256 × 64 texels, parameterised as in atmosphere.wgsl. Precomputed when the
// atmosphere changes, not every frame.
// Output: the LUT (rgba32float; rgb transmittance, a 1).
// #import 03-sky/atmosphere.wgsl

@group(0) @binding(0) var<uniform> atm: AtmosphereParams;
@group(0) @binding(1) var lut_out: texture_storage_2d<rgba32float, write>;


// ANCHOR: transmittance_lut
@compute @workgroup_size(8, 8, 1)
fn transmittance_lut(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= u32(TRANSMITTANCE_SIZE.x) || id.y >= u32(TRANSMITTANCE_SIZE.y) {
        return;
    }
    let uv = (vec2<f32>(id.xy) + vec2(0.5)) / TRANSMITTANCE_SIZE;
    let rm = transmittance_r_mu(atm, uv);
    let r = rm.x;
    let mu = rm.y;
    let d = distance_to_top(atm, r, mu);
    let dx = d / f32(TRANSMITTANCE_SAMPLES);
    var optical = vec3(0.0);
    for (var i = 0u; i <= TRANSMITTANCE_SAMPLES; i++) {
        let t = f32(i) * dx;
        let altitude = sqrt(t * t + 2.0 * r * mu * t + r * r) - atm.radii.x;
        let w = select(1.0, 0.5, i == 0u || i == TRANSMITTANCE_SAMPLES);
        optical += w * extinction_at(atm, altitude) * dx;
    }
    textureStore(lut_out, id.xy, vec4(exp(-optical), 1.0));
}
// ANCHOR_END: transmittance_lut
