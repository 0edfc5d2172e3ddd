// 2D smoke display views, on a square panel as tall or as wide as the image allows, centred.
// fluid: the dye over a dark background, shaded by a light from the upper left through the
// density's gradient, as if the dye were a thin relief.
// Field views, one value per cell (nearest, so the grid shows): velocity |u| at the centre
// (the mean of each component's two faces), pressure q, divergence ∇·u before the solve,
// residual ∇·u − ∇²q after it, pressure gradient |∇q| at the centre, vorticity ω (signed),
// density, temperature T (K). Their display range is the field's min / max over the panel,
// reduced per workgroup and then with one global atomic (common/range.wgsl).
// #import common/scene_inputs.wgsl
// #import common/range.wgsl
// #import 07-smoke-2d/poisson.wgsl

@group(3) @binding(0) var velocity_in: texture_2d<f32>;
@group(3) @binding(1) var dye_in: texture_2d<f32>;
@group(3) @binding(2) var pressure_in: texture_2d<f32>;
@group(3) @binding(3) var divergence_in: texture_2d<f32>;

// ANCHOR: field_value
fn field_value(view: u32, c: vec2<i32>) -> f32 {
    switch view {
        case VIEW_VELOCITY: {
            let u = 0.5 * (u_at(velocity_in, c.x, c.y) + u_at(velocity_in, c.x + 1, c.y));
            let v = 0.5 * (v_at(velocity_in, c.x, c.y) + v_at(velocity_in, c.x, c.y + 1));
            return length(vec2(u, v));
        }
        case VIEW_PRESSURE: { return q_at(pressure_in, c.x, c.y); }
        case VIEW_DIVERGENCE: { return textureLoad(divergence_in, c, 0).x; }
        case VIEW_RESIDUAL: {
            let s = stencil(pressure_in, c);
            let h = smoke.cell_m;
            return textureLoad(divergence_in, c, 0).x - (s.x - s.y * q_at(pressure_in, c.x, c.y)) / (h * h);
        }
        case VIEW_PRESSURE_GRADIENT: {
            let gx = 0.5 * (pressure_gradient_at(pressure_in, c).x + pressure_gradient_at(pressure_in, c + vec2(1, 0)).x);
            let gy = 0.5 * (pressure_gradient_at(pressure_in, c).y + pressure_gradient_at(pressure_in, c + vec2(0, 1)).y);
            return length(vec2(gx, gy));
        }
        case VIEW_VORTICITY: { return curl_at_centre(velocity_in, c); }
        case VIEW_TEMPERATURE: { return smoke.ambient_k + textureLoad(velocity_in, c, 0).z; }
        default: { return textureLoad(dye_in, c, 0).a; }
    }
}
// ANCHOR_END: field_value

// ANCHOR: panel
// The point of the domain (cell units, y up) that pixel `pixel` shows, and whether it is on the
// panel: the largest centred square the image holds.
fn panel_point(pixel: vec2<u32>, size: vec2<u32>) -> vec3<f32> {
    let side = f32(min(size.x, size.y));
    let corner = (vec2<f32>(size) - side) * 0.5;
    let uv = (vec2<f32>(pixel) + 0.5 - corner) / side;
    let inside = all(uv >= vec2(0.0)) && all(uv < vec2(1.0));
    return vec3(uv.x * smoke.grid_n, (1.0 - uv.y) * smoke.grid_n, select(0.0, 1.0, inside));
}
// ANCHOR_END: panel

// ANCHOR: fluid
const BACKGROUND: vec3<f32> = vec3(0.012, 0.014, 0.02);
const PANEL: vec3<f32> = vec3(0.03, 0.034, 0.045);

fn fluid_view(p: vec2<f32>) -> vec3<f32> {
    let dye = sample_centre(dye_in, p);
    let density = max(dye.a, 0.0);
    let colour = clamp(dye.rgb / max(density, 1e-6), vec3(0.0), vec3(1.0));
    let cover = 1.0 - exp(-1.5 * density);
    // Relief shading: the density as a height field lit from the upper left.
    let e = 0.75;
    let dx = sample_centre(dye_in, p + vec2(e, 0.0)).a - sample_centre(dye_in, p - vec2(e, 0.0)).a;
    let dy = sample_centre(dye_in, p + vec2(0.0, e)).a - sample_centre(dye_in, p - vec2(0.0, e)).a;
    let normal = normalize(vec3(-dx, -dy, 0.6));
    let light = max(dot(normal, normalize(vec3(-0.5, 0.6, 0.65))), 0.0);
    return mix(PANEL, colour * (0.35 + 0.9 * light), cover);
}
// ANCHOR_END: fluid

var<workgroup> group_min: atomic<u32>;
var<workgroup> group_max: atomic<u32>;

@compute @workgroup_size(8, 8, 1)
fn smoke_2d_view(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    if local == 0u {
        atomicStore(&group_min, 0xffffffffu);
        atomicStore(&group_max, 0u);
    }
    workgroupBarrier();
    let size = textureDimensions(view_out);
    let view = smoke.view;
    if id.x < size.x && id.y < size.y {
        let p = panel_point(id.xy, size);
        if view == VIEW_FLUID {
            let colour = select(BACKGROUND, fluid_view(p.xy), p.z > 0.0);
            textureStore(view_out, id.xy, vec4(colour, 1.0));
        } else if p.z > 0.0 {
            let n = grid_n();
            let c = clamp(vec2<i32>(floor(p.xy)), vec2(0), vec2(n - 1));
            let v = field_value(view, c);
            textureStore(view_out, id.xy, vec4(v, v, v, 1.0));
            if v == v {
                atomicMin(&group_min, range_encode(v));
                atomicMax(&group_max, range_encode(v));
            }
        } else {
            // Alpha 0 outside the panel: "no data" to the display pass.
            textureStore(view_out, id.xy, vec4(0.0));
        }
    }
    workgroupBarrier();
    if local == 0u && view != VIEW_FLUID {
        let lo = atomicLoad(&group_min);
        let hi = atomicLoad(&group_max);
        if lo != 0xffffffffu {
            atomicMin(&view_range[0], lo);
            atomicMax(&view_range[1], hi);
        }
    }
}
