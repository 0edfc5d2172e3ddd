// The light of the sun and sky at any point of the scene, for stages after the sky's prepare
// (froxel fog, local fog, clouds, cards, the fog at depth): Bruneton 2017's
// GetSunAndSkyIrradiance ("Precomputed Atmospheric Scattering: a New Implementation") at the
// point's altitude, scaled like the scene's own light (× exposure / π), from the tables the sky
// publishes in the core's shared-sky group (group 3, `fogbook_core::shared_sky`,
// chapters/core/src/shared_sky.rs; the tables' layout: common/atmosphere_tables.wgsl).
// Without the sky in the stack the core binds stand-ins whose atmosphere is all zeros (top
// radius 0): the functions then return the frame's constant sun and ambient, the scene's light.
// Points are in scene coordinates (metres, +Y up); the scene stands at the sky's
// `camera_altitude_m`, and over its few kilometres the sun's zenith cosine is taken as constant.
// #import common/scene_inputs.wgsl
// #import common/atmosphere_tables.wgsl

// ANCHOR: bindings
@group(3) @binding(0) var<uniform> shared_atmosphere: AtmosphereParams;
@group(3) @binding(1) var shared_transmittance: texture_2d<f32>;
@group(3) @binding(2) var shared_scattering: texture_3d<f32>;
@group(3) @binding(3) var shared_single_mie: texture_3d<f32>;
@group(3) @binding(4) var shared_irradiance: texture_2d<f32>;
@group(3) @binding(5) var shared_sampler: sampler;
// ANCHOR_END: bindings

// ANCHOR: sky_light
fn sky_in_stack() -> bool {
    return shared_atmosphere.radii.y > 0.0;
}

// Distance from the planet's centre of a scene point (never below the ground).
fn planet_radius_at(p: vec3<f32>) -> f32 {
    let atm = shared_atmosphere;
    return clamp_radius(atm, atm.radii.x + max(atm.radii.z, 1.0) + max(p.y, 0.0));
}

// Sun light reaching p, in the units of `frame.sun_color` (what lights a white Lambertian surface
// facing the sun, × π).
fn sun_light_at(p: vec3<f32>) -> vec3<f32> {
    if !sky_in_stack() {
        return frame.sun_color.rgb;
    }
    let atm = shared_atmosphere;
    let t = transmittance_to_sun(atm, shared_transmittance, shared_sampler, planet_radius_at(p), frame.sun_dir.y);
    return atm.solar.rgb * t * atm.radii.w / PI;
}

// Sky light on a horizontal surface at p, in the units of `frame.ambient`.
fn sky_light_at(p: vec3<f32>) -> vec3<f32> {
    if !sky_in_stack() {
        return frame.ambient.rgb;
    }
    let atm = shared_atmosphere;
    let uv = irradiance_uv(atm, planet_radius_at(p), frame.sun_dir.y);
    return textureSampleLevel(shared_irradiance, shared_sampler, uv, 0.0).rgb * atm.radii.w / PI;
}
// ANCHOR_END: sky_light
