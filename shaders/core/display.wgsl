// Display pass: turns the selected debug view's raw values into what the screen shows.
// Colour views: exposure + ACES filmic tonemap (Narkowicz 2015). Scalar views: the value mapped
// linearly (or logarithmically) from [range_min, range_max] into a false-colour map, with a
// legend bar along the bottom edge. The output format applies the sRGB transfer function.
// #import common/fullscreen.wgsl
// #import common/tonemap.wgsl
// #import common/colormap.wgsl

struct Display {
    range_min: f32,
    range_max: f32,
    exposure_ev: f32,
    mode: u32,       // 0 colour (tonemap), 1 scalar turbo, 2 scalar viridis
    log_scale: u32,  // 1: map log10(value) between log10(min) and log10(max)
    legend: u32,     // 1: draw the colour bar
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> display: Display;
@group(0) @binding(1) var view_in: texture_2d<f32>;

@vertex
fn display_vs(@builtin(vertex_index) index: u32) -> FullscreenOut {
    return fullscreen_vertex(index);
}

fn normalised(v: f32) -> f32 {
    if display.log_scale == 1u {
        let lo = log2(max(display.range_min, 1e-30));
        let hi = log2(max(display.range_max, 1e-30));
        return (log2(max(v, 1e-30)) - lo) / max(hi - lo, 1e-30);
    }
    return (v - display.range_min) / max(display.range_max - display.range_min, 1e-30);
}

fn false_colour(t: f32) -> vec3<f32> {
    if display.mode == 2u {
        return viridis(t);
    }
    return turbo(t);
}

// ANCHOR: display_fs
@fragment
fn display_fs(in: FullscreenOut) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(in.position.xy);
    let raw = textureLoad(view_in, pixel, 0);
    if display.mode == 0u {
        return vec4(tonemap_aces(raw.rgb, display.exposure_ev), 1.0);
    }
    let size = vec2<f32>(textureDimensions(view_in));
    // Legend: a bar from min (left) to max (right) in the bottom 4% of the image, inset.
    if display.legend == 1u {
        let bar_top = size.y * 0.955;
        let left = size.x * 0.05;
        let right = size.x * 0.95;
        if in.position.y > bar_top && in.position.y < size.y - 2.0 && in.position.x > left && in.position.x < right {
            let t = (in.position.x - left) / (right - left);
            return vec4(false_colour(t), 1.0);
        }
    }
    let v = raw.r;
    if v != v { // NaN shows as magenta so it can never hide
        return vec4(1.0, 0.0, 1.0, 1.0);
    }
    return vec4(false_colour(clamp(normalised(v), 0.0, 1.0)), 1.0);
}
// ANCHOR_END: display_fs
