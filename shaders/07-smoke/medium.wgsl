// The smoke as a medium of the media layer (common/media/medium.wgsl): extinction, scattering,
// the glow and the phase at any point of the simulated grid, read from the fluid (rgb the dye,
// a the density) and the velocity texture's fourth channel (T − T_amb, K), trilinearly; and a
// bound on the extinction over any region from the cells it reads. The smoke's own march
// (view.wgsl) takes its formulas from here, and a path tracer samples them at points.
// Bindings 30–33 of group 2, the media layer's place for a simulated grid's field
// (fogbook_core::media::point), so that a pass sampling every medium binds it beside the others:
// the parameter block (the smoke's passes bind the same buffer at binding 0 as `smoke`), the
// fluid, the velocity and the smoke's trilinear sampler. An all-zero block — the stand-in of a
// stack without the smoke — is no medium.
// #import 07-smoke/params.wgsl
// #import common/media/medium.wgsl

// The block is read as storage, not as a uniform: a path tracer's one stage binds every medium's
// uniform already, and an eighth uniform buffer there corrupted lavapipe's (Mesa 22.3) memory.
@group(2) @binding(30) var<storage, read> smoke_medium: SmokeParams;
@group(2) @binding(31) var smoke_fluid: texture_3d<f32>;
@group(2) @binding(32) var smoke_velocity: texture_3d<f32>;
@group(2) @binding(33) var smoke_sampler: sampler; // trilinear, clamped to the edge

// Whether the block holds a grid (the stand-in's zeros do not).
fn smoke_present() -> bool {
    return smoke_medium.grid.box_m > 0.0 && smoke_medium.grid.n >= 1.0;
}

fn box_world_size() -> f32 {
    return smoke_medium.grid.box_m;
}

// ANCHOR: glow
// Radiance of smoke at temperature T (K), per unit of absorbed light: 0 below
// `emission_start_k`, emission × (t, t², t⁴) with t = (T − T₀) / (T₁ − T₀) clamped to 0..1 — red
// first, then orange and yellow, white at `emission_full_k`. A cheap stand-in for Planck's law
// seen through a tone curve, not a calibrated blackbody.
fn glow(temperature: f32) -> vec3<f32> {
    if smoke_medium.optics.emission <= 0.0 {
        return vec3(0.0);
    }
    let t0 = smoke_medium.optics.emission_start_k;
    let t1 = smoke_medium.optics.emission_full_k;
    let t = clamp((temperature - t0) / (t1 - t0), 0.0, 1.0);
    let t2 = t * t;
    return smoke_medium.optics.emission * vec3(t, t2, t2 * t2);
}
// ANCHOR_END: glow

// ANCHOR: smoke_medium
// The smoke as a medium (common/media/medium.wgsl), from the same fields and formulas the
// smoke's march (view.wgsl) reads: at uv in the box (0..1 per axis), density ρ is the fluid's
// alpha, the dye's colour over ρ the albedo, T the ambient temperature plus the velocity
// texture's fourth channel.
// σt = extinction × tint × ρ per channel, σs = albedo σt, and the glow, emitted as the smoke
// absorbs, σt × glow(T) per metre; the phase is the first octave's Henyey–Greenstein lobe (the
// octaves stand in for the multiple scattering a path tracer follows bounce by bounce). The
// density has no fixed upper limit: `smoke_majorant` bounds it over a region from the cells there.
fn smoke_extinction(density: f32) -> vec3<f32> {
    return smoke_medium.optics.extinction * smoke_medium.optics.extinction_tint * density;
}

fn smoke_albedo(fluid: vec4<f32>, density: f32) -> vec3<f32> {
    return clamp(fluid.rgb / max(density, 1e-30), vec3(0.0), vec3(1.0));
}

fn smoke_temperature(uv: vec3<f32>) -> f32 {
    return smoke_medium.optics.ambient_k + textureSampleLevel(smoke_velocity, smoke_sampler, uv, 0.0).w;
}

fn smoke_medium_at(p: vec3<f32>) -> Medium {
    let uv = (p - smoke_medium.grid.box_min) / box_world_size();
    if !smoke_present() || any(uv < vec3(0.0)) || any(uv > vec3(1.0)) {
        return medium_none();
    }
    let fluid = textureSampleLevel(smoke_fluid, smoke_sampler, uv, 0.0);
    let density = max(fluid.a, 0.0);
    let extinction = smoke_extinction(density);
    let scattering = smoke_albedo(fluid, density) * extinction;
    let emission = extinction * glow(smoke_temperature(uv));
    return medium_of(extinction, scattering, emission, smoke_medium.light.phase_g, PHASE_HENYEY_GREENSTEIN);
}

// A bound over the world box [box_min, box_max] (common/media/medium.wgsl's `Majorant`): the
// density `smoke_medium_at` reads at uv is a trilinear blend of the 2 × 2 × 2 cells around
// uv·n − ½ (clamped to the grid, as the sampler clamps to the edge), so no point of the box reads
// more than the largest density of the cells from floor(lo·n − ½) to floor(hi·n − ½) + 1, with
// lo..hi the box's part inside the grid in box units; times extinction × tint, with
// MAJORANT_MARGIN for the filter's rounding. Exact for any region, at one load per cell it
// touches: meant for small regions (a froxel, a march segment); a whole-grid bound reads n³.
fn smoke_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    let lo = (box_min - smoke_medium.grid.box_min) / box_world_size();
    let hi = (box_max - smoke_medium.grid.box_min) / box_world_size();
    if !smoke_present() || any(hi < vec3(0.0)) || any(lo > vec3(1.0)) || any(hi < lo) {
        return majorant_none();
    }
    let n = smoke_medium.grid.n;
    let top = vec3(i32(n) - 1);
    let first = clamp(vec3<i32>(floor(clamp(lo, vec3(0.0), vec3(1.0)) * n - 0.5)), vec3(0), top);
    let last = clamp(vec3<i32>(floor(clamp(hi, vec3(0.0), vec3(1.0)) * n - 0.5)) + 1, vec3(0), top);
    var density = 0.0;
    for (var z = first.z; z <= last.z; z++) {
        for (var y = first.y; y <= last.y; y++) {
            for (var x = first.x; x <= last.x; x++) {
                density = max(density, textureLoad(smoke_fluid, vec3(x, y, z), 0).a);
            }
        }
    }
    return Majorant(smoke_extinction(density) * MAJORANT_MARGIN);
}
// ANCHOR_END: smoke_medium
