// Volumetric clouds — their shadow map (Schneider & Vos 2015, "The Real-time Volumetric
// Cloudscapes of Horizon Zero Dawn"; Hillaire 2016, "Physically Based Sky, Atmosphere and Cloud
// Rendering in Frostbite"). Per texel of a square on the ground (y = 0) around the camera:
// e^(−τ), τ the clouds' optical depth along the ray from the texel's ground point towards the
// sun through the whole layer, by a short midpoint march through the view march's own density
// (`cloud_density`, without the detail erosion, as the light march's far samples: the map's
// texels are tens of metres, coarser than the detail noise). The core publishes the map
// (common/cloud_shadow.wgsl) to the scene's and the fog's sun light; the clouds' own march
// never reads it (their light march is finer).
// Inputs: the clouds' parameters and noise (group 2, density.wgsl), the sky's planet (group 3).
// Outputs: `shadow_map_out` (r: transmittance); the `cloud-shadow` view (`cloud_shadow_view`).
// #import 06-clouds/density.wgsl

// Mirrors `struct CloudShadow` in common/cloud_shadow.wgsl (the same buffer).
struct CloudShadowMap {
    centre_xz: vec2<f32>,
    extent_m: f32,
    enabled: u32,
    towards_sun: vec3<f32>,
    strength: f32,
}

@group(2) @binding(20) var<uniform> cloud_shadow_map: CloudShadowMap;
@group(2) @binding(21) var shadow_map_out: texture_storage_2d<rgba16float, write>;
@group(2) @binding(22) var shadow_map_in: texture_2d<f32>;

// ANCHOR: shadow_march
// The clouds' optical depth along the ray from `ground` towards the sun (unit `l`, rising):
// from where it leaves the sphere of the layer's bottom (at once, inside the layer) to where it
// leaves the sphere of its top, capped at the march's longest stretch, in `flags.w` midpoint
// steps. The ray rises, so unlike a view ray it never meets the ground.
fn optical_depth_to_sun(ground: vec3<f32>, l: vec3<f32>) -> f32 {
    let rel = ground - planet_centre();
    let r = length(rel);
    let mu = dot(rel, l) / r;
    let t0 = max(sphere_hits(r, mu, layer_bottom_radius()).y, 0.0);
    let t1 = min(sphere_hits(r, mu, layer_top_radius()).y, t0 + clouds.shell.w);
    if t1 <= t0 {
        return 0.0;
    }
    let n = max(clouds.flags.w, 1u);
    let ds = (t1 - t0) / f32(n);
    var density = 0.0;
    for (var i = 0u; i < n; i++) {
        let p = ground + l * (t0 + (f32(i) + 0.5) * ds);
        density += cloud_density(p, radius_at(p), false, ds);
    }
    return density * clouds.medium.x * ds;
}
// ANCHOR_END: shadow_march

// The ground point at the centre of texel `texel` of a map of `size` texels per side.
fn texel_ground_point(texel: vec2<u32>, size: u32) -> vec3<f32> {
    let uv = (vec2<f32>(texel) + 0.5) / f32(size);
    let xz = cloud_shadow_map.centre_xz + (uv - 0.5) * cloud_shadow_map.extent_m;
    return vec3(xz.x, 0.0, xz.y);
}

@compute @workgroup_size(8, 8, 1)
fn build_shadow_map(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(shadow_map_out).x;
    if id.x >= size || id.y >= size {
        return;
    }
    let tau = optical_depth_to_sun(texel_ground_point(id.xy, size), cloud_shadow_map.towards_sun);
    textureStore(shadow_map_out, id.xy, vec4(exp(-tau), tau, 0.0, 1.0));
}

// The `cloud-shadow` view: the map stretched over the view, seen from above (+x right, +z
// down), texel by texel (nearest: a view of the map's own size shows each texel once).
@compute @workgroup_size(8, 8, 1)
fn cloud_shadow_view(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let map = textureDimensions(shadow_map_in);
    let texel = min(id.xy * map / size, map - 1u);
    write_scalar(id.xy, textureLoad(shadow_map_in, texel, 0).r);
}
