// Six-way lit smoke cards: fog cards and particles drawn as camera-facing quads, back to front,
// into the transparent layer with the premultiplied "over" blend (Porter and Duff 1984):
//   layer.rgb ← C + (1 − α) · layer.rgb,   layer.a ← (1 − α) · layer.a  (cleared to 0, 0, 0, 1),
// so the layer holds the cards' radiance and the transmittance through them; the composite
// applies it to the colour below.
// Each fragment reads two flipbook frames (cross-faded), decodes the six light maps through the
// swizzle table and blends them by the sun's direction in the card frame (x right, y up, z away
// from the eye): a mask from the sign of each component picks a map of each pair and the square
// of the component weights it (Unity's six-way lit output, 2022), so the weights of a unit light
// sum to one. The sky's light comes from six directions too: map k × the radiance from its
// direction / 6 (each direction holds a sixth of the sphere). Unity's absorption colour tints
// thin light; emission adds the E channel. Soft particles fade against the scene's depth
// (Lorach 2007), cards fade near the eye and near their own border, and each card is fogged at
// its own depth by the stack's fogs: C' = T(d)·C + α·S(d).
// Stage: transparent. Output: the layer (render target), read by composite.wgsl.
// #import common/scene_inputs.wgsl
// #import common/shadow.wgsl
// #import 03-sky/sky_light.wgsl
// #import common/transparent_fog.wgsl
// #import 08-six-way-cards/cards_common.wgsl

@group(1) @binding(2) var<uniform> cards: Cards;
@group(1) @binding(3) var atlas_a: texture_2d<f32>;
@group(1) @binding(4) var atlas_b: texture_2d<f32>;
@group(1) @binding(5) var atlas_sampler: sampler;

const SHADOW_BIAS: f32 = 0.0005;
const GROUND_ALBEDO: f32 = 0.54; // the test scene's ground, averaged over colour

struct Instance {
    @location(0) centre: vec4<f32>,   // xyz (m), w: opacity
    @location(1) right: vec4<f32>,    // unit right axis, w: width (m)
    @location(2) up: vec4<f32>,       // unit up axis, w: height (m)
    @location(3) flipbook: vec4<f32>, // start frame, speed, kind, unused
}

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,                          // 0..1 over the card, v down
    @location(1) world: vec3<f32>,
    @location(2) @interpolate(flat) right: vec3<f32>,
    @location(3) @interpolate(flat) up: vec3<f32>,
    @location(4) @interpolate(flat) frame_opacity: vec2<f32>, // flipbook position (frames), opacity
}

// ANCHOR: vertex
@vertex
fn vs_main(@builtin(vertex_index) v: u32, card: Instance) -> Varyings {
    // Two triangles: corners (0,0) (1,0) (0,1) / (0,1) (1,0) (1,1) in (u, v up).
    let corner = array(vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0))[v];
    let offset = (corner.x - 0.5) * card.right.w * card.right.xyz + (corner.y - 0.5) * card.up.w * card.up.xyz;
    let world = card.centre.xyz + offset;
    var out: Varyings;
    out.clip = frame.view_proj * vec4(world, 1.0);
    out.uv = vec2(corner.x, 1.0 - corner.y);
    out.world = world;
    out.right = card.right.xyz;
    out.up = card.up.xyz;
    let position = card.flipbook.x + cards.anim.y * cards.anim.x * card.flipbook.y;
    out.frame_opacity = vec2(position, card.centre.w);
    return out;
}
// ANCHOR_END: vertex

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

// Premultiplied sample of frame f: the maps and emission times alpha, and alpha.
fn frame_premultiplied(f: u32, uv: vec2<f32>) -> Texel {
    let at = atlas_uv(cards, f, uv);
    var t = decode(cards, textureSampleLevel(atlas_a, atlas_sampler, at, 0.0), textureSampleLevel(atlas_b, atlas_sampler, at, 0.0));
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

// ANCHOR: absorption
// Unity's absorption colour as a tint of the straight lit value t (0..1): t · (t / R)^(k − 1)
// per channel, k = 1 + log₂ c / log₂ 0.2 (a colour c of 1 leaves the light as it is). Below the
// range R it equals Unity's (t / R)^k · R; above R it leaves t as it is, where Unity's clamps to R.
fn absorption_tint(t: f32) -> vec3<f32> {
    let r = cards.absorption.w;
    return pow(vec3(clamp(t / r, 1e-4, 1.0)), cards.absorption.rgb);
}
// ANCHOR_END: absorption

// Radiance from direction dir (unit, world): the sky above, the sunlit ground below, linear in
// between (scene units: what a white Lambertian surface under it would show).
fn ambient_from(dir: vec3<f32>, sky: vec3<f32>, ground: vec3<f32>) -> vec3<f32> {
    return mix(ground, sky, 0.5 + 0.5 * dir.y);
}

struct Fragment {
    @location(0) color: vec4<f32>,
}

// ANCHOR: fragment
@fragment
fn fs_main(in: Varyings) -> Fragment {
    let pixel = vec2<i32>(in.clip.xy);
    let to_card = in.world - frame.camera_pos.xyz;
    let d = length(to_card);
    let scene_d = textureLoad(scene_distance, pixel, 0).r;
    if d >= scene_d {
        discard;
    }
    // Fades: soft particles, near the eye, near the card's border.
    let depth_fade = select(1.0, clamp((scene_d - d) / cards.fades.x, 0.0, 1.0), cards.fades.x > 0.0);
    let camera_fade = select(f32(d > cards.fades.y), clamp((d - cards.fades.y) / cards.fades.z, 0.0, 1.0), cards.fades.z > 0.0);
    let border = min(min(in.uv.x, 1.0 - in.uv.x), min(in.uv.y, 1.0 - in.uv.y)) * 2.0;
    let edge = select(1.0, smoothstep(0.0, cards.fades.w, border), cards.fades.w > 0.0);

    // The flipbook: two frames around the card's position, cross-faded (premultiplied).
    let frames = cards.grid.z;
    let position = in.frame_opacity.x - floor(in.frame_opacity.x / f32(frames)) * f32(frames);
    let f0 = min(u32(position), frames - 1u);
    let blend = select(0.0, position - f32(f0), cards.flags.z == 1u);
    var t = frame_premultiplied(f0, in.uv);
    if blend > 0.0 {
        t = mix_texels(t, frame_premultiplied((f0 + 1u) % frames, in.uv), blend);
    }
    let alpha_baked = t.alpha;
    // Density scale: α' = 1 − (1 − α)^s, and the premultiplied values follow alpha.
    let alpha_scaled = 1.0 - pow(max(1.0 - alpha_baked, 0.0), cards.anim.z);
    let rescale = select(0.0, alpha_scaled / alpha_baked, alpha_baked > 1e-6);
    let coverage = in.frame_opacity.y * edge;
    let alpha = alpha_scaled * coverage * depth_fade * camera_fade;

    // The sun in the card frame; the six weights; the sky from the six directions.
    let away = cross(in.up, in.right);
    let sun = frame.sun_dir.xyz;
    let l = vec3(dot(sun, in.right), dot(sun, in.up), dot(sun, away));
    let w = six_way_weights(l, cards.flags.y);
    let lit = blend_maps(w, t);                         // premultiplied by the baked alpha
    let straight = select(0.0, lit / alpha_baked, alpha_baked > 1e-6);
    var shadow = 1.0;
    if (cards.flags.w & FLAG_SCENE_SHADOW) != 0u {
        shadow = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, in.world, SHADOW_BIAS);
    }
    let sun_light = sun_light_at(in.world) * frame.sun_dir.w * shadow;
    let sky = sky_light_at(in.world);
    let ground = GROUND_ALBEDO * (sun_light * max(sun.y, 0.0) + sky);
    let ambient = t.top_bottom_left.x * ambient_from(in.up, sky, ground)
                + t.top_bottom_left.y * ambient_from(-in.up, sky, ground)
                + t.top_bottom_left.z * ambient_from(-in.right, sky, ground)
                + t.right_back_front.x * ambient_from(in.right, sky, ground)
                + t.right_back_front.y * ambient_from(away, sky, ground)
                + t.right_back_front.z * ambient_from(-away, sky, ground);
    let mean = (dot(t.top_bottom_left, vec3(1.0)) + dot(t.right_back_front, vec3(1.0))) / 6.0;
    let mean_straight = select(0.0, mean / alpha_baked, alpha_baked > 1e-6);
    // Isotropic phase: the sun gives lit · E_sun / 4π = lit · sun / 4 in scene units, as chapter 7.
    var radiance = 0.25 * lit * sun_light * absorption_tint(straight)
                 + cards.anim.w * ambient / 6.0 * absorption_tint(mean_straight)
                 + t.emission * cards.emission.rgb;
    radiance *= rescale * coverage * depth_fade * camera_fade;
    // The stack's fog between the eye and the card (common/transparent_fog.wgsl).
    var aerial = TransparentFog(vec3(0.0), vec3(1.0));
    if (cards.flags.w & FLAG_FOGGED) != 0u {
        aerial = fog_at_depth(in.clip.xy * frame.viewport.zw, to_card / d, d);
    }
    radiance = aerial.transmittance * radiance + alpha * aerial.inscattering;

    // Debug views: the quantity premultiplied by the alpha it is composited with.
    var value = vec3(0.0);
    var view_alpha = alpha;
    let view = cards.flags.x;
    switch view {
        case VIEW_FINAL: {
            return Fragment(vec4(radiance, alpha));
        }
        case 2u, 3u, 4u: {
            value = vec3(select(0.0, t.top_bottom_left[view - 2u] / alpha_baked, alpha_baked > 1e-6));
        }
        case 5u, 6u, 7u: {
            value = vec3(select(0.0, t.right_back_front[view - 5u] / alpha_baked, alpha_baked > 1e-6));
        }
        case VIEW_MASKS: {
            value = select(vec3(0.0), vec3(1.0), l > vec3(0.0));
        }
        case VIEW_WEIGHTS: {
            value = w.positive + w.negative;
        }
        case VIEW_LIT: {
            value = vec3(straight);
        }
        case VIEW_ALPHA: {
            value = vec3(1.0);
        }
        case VIEW_FRAME: {
            value = vec3(f32(f0));
        }
        case VIEW_FRAME_BLEND: {
            value = vec3(blend);
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
            value = aerial.transmittance;
        }
        default: {}
    }
    return Fragment(vec4(value * view_alpha, view_alpha));
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
