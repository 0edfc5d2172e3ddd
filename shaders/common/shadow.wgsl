// Sun shadow-map lookups (orthographic shadow map, depth 0..1, comparison sampler).
// `shadow_visibility` returns 1 where the sun reaches `world_pos`, 0 where it is occluded;
// 2x2 hardware PCF through `textureSampleCompareLevel`. Outside the map counts as lit.
// The map, its sampler and the sun's view-projection are passed in, so the module stands alone.

// ANCHOR: shadow_visibility
fn shadow_visibility(
    map: texture_depth_2d,
    compare: sampler_comparison,
    sun_view_proj: mat4x4<f32>,
    world_pos: vec3<f32>,
    bias: f32,
) -> f32 {
    let clip = sun_view_proj * vec4(world_pos, 1.0);
    let ndc = clip.xyz / clip.w;
    let uv = vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if any(uv < vec2(0.0)) || any(uv > vec2(1.0)) || ndc.z > 1.0 {
        return 1.0;
    }
    return textureSampleCompareLevel(map, compare, uv, ndc.z - bias);
}
// ANCHOR_END: shadow_visibility
