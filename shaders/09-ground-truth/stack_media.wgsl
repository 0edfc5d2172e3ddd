// The stack's media for the path tracer, read through the media layer's interface
// (common/media/medium.wgsl): the same density functions the real-time passes sample, bound from
// what the stack lends (fogbook_core::lend, media::point). Group 2:
//   0  the volumetric grid's uniform (common/volumetric_grid.wgsl; all zero without the froxel
//      fog, which reads as no medium)
//   3  the stack's local fog volumes (their count in the tracer's uniform)
//   4  the height layers' uniform (common/height_fog_functions.wgsl; all zero: off)
//   5  fog by distance (common/distance_fog_functions.wgsl; all zero: none)
//   12–17  the stack's density textures and baked noise (common/media/fog_volume_density.wgsl)
//   24–29  the cloud layer's field (the clouds' density.wgsl; a zero uniform: no clouds)
//   30–33  the smoke's simulated grid (the smoke's medium.wgsl; a zero block: no smoke)
//   34–36  the six-way cards' source volumes, placed where the cards stand (the cards'
//          medium.wgsl; a zero block: no cards)
// and the sky's atmosphere from the shared sky's uniform (group 3), where it is traced as a
// medium (the sky's medium.wgsl; tracked on its own stretch of each ray, tracking.wgsl).
// The global medium is the froxel fog's where the stack has it (its constant, its height layers —
// the height fog's own where both are in the stack — and its noise), else the height fog's two
// layers; fog by distance, the local volumes, the smoke, the cards, the clouds and the
// atmosphere add to it, each part bounded by its own region of the tracking (tracking.wgsl).
// Composition is static, as the media layer says. The volume count and the random stream are the
// including file's (trace.wgsl):
// #needs tracer, random, FLAG_ATMOSPHERE, sky_in_stack, shared_atmosphere
// #import 04-froxel-fog/common.wgsl
// #import common/height_fog_functions.wgsl
// #import common/distance_fog_functions.wgsl
// #import common/media/local_volumes.wgsl
// #import 06-clouds/density.wgsl
// #import 07-smoke/medium.wgsl
// #import 03-sky/medium.wgsl
// #import 08-six-way-cards/medium.wgsl

@group(2) @binding(3) var<storage, read> fog_volumes: array<FogVolume>;
@group(2) @binding(4) var<uniform> height: HeightFogParams;
@group(2) @binding(5) var<uniform> fog: FogParams;

fn caster_volume(i: u32) -> FogVolume {
    return fog_volumes[i];
}

fn caster_volume_count() -> u32 {
    return tracer.volume_count;
}

fn froxel_fog_in_stack() -> bool {
    return froxel.light.w > 0.5;
}

// Rust compiles the trace without the clouds' code where the stack has none (gpu.rs): what a
// path may meet decides the registers it holds.
override TRACE_CLOUDS: bool = true;

// And without the cards' tree walk where the stack has no cards.
override TRACE_CARDS: bool = true;

fn cards_in_stack() -> bool {
    return TRACE_CARDS && cards_present();
}

fn clouds_in_stack() -> bool {
    return TRACE_CLOUDS && clouds.medium.x > 0.0 && clouds.flags.z == 1u;
}

// The clouds' bound inside their shell (tracking.wgsl): the density is at most 1.
fn cloud_majorant_in_shell() -> f32 {
    return select(0.0, clouds.medium.x, clouds_in_stack());
}

// The atmosphere is a medium of the trace where the sky is in the stack and the tracer is asked
// to trace it; else the sky's tables light the scene as its environment (sky_environment.wgsl).
fn atmosphere_traced() -> bool {
    return (tracer.flags & FLAG_ATMOSPHERE) != 0u && sky_in_stack();
}

// ANCHOR: cloud_lobes
// The clouds' phase is two Henyey–Greenstein lobes, w p(g_f) + (1 − w) p(g_b): as two components
// of the sum, weighted w and 1 − w, a pick draws each lobe in proportion — the exact mixture, not
// one lobe at its mean g.
fn add_clouds(m: Medium, p: vec3<f32>, pick: bool) -> Medium {
    let c = cloud_medium_at(p);
    if c.extinction.x <= 0.0 {
        return m;
    }
    let w = clamp(clouds.phase.z, 0.0, 1.0);
    let forward = medium_of(c.extinction * w, c.scattering * w, vec3(0.0), clouds.phase.x, PHASE_HENYEY_GREENSTEIN);
    let backward = medium_of(c.extinction * (1.0 - w), c.scattering * (1.0 - w), vec3(0.0), clouds.phase.y, PHASE_HENYEY_GREENSTEIN);
    if pick {
        return medium_add_sampled(medium_add_sampled(m, forward, random()), backward, random());
    }
    return medium_add(medium_add(m, forward), backward);
}
// ANCHOR_END: cloud_lobes

// m plus one component c. With `pick` the lobe is drawn from the two in proportion to their
// scattering (medium_add_sampled, one fresh number); the coefficients are the sum either way.
fn add_component(m: Medium, c: Medium, pick: bool) -> Medium {
    if pick {
        return medium_add_sampled(m, c, random());
    }
    return medium_add(m, c);
}

// Inside the box the media are traced in (the tracer's domain): every medium but the clouds and
// the atmosphere lives in it — the global medium and fog by distance fill it and end at its faces
// — and the majorant grid and the cards' tracking bound them there.
fn in_media_box(p: vec3<f32>) -> bool {
    return all(p >= tracer.domain_min.xyz) && all(p <= tracer.domain_max.xyz);
}

// ANCHOR: stack_medium
// The stack's medium is a sum, split by the regions that bound it (tracking.wgsl), each part the
// sum of its media's coefficients; with `pick` the phase lobe is drawn from a part's components
// in proportion to their scattering (medium_add_sampled, one fresh number each). The media that
// fill the box — the global medium and fog by distance, which end at its faces — bounded by the
// scene's grid:
fn filling_media_at(p: vec3<f32>) -> Medium {
    if !in_media_box(p) {
        return medium_none();
    }
    var m = medium_none();
    if froxel_fog_in_stack() {
        m = froxel_global_medium_at(p);
    } else {
        m = height_fog_medium_at(p);
    }
    return medium_add(m, distance_fog_medium_at(p));
}

// The placed media, bounded by their own grid: the local volumes and the smoke.
fn placed_media_at(p: vec3<f32>, pick: bool) -> Medium {
    var m = medium_none();
    if !in_media_box(p) {
        return m;
    }
    for (var i = 0u; i < caster_volume_count(); i++) {
        m = add_component(m, fog_volume_medium_at(caster_volume(i), p), pick);
    }
    // The smoke is chromatic (its tint): spectral tracking takes its σt per channel.
    if smoke_present() {
        m = add_component(m, smoke_medium_at(p), pick);
    }
    return m;
}
// ANCHOR_END: stack_medium

// The air and the aerosols, where the atmosphere is traced: Rayleigh's and Mie's phases drawn in
// proportion. (The clouds are add_clouds; the cards, one brick at a time, card_component_at.)
fn atmosphere_media_at(p: vec3<f32>, pick: bool) -> Medium {
    if !atmosphere_traced() {
        return medium_none();
    }
    let h = atmosphere_altitude(shared_atmosphere, p);
    let m = add_component(medium_none(), air_medium_at(shared_atmosphere, h), pick);
    return add_component(m, aerosol_medium_at(shared_atmosphere, h), pick);
}

// ANCHOR: stack_majorant
// Bounds on it over the box [lo, hi], in two parts, each for its own grid (majorant_grid.wgsl):
// the media that fill the media's box, and the placed media (the local volumes, the smoke from
// the cells that the box covers). The clouds, the atmosphere and the cards are tracked apart
// (tracking.wgsl).
fn global_majorant(lo: vec3<f32>, hi: vec3<f32>) -> Majorant {
    var bound = majorant_none();
    if froxel_fog_in_stack() {
        bound = froxel_global_majorant(lo, hi);
    } else {
        bound = height_fog_majorant(lo, hi);
    }
    return majorant_add(bound, distance_fog_majorant(lo, hi));
}

fn placed_majorant(lo: vec3<f32>, hi: vec3<f32>) -> Majorant {
    return majorant_add(smoke_majorant(lo, hi), local_volumes_majorant(lo, hi));
}

// The box around the placed media, inside the media's box: (lo, hi), lo = hi where there are none.
fn placed_media_box() -> array<vec3<f32>, 2> {
    var lo = vec3(3.0e38);
    var hi = vec3(-3.0e38);
    if smoke_present() {
        lo = smoke_medium.grid.box_min;
        hi = lo + vec3(box_world_size());
    }
    for (var i = 0u; i < caster_volume_count(); i++) {
        let v = caster_volume(i);
        let reach = fog_volume_reach(v);
        lo = min(lo, v.centre.xyz - reach);
        hi = max(hi, v.centre.xyz + reach);
    }
    lo = max(lo, tracer.domain_min.xyz);
    hi = min(hi, tracer.domain_max.xyz);
    if any(hi <= lo) {
        return array(vec3(0.0), vec3(0.0));
    }
    return array(lo, hi);
}
// ANCHOR_END: stack_majorant

// ANCHOR: residual_majorant
// A bound on |σt − σ_c| over the box for the scene's grid: the global medium's noise,
// |factor − 1| ≤ 1.0364 a of its smooth part (noise_factor). (The placed media have no control:
// their residual is themselves.)
fn global_residual_majorant(lo: vec3<f32>, hi: vec3<f32>) -> Majorant {
    if froxel_fog_in_stack() && froxel.noise.x > 0.0 {
        let spread = 1.0364 * froxel.noise.x;
        return Majorant(froxel_global_majorant(lo, hi).extinction * spread / (1.0 + spread));
    }
    return majorant_none();
}
// ANCHOR_END: residual_majorant

// ANCHOR: control
// The control of residual ratio tracking (Novák et al. 2014): the part of the medium whose
// optical depth has a closed form — the global medium without its noise (the constant and the
// height layers, chapter 2's closed form) and fog by distance — its σt at p inside the media's
// box, and its optical depth along o + t d over [t0, t1], a stretch inside that box.
fn control_present() -> bool {
    return distance_fog_has_medium() || froxel_fog_in_stack() || height.height_fog_on == 1u;
}

fn control_extinction_at(p: vec3<f32>) -> vec3<f32> {
    if !in_media_box(p) {
        return vec3(0.0);
    }
    var sigma = distance_fog_extinction();
    if froxel_fog_in_stack() {
        sigma += global_medium_per_extinction().extinction * smooth_extinction_at(p);
    } else if height.height_fog_on == 1u {
        sigma += vec3(layer_density(height.layer1, p.y) + layer_density(height.layer2, p.y));
    }
    return sigma;
}

fn control_optical_depth(o: vec3<f32>, d: vec3<f32>, t0: f32, t1: f32) -> vec3<f32> {
    let len = max(t1 - t0, 0.0);
    var tau = distance_fog_extinction() * len;
    if froxel_fog_in_stack() {
        let layers = layer_optical_depth(global_layer(0u), o.y, d.y, t0, t1) + layer_optical_depth(global_layer(1u), o.y, d.y, t0, t1);
        tau += global_medium_per_extinction().extinction * (froxel.medium.x * len + layers);
    } else if height.height_fog_on == 1u {
        tau += vec3(layer_optical_depth(height.layer1, o.y, d.y, t0, t1) + layer_optical_depth(height.layer2, o.y, d.y, t0, t1));
    }
    return tau;
}
// ANCHOR_END: control
