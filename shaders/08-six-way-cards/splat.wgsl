// Six-way lit smoke cards, the compute renderer: tile splatting, after the tile rasterizer of
// Kerbl et al. 2023 ("3D Gaussian Splatting for Real-Time Radiance Field Rendering") and the
// tiled particle renderers of GPU-driven pipelines (Haar and Aaltonen 2015). The CPU bins every
// card's screen rectangle into 16×16-pixel tiles (`tiles.rs`), each tile's list front to back;
// one workgroup per tile walks its list in batches of 256 cards loaded to workgroup memory, and
// each invocation intersects its pixel's view ray with each card's plane, shades the card there
// (`shade_card`, as the fragment renderer does) and composites front to back:
//   C ← C + T·c,   T ← T·(1 − α)   (C = 0, T = 1 at the start),
// the same layer the "over" blend builds back to front (premultiplied radiance, T in alpha).
// A pixel stops once T < 1/1024: what lies behind it could add at most T × its radiance, under
// 0.1 % of the brightest card or scene behind (a quarter of an 8-bit step), and the layer keeps
// that T, so the scene still shows through by that much. The workgroup stops when every pixel
// has. The overdraw view counts the cards each pixel shaded.
// Stage: transparent. Output: the layer (storage texture), read by composite.wgsl.
// #import common/scene_inputs.wgsl
// #import common/shadow.wgsl
// #import 08-six-way-cards/cards_common.wgsl
// #import 08-six-way-cards/card_fog.wgsl

@group(1) @binding(2) var<uniform> cards: Cards;
@group(1) @binding(3) var atlas_a: texture_2d<f32>;
@group(1) @binding(4) var atlas_b: texture_2d<f32>;
@group(1) @binding(5) var atlas_sampler: sampler;
@group(1) @binding(6) var<storage, read> prepared: array<PreparedCard>;
// The tiles' lists (`tiles::TileLists`): for tile i (row by row), its cards' indices into
// `prepared` are words tiles[i] .. tiles[i + 1], front to back.
@group(1) @binding(7) var<storage, read> tiles: array<u32>;
@group(1) @binding(8) var layer: texture_storage_2d<rgba16float, write>;

const SHADOW_BIAS: f32 = 0.0005;
const BATCH: u32 = 256u;                   // cards per load: one per invocation
const MIN_TRANSMITTANCE: f32 = 1.0 / 1024.0;

// The batch's ray-test data (12 KiB) and card indices (1 KiB).
var<workgroup> batch_plane: array<vec4<f32>, BATCH>;
var<workgroup> batch_u: array<vec4<f32>, BATCH>;
var<workgroup> batch_v: array<vec4<f32>, BATCH>;
var<workgroup> batch_card: array<u32, BATCH>;
var<workgroup> list: vec2<u32>;            // the tile's first and end words in `tiles`
var<workgroup> live: atomic<u32>;          // pixels of the tile still compositing
var<workgroup> live_now: u32;

@compute @workgroup_size(16, 16)
fn main(
    @builtin(workgroup_id) tile: vec3<u32>,
    @builtin(num_workgroups) grid: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let size = textureDimensions(layer);
    let pixel = tile.xy * TILE_PX + local.xy;
    let on_screen = all(pixel < size);
    if lane == 0u {
        let i = tile.x + tile.y * grid.x;
        list = vec2(tiles[i], tiles[i + 1u]);
    }
    // The pixel's ray, the scene's distance along it, and the clip depth along it (rows 3 and 4
    // of view_proj): a point at t is inside the depth range where 0 ≤ z0 + t·zt ≤ w0 + t·wt, as
    // the rasterizer clips the fragment renderer's quads.
    let at = min(pixel, size - 1u);
    let ray = view_ray_dir(frame, vec2<f32>(at));
    let eye = frame.camera_pos.xyz;
    let scene_d = textureLoad(scene_distance, at, 0).r;
    let m = transpose(frame.view_proj);
    let z0 = dot(m[2], vec4(eye, 1.0));
    let zt = dot(m[2].xyz, ray);
    let w0 = dot(m[3], vec4(eye, 1.0));
    let wt = dot(m[3].xyz, ray);
    let screen_uv = (vec2<f32>(at) + 0.5) * frame.viewport.zw;
    let view = cards.flags.x;

    var color = vec3(0.0);
    var transmittance = 1.0;
    var shaded = 0u;
    var done = !on_screen;
    if !done {
        atomicAdd(&live, 1u);
    }
    // ANCHOR: splat_batches
    let range = workgroupUniformLoad(&list);
    for (var first = range.x; first < range.y; first += BATCH) {
        workgroupBarrier(); // every invocation is done with the previous batch
        if lane == 0u {
            live_now = atomicLoad(&live);
        }
        let k = first + lane;
        if k < range.y {
            let c = tiles[k];
            batch_card[lane] = c;
            batch_plane[lane] = prepared[c].plane;
            batch_u[lane] = prepared[c].u_axis;
            batch_v[lane] = prepared[c].v_axis;
        }
        if workgroupUniformLoad(&live_now) == 0u {
            break;
        }
        // ANCHOR_END: splat_batches
        if !done {
            let count = min(BATCH, range.y - first);
            // ANCHOR: splat_cards
            for (var j = 0u; j < count; j++) {
                // The ray against the card's plane: distance, then uv.
                let plane = batch_plane[j];
                let facing = dot(ray, plane.xyz);
                if abs(facing) < 1e-8 {
                    continue;
                }
                let d = plane.w / facing;
                let uv = d * vec2(dot(ray, batch_u[j].xyz), dot(ray, batch_v[j].xyz)) + vec2(batch_u[j].w, batch_v[j].w);
                let z = z0 + d * zt;
                if d <= 0.0 || d >= scene_d || any(uv < vec2(0.0)) || any(uv > vec2(1.0)) || z < 0.0 || z > w0 + d * wt {
                    continue;
                }
                shaded += 1u;
                let card = prepared[batch_card[j]];
                let t = card_texel(atlas_a, atlas_b, atlas_sampler, cards, card, uv);
                // No smoke here: every view composites (0, 0).
                if t.alpha <= 0.0 {
                    continue;
                }
                let world = eye + d * ray;
                var shadow = 1.0;
                if (cards.flags.w & FLAG_SCENE_SHADOW) != 0u {
                    shadow = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, world, SHADOW_BIAS);
                }
                var aerial = TransparentFog(vec3(0.0), vec3(1.0));
                if (cards.flags.w & FLAG_FOGGED) != 0u {
                    aerial = card_fog(screen_uv, ray, d);
                }
                let s = shade_card(cards, card, t, CardPixel(uv, d, scene_d, shadow, aerial.inscattering, aerial.transmittance));
                color += transmittance * s.rgb;
                transmittance *= 1.0 - s.a;
                if transmittance < MIN_TRANSMITTANCE {
                    done = true;
                    atomicSub(&live, 1u);
                    break;
                }
            }
            // ANCHOR_END: splat_cards
        }
    }
    if on_screen {
        if view == VIEW_OVERDRAW {
            textureStore(layer, pixel, vec4(vec3(f32(shaded)), 1.0));
        } else {
            textureStore(layer, pixel, vec4(color, transmittance));
        }
    }
}
