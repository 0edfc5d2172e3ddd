// Distance fog, the functions: the parameter block, the four falloffs, and the sun glow with its
// shadow-map mask. Taught with the distance fog's own pass, which states the model and its
// references (Koschmieder 1924; Bevy's distance fog); kept in common because the core's
// transparent-fog module (common/transparent_fog.wgsl: the fog at a transparent surface's own
// depth) applies the same fog. The including pass binds the parameters as `fog` (the distance
// fog's pass at group 2, binding 0; the transparent-fog group at binding 3):
// #needs fog
// #import common/scene_inputs.wgsl
// #import common/shadow.wgsl
// #import common/noise.wgsl
// #import common/media/medium.wgsl

// ANCHOR: uniform
struct FogParams {
    color: vec4<f32>,        // rgb: fog colour (linear); a: how much of the fog is applied
    extinction: vec4<f32>,   // rgb: β_e (1/m), atmospheric falloff only
    inscattering: vec4<f32>, // rgb: β_i (1/m), atmospheric falloff only
    glow_color: vec4<f32>,   // rgb: glow colour; a: its weight
    shape: vec4<f32>,        // x: start (m); y: end (m); z: density ρ (1/m); w: glow exponent
    march_end_m: f32,        // distance (m) past which 99% of the fog lies; shadow marching stops there
    falloff: u32,            // 0 linear, 1 exp, 2 exp², 3 atmospheric
    glow_shadowed: u32,      // 1: the glow is masked by the shadow map
    glow_shadow_steps: u32,  // shadow-map lookups along the ray
    view: u32,               // the debug view
}
// ANCHOR_END: uniform

const FALLOFF_LINEAR: u32 = 0u;
const FALLOFF_EXPONENTIAL: u32 = 1u;
const FALLOFF_EXPONENTIAL_SQUARED: u32 = 2u;
const FALLOFF_ATMOSPHERIC: u32 = 3u;

// ANCHOR: falloff
// Extinction (how much of the surface is hidden) and inscattering (how much fog colour is
// added), per channel, at distance d.
struct FogAmount {
    extinction: vec3<f32>,
    inscattering: vec3<f32>,
}

fn fog_amount(d: f32) -> FogAmount {
    var f: f32;
    switch fog.falloff {
        case FALLOFF_LINEAR: {
            let span = max(fog.shape.y - fog.shape.x, 1e-6);
            f = 1.0 - clamp((fog.shape.y - d) / span, 0.0, 1.0);
        }
        case FALLOFF_EXPONENTIAL: {
            f = 1.0 - exp(-fog.shape.z * d);
        }
        case FALLOFF_EXPONENTIAL_SQUARED: {
            let x = fog.shape.z * d;
            f = 1.0 - exp(-x * x);
        }
        default: { // atmospheric: separate coefficients per channel
            return FogAmount(
                vec3(1.0) - exp(-d * fog.extinction.rgb),
                vec3(1.0) - exp(-d * fog.inscattering.rgb),
            );
        }
    }
    return FogAmount(vec3(f), vec3(f));
}
// ANCHOR_END: falloff

// ANCHOR: glow
// Share of the fog in front of the surface that the sun reaches (1 without shadow masking).
fn glow_lit_fraction(dir: vec3<f32>, d: f32, pixel: vec2<f32>) -> f32 {
    if fog.glow_shadowed == 0u {
        return 1.0;
    }
    let steps = max(fog.glow_shadow_steps, 1u);
    let jitter = interleaved_gradient_noise(pixel);
    let t_end = min(d, fog.march_end_m);
    var lit = 0.0;
    var previous = 0.0;
    for (var i = 1u; i <= steps; i++) {
        let t = t_end * f32(i) / f32(steps);
        let f_here = dot(fog_amount(t).inscattering, vec3(1.0 / 3.0));
        let weight = f_here - previous; // the fog held between the previous sample and this one
        previous = f_here;
        let p = frame.camera_pos.xyz + dir * (t_end * (f32(i) - jitter) / f32(steps));
        lit += weight * shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, 0.002);
    }
    // Fog beyond the marched range (at most 1% of it) counts as lit.
    let total = dot(fog_amount(d).inscattering, vec3(1.0 / 3.0));
    lit += total - previous;
    return select(1.0, lit / total, total > 1e-6);
}

// Radiance the sun adds to the fog colour when looking towards it.
fn glow_term(dir: vec3<f32>) -> vec3<f32> {
    let towards_sun = max(dot(dir, frame.sun_dir.xyz), 0.0);
    return pow(towards_sun, fog.shape.w) * frame.sun_color.rgb * fog.glow_color.rgb * fog.glow_color.a;
}
// ANCHOR_END: glow

// Glow radiance below which the shadow march is skipped: under 1/40 of an 8-bit step at
// exposure 0, so skipping it cannot change a displayed pixel.
const GLOW_VISIBLE: f32 = 1e-4;

struct MaskedGlow {
    glow: vec3<f32>, // the glow after shadow masking
    lit: f32,        // the share of the fog along the ray that the sun reaches
}

// ANCHOR: composite
// The glow, masked by the shadow map. The march runs only where the glow is visible at all (it
// falls off as a power of the angle to the sun), unless `always_march` asks for the lit share
// everywhere (the glow-shadow view).
fn masked_glow(dir: vec3<f32>, d: f32, pixel: vec2<f32>, always_march: bool) -> MaskedGlow {
    let unmasked = glow_term(dir);
    var lit = 1.0;
    if always_march || max(unmasked.r, max(unmasked.g, unmasked.b)) > GLOW_VISIBLE {
        lit = glow_lit_fraction(dir, d, pixel);
    }
    return MaskedGlow(unmasked * lit, lit);
}

// The fogged colour: c (1 − a·ext) + (fog colour + glow) · a·ins.
fn distance_fog_composite(scene: vec3<f32>, amount: FogAmount, glow: vec3<f32>) -> vec3<f32> {
    let a = fog.color.a;
    return scene * (1.0 - a * amount.extinction) + (fog.color.rgb + glow) * a * amount.inscattering;
}
// ANCHOR_END: composite

// ANCHOR: fog_by_distance_medium
// Fog by distance as a medium of the media layer (common/media/medium.wgsl), where it has a
// physical reading. The exponential falloff with all of the fog applied (a = 1) is a homogeneous
// medium of σt = ρ that absorbs and emits ρ C per metre: c e^(−ρd) + C (1 − e^(−ρd)) is then the
// exact transfer along every ray, not only the camera's. The atmospheric falloff reads the same
// way with σt = β_e and an emission β_e C (its far limit C; exact where β_i = β_e). The linear and
// exp² falloffs have none — their fog grows with the distance from the camera, not with a place —
// and neither has a < 1: no medium leaves a share of every surface untouched at any distance.
// The sun glow is no medium either (a power of the angle to the sun, not a normalised phase lit
// by a sun that the fog itself dims) and is left out.
fn distance_fog_has_medium() -> bool {
    return fog.color.a >= 1.0 && (fog.falloff == FALLOFF_EXPONENTIAL || fog.falloff == FALLOFF_ATMOSPHERIC);
}

fn distance_fog_extinction() -> vec3<f32> {
    if !distance_fog_has_medium() {
        return vec3(0.0);
    }
    return select(max(fog.extinction.rgb, vec3(0.0)), vec3(max(fog.shape.z, 0.0)), fog.falloff == FALLOFF_EXPONENTIAL);
}

fn distance_fog_medium_at(p: vec3<f32>) -> Medium {
    let sigma_t = distance_fog_extinction();
    return medium_of(sigma_t, vec3(0.0), sigma_t * max(fog.color.rgb, vec3(0.0)), 0.0, PHASE_HENYEY_GREENSTEIN);
}

// A bound over any box: the medium is the same everywhere.
fn distance_fog_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    return Majorant(distance_fog_extinction());
}
// ANCHOR_END: fog_by_distance_medium
