// Single scattering (Bruneton 2017, section 2.2; Bruneton and Neyret 2008): for every texel of
// the 4D scattering texture, sun light attenuated to each point of the view ray, scattered
// towards the viewer and attenuated on its way, integrated by the trapezoidal rule over 50
// intervals up to the ground or the top of the atmosphere. Rayleigh and Mie are kept apart and
// without their phase functions (applied when rendering, where ν is exact).
// Outputs: delta Rayleigh and delta Mie (the input of the second order), the accumulated
// Rayleigh-plus-multiple scattering (starts as single Rayleigh), and a kept copy of single
// Rayleigh (the single-vs-multiple views).
// #import 03-sky/atmosphere.wgsl

@group(0) @binding(0) var<uniform> atm: AtmosphereParams;
@group(0) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(0) @binding(2) var lut_sampler: sampler;
@group(0) @binding(3) var delta_rayleigh_out: texture_storage_3d<rgba32float, write>;
@group(0) @binding(4) var delta_mie_out: texture_storage_3d<rgba32float, write>;
@group(0) @binding(5) var scattering_out: texture_storage_3d<rgba32float, write>;
@group(0) @binding(6) var single_rayleigh_out: texture_storage_3d<rgba32float, write>;


// ANCHOR: single_scattering
@compute @workgroup_size(8, 8, 1)
fn single_scattering(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= scattering_texture_size(atm)) {
        return;
    }
    let c = scattering_coord_of_texel(atm, id);
    let dx = distance_to_nearest_boundary(atm, c.r, c.mu, c.ground) / f32(RAY_SAMPLES);
    var rayleigh = vec3(0.0);
    var mie = vec3(0.0);
    for (var i = 0u; i <= RAY_SAMPLES; i++) {
        let d = f32(i) * dx;
        let r_d = clamp_radius(atm, sqrt(d * d + 2.0 * c.r * c.mu * d + c.r * c.r));
        let mu_s_d = clamp_cosine((c.r * c.mu_s + d * c.nu) / r_d);
        let transmittance = transmittance_along(atm, transmittance_lut, lut_sampler, c.r, c.mu, d, c.ground)
            * transmittance_to_sun(atm, transmittance_lut, lut_sampler, r_d, mu_s_d);
        let w = select(1.0, 0.5, i == 0u || i == RAY_SAMPLES);
        let altitude = r_d - atm.radii.x;
        rayleigh += w * transmittance * rayleigh_density(atm, altitude);
        mie += w * transmittance * mie_density(atm, altitude);
    }
    rayleigh *= dx * atm.solar.rgb * atm.rayleigh.rgb;
    mie *= dx * atm.solar.rgb * atm.mie.x;
    textureStore(delta_rayleigh_out, id, vec4(rayleigh, 1.0));
    textureStore(delta_mie_out, id, vec4(mie, 1.0));
    textureStore(scattering_out, id, vec4(rayleigh, 1.0));
    textureStore(single_rayleigh_out, id, vec4(rayleigh, 1.0));
}
// ANCHOR_END: single_scattering
