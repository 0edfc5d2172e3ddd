// The inputs every chapter pass can read (bind group 0) and the debug-view output it writes
// (bind group 1). Created by `fogbook_core::frame::FrameResources`; layout in `frame.rs`.
//   scene_color    : linear HDR radiance of the test scene without any fog (rgba16float)
//   scene_distance : true camera-to-surface distance in metres (r32float); sky pixels hold
//                    `frame.sky_distance_m` (the sky distance)
//   view_range     : [min, max] of auto-ranged views, order-preserving u32 (common/range.wgsl)
//   view_out       : the selected debug view's raw values (rgba32float). Colour views store
//                    linear HDR radiance; scalar views store the quantity in .r (and .g, .b)
//                    and alpha 1, or alpha 0 where the view has no data.
// #import common/frame.wgsl

// ANCHOR: bindings
@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var scene_color: texture_2d<f32>;
@group(0) @binding(2) var scene_distance: texture_2d<f32>;
@group(0) @binding(3) var shadow_map: texture_depth_2d;
@group(0) @binding(4) var shadow_sampler: sampler_comparison;

@group(1) @binding(0) var view_out: texture_storage_2d<rgba32float, write>;
// Min / max of an auto-ranged view (see common/range.wgsl), reset by the core every frame.
@group(1) @binding(1) var<storage, read_write> view_range: array<atomic<u32>, 2>;

fn write_scalar(pixel: vec2<u32>, value: f32) {
    textureStore(view_out, pixel, vec4(value, value, value, 1.0));
}

fn write_color(pixel: vec2<u32>, value: vec3<f32>) {
    textureStore(view_out, pixel, vec4(value, 1.0));
}
// ANCHOR_END: bindings
