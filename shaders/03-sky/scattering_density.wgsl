// Scattering density of order n (Bruneton 2017, section 2.3): at every point and direction of
// the 4D texture, the radiance of order n − 1 arriving from all directions of the sphere
// (16 × 32 samples), plus the ground's reflection of the order n − 1 irradiance where a
// direction meets the ground, scattered into the direction by Rayleigh and Mie. Order 2 reads
// single scattering (Rayleigh and Mie with their phase functions), higher orders the previous
// order's multiple scattering.
// Inputs: transmittance, delta Rayleigh (or delta multiple), delta Mie, delta irradiance.
// Output: the scattering density J_n.
// #import 03-sky/atmosphere.wgsl

@group(0) @binding(0) var<uniform> atm: AtmosphereParams;
@group(0) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(0) @binding(2) var lut_sampler: sampler;
@group(0) @binding(3) var delta_rayleigh: texture_3d<f32>;
@group(0) @binding(4) var delta_mie: texture_3d<f32>;
@group(0) @binding(5) var delta_irradiance: texture_2d<f32>;
@group(0) @binding(6) var density_out: texture_storage_3d<rgba32float, write>;

// True for order 2, which reads single scattering; false for the higher orders. A constant of
// the pipeline (luts.rs compiles the pass both ways) rather than a uniform: a software driver
// runs both sides of a branch on a uniform, and the Mie lookups of order 2 would then cost the
// higher orders their time too (the precomputation took about twice as long on lavapipe).
override FROM_SINGLE_SCATTERING: bool = true;


// Radiance of order n − 1 arriving at (r, μ) with the sun at (μ_s, ν).
fn previous_order(r: f32, mu: f32, mu_s: f32, nu: f32, ground: bool) -> vec3<f32> {
    if FROM_SINGLE_SCATTERING {
        let rayleigh = get_scattering(atm, delta_rayleigh, lut_sampler, r, mu, mu_s, nu, ground);
        let mie = get_scattering(atm, delta_mie, lut_sampler, r, mu, mu_s, nu, ground);
        return rayleigh * rayleigh_phase(nu) + mie * mie_phase(atm.mie.w, nu);
    }
    return get_scattering(atm, delta_rayleigh, lut_sampler, r, mu, mu_s, nu, ground);
}

@compute @workgroup_size(8, 8, 1)
fn scattering_density(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= scattering_texture_size(atm)) {
        return;
    }
    let c = scattering_coord_of_texel(atm, id);
    // A frame with the zenith along z, the view direction in the xz plane.
    let zenith = vec3(0.0, 0.0, 1.0);
    let omega = vec3(safe_sqrt(1.0 - c.mu * c.mu), 0.0, c.mu);
    var sun_x = 0.0;
    if omega.x != 0.0 {
        sun_x = (c.nu - c.mu * c.mu_s) / omega.x;
    }
    let omega_s = vec3(sun_x, safe_sqrt(1.0 - sun_x * sun_x - c.mu_s * c.mu_s), c.mu_s);
    let d_phi = PI / f32(DENSITY_SAMPLES);
    let d_theta = PI / f32(DENSITY_SAMPLES);
    let altitude = c.r - atm.radii.x;
    let rayleigh_sigma = atm.rayleigh.rgb * rayleigh_density(atm, altitude);
    let mie_sigma = atm.mie.x * mie_density(atm, altitude);
    let albedo = atm.ozone.w;
    // ANCHOR: sphere_integral
    var density = vec3(0.0);
    for (var l = 0u; l < DENSITY_SAMPLES; l++) {
        let theta = (f32(l) + 0.5) * d_theta;
        let cos_theta = cos(theta);
        let sin_theta = sin(theta);
        let ground = hits_ground(atm, c.r, cos_theta);
        // Light reflected by the ground where this ring of directions meets it.
        var ground_distance = 0.0;
        var ground_transmittance = vec3(0.0);
        if ground {
            ground_distance = distance_to_ground(atm, c.r, cos_theta);
            ground_transmittance =
                transmittance_along(atm, transmittance_lut, lut_sampler, c.r, cos_theta, ground_distance, true);
        }
        for (var m = 0u; m < 2u * DENSITY_SAMPLES; m++) {
            let phi = (f32(m) + 0.5) * d_phi;
            let omega_i = vec3(cos(phi) * sin_theta, sin(phi) * sin_theta, cos_theta);
            let d_omega = d_theta * d_phi * sin_theta;
            let nu1 = dot(omega_s, omega_i);
            var incident = previous_order(c.r, omega_i.z, c.mu_s, nu1, ground);
            if ground {
                let normal = normalize(zenith * c.r + omega_i * ground_distance);
                let irradiance =
                    get_irradiance(atm, delta_irradiance, lut_sampler, atm.radii.x, dot(normal, omega_s));
                incident += ground_transmittance * albedo / PI * irradiance;
            }
            let nu2 = dot(omega, omega_i);
            density += incident * (rayleigh_sigma * rayleigh_phase(nu2) + mie_sigma * mie_phase(atm.mie.w, nu2))
                * d_omega;
        }
    }
    // ANCHOR_END: sphere_integral
    textureStore(density_out, id, vec4(density, 1.0));
}
