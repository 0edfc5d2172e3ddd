// The six-way cards' source volumes as a medium of the media layer (common/media/medium.wgsl):
// each card — a fog card or a particle, as the runtime places it this frame — is an oriented box
// holding the smoke frame its flipbook shows, the bake's view axis along the card's normal (away
// from the eye), the box scaled so that the bake's crop fills the card's quad and the volume
// stands centred on the card's plane. A bounding-volume hierarchy over the boxes' world bounds
// (built on the CPU each frame, bvh.rs; a linear BVH after Pharr, Jakob & Humphreys 2023, §7.3)
// finds the cards at a point and the cards over a box. The density is the bake's medium
// (light.rs): constant in each cell of the grid, optical depth σ ρ Δx per cell, albedo a, the
// isotropic phase, and the glow g as emission σ ρ g × the emission colour, the runtime's E channel
// per unit of absorbed light. The card's optical depth scale and opacity scale ρ; a card in its
// flipbook's cross-fade holds the mix of its two frames' densities.
// Bindings 34–36 of group 2, the media layer's place for placed volumes
// (fogbook_core::media::point): the cards' block, the tree's nodes, the frames' texture. An
// all-zero block — the stand-in of a stack without the cards — is no medium.
// #import common/media/medium.wgsl

// ANCHOR: records
// One card (cards::medium::CardVolume): where p sits in its grid, uvw = ((p − origin) · right,
// (p − origin) · up, (p − origin) · away), 0..1 over the grid; its frames and its bound.
struct CardVolume {
    origin: vec4<f32>, // xyz: the grid's corner (m); w: σ per unit density here (1/m)
    right: vec4<f32>,  // xyz: the card's right axis over the grid's width (1/m)
    up: vec4<f32>,     // xyz: its up axis over the grid's height (1/m)
    away: vec4<f32>,   // xyz: its normal, away from the eye, over the grid's depth (1/m)
    frames: vec4<f32>, // x: frame f0; y: f0 + 1; z: the cross-fade towards it; w: σ̄ ≥ σt in the box (1/m)
}

struct CardsMedium {
    counts: vec4<u32>,  // cards, tree nodes, cells per side n, 1 when the bake has emission
    tiles: vec4<u32>,   // frames along the texture's x, y and z (z first), and the frames
    clip_lo: vec4<f32>, // xyz: the part of the grid the card shows (uvw), the crop; w: albedo
    clip_hi: vec4<f32>,
    glow: vec4<f32>,    // rgb: radiance of full emission (the runtime's emission colour)
    cards: array<CardVolume>,
}

// One node of the tree (bvh::BvhNode): a leaf holds card `link`; an inner node's first child
// follows it and its second is at `link`.
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

// ANCHOR: walk
// The walk of the tree over the box [lo, hi] (a point where lo = hi): with `bounds`, Σ σ̄ of the
// cards whose box overlaps it; else Σ (σ ρ, σ ρ g) of the cards at lo.
fn cards_walk(lo: vec3<f32>, hi: vec3<f32>, bounds: bool) -> vec2<f32> {
    var sum = vec2(0.0);
    var stack: array<u32, CARD_STACK>;
    var top = 0u;
    var i = 0u;
    loop {
        let node = card_nodes[i];
        if all(node.lo <= hi) && all(node.hi >= lo) {
            if node.leaf == 0u {
                stack[top] = node.link;
                top = min(top + 1u, CARD_STACK - 1u);
                i += 1u;
                continue;
            }
            let c = cards_medium.cards[node.link];
            if bounds {
                sum.x += c.frames.w;
            } else {
                sum += c.origin.w * card_density(c, lo);
            }
        }
        if top == 0u {
            break;
        }
        top -= 1u;
        i = stack[top];
    }
    return sum;
}
// ANCHOR_END: walk

// ANCHOR: cards_medium
// The cards as a medium: where boxes overlap their densities add.
fn cards_medium_at(p: vec3<f32>) -> Medium {
    if !cards_present() {
        return medium_none();
    }
    let s = cards_walk(p, p, false);
    let extinction = vec3(s.x);
    let emission = select(vec3(0.0), s.y * cards_medium.glow.rgb, cards_medium.counts.w == 1u);
    return medium_of(extinction, cards_medium.clip_lo.w * extinction, emission, 0.0, PHASE_HENYEY_GREENSTEIN);
}

// A bound over the box [box_min, box_max]: the sum of the bounds of the cards whose world box
// overlaps it, each its frames' densest cell (from the CPU) times its σ.
fn cards_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    if !cards_present() {
        return majorant_none();
    }
    return Majorant(vec3(cards_walk(box_min, box_max, true).x * MAJORANT_MARGIN));
}
// ANCHOR_END: cards_medium
