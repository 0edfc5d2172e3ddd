// Interleaved gradient noise (Jimenez, "Next Generation Post Processing in Call of Duty:
// Advanced Warfare", SIGGRAPH 2014): a cheap per-pixel offset in [0, 1) used to jitter ray-march
// start positions, so a few steps read as fine noise instead of banding. Deterministic per pixel.

fn interleaved_gradient_noise(pixel: vec2<f32>) -> f32 {
    return fract(52.9829189 * fract(dot(pixel, vec2(0.06711056, 0.00583715))));
}
