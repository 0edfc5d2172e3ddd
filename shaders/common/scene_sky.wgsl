// The test scene's sky: a gradient from the horizon to the zenith scaled by the frame's ambient
// colour, half the horizon's radiance below it, and a sun disc 0.53° across with a soft edge. The
// scene's background draws it (core/scene.wgsl); a path tracer takes it as the environment that
// lights the scene. A shading model of the test scene, not a sky model: the physically based
// sky's tables replace it where that sky is in the stack.

// ANCHOR: scene_sky
// Radiance of the sky in the unit direction `dir` (no sun disc).
fn scene_sky_radiance(ambient: vec3<f32>, dir: vec3<f32>) -> vec3<f32> {
    let up = clamp(dir.y, -1.0, 1.0);
    let horizon = ambient * 1.6;
    let zenith = ambient * vec3(0.55, 0.75, 1.25);
    var sky = mix(horizon, zenith, pow(max(up, 0.0), 0.5));
    if up < 0.0 {
        sky = horizon * 0.5;
    }
    return sky;
}

// The sun disc's radiance in `dir`: 20 times the sun's E / π (frame.sun_color · frame.sun_dir.w)
// inside the disc — a marker, far below the real sun's radiance.
fn scene_sun_disc(sun_color: vec3<f32>, sun_dir: vec4<f32>, dir: vec3<f32>) -> vec3<f32> {
    let cos_sun = dot(dir, sun_dir.xyz);
    let disc = smoothstep(0.999955, 0.999975, cos_sun);
    return disc * sun_color * sun_dir.w * 20.0;
}
// ANCHOR_END: scene_sky
