// Tonemapping from linear HDR radiance to display-referred linear RGB in [0, 1].
// ACES filmic curve, fitted by Krzysztof Narkowicz (2015), "ACES Filmic Tone Mapping Curve";
// exposure in EV (a factor of 2^ev). The sRGB transfer function is applied by the output format.
// #import common/noise.wgsl

fn tonemap_aces(hdr: vec3<f32>, exposure_ev: f32) -> vec3<f32> {
    let x = max(hdr, vec3(0.0)) * exp2(exposure_ev) * 0.6;
    let a = 2.51;
    let b = 0.03;
    let c = 2.43;
    let d = 0.59;
    let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3(0.0), vec3(1.0));
}

fn linear_to_srgb(c: vec3<f32>) -> vec3<f32> {
    let lo = c * 12.92;
    let hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - vec3(0.055);
    return select(hi, lo, c <= vec3(0.0031308));
}

// ANCHOR: dither
// Smooth gradients (a clear sky) quantised to 8 bits show bands one code value wide. Half a code
// value of per-pixel noise in the encoded (sRGB) domain before the output's rounding trades them
// for fine grain. The noise is deterministic per pixel, so captures stay reproducible.
fn dither_for_8_bit(linear: vec3<f32>, pixel: vec2<f32>) -> vec3<f32> {
    let noise = interleaved_gradient_noise(pixel) - 0.5;
    let encoded = clamp(linear_to_srgb(linear) + vec3(noise / 255.0), vec3(0.0), vec3(1.0));
    let lo = encoded / 12.92;
    let hi = pow((encoded + vec3(0.055)) / 1.055, vec3(2.4));
    return select(hi, lo, encoded <= vec3(0.04045));
}
// ANCHOR_END: dither
