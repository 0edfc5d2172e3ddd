// Froxel fog, pass 2 of 4 — lighting: the radiance each froxel scatters towards the eye per metre,
//   S = σs · (E_sun · p_HG(g, v·l) · V_shadow + L_ambient),
// with the sun's light through the core's shadow map (light shafts), the ambient light taken as
// isotropic radiance (its phase integral is 1), and the Henyey–Greenstein phase function.
// Sun and ambient come from the sky's tables when the sky is in the stack (sky_light.wgsl), else
// from the frame's constant sun and ambient. After Wronski 2014 and Hillaire 2015.
// Output: `scatter_out` (rgb: S, 1/m per unit radiance; a: σt, 1/m).
// #import 04-froxel-fog/common.wgsl
// #import common/shadow.wgsl
// #import 03-sky/sky_light.wgsl

@group(2) @binding(1) var scatter_out: texture_storage_3d<rgba32float, write>;
@group(2) @binding(2) var media_in: texture_3d<f32>;

// Depth bias of the volume's shadow lookups (shadow-map depth units: 1 = 1199 m).
const VOLUME_SHADOW_BIAS: f32 = 0.0005;

// ANCHOR: lighting
@compute @workgroup_size(4, 4, 4)
fn lighting(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= froxel.grid.xyz) {
        return;
    }
    let m = textureLoad(media_in, id, 0);
    let p = froxel_centre(id);
    let v = grid_ray_dir(vec2<f32>(id.xy) + 0.5);
    var visibility = 1.0;
    if froxel.light.z > 0.5 {
        visibility = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, VOLUME_SHADOW_BIAS);
    }
    let phase = henyey_greenstein(froxel.albedo.w, dot(v, frame.sun_dir.xyz));
    let sun = sun_light_at(p) * frame.sun_dir.w * froxel.light.x * phase * visibility;
    let ambient = sky_light_at(p) * froxel.light.y;
    textureStore(scatter_out, id, vec4(m.rgb * (sun + ambient), m.a));
}
// ANCHOR_END: lighting
