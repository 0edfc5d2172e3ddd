// Fullscreen triangle: one triangle covering the viewport, no vertex buffer.
// Draw with `draw(0..3, 0..1)`. `uv` is (0,0) at the top-left of the target.

struct FullscreenOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

fn fullscreen_vertex(index: u32) -> FullscreenOut {
    let uv = vec2(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenOut;
    out.position = vec4(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}
