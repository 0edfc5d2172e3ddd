// Display pass: turns the selected debug view's raw values into what the screen shows.
// Colour views: exposure + ACES filmic tonemap (Narkowicz 2015), dithered against 8-bit banding
// (Jimenez 2014's interleaved gradient noise). Scalar views: the value mapped
// linearly (or logarithmically) from [range_min, range_max] into a false-colour map, with a
// legend bar along the bottom edge. Scalar pixels with alpha 0 hold no data and show dark grey.
// The output format applies the sRGB transfer function.
// #import common/fullscreen.wgsl
// #import common/tonemap.wgsl
// #import common/colormap.wgsl
// #import common/range.wgsl

struct Display {
    range_min: f32,
    range_max: f32,
    exposure_ev: f32,
    mode: u32,       // 0 colour (tonemap), 1 scalar turbo, 2 scalar viridis
    log_scale: u32,  // 1: map log10(value) between log10(min) and log10(max)
    legend: u32,     // 1: draw the colour bar
    auto_range: u32, // 1: take the range from `view_range` (the field's min / max this frame)
    dither: u32,     // 1: dither colour views before the 8-bit output
    origin_x: f32,   // the image's top-left corner in the output (pixels): the viewport's
    origin_y: f32,
}

@group(0) @binding(0) var<uniform> display: Display;
@group(0) @binding(1) var view_in: texture_2d<f32>;
@group(0) @binding(2) var<storage, read> view_range: array<u32, 2>;

// NaN by its bits: a NaN has every exponent bit set and a non-zero mantissa. (`v != v` says the
// same in IEEE arithmetic, but WGSL lets an implementation assume no NaN and fold it to false.)
fn is_nan(v: f32) -> bool {
    return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;
}

const MAGENTA: vec4<f32> = vec4(1.0, 0.0, 1.0, 1.0);

// The range in use: the uniform's, or this frame's field min / max when the view asks for it
// and the chapter wrote one (an empty range decodes to NaN and keeps the uniform's).
fn display_range() -> vec2<f32> {
    if display.auto_range == 1u {
        let lo = range_decode(view_range[0]);
        let hi = range_decode(view_range[1]);
        if !is_nan(lo) && !is_nan(hi) && hi >= lo {
            return vec2(lo, max(hi, lo + 1e-20));
        }
    }
    return vec2(display.range_min, display.range_max);
}

@vertex
fn display_vs(@builtin(vertex_index) index: u32) -> FullscreenOut {
    return fullscreen_vertex(index);
}

fn normalised(v: f32) -> f32 {
    let range = display_range();
    if display.log_scale == 1u {
        let lo = log2(max(range.x, 1e-30));
        let hi = log2(max(range.y, 1e-30));
        return (log2(max(v, 1e-30)) - lo) / max(hi - lo, 1e-30);
    }
    return (v - range.x) / max(range.y - range.x, 1e-30);
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
    // Pixel coordinates within the image (the viewport may start right of a side panel).
    let position = in.position.xy - vec2(display.origin_x, display.origin_y);
    let pixel = vec2<i32>(position);
    let raw = textureLoad(view_in, pixel, 0);
    if display.mode == 0u {
        if is_nan(raw.r) || is_nan(raw.g) || is_nan(raw.b) {
            return MAGENTA;
        }
        let color = tonemap_aces(raw.rgb, display.exposure_ev);
        if display.dither == 1u {
            return vec4(dither_for_8_bit(color, position), 1.0);
        }
        return vec4(color, 1.0);
    }
    let size = vec2<f32>(textureDimensions(view_in));
    // Legend: a bar from min (left) to max (right) in the bottom 4% of the image, inset.
    if display.legend == 1u {
        let bar_top = size.y * 0.955;
        let left = size.x * 0.05;
        let right = size.x * 0.95;
        if position.y > bar_top && position.y < size.y - 2.0 && position.x > left && position.x < right {
            let t = (position.x - left) / (right - left);
            return vec4(false_colour(t), 1.0);
        }
    }
    if raw.a == 0.0 { // outside the view's data (e.g. around a slice panel)
        return vec4(0.03, 0.03, 0.03, 1.0);
    }
    let v = raw.r;
    if is_nan(v) { // NaN shows as magenta so it can never hide
        return MAGENTA;
    }
    return vec4(false_colour(clamp(normalised(v), 0.0, 1.0)), 1.0);
}
// ANCHOR_END: display_fs
