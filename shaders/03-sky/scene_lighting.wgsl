// The test scene's sun and ambient light from the atmosphere (Bruneton 2017,
// GetSunAndSkyIrradiance): the sun's irradiance through the atmosphere to the scene and the sky
// irradiance on a horizontal surface there, both × exposure / π, so that a white Lambertian
// surface has the radiance the sky's units imply and the scene agrees with the sky around it.
// Output: three vec4s copied over the frame uniform's sun_dir, sun_color and ambient.
// Bind groups: the sky pass's (sky.wgsl), of which it reads the frame and a few LUTs.
// #import common/scene_inputs.wgsl
// #import 03-sky/atmosphere.wgsl

@group(2) @binding(0) var<uniform> atm: AtmosphereParams;
@group(2) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(2) @binding(2) var lut_sampler: sampler;
@group(2) @binding(6) var irradiance_lut: texture_2d<f32>;
@group(2) @binding(8) var<storage, read_write> lighting: array<vec4<f32>, 3>;

// ANCHOR: scene_lighting
@compute @workgroup_size(1, 1, 1)
fn scene_lighting() {
    // The scene stands on the ground at the chosen altitude.
    let r = atm.radii.x + max(atm.radii.z, 1.0);
    let mu_s = frame.sun_dir.y;
    let scale = atm.radii.w / PI;
    let sun = atm.solar.rgb * transmittance_to_sun(atm, transmittance_lut, lut_sampler, r, mu_s);
    let sky = textureSampleLevel(irradiance_lut, lut_sampler, irradiance_uv(atm, r, mu_s), 0.0).rgb;
    // w = 1: the sun's colour is already its irradiance.
    lighting[0] = vec4(frame.sun_dir.xyz, 1.0);
    lighting[1] = vec4(sun * scale, 0.0);
    lighting[2] = vec4(sky * scale, 0.0);
}
// ANCHOR_END: scene_lighting
