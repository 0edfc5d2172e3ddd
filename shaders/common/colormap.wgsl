// False-colour maps for scalar debug views.
// Turbo: polynomial fit by Anton Mikhailov (Google, 2019), "Turbo, an improved rainbow colormap".
// Viridis: polynomial fit of the matplotlib map (van der Walt & Smith), public-domain fit by
// Matt Zucker. Both take t in [0, 1] and return linear-light RGB.

fn turbo(t_in: f32) -> vec3<f32> {
    let t = clamp(t_in, 0.0, 1.0);
    let r = vec4(0.13572138, 4.61539260, -42.66032258, 132.13108234);
    let g = vec4(0.09140261, 2.19418839, 4.84296658, -14.18503333);
    let b = vec4(0.10667330, 12.64194608, -60.58204836, 110.36276771);
    let r2 = vec2(-152.94239396, 59.28637943);
    let g2 = vec2(4.27729857, 2.82956604);
    let b2 = vec2(-89.90310912, 27.34824973);
    let v4 = vec4(1.0, t, t * t, t * t * t);
    let v2 = v4.zw * v4.z;
    let srgb = vec3(
        dot(v4, r) + dot(v2, r2),
        dot(v4, g) + dot(v2, g2),
        dot(v4, b) + dot(v2, b2),
    );
    return srgb_to_linear(clamp(srgb, vec3(0.0), vec3(1.0)));
}

fn viridis(t_in: f32) -> vec3<f32> {
    let t = clamp(t_in, 0.0, 1.0);
    let c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
    let c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
    let c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
    let c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
    let c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
    let c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
    let c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
    let srgb = c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
    return srgb_to_linear(clamp(srgb, vec3(0.0), vec3(1.0)));
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let lo = c / 12.92;
    let hi = pow((c + vec3(0.055)) / 1.055, vec3(2.4));
    return select(hi, lo, c <= vec3(0.04045));
}
