// Multiple scattering of order n (Bruneton 2017, section 2.3): the scattering density J_n
// integrated along each view ray of the 4D texture, attenuated back to the viewer (trapezoidal
// rule, 50 intervals). The result is radiance with the phase already in it; it is added to the
// accumulated texture divided by the Rayleigh phase, which the renderer multiplies back, so that
// one texture holds single Rayleigh and every higher order.
// Inputs: transmittance, J_n, the accumulated scattering. Outputs: delta multiple scattering
// (the next order's input) and the new sum.
// #import 03-sky/atmosphere.wgsl

@group(0) @binding(0) var<uniform> atm: AtmosphereParams;
@group(0) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(0) @binding(2) var lut_sampler: sampler;
@group(0) @binding(3) var density: texture_3d<f32>;
@group(0) @binding(4) var scattering_in: texture_3d<f32>;
@group(0) @binding(5) var delta_multiple_out: texture_storage_3d<rgba32float, write>;
@group(0) @binding(6) var scattering_out: texture_storage_3d<rgba32float, write>;


// ANCHOR: multiple_scattering
@compute @workgroup_size(8, 8, 1)
fn multiple_scattering(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= scattering_texture_size(atm)) {
        return;
    }
    let c = scattering_coord_of_texel(atm, id);
    let dx = distance_to_nearest_boundary(atm, c.r, c.mu, c.ground) / f32(RAY_SAMPLES);
    var radiance = vec3(0.0);
    for (var i = 0u; i <= RAY_SAMPLES; i++) {
        let d = f32(i) * dx;
        let r_i = clamp_radius(atm, sqrt(d * d + 2.0 * c.r * c.mu * d + c.r * c.r));
        let mu_i = clamp_cosine((c.r * c.mu + d) / r_i);
        let mu_s_i = clamp_cosine((c.r * c.mu_s + d * c.nu) / r_i);
        let j = get_scattering(atm, density, lut_sampler, r_i, mu_i, mu_s_i, c.nu, c.ground);
        let w = select(1.0, 0.5, i == 0u || i == RAY_SAMPLES);
        radiance += w * j * transmittance_along(atm, transmittance_lut, lut_sampler, c.r, c.mu, d, c.ground) * dx;
    }
    let sum = textureLoad(scattering_in, id, 0).rgb + radiance / rayleigh_phase(c.nu);
    textureStore(delta_multiple_out, id, vec4(radiance, 1.0));
    textureStore(scattering_out, id, vec4(sum, 1.0));
}
// ANCHOR_END: multiple_scattering
