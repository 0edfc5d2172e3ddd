// Six-way lit smoke cards, the prepare pass: one invocation per card computes what is constant
// over the card, once, for both renderers (cards.wgsl, splat.wgsl) — hoisting per-card work out
// of the per-pixel shader, as GPU particle systems do (Haar and Aaltonen 2015, "GPU-Driven
// Rendering Pipelines"): the card's plane and axes relative to the eye (the splat's ray test),
// the flipbook frame pair and cross-fade, the sun in the card frame and the six weights, the sun's
// light and the sky's and ground's radiance from the six map directions (taken at the card's
// centre).
// Stage: transparent. Output: `prepared` (one `PreparedCard` per card, in the instances' order).
// #import common/scene_inputs.wgsl
// #import common/sky_light.wgsl
// #import 08-six-way-cards/cards_common.wgsl

// One card as `instances::CardInstance` (Rust) lays it out.
struct CardInstance {
    centre: vec4<f32>,   // xyz (m), w: opacity
    right: vec4<f32>,    // unit right axis, w: width (m)
    up: vec4<f32>,       // unit up axis, w: height (m)
    flipbook: vec4<f32>, // start frame, speed, kind, unused
}

@group(1) @binding(2) var<uniform> cards: Cards;
@group(1) @binding(3) var<storage, read> instances: array<CardInstance>;
@group(1) @binding(4) var<storage, read_write> prepared: array<PreparedCard>;

const GROUND_ALBEDO: f32 = 0.54; // the test scene's ground, averaged over colour

// ANCHOR: prepare
fn prepare_card(c: CardInstance) -> PreparedCard {
    var p: PreparedCard;
    let right = c.right.xyz;
    let up = c.up.xyz;
    let away = cross(up, right);
    // The plane and the axes relative to the eye (see `PreparedCard`).
    let q = c.centre.xyz - frame.camera_pos.xyz;
    let u_axis = right / max(c.right.w, 1e-6);
    let v_axis = up / max(c.up.w, 1e-6);
    p.plane = vec4(away, dot(away, q));
    p.u_axis = vec4(u_axis, 0.5 - dot(q, u_axis));
    p.v_axis = vec4(-v_axis, 0.5 + dot(q, v_axis));

    // The flipbook: two frames around the card's position, cross-faded.
    let frames = cards.grid.z;
    let running = c.flipbook.x + cards.anim.y * cards.anim.x * c.flipbook.y;
    let position = running - floor(running / f32(frames)) * f32(frames);
    let f0 = min(u32(position), frames - 1u);
    let blend = select(0.0, position - f32(f0), cards.flags.z == 1u);
    p.atlas = vec4(frame_origin(cards, f0), frame_origin(cards, (f0 + 1u) % frames));
    p.flipbook = vec4(f32(f0), blend, c.centre.w, 0.0);

    // The sun in the card frame and the six weights.
    let sun = frame.sun_dir.xyz;
    let l = vec3(dot(sun, right), dot(sun, up), dot(sun, away));
    let w = six_way_weights(l, cards.flags.y);
    p.light = vec4(l, 0.0);
    p.positive = vec4(w.positive, 0.0);
    p.negative = vec4(w.negative, 0.0);

    // The light at the card's centre: over a card (metres) the sun's transmittance and the sky's
    // irradiance change with altitude by far less than the maps resolve.
    let sun_light = sun_light_at(c.centre.xyz) * frame.sun_dir.w;
    let sky = sky_light_at(c.centre.xyz);
    p.sun = vec4(0.25 * sun_light, 0.0);
    // Radiance from direction dir: the sky above, the ground below (its albedo × the sun and sky
    // on it), linear in between; each direction holds a sixth of the sphere.
    let scale = cards.anim.w / 6.0;
    p.ground_sun = vec4(scale * GROUND_ALBEDO * max(sun.y, 0.0) * sun_light, 0.0);
    let dirs = array(up, -up, -right, right, away, -away);
    for (var k = 0u; k < 6u; k++) {
        let above = 0.5 + 0.5 * dirs[k].y;
        p.ambient[k] = vec4(scale * sky * mix(GROUND_ALBEDO, 1.0, above), 1.0 - above);
    }
    return p;
}
// ANCHOR_END: prepare

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < cards.counts.x {
        prepared[id.x] = prepare_card(instances[id.x]);
    }
}
