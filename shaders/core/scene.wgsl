// The shared test scene: a gridded ground, boxes at known distances, a sky gradient and a
// directional sun with an orthographic shadow map (Williams 1978, "Casting curved shadows on
// curved surfaces"), filtered with 2x2 hardware PCF, and a participating medium's shadow from
// a published light volume (common/volume_shadow.wgsl; the smoke's) and the clouds' published
// shadow map (common/cloud_shadow.wgsl).
// Passes: `shadow_vs` (depth only, into the shadow map), `scene_vs`/`scene_fs` (geometry into
// the HDR colour and distance targets), `sky_vs`/`sky_fs` (background at the far plane).
// Outputs: location 0 linear HDR radiance; location 1 true camera distance (m).
// #import common/frame.wgsl
// #import common/fullscreen.wgsl
// #import common/shadow.wgsl
// #import common/volume_shadow.wgsl
// #import common/cloud_shadow.wgsl
// #import common/scene_sky.wgsl

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) albedo: vec3<f32>,
}

@vertex
fn shadow_vs(v: VertexIn) -> @builtin(position) vec4<f32> {
    return frame.sun_view_proj * vec4(v.position, 1.0);
}

struct SceneVarying {
    @builtin(position) position: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) albedo: vec3<f32>,
}

struct SceneOut {
    @location(0) color: vec4<f32>,
    @location(1) distance: f32,
}

@vertex
fn scene_vs(v: VertexIn) -> SceneVarying {
    var out: SceneVarying;
    out.position = frame.view_proj * vec4(v.position, 1.0);
    out.world_pos = v.position;
    out.normal = v.normal;
    out.albedo = v.albedo;
    return out;
}

// Anti-aliased grid lines on the ground: 1 m minor and 10 m major lines.
fn grid_albedo(world_pos: vec3<f32>, base: vec3<f32>) -> vec3<f32> {
    let p = world_pos.xz;
    let w1 = fwidth(p);
    let minor = abs(fract(p - 0.5) - 0.5) / max(w1, vec2(1e-4));
    let major = abs(fract(p / 10.0 - 0.5) - 0.5) / max(w1 / 10.0, vec2(1e-4));
    let minor_line = 1.0 - clamp(min(minor.x, minor.y), 0.0, 1.0);
    let major_line = 1.0 - clamp(min(major.x, major.y) * 0.5, 0.0, 1.0);
    // Fade minor lines where they are finer than a pixel, so distance reads as grey, not moire.
    let fade = 1.0 - clamp(max(w1.x, w1.y) * 2.0, 0.0, 1.0);
    let line = max(minor_line * 0.35 * fade, major_line * 0.7);
    return mix(base, base * 0.25, line);
}

@fragment
fn scene_fs(in: SceneVarying) -> SceneOut {
    var albedo = in.albedo;
    if in.normal.y > 0.99 && in.world_pos.y < 0.01 {
        albedo = grid_albedo(in.world_pos, albedo);
    }
    // ANCHOR: scene_fs_out
    let n = normalize(in.normal);
    let l = frame.sun_dir.xyz;
    let n_dot_l = max(dot(n, l), 0.0);
    // Normal-scaled bias keeps grazing faces free of acne without peter-panning the boxes.
    let bias = 0.0015 + 0.004 * (1.0 - n_dot_l);
    let lit = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, in.world_pos + n * 0.05, bias);
    let through_medium = volume_shadow_at(in.world_pos, l) * cloud_shadow_at(in.world_pos);
    let sun = frame.sun_color.rgb * frame.sun_dir.w * n_dot_l * lit * through_medium;
    let sky = frame.ambient.rgb * (0.6 + 0.4 * n.y);
    // The scene's point and spot lights: Lambert, unshadowed.
    var local = vec3(0.0);
    for (var i = 0u; i < min(frame.light_count, MAX_LOCAL_LIGHTS); i++) {
        let light = frame.lights[i];
        let to_light = normalize(light.position.xyz - in.world_pos);
        local += light.intensity.rgb * light_attenuation(light, in.world_pos) * max(dot(n, to_light), 0.0);
    }
    var out: SceneOut;
    out.color = vec4(albedo * (sun + sky + local), 1.0);
    out.distance = length(in.world_pos - frame.camera_pos.xyz);
    return out;
    // ANCHOR_END: scene_fs_out
}

@vertex
fn sky_vs(@builtin(vertex_index) index: u32) -> FullscreenOut {
    var out = fullscreen_vertex(index);
    out.position.z = out.position.w; // at the far plane: geometry always wins the depth test
    return out;
}

@fragment
fn sky_fs(in: FullscreenOut) -> SceneOut {
    let dir = view_ray_dir(frame, in.position.xy - vec2(0.5));
    let sky = scene_sky_radiance(frame.ambient.rgb, dir) + scene_sun_disc(frame.sun_color.rgb, frame.sun_dir, dir);
    var out: SceneOut;
    out.color = vec4(sky, 1.0);
    out.distance = frame.sky_distance_m;
    return out;
}
