// The six-way cards' source volumes as a medium of the media layer (common/media/medium.wgsl):
// each card — a fog card or a particle, as the runtime places it this frame — is an oriented box
// holding the smoke frame its flipbook shows, the bake's view axis along the card's normal (away
// from the eye), the box scaled so that the bake's crop fills the card's quad and the volume
// stands centred on the card's plane. A bounding-volume hierarchy over the bricks' world bounds
// (built on the CPU each frame, bvh.rs; a linear BVH after Pharr, Jakob & Humphreys 2023, §7.3)
// finds the bricks a ray crosses for the cards' own tracking (cards_next).
// The density is the bake's medium (light.rs): constant in each cell of the grid, optical depth σ ρ Δx per cell, albedo a, the
// isotropic phase, and the glow g as emission σ ρ g × the emission colour, the runtime's E channel
// per unit of absorbed light. The card's optical depth scale and opacity scale ρ; a card in its
// flipbook's cross-fade holds the mix of its two frames' densities.
// Bindings 34–36 of group 2, the media layer's place for placed volumes
// (fogbook_core::media::point): the cards' block, the tree's nodes, the frames' texture. An
// all-zero block — the stand-in of a stack without the cards — is no medium.
// The random stream is the including file's:
// #needs random
// #import common/media/medium.wgsl

// ANCHOR: records
// One card (cards::medium::CardVolume): where p sits in its grid, uvw = ((p − origin) · right,
// (p − origin) · up, (p − origin) · away), 0..1 over the grid; its frames and its bound.
struct CardVolume {
    origin: vec4<f32>, // xyz: the grid's corner (m); w: σ per unit density here (1/m)
    right: vec4<f32>,  // xyz: the card's right axis over the grid's width (1/m)
    up: vec4<f32>,     // xyz: its up axis over the grid's height (1/m)
    away: vec4<f32>,   // xyz: its normal, away from the eye, over the grid's depth (1/m)
    frames: vec4<f32>, // x: frame f0; y: f0 + 1; z: the cross-fade towards it; w: 0 (its bounds are its bricks', in the tree)
}

struct CardsMedium {
    counts: vec4<u32>,  // cards, tree nodes, cells per side n, 1 when the bake has emission
    tiles: vec4<u32>,   // frames along the texture's x, y and z (z first), and the frames
    clip_lo: vec4<f32>, // xyz: the part of the grid the card shows (uvw), the crop; w: albedo
    clip_hi: vec4<f32>, // w: bricks a side b of each card's grid (the tree's leaves)
    glow: vec4<f32>,    // rgb: radiance of full emission (the runtime's emission colour)
    cards: array<CardVolume>,
}

// One node of the tree (bvh::BvhNode): a leaf is one brick of a card's grid (medium::Brick) —
// card link >> 8, brick link & 255 (i + b (j + b k)), its box, and its bound σ̄ as the bits of
// `leaf` (an inner node's `leaf` is 0); an inner node's first child follows it and its second
// is at `link`.
struct CardNode {
    lo: vec3<f32>,
    link: u32,
    hi: vec3<f32>,
    leaf: u32,
}
// ANCHOR_END: records

@group(2) @binding(34) var<storage, read> cards_medium: CardsMedium;
@group(2) @binding(35) var<storage, read> card_nodes: array<CardNode>;
@group(2) @binding(36) var card_frames: texture_3d<f32>; // r: density ρ, g: glow g (0..1)

// The tree's depth is at most this (bvh::MAX_DEPTH): the walk's stack.
const CARD_STACK: u32 = 32u;

fn cards_present() -> bool {
    return cards_medium.counts.x > 0u && cards_medium.counts.y > 0u && cards_medium.counts.z > 0u;
}

// The corner of frame f's tile in the texture (texels): z fastest, then y, then x.
fn card_tile(f: u32) -> vec3<u32> {
    let t = cards_medium.tiles;
    return vec3(f / (t.y * t.z), (f / t.z) % t.y, f % t.z) * cards_medium.counts.z;
}

// ANCHOR: card_density
// (ρ, ρ g) of card c at p: its frame's cell there (cross-faded with the next), 0 outside the box.
fn card_density(c: CardVolume, p: vec3<f32>) -> vec2<f32> {
    let q = p - c.origin.xyz;
    let uvw = vec3(dot(q, c.right.xyz), dot(q, c.up.xyz), dot(q, c.away.xyz));
    if any(uvw < cards_medium.clip_lo.xyz) || any(uvw >= cards_medium.clip_hi.xyz) {
        return vec2(0.0);
    }
    let n = cards_medium.counts.z;
    let cell = min(vec3<u32>(max(uvw, vec3(0.0)) * f32(n)), vec3(n - 1u));
    let a = textureLoad(card_frames, card_tile(u32(c.frames.x)) + cell, 0).rg;
    var v = vec2(a.x, a.x * a.y);
    if c.frames.z > 0.0 {
        let b = textureLoad(card_frames, card_tile(u32(c.frames.y)) + cell, 0).rg;
        v = mix(v, vec2(b.x, b.x * b.y), c.frames.z);
    }
    return max(v, vec2(0.0));
}
// ANCHOR_END: card_density

// The brick of card c's grid that holds p (clamped into the grid).
fn card_brick(c: CardVolume, p: vec3<f32>) -> u32 {
    let q = p - c.origin.xyz;
    let uvw = vec3(dot(q, c.right.xyz), dot(q, c.up.xyz), dot(q, c.away.xyz));
    let b = u32(cards_medium.clip_hi.w);
    let ijk = min(vec3<u32>(max(uvw, vec3(0.0)) * f32(b)), vec3(b - 1u));
    return ijk.x + b * (ijk.y + b * ijk.z);
}

// ANCHOR: card_component
// The cards as a medium, one brick at a time: where boxes overlap their densities add, and the
// sum is split into components, one per brick of each card — card c's density where p lies in
// its brick b (of the grid's b³, i + b (j + b k)), none elsewhere. Each component is bounded by
// its brick's bound, so a tentative collision drawn by a brick (cards_next) asks only for its
// own card's density there: one texture read, however many boxes overlap at p.
fn card_component_at(link: u32, p: vec3<f32>) -> Medium {
    if !cards_present() {
        return medium_none();
    }
    let c = cards_medium.cards[link >> 8u];
    if card_brick(c, p) != (link & 255u) {
        return medium_none();
    }
    let s = c.origin.w * card_density(c, p);
    let extinction = vec3(s.x);
    let emission = select(vec3(0.0), s.y * cards_medium.glow.rgb, cards_medium.counts.w == 1u);
    return medium_of(extinction, cards_medium.clip_lo.w * extinction, emission, 0.0, PHASE_HENYEY_GREENSTEIN);
}
// ANCHOR_END: card_component

// The cards' own bound, tracked apart from the majorant grid (the tracer's tracking.wgsl): each
// brick of each card is a Poisson process of tentative collisions at its bound σ̄ — the densest
// cell in it of the card's frames times its σ, from the CPU — over the stretch of the ray inside
// its box; a grid cell's bound would sum every card in it, a brick's holds one card's densest
// smoke where it is. The cards' next tentative collision along o + t d after `after`, before
// `t_max`: the first of every crossed box's own collisions, with the brick that drew it and its
// rate (t = 3e38 where none). Free paths are memoryless, so each box crossed draws afresh from
// `after`, and the walk skips every node that the ray enters only beyond the nearest collision
// found so far: a closest-hit walk of the tree. (Yue et al. 2010 walk a kd-tree of bounds so;
// here the tree that finds the cards is the tree of bounds.)
struct CardDraw {
    t: f32,
    sigma: f32, // the brick's rate σ̄
    link: u32,  // its leaf's link: card << 8 | brick
}

// ANCHOR: cards_next
fn cards_next(o: vec3<f32>, d: vec3<f32>, after: f32, t_max: f32) -> CardDraw {
    var draw = CardDraw(3.0e38, 0.0, 0u);
    if !cards_present() || after >= t_max {
        return draw;
    }
    let inv = ray_inverse(d);
    var best = t_max;
    var stack: array<u32, CARD_STACK>;
    var top = 0u;
    var i = 0u;
    loop {
        let node = card_nodes[i];
        let span = ray_box_span(o, inv, node.lo, node.hi);
        let start = max(span.x, after);
        let end = min(span.y, best);
        if start < end {
            if node.leaf == 0u {
                stack[top] = node.link;
                top = min(top + 1u, CARD_STACK - 1u);
                i += 1u;
                continue;
            }
            let sigma = bitcast<f32>(node.leaf) * MAJORANT_MARGIN;
            if sigma > 0.0 {
                let t = start - log(1.0 - random()) / sigma;
                if t < end {
                    best = t;
                    draw = CardDraw(t, sigma, node.link);
                }
            }
        }
        if top == 0u {
            break;
        }
        top -= 1u;
        i = stack[top];
    }
    return draw;
}
// ANCHOR_END: cards_next
