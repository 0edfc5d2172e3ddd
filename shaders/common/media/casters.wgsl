// Local fog volumes, shadows between them: the sun's transmittance from a point through the
// other volumes that may shadow volume i (its casters, binned on the CPU once a frame:
// fogbook_core::media::casters::bin_casters, a bit mask of BIN_WORDS words per volume), each
// caster's optical depth along the sun's ray in closed form where it has one (shapes.wgsl), else
// by the midpoint rule in CASTER_STEPS steps. Shared by the local fog volumes' analytic pass (at a
// crossing's median scattering point) and the froxel fog's injection (at the middle of each
// slice's piece of a crossing), so both paths shadow a volume alike. Taught with the local fog
// volumes (their many volumes); kept in common for the froxel fog, which comes before them.
// After Wronski 2014 and Hillaire 2015 (the froxel fog and its analytic complement), with the
// engines' local fog volumes (Unreal's Local Fog Volumes, Godot's FogVolume).
// Where the volumes and the masks live is up to the including pass (BIN_WORDS, the mask's words,
// comes from Rust: fogbook_core::media::volumes):
// #needs caster_volume, caster_volume_count, caster_mask_word
// #import common/media/shapes.wgsl

// Midpoint steps along the sun's ray through a caster with an edge fade or a texture (one
// without either is in closed form).
const CASTER_STEPS: u32 = 8u;

// ANCHOR: casters
// The transmittance towards the sun from p through the volumes that may shadow volume `i`: the
// optical depth of each along the sun's ray from p, in closed form where it has one.
fn caster_transmittance(i: u32, p: vec3<f32>, sun: vec3<f32>) -> f32 {
    var tau = 0.0;
    for (var word = 0u; word < BIN_WORDS; word++) {
        var bits = caster_mask_word(i * BIN_WORDS + word);
        while bits != 0u {
            let j = word * 32u + countTrailingZeros(bits);
            bits &= bits - 1u;
            if j >= caster_volume_count() {
                break;
            }
            let c = caster_volume(j);
            let ch = fog_volume_chord(c, p, sun);
            let a = max(ch.x, 0.0);
            if ch.y > a {
                tau += max(c.albedo_density.w, 0.0) * fog_volume_inside_depth(c, p, sun, a, ch.y, CASTER_STEPS);
            }
        }
    }
    return exp(-tau);
}
// ANCHOR_END: casters
