// Ground truth, the sky in two modes. As the environment: where the physically based sky is in
// the stack, a path that leaves the traced media sees the sky's radiance from the tables it
// lends — Bruneton's precomputed scattering (2017, "Precomputed Atmospheric Scattering: a New
// Implementation") read at the point's altitude, Rayleigh's and Cornette–Shanks' phases applied,
// and below the horizon the planet's Lambertian ground in the sun's and sky's light — in the
// scene's units (× the sky's exposure); the aerial perspective between the scene's surfaces is
// then absent, as it is from the scene-scale media's own view. As a medium (FLAG_ATMOSPHERE):
// the atmosphere is traced like any other (stack_media.wgsl, tracking.wgsl), lit by the sun
// above it; the planet's ground is a Lambertian surface of the sky's ground albedo, and beyond
// the top is black space — nothing of the tables is read, so the sky and the aerial perspective
// are measured, not assumed.
// The shared sky's bindings and readers: common/sky_light.wgsl, through the including file.
// #needs shared_atmosphere, shared_transmittance, shared_scattering, shared_single_mie, shared_irradiance, shared_sampler, planet_radius_at, atmosphere_traced, air_sphere_hits, atmosphere_planet_centre, SurfaceHit

// ANCHOR: sky_environment
fn sky_environment(p: vec3<f32>, d: vec3<f32>) -> vec3<f32> {
    let atm = shared_atmosphere;
    let r = planet_radius_at(p);
    let mu = clamp_cosine(d.y);
    let mu_s = frame.sun_dir.y;
    let nu = dot(d, frame.sun_dir.xyz);
    if !hits_ground(atm, r, mu) {
        return sky_inscattering(r, mu, mu_s, nu, false) * atm.radii.w;
    }
    // Below the horizon: the air in front of the ground and the ground itself.
    let g = distance_to_ground(atm, r, mu);
    let to_ground = transmittance_along(atm, shared_transmittance, shared_sampler, r, mu, g, true);
    let r_g = atm.radii.x;
    let mu_s_g = clamp_cosine((r * mu_s + g * nu) / r_g);
    let mu_g = clamp_cosine((r * mu + g) / r_g);
    let air = sky_inscattering(r, mu, mu_s, nu, true) - to_ground * sky_inscattering(r_g, mu_g, mu_s_g, nu, true);
    let irradiance = get_irradiance(atm, shared_irradiance, shared_sampler, r_g, mu_s_g)
        + atm.solar.rgb * transmittance_to_sun(atm, shared_transmittance, shared_sampler, r_g, mu_s_g) * max(mu_s_g, 0.0);
    return (max(air, vec3(0.0)) + to_ground * atm.ozone.w / PI * irradiance) * atm.radii.w;
}
// ANCHOR_END: sky_environment

// Light scattered towards (r, μ) by the whole atmosphere behind it, every order, phases applied.
fn sky_inscattering(r: f32, mu: f32, mu_s: f32, nu: f32, ground: bool) -> vec3<f32> {
    let atm = shared_atmosphere;
    let rayleigh = get_scattering(atm, shared_scattering, shared_sampler, r, mu, mu_s, nu, ground);
    let mie = get_scattering(atm, shared_single_mie, shared_sampler, r, mu, mu_s, nu, ground);
    return rayleigh * rayleigh_phase(nu) + mie * mie_phase(atm.mie.w, nu);
}

// The sun's disc seen from p in d: with the sky, the solar radiance through the atmosphere to p
// (from the tables, or the path's own tracking where the atmosphere is traced); without it, the
// test scene's marker.
fn sun_disc(p: vec3<f32>, d: vec3<f32>) -> vec3<f32> {
    if !sky_in_stack() {
        return scene_sun_disc(frame.sun_color.rgb, frame.sun_dir, d);
    }
    let atm = shared_atmosphere;
    if dot(d, frame.sun_dir.xyz) <= cos(atm.solar.w) {
        return vec3(0.0);
    }
    var t = vec3(1.0);
    if !atmosphere_traced() {
        t = transmittance_to_sun(atm, shared_transmittance, shared_sampler, planet_radius_at(p), frame.sun_dir.y);
    }
    return atm.solar.rgb / (PI * atm.solar.w * atm.solar.w) * t * atm.radii.w;
}

// ANCHOR: atmosphere_traced
// The sun above the atmosphere, in the units of `frame.sun_color` (× π: the irradiance it
// gives at normal incidence).
fn sun_above_atmosphere() -> vec3<f32> {
    let atm = shared_atmosphere;
    return atm.solar.rgb * atm.radii.w / PI;
}

// The planet's ground where the atmosphere is traced: the sphere of the sky's ground radius, a
// Lambertian surface of its ground albedo, hit before t_max.
fn planet_ground_hit(o: vec3<f32>, d: vec3<f32>, t_max: f32) -> SurfaceHit {
    var hit = SurfaceHit(t_max, vec3(0.0, 1.0, 0.0), vec3(0.0), false);
    if !atmosphere_traced() {
        return hit;
    }
    let atm = shared_atmosphere;
    let t = air_sphere_hits(atm, o, d, 0.0).x;
    if t > 0.0 && t < t_max {
        hit = SurfaceHit(t, normalize(o + t * d - atmosphere_planet_centre(atm)), vec3(atm.ozone.w), true);
    }
    return hit;
}
// ANCHOR_END: atmosphere_traced
