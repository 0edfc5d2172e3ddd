// Local fog volumes as one medium of the media layer (common/media/medium.wgsl): the sum over the
// stack's volume list of each volume's medium (fog_volume_density.wgsl), and of their bounds over
// a box. A chapter publishes the list; without one the list is empty and the sum a zero medium.
// Shapes after Godot's FogVolume, the density model after Hillaire 2015 and Unreal's Local Fog
// Volumes (see fog_volume.wgsl). Where the list lives is up to the including pass, the same
// accessors that casters.wgsl reads:
// #needs caster_volume, caster_volume_count
// #import common/media/fog_volume_density.wgsl

// ANCHOR: local_volumes_medium
fn local_volumes_medium_at(p: vec3<f32>) -> Medium {
    var m = medium_none();
    for (var i = 0u; i < caster_volume_count(); i++) {
        m = medium_add(m, fog_volume_medium_at(caster_volume(i), p));
    }
    return m;
}

fn local_volumes_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    var bound = majorant_none();
    for (var i = 0u; i < caster_volume_count(); i++) {
        bound = majorant_add(bound, fog_volume_majorant(caster_volume(i), box_min, box_max));
    }
    return bound;
}
// ANCHOR_END: local_volumes_medium
