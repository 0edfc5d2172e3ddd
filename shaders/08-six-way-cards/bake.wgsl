// Six-way lighting bake (Unity's six-way smoke lighting, 2022; EmberGen's TLR/BBF maps): one
// flipbook frame of the smoke seen orthographically along a card axis and lit in turn from the
// six axis directions, single scattering with self-shadowing (Max 1995's emission–absorption
// model with cell-constant density; Hillaire 2015's exact per-cell opacity 1 − e^{−τ}).
// The GPU twin of chapters/08-six-way-cards/src/light.rs, which documents the discretisation:
// τ = σ ρ Δx per cell; S, the optical depth of the cells strictly between a cell and the light,
// from exclusive prefix sums along each card axis. A side light reaches the view ray through the
// cell after S + τ/2; the front and back lights are integrated exactly over the cell:
// e^{−S} (1 − e^{−2τ})/2 and e^{−S} τ e^{−τ}, times the view's transmittance to the cell.
// Inputs: the smoke's fluid texture (density in .a) and velocity texture (T − T_amb in .a, for
// the glow). Outputs: `prefix` writes the prefix sums and line totals along right and up;
// `columns` writes, per pixel, the six premultiplied lit sums (before the albedo), alpha and
// emission (8 floats).

struct Bake {
    n: u32,
    glow_on: u32,
    // Card axis c (0 right, 1 up, 2 away) → world axis, and whether it runs along the world's +.
    world_axis: vec3<u32>,
    positive: vec3<u32>,
    scale: f32,           // σ Δx: optical depth per unit density
    ambient_k: f32,       // T_amb (K)
    glow_start_k: f32,    // the glow ramp's T₀ and T₁ (K)
    glow_full_k: f32,
}

@group(0) @binding(0) var<uniform> bake: Bake;
@group(0) @binding(1) var fluid: texture_3d<f32>;
@group(0) @binding(2) var velocity: texture_3d<f32>;
// Per cell in the card frame (right fastest, then up, then away): the exclusive prefix sum of τ
// along right, and along up; per line, its total.
@group(0) @binding(3) var<storage, read_write> before_right: array<f32>;
@group(0) @binding(4) var<storage, read_write> before_up: array<f32>;
@group(0) @binding(5) var<storage, read_write> line_right: array<f32>;
@group(0) @binding(6) var<storage, read_write> line_up: array<f32>;
@group(0) @binding(7) var<storage, read_write> maps: array<f32>;

// The world texel of card cell (right, up, away).
fn texel(card: vec3<u32>) -> vec3<i32> {
    var w = vec3<u32>(0u);
    for (var c = 0u; c < 3u; c++) {
        let t = select(bake.n - 1u - card[c], card[c], bake.positive[c] != 0u);
        w[bake.world_axis[c]] = t;
    }
    return vec3<i32>(w);
}

fn tau_at(card: vec3<u32>) -> f32 {
    return bake.scale * max(textureLoad(fluid, texel(card), 0).a, 0.0);
}

fn card_index(card: vec3<u32>) -> u32 {
    return card.x + bake.n * (card.y + bake.n * card.z);
}

// ANCHOR: prefix
// One invocation per line: x = the line (its two other coordinates), y = 0 along right, 1 up.
@compute @workgroup_size(64, 1, 1)
fn prefix(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = bake.n;
    if id.x >= n * n || id.y > 1u {
        return;
    }
    let a = id.x % n;
    let away = id.x / n;
    var sum = 0.0;
    for (var t = 0u; t < n; t++) {
        let card = select(vec3(a, t, away), vec3(t, a, away), id.y == 0u);
        let i = card_index(card);
        if id.y == 0u { before_right[i] = sum; } else { before_up[i] = sum; }
        sum += tau_at(card);
    }
    if id.y == 0u { line_right[id.x] = sum; } else { line_up[id.x] = sum; }
}
// ANCHOR_END: prefix

fn glow(card: vec3<u32>) -> f32 {
    let t = bake.ambient_k + textureLoad(velocity, texel(card), 0).a;
    let span = bake.glow_full_k - bake.glow_start_k;
    if abs(span) < 1e-6 {
        return select(0.0, 1.0, t >= bake.glow_full_k);
    }
    return clamp((t - bake.glow_start_k) / span, 0.0, 1.0);
}

// 1 − e^{−x}, kept accurate for thin smoke (WGSL has no expm1): a series below 10⁻³.
fn one_minus_exp(x: f32) -> f32 {
    return select(1.0 - exp(-x), x * (1.0 - x * (0.5 - x / 6.0)), x < 1e-3);
}

// The front light's part of a cell, (1 − e^{−2τ})/2: a series below τ = 10⁻³, where
// 1 − e^{−2τ} would cancel. (The back light's τ e^{−τ} subtracts nothing.)
fn front_in_cell(tau: f32) -> f32 {
    return select(0.5 * (1.0 - exp(-2.0 * tau)), tau * (1.0 - tau * (1.0 - tau * (2.0 / 3.0))), tau < 1e-3);
}

// A side light's optical depth to the ray through the cell, on the − side of an axis or the +.
fn depth(before: f32, line: f32, half: f32, positive: bool) -> f32 {
    return select(before + half, max(line - before - half, 0.0), positive);
}

// One invocation per view column (right, up). The six lights, in Dir::ALL's order: top (+up),
// bottom (−up), left (−right), right (+right), back (+away), front (−away).
@compute @workgroup_size(8, 8, 1)
fn columns(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = bake.n;
    if id.x >= n || id.y >= n {
        return;
    }
    // ANCHOR: columns
    var line_away = 0.0;
    for (var k = 0u; k < n; k++) {
        line_away += tau_at(vec3(id.x, id.y, k));
    }
    var t_view = 1.0;
    var before_away = 0.0;
    var lit = array<f32, 6>(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    var emission = 0.0;
    for (var k = 0u; k < n; k++) {
        let card = vec3(id.x, id.y, k);
        let tau = tau_at(card);
        let half = 0.5 * tau;
        let weight = one_minus_exp(tau) * t_view;
        if weight > 0.0 {
            let i = card_index(card);
            let br = before_right[i];
            let lr = line_right[id.y + n * k];
            let bu = before_up[i];
            let lu = line_up[id.x + n * k];
            // Top, bottom, left, right: the light at the cell's centre, exact along the ray.
            let to_light = array<f32, 4>(
                depth(bu, lu, half, true),
                depth(bu, lu, half, false),
                depth(br, lr, half, false),
                depth(br, lr, half, true),
            );
            for (var d = 0u; d < 4u; d++) {
                lit[d] += weight * exp(-to_light[d]);
            }
            // Back and front, along the view: the exact integrals over the cell.
            lit[4] += t_view * exp(-max(line_away - before_away - tau, 0.0)) * tau * exp(-tau);
            lit[5] += t_view * exp(-before_away) * front_in_cell(tau);
            if bake.glow_on != 0u {
                emission += weight * glow(card);
            }
        }
        t_view *= exp(-tau);
        before_away += tau;
    }
    // ANCHOR_END: columns
    let out = 8u * (id.x + n * (n - 1u - id.y));
    for (var d = 0u; d < 6u; d++) {
        maps[out + d] = lit[d];
    }
    maps[out + 6u] = one_minus_exp(before_away);
    maps[out + 7u] = emission;
}
