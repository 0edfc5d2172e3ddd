// Six-way lit smoke cards, the composite: puts the transparent layer (the cards' premultiplied
// radiance C and the transmittance T through them, see cards.wgsl) over the colour below,
//   out = colour · T + C,
// and writes the debug views: a card quantity as the alpha-weighted mean over the cards at the
// pixel (the layer's value over the coverage 1 − T), the coverage itself, the overdraw count,
// and the atlases fitted to the screen.
// Stage: transparent. Output: `view_out`.
// #import common/scene_inputs.wgsl
// #import 08-six-way-cards/cards_common.wgsl

@group(2) @binding(0) var<uniform> cards: Cards;
@group(2) @binding(1) var layer: texture_2d<f32>;
@group(2) @binding(2) var atlas_a: texture_2d<f32>;
@group(2) @binding(3) var atlas_b: texture_2d<f32>;

// The atlas texel under the pixel, the atlas fitted into the screen (square texels, centred);
// alpha 0 outside it.
fn atlas_on_screen(tex: texture_2d<f32>, pixel: vec2<u32>) -> vec4<f32> {
    let size = vec2<f32>(textureDimensions(tex));
    let screen = frame.viewport.xy;
    let scale = min(screen.x / size.x, screen.y / size.y);
    let origin = 0.5 * (screen - size * scale);
    let at = (vec2<f32>(pixel) + 0.5 - origin) / scale;
    if any(at < vec2(0.0)) || any(at >= size) {
        return vec4(0.0);
    }
    return vec4(textureLoad(tex, vec2<i32>(at), 0).rgb, 1.0);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let below = textureLoad(scene_color, id.xy, 0).rgb;
    let l = textureLoad(layer, id.xy, 0);
    let coverage = 1.0 - l.a;
    switch cards.flags.x {
        case VIEW_FINAL: {
            textureStore(view_out, id.xy, vec4(below * l.a + l.rgb, 1.0));
        }
        case VIEW_SCENE: {
            textureStore(view_out, id.xy, vec4(below, 1.0));
        }
        case VIEW_ALPHA: {
            write_scalar(id.xy, coverage);
        }
        case VIEW_OVERDRAW: {
            write_scalar(id.xy, l.r);
        }
        case VIEW_ATLAS_A: {
            textureStore(view_out, id.xy, atlas_on_screen(atlas_a, id.xy));
        }
        case VIEW_ATLAS_B: {
            textureStore(view_out, id.xy, atlas_on_screen(atlas_b, id.xy));
        }
        default: {
            // The mean of the quantity over the cards here; no data where no card is.
            if coverage > 1e-4 {
                textureStore(view_out, id.xy, vec4(l.rgb / coverage, 1.0));
            } else {
                textureStore(view_out, id.xy, vec4(0.0));
            }
        }
    }
}
