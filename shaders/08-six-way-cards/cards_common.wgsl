// Six-way lit smoke cards: what the passes share — the parameter block, the flipbook's
// addressing and the swizzle decode of the two atlases, the per-card quantities the prepare pass
// computes once (`PreparedCard`), and the per-pixel shading both renderers call (the fragment
// pass in cards.wgsl and the tile splatting in splat.wgsl), so that they give the same image.
// Mirrors `fogbook_six_way::runtime::CardsUniform` and `prepare::PreparedCard` (Rust); keep them
// in the same order.

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
    counts: vec4<u32>,        // cards this frame; yzw unused
}
// ANCHOR_END: uniform

const FLAG_SCENE_SHADOW: u32 = 1u;
const FLAG_FOGGED: u32 = 2u;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

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
// Frames run left to right, then top to bottom: the atlas uv of frame f's corner.
fn frame_origin(params: Cards, f: u32) -> vec2<f32> {
    let cols = params.grid.x;
    return vec2(f32(f % cols), f32(f / cols)) * params.frame_uv.xy;
}

// Atlas uv of uv (0..1 over the card, v down) in the frame whose corner is `origin`. uv is kept
// half a texel inside the frame so that filtering never reads a neighbour.
fn atlas_uv(params: Cards, origin: vec2<f32>, uv: vec2<f32>) -> vec2<f32> {
    let inner = clamp(uv, params.frame_uv.zw, vec2(1.0) - params.frame_uv.zw);
    return origin + inner * params.frame_uv.xy;
}
// ANCHOR_END: addressing

// ANCHOR: prepared
// What is constant over a card, computed once per card by prepare.wgsl (16 bytes a row).
struct PreparedCard {
    // The card's plane and axes relative to the eye, for a unit view ray r: the ray meets the
    // plane at distance t = plane.w / (r · plane.xyz), where u = t (r · u_axis.xyz) + u_axis.w and
    // v = t (r · v_axis.xyz) + v_axis.w (0..1 over the card, v down). plane.xyz points away from
    // the eye.
    plane: vec4<f32>,
    u_axis: vec4<f32>,
    v_axis: vec4<f32>,
    atlas: vec4<f32>,      // atlas uv of the two frames' corners: frame f0 (xy), f0 + 1 (zw)
    flipbook: vec4<f32>,   // f0, cross-fade towards f0 + 1 (0: that frame is not read), opacity, unused
    light: vec4<f32>,      // the sun in the card frame (right, up, away); w unused
    positive: vec4<f32>,   // six-way weights of the maps on the positive side (right, up, away)
    negative: vec4<f32>,   // and on the negative side; w unused
    // ¼ × the sun's light, taken at the card's centre, unshadowed (the isotropic phase: lit ×
    // E_sun / 4π = lit · sun / 4 in scene units, as chapter 7).
    sun: vec4<f32>,
    // The ambient: ambient scale / 6 × the radiance from map k's direction without the sun on the
    // ground (rgb) and that direction's share of the ground (w); the ground's sunlit part, scaled
    // alike, is `ground_sun` × the shadow at the pixel.
    ground_sun: vec4<f32>,
    ambient: array<vec4<f32>, 6>,
}
// ANCHOR_END: prepared

// ANCHOR: weights
// The six weights for the light direction l in the card frame, as (right, up, away) on the
// positive side and on the negative side.
struct Weights {
    positive: vec3<f32>,
    negative: vec3<f32>,
}

fn six_way_weights(l: vec3<f32>, weighting: u32) -> Weights {
    var w: Weights;
    let p = max(l, vec3(0.0));
    let n = max(-l, vec3(0.0));
    if weighting == 0u {
        w.positive = p * p;
        w.negative = n * n;
    } else {
        w.positive = p;
        w.negative = n;
        if weighting == 2u {
            let sum = max(dot(p + n, vec3(1.0)), 1e-6);
            w.positive /= sum;
            w.negative /= sum;
        }
    }
    return w;
}

// Σ weight × map, the maps in `Texel`'s order (top, bottom, left | right, back, front).
fn blend_maps(w: Weights, t: Texel) -> f32 {
    return dot(w.positive, vec3(t.right_back_front.x, t.top_bottom_left.x, t.right_back_front.y))
         + dot(w.negative, vec3(t.top_bottom_left.z, t.top_bottom_left.y, t.right_back_front.z));
}
// ANCHOR_END: weights

// ANCHOR: absorption
// Unity's absorption colour as a tint of the straight lit value t (0..1): t · (t / R)^(k − 1)
// per channel, k = 1 + log₂ c / log₂ 0.2 (a colour c of 1 leaves the light as it is). Below the
// range R it equals Unity's (t / R)^k · R; above R it leaves t as it is, where Unity's clamps to R.
// One logarithm and three exponentials.
fn absorption_tint(params: Cards, t: f32) -> vec3<f32> {
    let r = params.absorption.w;
    return exp2(params.absorption.rgb * log2(clamp(t / r, 1e-4, 1.0)));
}
// ANCHOR_END: absorption

// Premultiplied sample of the frame whose corner is `origin`: the maps and emission times alpha,
// and alpha.
fn frame_premultiplied(
    atlas_a: texture_2d<f32>,
    atlas_b: texture_2d<f32>,
    atlas_sampler: sampler,
    params: Cards,
    origin: vec2<f32>,
    uv: vec2<f32>,
) -> Texel {
    let at = atlas_uv(params, origin, uv);
    var t = decode(params, textureSampleLevel(atlas_a, atlas_sampler, at, 0.0), textureSampleLevel(atlas_b, atlas_sampler, at, 0.0));
    t.top_bottom_left *= t.alpha;
    t.right_back_front *= t.alpha;
    t.emission *= t.alpha;
    return t;
}

fn mix_texels(a: Texel, b: Texel, s: f32) -> Texel {
    var t: Texel;
    t.top_bottom_left = mix(a.top_bottom_left, b.top_bottom_left, s);
    t.right_back_front = mix(a.right_back_front, b.right_back_front, s);
    t.alpha = mix(a.alpha, b.alpha, s);
    t.emission = mix(a.emission, b.emission, s);
    return t;
}

// ANCHOR: card_texel
// The flipbook at uv: the card's two frames cross-faded (premultiplied); two atlas samples per
// frame, the second frame only while the cross-fade is under way.
fn card_texel(
    atlas_a: texture_2d<f32>,
    atlas_b: texture_2d<f32>,
    atlas_sampler: sampler,
    params: Cards,
    card: PreparedCard,
    uv: vec2<f32>,
) -> Texel {
    var t = frame_premultiplied(atlas_a, atlas_b, atlas_sampler, params, card.atlas.xy, uv);
    let blend = card.flipbook.y;
    if blend > 0.0 {
        t = mix_texels(t, frame_premultiplied(atlas_a, atlas_b, atlas_sampler, params, card.atlas.zw, uv), blend);
    }
    return t;
}
// ANCHOR_END: card_texel

// What varies over a card at one pixel, besides the flipbook.
struct CardPixel {
    uv: vec2<f32>,               // 0..1 over the card, v down
    d: f32,                      // eye to the card (m)
    scene_d: f32,                // eye to the scene (m)
    shadow: f32,                 // the scene's shadow map at the card's point (1: lit)
    fog_inscattering: vec3<f32>, // the fog between the eye and the card: S(d)
    fog_transmittance: vec3<f32>, // and T(d), per channel
}

// ANCHOR: shade
// The card at one pixel, as the layer composites it: (premultiplied value, alpha) of the selected
// view. The final view is the lit, tinted, faded and fogged radiance, C' = T(d)·C + α·S(d).
fn shade_card(params: Cards, card: PreparedCard, t: Texel, px: CardPixel) -> vec4<f32> {
    // Fades: soft particles, near the eye, near the card's border.
    let depth_fade = select(1.0, clamp((px.scene_d - px.d) / params.fades.x, 0.0, 1.0), params.fades.x > 0.0);
    let camera_fade = select(f32(px.d > params.fades.y), clamp((px.d - params.fades.y) / params.fades.z, 0.0, 1.0), params.fades.z > 0.0);
    let border = min(min(px.uv.x, 1.0 - px.uv.x), min(px.uv.y, 1.0 - px.uv.y)) * 2.0;
    let edge = select(1.0, smoothstep(0.0, params.fades.w, border), params.fades.w > 0.0);

    let alpha_baked = t.alpha;
    let inv_alpha = select(0.0, 1.0 / alpha_baked, alpha_baked > 1e-6);
    // Density scale: α' = 1 − (1 − α)^s, and the premultiplied values follow alpha.
    let alpha_scaled = 1.0 - pow(max(1.0 - alpha_baked, 1e-20), params.anim.z);
    let rescale = alpha_scaled * inv_alpha;
    let coverage = card.flipbook.z * edge;
    let fade = depth_fade * camera_fade;
    let alpha = alpha_scaled * coverage * fade;

    // The six-way blend by the card's weights; the sky and ground from the six directions, the
    // ground's sunlit part shadowed with the card.
    let lit = blend_maps(Weights(card.positive.xyz, card.negative.xyz), t); // premultiplied by the baked alpha
    let straight = lit * inv_alpha;
    let ambient = t.top_bottom_left.x * card.ambient[0].rgb
                + t.top_bottom_left.y * card.ambient[1].rgb
                + t.top_bottom_left.z * card.ambient[2].rgb
                + t.right_back_front.x * card.ambient[3].rgb
                + t.right_back_front.y * card.ambient[4].rgb
                + t.right_back_front.z * card.ambient[5].rgb
                + px.shadow * card.ground_sun.rgb
                  * (dot(t.top_bottom_left, vec3(card.ambient[0].w, card.ambient[1].w, card.ambient[2].w))
                   + dot(t.right_back_front, vec3(card.ambient[3].w, card.ambient[4].w, card.ambient[5].w)));
    let mean = (dot(t.top_bottom_left, vec3(1.0)) + dot(t.right_back_front, vec3(1.0))) / 6.0;
    var radiance = lit * px.shadow * card.sun.rgb * absorption_tint(params, straight)
                 + ambient * absorption_tint(params, mean * inv_alpha)
                 + t.emission * params.emission.rgb;
    radiance *= rescale * coverage * fade;
    radiance = px.fog_transmittance * radiance + alpha * px.fog_inscattering;

    // Debug views: the quantity premultiplied by the alpha it is composited with.
    var value = vec3(0.0);
    var view_alpha = alpha;
    let view = params.flags.x;
    switch view {
        case VIEW_FINAL, VIEW_OVERDRAW: {
            return vec4(radiance, alpha);
        }
        case VIEW_MAP_TOP, VIEW_MAP_BOTTOM, VIEW_MAP_LEFT: {
            value = vec3(t.top_bottom_left[view - VIEW_MAP_TOP] * inv_alpha);
        }
        case VIEW_MAP_RIGHT, VIEW_MAP_BACK, VIEW_MAP_FRONT: {
            value = vec3(t.right_back_front[view - VIEW_MAP_RIGHT] * inv_alpha);
        }
        case VIEW_MASKS: {
            value = select(vec3(0.0), vec3(1.0), card.light.xyz > vec3(0.0));
        }
        case VIEW_WEIGHTS: {
            value = card.positive.xyz + card.negative.xyz;
        }
        case VIEW_LIT: {
            value = vec3(straight);
        }
        case VIEW_ALPHA: {
            value = vec3(1.0);
        }
        case VIEW_FRAME: {
            value = vec3(card.flipbook.x);
        }
        case VIEW_FRAME_BLEND: {
            value = vec3(card.flipbook.y);
        }
        case VIEW_DEPTH_FADE: {
            value = vec3(depth_fade);
            view_alpha = alpha_scaled * coverage;
        }
        case VIEW_CAMERA_FADE: {
            value = vec3(camera_fade);
            view_alpha = alpha_scaled * coverage;
        }
        case VIEW_FOG_TRANSMITTANCE: {
            value = px.fog_transmittance;
        }
        default: {}
    }
    return vec4(value * view_alpha, view_alpha);
}
// ANCHOR_END: shade
