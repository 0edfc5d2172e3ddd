// Local fog volumes: the struct a chapter publishes (fogbook_core::media::volumes::FogVolume) and
// the share of its density at a point. Shared by the froxel fog's injection and the local fog
// volumes' analytic integration, so that both describe one medium; taught with the local fog
// volumes.
// Shapes after Godot's FogVolume (box, ellipsoid, cylinder); the density model (extinction with a
// height falloff and an edge fade) after Hillaire 2015 and Unreal's Local Fog Volumes.

// ANCHOR: fog_volume
// ANCHOR: fog_volume_struct
// A local fog volume, as its publisher publishes it.
struct FogVolume {
    centre: vec4<f32>,           // xyz: centre (m); w: shape (0 box, 1 ellipsoid, 2 cylinder)
    half_size: vec4<f32>,        // xyz: half extents along the local axes (m); w: edge fade (m)
    albedo_density: vec4<f32>,   // rgb: albedo; w: σt at y₀ = centre.y − half_size.y (1/m)
    emission_falloff: vec4<f32>, // rgb: emitted radiance per metre; w: height falloff (1/m)
    axis_x: vec4<f32>,           // xyz: local x axis in world space; w: phase g
    axis_y: vec4<f32>,           // xyz: local y axis (a cylinder's axis)
    axis_z: vec4<f32>,           // xyz: local z axis
    texture: vec4<f32>,          // x: density source (0 constant, 1 noise, 2 file); y: file slot or
                                 // noise octaves; z: noise frequency (1/m); w: noise contrast
    texture_offset: vec4<f32>,   // xyz: noise scroll offset (lattice cells); w: texture density scale
}
// ANCHOR_END: fog_volume_struct

// FOG_SHAPE_ELLIPSOID and FOG_SHAPE_CYLINDER come from Rust (fogbook_core::media::volumes).
// The falloff's exponent is capped here: below y₀ (a rotated volume reaches there) the density
// grows, and e^80 keeps it, times any density, far from f32's limit.
const FOG_MAX_EXPONENT: f32 = 80.0;

fn fog_volume_half(v: FogVolume) -> vec3<f32> {
    return max(v.half_size.xyz, vec3(1e-3));
}

// How far the volume reaches from its centre along each world axis: its world box is
// centre ± reach.
fn fog_volume_reach(v: FogVolume) -> vec3<f32> {
    let half = fog_volume_half(v);
    return abs(v.axis_x.xyz) * half.x + abs(v.axis_y.xyz) * half.y + abs(v.axis_z.xyz) * half.z;
}

// A world direction in the volume's local frame (the rows of its world-to-local rotation).
fn fog_volume_local_dir(v: FogVolume, d: vec3<f32>) -> vec3<f32> {
    return vec3(dot(v.axis_x.xyz, d), dot(v.axis_y.xyz, d), dot(v.axis_z.xyz, d));
}

fn fog_volume_is(v: FogVolume, shape: f32) -> bool {
    return abs(v.centre.w - shape) < 0.5;
}

// ANCHOR: fog_volume_weight
// How much of a volume's density reaches p: 0 outside; inside, the edge fade (0 at the surface,
// 1 from `edge_fade` inward, none when it is 0; distances in metres, the ellipsoid's along its
// smallest axis, the cylinder's the smaller of the cap's and the radial one) times the height
// falloff above y₀.
fn fog_volume_weight(v: FogVolume, p: vec3<f32>) -> f32 {
    let half = fog_volume_half(v);
    let q = fog_volume_local_dir(v, p - v.centre.xyz);
    var inside: f32; // distance from the surface inwards (m), < 0 outside
    if fog_volume_is(v, FOG_SHAPE_CYLINDER) {
        let radial = (1.0 - length(q.xz / half.xz)) * min(half.x, half.z);
        inside = min(radial, half.y - abs(q.y));
    } else if fog_volume_is(v, FOG_SHAPE_ELLIPSOID) {
        inside = (1.0 - length(q / half)) * min(half.x, min(half.y, half.z));
    } else {
        let d = half - abs(q);
        inside = min(d.x, min(d.y, d.z));
    }
    if inside <= 0.0 {
        return 0.0;
    }
    var fade = 1.0; // a hard edge when the fade distance is 0
    if v.half_size.w > 0.0 {
        fade = clamp(inside / v.half_size.w, 0.0, 1.0);
    }
    let above = p.y - (v.centre.y - half.y);
    return fade * exp(min(-max(v.emission_falloff.w, 0.0) * above, FOG_MAX_EXPONENT));
}
// ANCHOR_END: fog_volume_weight
// ANCHOR_END: fog_volume
