// Six-way lit smoke cards: what the card pass and the composite share — the parameter block,
// the flipbook's addressing and the swizzle decode of the two atlases.
// Mirrors `fogbook_six_way::runtime::CardsUniform` (Rust); keep the two in the same order.

// ANCHOR: uniform
struct Cards {
    grid: vec4<u32>,          // columns, rows, frames, 1 when the bake has emission
    frame_uv: vec4<f32>,      // 1/columns, 1/rows, half a texel in frame uv (u, v)
    swizzle: array<vec4<u32>, 2>, // channel (0..3 atlas A, 4..7 atlas B, 8 none) of top, bottom,
                                  // left, right | back, front, alpha, emission
    absorption: vec4<f32>,    // rgb: exponent k − 1 per channel (Unity's absorption); w: range R
    emission: vec4<f32>,      // rgb: radiance of full emission
    fades: vec4<f32>,         // depth fade (m), camera near (m), camera fade (m), edge softness
    anim: vec4<f32>,          // frames per second, time (s), density scale, ambient scale
    flags: vec4<u32>,         // view, weighting (0 squared, 1 linear, 2 normalised), cross-fade, bits
}
// ANCHOR_END: uniform

const FLAG_SCENE_SHADOW: u32 = 1u;
const FLAG_FOGGED: u32 = 2u;

// Views, in the order of `runtime::VIEWS`.
const VIEW_FINAL: u32 = 0u;
const VIEW_SCENE: u32 = 1u;
const VIEW_MAP_FIRST: u32 = 2u;   // top, bottom, left, right, back, front: 2..7
const VIEW_MASKS: u32 = 8u;
const VIEW_WEIGHTS: u32 = 9u;
const VIEW_LIT: u32 = 10u;
const VIEW_ALPHA: u32 = 11u;
const VIEW_FRAME: u32 = 12u;
const VIEW_FRAME_BLEND: u32 = 13u;
const VIEW_OVERDRAW: u32 = 14u;
const VIEW_DEPTH_FADE: u32 = 15u;
const VIEW_CAMERA_FADE: u32 = 16u;
const VIEW_FOG_TRANSMITTANCE: u32 = 17u;
const VIEW_ATLAS_A: u32 = 18u;
const VIEW_ATLAS_B: u32 = 19u;

// The six maps (straight, `Dir::ALL`'s order: top, bottom, left, right, back, front), alpha and
// emission (straight) of one texel.
struct Texel {
    top_bottom_left: vec3<f32>,
    right_back_front: vec3<f32>,
    alpha: f32,
    emission: f32,
}

fn channel(a: vec4<f32>, b: vec4<f32>, c: u32) -> f32 {
    if c < 4u {
        return a[c];
    }
    if c < 8u {
        return b[c - 4u];
    }
    return 0.0;
}

// ANCHOR: decode
// The eight quantities of a texel from the two atlases' samples, through the swizzle table.
fn decode(params: Cards, a: vec4<f32>, b: vec4<f32>) -> Texel {
    let s0 = params.swizzle[0];
    let s1 = params.swizzle[1];
    var t: Texel;
    t.top_bottom_left = vec3(channel(a, b, s0.x), channel(a, b, s0.y), channel(a, b, s0.z));
    t.right_back_front = vec3(channel(a, b, s0.w), channel(a, b, s1.x), channel(a, b, s1.y));
    t.alpha = channel(a, b, s1.z);
    t.emission = select(0.0, channel(a, b, s1.w), params.grid.w == 1u);
    return t;
}
// ANCHOR_END: decode

// ANCHOR: addressing
// Atlas uv of uv (0..1 over the card, v down) in frame f: frames run left to right, then top to
// bottom. uv is kept half a texel inside the frame so that filtering never reads a neighbour.
fn atlas_uv(params: Cards, f: u32, uv: vec2<f32>) -> vec2<f32> {
    let cols = params.grid.x;
    let inner = clamp(uv, params.frame_uv.zw, vec2(1.0) - params.frame_uv.zw);
    return (vec2(f32(f % cols), f32(f / cols)) + inner) * params.frame_uv.xy;
}
// ANCHOR_END: addressing
