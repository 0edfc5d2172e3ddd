// Six-way lit smoke cards, the fragment renderer: fog cards and particles drawn as
// camera-facing quads, back to front, into the transparent layer with the premultiplied "over"
// blend (Porter and Duff 1984):
//   layer.rgb ← C + (1 − α) · layer.rgb,   layer.a ← (1 − α) · layer.a  (cleared to 0, 0, 0, 1),
// so the layer holds the cards' radiance and the transmittance through them; the composite
// applies it to the colour below. (splat.wgsl makes the same layer in compute.)
// Each fragment reads two flipbook frames (cross-faded), decodes the six light maps through the
// swizzle table and blends them by the sun's direction in the card frame (x right, y up, z away
// from the eye): a mask from the sign of each component picks a map of each pair and the square
// of the component weights it (Unity's six-way lit output, 2022), so the weights of a unit light
// sum to one. The sky's light comes from six directions too: map k × the radiance from its
// direction / 6 (each direction holds a sixth of the sphere). Unity's absorption colour tints
// thin light; emission adds the E channel. Soft particles fade against the scene's depth
// (Lorach 2007), cards fade near the eye and near their own border, and each card is fogged at
// its own depth: C' = T(d)·C + α·S(d).
// What is constant over a card (weights, sun and sky light, flipbook frames) comes from the
// prepare pass (prepare.wgsl); per fragment: the scene-distance test, the atlas samples, the
// shadow map, the fades and the fog (`shade_card` in cards_common.wgsl).
// Stage: transparent. Output: the layer (render target), read by composite.wgsl.
// #import common/scene_inputs.wgsl
// #import common/shadow.wgsl
// #import 08-six-way-cards/cards_common.wgsl
// #import 08-six-way-cards/card_fog.wgsl

@group(1) @binding(2) var<uniform> cards: Cards;
@group(1) @binding(3) var atlas_a: texture_2d<f32>;
@group(1) @binding(4) var atlas_b: texture_2d<f32>;
@group(1) @binding(5) var atlas_sampler: sampler;
@group(1) @binding(6) var<storage, read> prepared: array<PreparedCard>;

const SHADOW_BIAS: f32 = 0.0005;

struct Instance {
    @location(0) centre: vec4<f32>,   // xyz (m), w: opacity
    @location(1) right: vec4<f32>,    // unit right axis, w: width (m)
    @location(2) up: vec4<f32>,       // unit up axis, w: height (m)
}

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,                   // 0..1 over the card, v down
    @location(1) world: vec3<f32>,
    @location(2) @interpolate(flat) card: u32,    // index into `prepared`
}

// ANCHOR: vertex
@vertex
fn vs_main(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32, card: Instance) -> Varyings {
    // Two triangles: corners (0,0) (1,0) (0,1) / (0,1) (1,0) (1,1) in (u, v up).
    let corner = array(vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0))[v];
    let offset = (corner.x - 0.5) * card.right.w * card.right.xyz + (corner.y - 0.5) * card.up.w * card.up.xyz;
    let world = card.centre.xyz + offset;
    var out: Varyings;
    out.clip = frame.view_proj * vec4(world, 1.0);
    out.uv = vec2(corner.x, 1.0 - corner.y);
    out.world = world;
    out.card = i;
    return out;
}
// ANCHOR_END: vertex

struct Fragment {
    @location(0) color: vec4<f32>,
}

// ANCHOR: fragment
@fragment
fn fs_main(in: Varyings) -> Fragment {
    let to_card = in.world - frame.camera_pos.xyz;
    let d = length(to_card);
    let scene_d = textureLoad(scene_distance, vec2<i32>(in.clip.xy), 0).r;
    if d >= scene_d {
        discard;
    }
    let card = prepared[in.card];
    let t = card_texel(atlas_a, atlas_b, atlas_sampler, cards, card, in.uv);
    // No smoke here: every view composites (0, 0) (alpha and the premultiplied values are zero).
    if t.alpha <= 0.0 {
        discard;
    }
    var shadow = 1.0;
    if (cards.flags.w & FLAG_SCENE_SHADOW) != 0u {
        shadow = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, in.world, SHADOW_BIAS);
    }
    var aerial = TransparentFog(vec3(0.0), vec3(1.0));
    if (cards.flags.w & FLAG_FOGGED) != 0u {
        aerial = card_fog(in.clip.xy * frame.viewport.zw, to_card / d, d);
    }
    let px = CardPixel(in.uv, d, scene_d, shadow, aerial.inscattering, aerial.transmittance);
    return Fragment(shade_card(cards, card, t, px));
}
// ANCHOR_END: fragment

// The overdraw heat map: every fragment in front of the scene adds one (additive blend).
@fragment
fn fs_overdraw(in: Varyings) -> Fragment {
    let d = distance(in.world, frame.camera_pos.xyz);
    if d >= textureLoad(scene_distance, vec2<i32>(in.clip.xy), 0).r {
        discard;
    }
    return Fragment(vec4(1.0, 1.0, 1.0, 0.0));
}
