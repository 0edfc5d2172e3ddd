// Indirect (sky) irradiance of order n (Bruneton 2017, section 2.4): the radiance of order n
// arriving from the upper hemisphere (16 × 64 samples) weighted by its cosine, on a horizontal
// surface at radius r with the sun at μ_s. Order 1 is single scattering (Rayleigh and Mie with
// their phase functions), higher orders the latest multiple scattering.
// Inputs: delta Rayleigh (or delta multiple), delta Mie, the irradiance accumulated so far.
// Outputs: this order's irradiance (the ground's light for the next density) and the sum.
// #import 03-sky/atmosphere.wgsl

struct Order {
    order: vec4<u32>, // x: the order n of the scattered light integrated here
}

@group(0) @binding(0) var<uniform> atm: AtmosphereParams;
@group(0) @binding(1) var<uniform> order: Order;
@group(0) @binding(2) var lut_sampler: sampler;
@group(0) @binding(3) var delta_rayleigh: texture_3d<f32>;
@group(0) @binding(4) var delta_mie: texture_3d<f32>;
@group(0) @binding(5) var irradiance_in: texture_2d<f32>;
@group(0) @binding(6) var delta_irradiance_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(7) var irradiance_out: texture_storage_2d<rgba32float, write>;


// ANCHOR: indirect_irradiance
@compute @workgroup_size(8, 8, 1)
fn indirect_irradiance(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= u32(IRRADIANCE_SIZE.x) || id.y >= u32(IRRADIANCE_SIZE.y) {
        return;
    }
    let rm = irradiance_r_mu_s(atm, id.xy);
    let r = rm.x;
    let mu_s = rm.y;
    let d_phi = PI / f32(IRRADIANCE_SAMPLES);
    let d_theta = PI / f32(IRRADIANCE_SAMPLES);
    let omega_s = vec3(safe_sqrt(1.0 - mu_s * mu_s), 0.0, mu_s);
    var irradiance = vec3(0.0);
    for (var j = 0u; j < IRRADIANCE_SAMPLES / 2u; j++) {
        let theta = (f32(j) + 0.5) * d_theta;
        for (var i = 0u; i < 2u * IRRADIANCE_SAMPLES; i++) {
            let phi = (f32(i) + 0.5) * d_phi;
            let omega = vec3(cos(phi) * sin(theta), sin(phi) * sin(theta), cos(theta));
            let d_omega = d_theta * d_phi * sin(theta);
            let nu = dot(omega, omega_s);
            var radiance: vec3<f32>;
            if order.order.x == 1u {
                radiance = get_scattering(atm, delta_rayleigh, lut_sampler, r, omega.z, mu_s, nu, false)
                    * rayleigh_phase(nu)
                    + get_scattering(atm, delta_mie, lut_sampler, r, omega.z, mu_s, nu, false)
                    * mie_phase(atm.mie.w, nu);
            } else {
                radiance = get_scattering(atm, delta_rayleigh, lut_sampler, r, omega.z, mu_s, nu, false);
            }
            irradiance += radiance * omega.z * d_omega;
        }
    }
    let sum = textureLoad(irradiance_in, id.xy, 0).rgb + irradiance;
    textureStore(delta_irradiance_out, id.xy, vec4(irradiance, 1.0));
    textureStore(irradiance_out, id.xy, vec4(sum, 1.0));
}
// ANCHOR_END: indirect_irradiance
