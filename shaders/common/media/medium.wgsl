// The media layer's one interface: what a participating medium is at a point, and a bound on it
// over a region. At a point p a medium has an extinction σt (rgb, 1/m), a scattering σs ≤ σt
// (rgb, 1/m; the albedo is σs/σt), a phase function (a kind and its asymmetry g) and an emission
// (radiance added per metre). Over a box it has a majorant: σ̄ ≥ σt everywhere in the box,
// interpolation and noise range included. After the media interface of Pharr, Jakob & Humphreys,
// "Physically Based Rendering", 4th ed. (2023), §11 (Medium::SamplePoint, MediumProperties,
// majorants over a ray's segments), and Novák et al., "Monte Carlo Methods for Volumetric Light
// Transport Simulation" (Eurographics STAR 2018), for majorants and the sum of media.
//
// Media that overlap at a point add (`medium_add`): extinctions, scatterings and emissions add;
// the phases mix by scattering weight w = luminance(σs), so the mixture's mean cosine is
// Σ w_i g_i / Σ w_i (exact), and the component of the largest weight is kept as the lobe a
// consumer evaluates or samples; `medium_add_sampled` instead keeps component i with probability
// w_i / Σ w (single-sample reservoir sampling), an unbiased pick for a path tracer.
//
// Composition is static (WGSL has no dynamic dispatch): each chapter that owns a medium writes
// `<chapter>_medium_at(p) -> Medium` and `<chapter>_majorant(box_min, box_max) -> Majorant` on
// its own density functions, and a consumer sums, by name, the media its group binds:
//   var m = medium_none();
//   m = medium_add(m, froxel_global_medium_at(p));   // the froxel fog's global medium
//   m = medium_add(m, local_volumes_medium_at(p));   // the local fog volumes
// A medium whose chapter is absent from the stack reads as zero from its stand-in bindings (an
// all-zero uniform, an empty volume list), so the same sum serves every stack.
// Media: height layers (height_fog_functions.wgsl, height_layer.wgsl), the volumetric grid's
// global medium (the froxel fog's common.wgsl), the local volumes (fog_volume_density.wgsl,
// local_volumes.wgsl), clouds (their density.wgsl), smoke (its view.wgsl) and smoke cards (the
// volumes their flipbooks were baked from, placed where the cards stand); the froxel
// injection (the froxel fog's media.wgsl) is a consumer; so is the fog at any depth
// (common/fog_at_depth.wgsl), which integrates σt in closed form and takes from here the albedo
// and the phase lobe of the global medium per unit of extinction; so is a path
// tracer, which samples the media at points.

// ANCHOR: medium
const PHASE_HENYEY_GREENSTEIN: u32 = 0u;
const PHASE_CORNETTE_SHANKS: u32 = 1u;
const MEDIUM_LUMA: vec3<f32> = vec3(0.2126, 0.7152, 0.0722);

// One phase lobe: its kind, its asymmetry g, the scattering weight it stands for and its
// component's scattering σs (rgb, 1/m).
struct PhaseLobe {
    kind: u32,
    g: f32,
    weight: f32,
    scattering: vec3<f32>,
}

struct Medium {
    extinction: vec3<f32>, // σt (1/m)
    scattering: vec3<f32>, // σs (1/m), 0 ≤ σs ≤ σt
    emission: vec3<f32>,   // radiance emitted per metre
    g: f32,                // mean cosine of the phase mixture: Σ w_i g_i / Σ w_i
    weight: f32,           // Σ w_i, w_i = luminance(σs_i): the scattering weight
    lobe: PhaseLobe,       // the component of the largest weight (or the sampled one)
}

fn medium_none() -> Medium {
    return Medium(vec3(0.0), vec3(0.0), vec3(0.0), 0.0, 0.0, PhaseLobe(PHASE_HENYEY_GREENSTEIN, 0.0, 0.0, vec3(0.0)));
}

// One medium from its coefficients (a single component: its lobe is its phase).
fn medium_of(extinction: vec3<f32>, scattering: vec3<f32>, emission: vec3<f32>, g: f32, kind: u32) -> Medium {
    let w = dot(scattering, MEDIUM_LUMA);
    return Medium(extinction, scattering, emission, g, w, PhaseLobe(kind, g, w, scattering));
}

// σs / σt per channel (0 where σt = 0).
fn medium_albedo(m: Medium) -> vec3<f32> {
    return select(vec3(0.0), m.scattering / max(m.extinction, vec3(1e-30)), m.extinction > vec3(0.0));
}
// ANCHOR_END: medium

// ANCHOR: medium_add
// The mean cosine of two components by scattering weight; a weightless side leaves the other's g
// exactly (so medium_add(medium_none(), m) is m).
fn medium_mix_g(a: Medium, b: Medium) -> f32 {
    if a.weight <= 0.0 {
        return b.g;
    }
    if b.weight <= 0.0 {
        return a.g;
    }
    return (a.weight * a.g + b.weight * b.g) / (a.weight + b.weight);
}

// Two media at one point: coefficients add, phases mix by scattering weight, the heavier lobe kept.
fn medium_add(a: Medium, b: Medium) -> Medium {
    var m = Medium(a.extinction + b.extinction, a.scattering + b.scattering, a.emission + b.emission,
        medium_mix_g(a, b), a.weight + b.weight, a.lobe);
    if b.lobe.weight > a.lobe.weight {
        m.lobe = b.lobe;
    }
    return m;
}

// As medium_add, but the lobe is b's with probability w_b / (w_a + w_b), for u uniform in [0, 1)
// (a fresh u per addition): over a sum of n media, component i is kept with probability w_i / Σ w.
fn medium_add_sampled(a: Medium, b: Medium, u: f32) -> Medium {
    var m = medium_add(a, b);
    m.lobe = a.lobe;
    if m.weight > 0.0 && u * m.weight < b.weight {
        m.lobe = b.lobe;
    }
    return m;
}
// ANCHOR_END: medium_add

// ANCHOR: lobe_weight
// The per-channel weight of a lobe so picked: the lobe stands for its component's share of the
// scattering, which differs by channel where the components differ in colour (the sky's
// Rayleigh is blue, its Mie grey), while the pick's probability P = w_i / Σ w is one number. So
// σs_i / P, not σs, is the estimate of the scattering that has this phase: in each channel the
// path's weight is (σs_i / P) / σs. It is 1 for a single component and for components of one
// colour.
fn medium_lobe_weight(m: Medium) -> vec3<f32> {
    if m.lobe.weight <= 0.0 {
        return vec3(1.0);
    }
    let share = m.lobe.scattering * (m.weight / m.lobe.weight);
    return select(vec3(0.0), share / max(m.scattering, vec3(1e-30)), m.scattering > vec3(0.0));
}
// ANCHOR_END: lobe_weight

// ANCHOR: majorant
// A bound on a medium's extinction over a region: σ̄ ≥ σt(p) for every p in it, per channel.
struct Majorant {
    extinction: vec3<f32>,
}

fn majorant_none() -> Majorant {
    return Majorant(vec3(0.0));
}

// The sum of media is bounded by the sum of their bounds.
fn majorant_add(a: Majorant, b: Majorant) -> Majorant {
    return Majorant(a.extinction + b.extinction);
}

fn majorant_bounds(bound: Majorant, m: Medium) -> bool {
    return all(m.extinction <= bound.extinction);
}

// A relative margin on bounds formed from f32 exponentials at a box's corners, so that rounding
// never puts a point's σt above its box's bound.
const MAJORANT_MARGIN: f32 = 1.0001;
// ANCHOR_END: majorant

// Where a bound holds: the stretch (t_in, t_out) of o + t d inside the box [lo, hi] (a slab
// test; empty when t_in ≥ t_out, t unclamped), `inv` the ray's ray_inverse — the walks that
// track media by their bounds over boxes (the tracer's grids, the cards' bricks) share it.
fn ray_box_span(o: vec3<f32>, inv: vec3<f32>, lo: vec3<f32>, hi: vec3<f32>) -> vec2<f32> {
    let a = (lo - o) * inv;
    let b = (hi - o) * inv;
    let near = min(a, b);
    let far = max(a, b);
    return vec2(max(max(near.x, near.y), near.z), min(min(far.x, far.y), far.z));
}

// 1 / d with no infinite component (a zero one becomes ±10³⁰), so that a slab test never forms
// 0 · ∞.
fn ray_inverse(d: vec3<f32>) -> vec3<f32> {
    let tiny = vec3(1e-30);
    return 1.0 / select(d, select(-tiny, tiny, d >= vec3(0.0)), abs(d) < tiny);
}
