// Six-way lit smoke cards: the fog between the eye and a card, applied to the card at its own
// depth (C' = T(d)·C + α·S(d)); both renderers (cards.wgsl, splat.wgsl) call it per pixel.

// TODO-FOG: replaced by the stack's fog at depth d.
struct CardFog {
    inscattering: vec3<f32>,
    transmittance: f32,
}

fn card_fog(uv: vec2<f32>, dir: vec3<f32>, d: f32) -> CardFog {
    return CardFog(vec3(0.0), 1.0);
}
