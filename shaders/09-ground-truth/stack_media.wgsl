// The stack's media for the path tracer, read through the media layer's interface
// (common/media/medium.wgsl): the same density functions the real-time passes sample, bound from
// what the stack lends (fogbook_core::lend). Group 2:
//   0  the volumetric grid's uniform (common/volumetric_grid.wgsl; all zero without the froxel
//      fog, which reads as no medium)
//   3  the stack's local fog volumes (their count in the tracer's uniform)
//   4  the height layers' uniform (common/height_fog_functions.wgsl; all zero: off)
//   12–17  the stack's density textures and baked noise (common/media/fog_volume_density.wgsl)
// The global medium is the froxel fog's where the stack has it (its constant, its height layers —
// the height fog's own where both are in the stack — and its noise), else the height fog's two
// layers; the local volumes add to it. Composition is static, as the media layer says. The
// volume count and the random stream are the including file's (trace.wgsl):
// #needs tracer, random
// #import 04-froxel-fog/common.wgsl
// #import common/height_fog_functions.wgsl
// #import common/media/local_volumes.wgsl

@group(2) @binding(3) var<storage, read> fog_volumes: array<FogVolume>;
@group(2) @binding(4) var<uniform> height: HeightFogParams;

fn caster_volume(i: u32) -> FogVolume {
    return fog_volumes[i];
}

fn caster_volume_count() -> u32 {
    return tracer.volume_count;
}

fn froxel_fog_in_stack() -> bool {
    return froxel.light.w > 0.5;
}

// ANCHOR: stack_medium
// The stack's medium at p. With `pick` the phase lobe is drawn from the components in proportion
// to their scattering (medium_add_sampled, one fresh number each); the coefficients are the sum
// either way.
fn stack_medium_at(p: vec3<f32>, pick: bool) -> Medium {
    var m = medium_none();
    var global = medium_none();
    if froxel_fog_in_stack() {
        global = froxel_global_medium_at(p);
    } else {
        global = height_fog_medium_at(p);
    }
    m = medium_add(m, global);
    for (var i = 0u; i < caster_volume_count(); i++) {
        let v = fog_volume_medium_at(caster_volume(i), p);
        if pick {
            m = medium_add_sampled(m, v, random());
        } else {
            m = medium_add(m, v);
        }
    }
    return m;
}

// A bound on it over the box [lo, hi].
fn stack_majorant(lo: vec3<f32>, hi: vec3<f32>) -> Majorant {
    var bound = majorant_none();
    if froxel_fog_in_stack() {
        bound = froxel_global_majorant(lo, hi);
    } else {
        bound = height_fog_majorant(lo, hi);
    }
    return majorant_add(bound, local_volumes_majorant(lo, hi));
}
// ANCHOR_END: stack_medium
