// The fog of a volumetric grid at any depth: what the integrated volume, continued beyond the
// grid, puts between the eye and a point at distance d along a pixel's ray — the transmittance
// T(d) and the in-scattered radiance L_in(d), so that a surface's colour c becomes
// c · T(d) + L_in(d). Inside the grid, the integrated texel of the slice before d (bilinear across
// columns) and the partial slice up to d finished with that slice's S and σt by the same step
// integral; beyond the grid's far distance f, the medium in closed form from f to d. After
// Wronski 2014 ("Volumetric Fog: Unified Compute Shader-Based Solution to Atmospheric
// Scattering", the lookup at a depth) and Hillaire 2015 ("Towards Unified and Physically-Based
// Volumetric Lighting in Frostbite", the step integral). Shared by the froxel grid's composite
// (at each pixel's depth) and the core's transparent-fog module
// (common/transparent_fog.wgsl, at a transparent surface's own depth), which bind the grid's
// uniform (common/volumetric_grid.wgsl) and volumes at bindings 0–2 of their group 2; the sun
// and sky light beyond the grid come from the shared sky (common/sky_light.wgsl, group 3).
// #import common/volumetric_grid.wgsl
// #import common/height_layer.wgsl
// #import common/sky_light.wgsl

@group(2) @binding(1) var scatter_tex: texture_3d<f32>;
@group(2) @binding(2) var integrated_tex: texture_3d<f32>;

// Bilinear across columns and rows, at slice k exactly (no filtering in depth), in f32.
fn load_bilinear(tex: texture_3d<f32>, uv: vec2<f32>, k: u32) -> vec4<f32> {
    let grid = vec2<i32>(froxel.grid.xy);
    let p = uv * vec2<f32>(froxel.grid.xy) - 0.5;
    let base = floor(p);
    let f = p - base;
    let i0 = clamp(vec2<i32>(base), vec2(0), grid - 1);
    let i1 = clamp(vec2<i32>(base) + 1, vec2(0), grid - 1);
    let z = i32(k);
    let a = mix(textureLoad(tex, vec3(i0.x, i0.y, z), 0), textureLoad(tex, vec3(i1.x, i0.y, z), 0), f.x);
    let b = mix(textureLoad(tex, vec3(i0.x, i1.y, z), 0), textureLoad(tex, vec3(i1.x, i1.y, z), 0), f.x);
    return mix(a, b, f.y);
}

// ANCHOR: fog_at_depth
struct FogAtDepth {
    inscattering: vec3<f32>,
    transmittance: f32,
}

fn froxel_grid_at_depth(uv: vec2<f32>, d: f32) -> FogAtDepth {
    let n = froxel.grid.z;
    let z = clamp(d, 0.0, froxel.slices.y);
    let k = u32(clamp(floor(depth_slice(z)), 0.0, f32(n - 1u)));
    var before = vec4(0.0, 0.0, 0.0, 1.0); // eye to the start of slice k
    if k > 0u {
        before = load_bilinear(integrated_tex, uv, k - 1u);
    }
    let s = load_bilinear(scatter_tex, uv, k);
    let len = max(z - slice_begin(k), 0.0);
    var fog: FogAtDepth;
    fog.inscattering = before.rgb + before.a * step_integral(s.rgb, s.a, len);
    fog.transmittance = before.a * exp(-s.a * len);
    return fog;
}
// ANCHOR_END: fog_at_depth

// The sun's and the ambient light's radiance scattered towards the eye per unit σs at p, the
// sun through `visibility` and the phase function at cos_sun: the global medium's light, shared by
// the closed form beyond the grid (unshadowed) and the composite's reference march.
fn sun_and_ambient_at(p: vec3<f32>, cos_sun: f32, visibility: f32) -> vec3<f32> {
    return sun_light_at(p) * frame.sun_dir.w * froxel.light.x * phase(cos_sun) * visibility
        + sky_light_at(p) * froxel.light.y;
}

// ANCHOR: beyond
// The medium from the grid's far end f to d in closed form: the constant density and this
// chapter's height layer (noise averages out: its mean factor is 1), lit by the unshadowed sun
// and the ambient at the far end. Nothing when switched off, when d ≤ f, or with the height fog in
// the stack (its fog starts at f: `frame.volumetric_far_m`).
// Its σt is integrated in closed form, τ(f, d); what is constant along the ray, the albedo and
// the phase lobe (`phase`), comes from the media layer's medium per unit of extinction.
fn fog_beyond_grid(dir: vec3<f32>, d: f32) -> FogAtDepth {
    var fog: FogAtDepth;
    fog.inscattering = vec3(0.0);
    fog.transmittance = 1.0;
    let far = froxel.slices.y;
    if froxel.noise.z < 0.5 || frame.height_layers[0].w > 0.5 || d <= far {
        return fog;
    }
    let o = frame.camera_pos.y;
    let tau = min(froxel.medium.x * (d - far), MAX_EXTINCTION) + layer_optical_depth(global_layer(0u), o, dir.y, far, d);
    var radiance = vec3(0.0);
    if froxel.debug.y == 0u {
        radiance = sun_and_ambient_at(frame.camera_pos.xyz + dir * far, dot(dir, frame.sun_dir.xyz), 1.0);
    }
    fog.transmittance = exp(-tau);
    fog.inscattering = medium_albedo(global_medium_per_extinction()) * radiance * (1.0 - fog.transmittance);
    return fog;
}
// ANCHOR_END: beyond

// ANCHOR: at_depth
// The grid's fog up to d, then the closed form beyond it, in front of which the grid lies:
// T = T_grid · T_b, L_in = L_grid + T_grid · L_b.
fn froxel_fog_at_depth(uv: vec2<f32>, dir: vec3<f32>, d: f32) -> FogAtDepth {
    var fog = froxel_grid_at_depth(uv, d);
    let beyond = fog_beyond_grid(dir, d);
    fog.inscattering += fog.transmittance * beyond.inscattering;
    fog.transmittance *= beyond.transmittance;
    return fog;
}
// ANCHOR_END: at_depth
