// Tonemapping from linear HDR radiance to display-referred linear RGB in [0, 1].
// ACES filmic curve, fitted by Krzysztof Narkowicz (2015), "ACES Filmic Tone Mapping Curve";
// exposure in EV (a factor of 2^ev). The sRGB transfer function is applied by the output format.

fn tonemap_aces(hdr: vec3<f32>, exposure_ev: f32) -> vec3<f32> {
    let x = max(hdr, vec3(0.0)) * exp2(exposure_ev) * 0.6;
    let a = 2.51;
    let b = 0.03;
    let c = 2.43;
    let d = 0.59;
    let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3(0.0), vec3(1.0));
}
