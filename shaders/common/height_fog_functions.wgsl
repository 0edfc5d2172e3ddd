// Analytic exponential height fog, the functions: taught with the height fog's own pass, which
// states the model and its references; kept in common because the core's transparent-fog module
// (common/transparent_fog.wgsl: the fog at a transparent surface's own depth) applies the same
// fog. The parameter block, the optical depths along a view ray from the start distance (or the
// froxel grid's far distance, the handover) to a distance d, and what the fog then does to a
// surface at d:
//   colour · (1 − f) + fog colour · f + directional,   f = min(1 − e^(−τ), max opacity).
// After Wenzel 2006 (the closed form) and Unreal Engine's ExponentialHeightFog (the parameters).
// The including pass binds the parameters as `height` (the height fog's pass at group 2,
// binding 0; the transparent-fog group at binding 4):
// #needs height
// #import common/scene_inputs.wgsl
// #import common/height_layer.wgsl

// ANCHOR: uniform
struct HeightFogParams {
    layer1: vec4<f32>,       // x: density (1/m); y: falloff k (1/m); z: height h₀ (m)
    layer2: vec4<f32>,       // the second layer, same layout
    distances: vec4<f32>,    // x: start (m); y: cutoff (m); z: directional start (m); w: max opacity
    inscattering: vec4<f32>, // rgb: fog colour, or its factor on the ambient light
    directional: vec4<f32>,  // rgb: sun inscattering colour; w: exponent
    plot: vec4<f32>,         // density-profile view: x, y: height range (m); z: largest density
    view: u32,               // the debug view
    height_fog_on: u32,      // 0: the colour passes through unchanged
    use_sky_color: u32,      // 1: fog colour = frame.ambient × inscattering
    _pad0: u32,
}
// ANCHOR_END: uniform

// ANCHOR: along
struct HeightFogSample {
    tau1: f32,
    tau2: f32,
    tau_directional: f32,
    beyond_cutoff: bool,
    before_start: bool,
}

fn height_fog_along(dir: vec3<f32>, d: f32) -> HeightFogSample {
    var s: HeightFogSample;
    // With froxel fog in the stack, its grid covers the eye up to `volumetric_far_m` (0 without it)
    // and this chapter's fog starts there (the handover of chapter 0).
    let start = max(height.distances.x, frame.volumetric_far_m);
    s.beyond_cutoff = d > height.distances.y;
    s.before_start = d < start;
    if s.beyond_cutoff {
        return s;
    }
    let o = frame.camera_pos.y;
    let t0 = min(start, d);
    s.tau1 = layer_optical_depth(height.layer1, o, dir.y, t0, d);
    s.tau2 = layer_optical_depth(height.layer2, o, dir.y, t0, d);
    let td = min(max(height.distances.z, frame.volumetric_far_m), d);
    s.tau_directional = layer_optical_depth(height.layer1, o, dir.y, td, d) + layer_optical_depth(height.layer2, o, dir.y, td, d);
    return s;
}
// ANCHOR_END: along

// ANCHOR: terms
// What the fog does to a surface at the end of sample `s` along `dir`: it keeps 1 − amount of
// the surface's colour and adds fog_color · amount + directional.
struct HeightFogTerms {
    amount: f32,
    fog_color: vec3<f32>,
    directional: vec3<f32>,
}

fn height_fog_terms(dir: vec3<f32>, s: HeightFogSample) -> HeightFogTerms {
    var t: HeightFogTerms;
    t.amount = min(1.0 - exp(-(s.tau1 + s.tau2)), height.distances.w);
    let sun = pow(max(dot(dir, frame.sun_dir.xyz), 0.0), height.directional.w);
    t.directional = height.directional.rgb * sun * min(1.0 - exp(-s.tau_directional), height.distances.w);
    t.fog_color = select(height.inscattering.rgb, frame.ambient.rgb * height.inscattering.rgb, height.use_sky_color == 1u);
    return t;
}
// ANCHOR_END: terms

// ANCHOR: medium
// The height fog as a medium (common/media/medium.wgsl): its two layers' σt, all of it
// scattering, isotropic (the chapter paints its fog colour where a renderer would light an albedo
// of 1); none while the fog is off, and none from the core's all-zero stand-in.
fn height_fog_medium_at(p: vec3<f32>) -> Medium {
    if height.height_fog_on != 1u {
        return medium_none();
    }
    return height_layers_medium(height.layer1, height.layer2, p.y, vec3(1.0), 0.0);
}

// A bound on it over the box [box_min, box_max]: each layer's density at the box's denser end.
fn height_fog_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    if height.height_fog_on != 1u {
        return majorant_none();
    }
    let lo = box_min.y;
    let hi = box_max.y;
    return Majorant(vec3(layer_majorant(height.layer1, lo, hi) + layer_majorant(height.layer2, lo, hi)));
}
// ANCHOR_END: medium
