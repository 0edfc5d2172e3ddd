// The fog at any depth, for transparent surfaces (smoke, cards) drawn after every fog stage: what
// the stack's fog stages do to an opaque surface at distance d along a pixel's ray, as a
// transmittance T(d) and an in-scattered radiance S(d), so that a surface of colour C and
// opacity α over the fogged background L_bg' becomes
//   (1 − α) · L_bg' + α · (T(d) · C + S(d)).
// Each stage keeps T_i of the colour it receives and adds S_i; in stage order (distance fog, height
// fog, froxel fog) they compose to T = T1 T2 T3 and S = (S1 T2 + S2) T3 + S3, applied here in that
// order with the chapters' own functions:
//   distance fog (distance_fog_functions.wgsl): c (1 − a·ext) + (fog colour + glow) · a·ins, per
//     channel;
//   height fog (height_fog_functions.wgsl): its closed form from max(start, frame.volumetric_far_m)
//     to d;
//   froxel fog (fog_at_depth.wgsl): the integrated volume at d, continued beyond the grid.
// A chapter switched off contributes T = 1, S = 0, and so does one missing from the stack: the
// core binds an all-zero uniform in its place, which reads as off (fogbook_core::transparent_fog).
// Not covered: the sky's aerial perspective, the clouds and the local fog volumes'
// analytic pass (its volumes over the whole ray without the froxel grid, beyond the
// grid with it; inside the grid they are in the grid's volume); a transparent surface is fogged as
// if they were not there.
// Bindings: group 0 (common/scene_inputs.wgsl: the frame, and the shadow map the distance fog's
// glow marches), group 2 (the transparent-fog group, below, in common/volumetric_grid.wgsl and in
// common/fog_at_depth.wgsl) and group 3 (the shared sky, common/sky_light.wgsl: the sun and sky
// light beyond the froxel grid). Every import is the core's own (shaders/common/).
// #import common/scene_inputs.wgsl
// #import common/distance_fog_functions.wgsl
// #import common/height_fog_functions.wgsl
// #import common/fog_at_depth.wgsl

// ANCHOR: bindings
// Group 2 (fogbook_core::transparent_fog::TRANSPARENT_FOG_GROUP): the froxel grid's uniform and
// volumes at bindings 0–2 (common/volumetric_grid.wgsl, fog_at_depth.wgsl), then the distance
// fog's and the height fog's.
@group(2) @binding(3) var<uniform> fog: FogParams;
@group(2) @binding(4) var<uniform> height: HeightFogParams;
// ANCHOR_END: bindings

// ANCHOR: fog_at_depth
struct TransparentFog {
    inscattering: vec3<f32>,  // S(d): radiance added in front of the surface
    transmittance: vec3<f32>, // T(d), per channel (the distance fog's atmospheric falloff is)
}

// One stage in front of what the stages before it left: T ← T · t, S ← S · t + s.
fn fog_in_front(behind: TransparentFog, t: vec3<f32>, s: vec3<f32>) -> TransparentFog {
    return TransparentFog(behind.inscattering * t + s, behind.transmittance * t);
}

// uv: the pixel's position on the screen (0..1, y down); dir: the unit world-space view ray
// through it; d: the distance from the camera along it (m).
fn fog_at_depth(uv: vec2<f32>, dir: vec3<f32>, d: f32) -> TransparentFog {
    var out = TransparentFog(vec3(0.0), vec3(1.0));
    if fog.color.a > 0.0 {
        let amount = fog_amount(d);
        // The glow's shadow march jitters by pixel, as the distance fog's pass does.
        let pixel = floor(uv * frame.viewport.xy);
        let glow = masked_glow(dir, d, pixel, false).glow;
        let a = fog.color.a;
        out = fog_in_front(out, 1.0 - a * amount.extinction, (fog.color.rgb + glow) * a * amount.inscattering);
    }
    if height.height_fog_on == 1u {
        let terms = height_fog_terms(dir, height_fog_along(dir, d));
        out = fog_in_front(out, vec3(1.0 - terms.amount), terms.fog_color * terms.amount + terms.directional);
    }
    if froxel.light.w > 0.5 {
        let froxel_fog = froxel_fog_at_depth(uv, dir, d);
        out = fog_in_front(out, vec3(froxel_fog.transmittance), froxel_fog.inscattering);
    }
    return out;
}
// ANCHOR_END: fog_at_depth
