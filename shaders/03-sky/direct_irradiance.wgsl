// Direct irradiance (Bruneton 2017, section 2.4): the sun's irradiance on a horizontal surface
// at radius r with the sun at cosine μ_s, through the atmosphere, with the sun's disc partly
// below the horizon averaged over its angular radius. It is the first order of ground
// irradiance, the light the ground reflects into the second order of scattering; the sky
// irradiance texture starts at zero (the renderer adds the sun's own light separately).
// Outputs: delta irradiance (this order), the accumulated sky irradiance (cleared).
// #import 03-sky/atmosphere.wgsl

@group(0) @binding(0) var<uniform> atm: AtmosphereParams;
@group(0) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(0) @binding(2) var lut_sampler: sampler;
@group(0) @binding(3) var delta_irradiance_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var irradiance_out: texture_storage_2d<rgba32float, write>;

// ANCHOR: direct_irradiance
@compute @workgroup_size(8, 8, 1)
fn direct_irradiance(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= u32(IRRADIANCE_SIZE.x) || id.y >= u32(IRRADIANCE_SIZE.y) {
        return;
    }
    let rm = irradiance_r_mu_s(atm, id.xy);
    let mu_s = rm.y;
    let alpha = atm.solar.w;
    // The cosine factor averaged over the sun's disc as it sets (a quadratic approximation).
    var cosine = mu_s;
    if mu_s < -alpha {
        cosine = 0.0;
    } else if mu_s <= alpha {
        cosine = (mu_s + alpha) * (mu_s + alpha) / (4.0 * alpha);
    }
    let irradiance = atm.solar.rgb * transmittance_to_top(atm, transmittance_lut, lut_sampler, rm.x, mu_s) * cosine;
    textureStore(delta_irradiance_out, id.xy, vec4(irradiance, 1.0));
    textureStore(irradiance_out, id.xy, vec4(0.0, 0.0, 0.0, 1.0));
}
// ANCHOR_END: direct_irradiance
