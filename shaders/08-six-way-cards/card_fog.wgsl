// Six-way lit smoke cards: the fog between the eye and a card, applied to the card at its own
// depth (C' = T(d)·C + α·S(d)); both renderers (cards.wgsl, splat.wgsl) call it per pixel. The
// fog is the stack's, as its fog stages apply it to an opaque surface at distance d
// (common/transparent_fog.wgsl, group 2); without a fog chapter T = 1 and S = 0.
// #import common/transparent_fog.wgsl

fn card_fog(uv: vec2<f32>, dir: vec3<f32>, d: f32) -> TransparentFog {
    return fog_at_depth(uv, dir, d);
}
