// Smoke display views.
// fluid: the smoke ray-marched through the density volume inside the test scene and composited
// over it with the scene's distance as the far end (Max 1995, "Optical Models for Direct Volume
// Rendering"). Per sample: the sun through the light volume's optical depth with a
// Henyey–Greenstein phase function, multiple scattering as octaves of single scattering
// (Wrenninge, Kulla and Lundqvist 2013, "Oz: The Great and Volumetric"; Hillaire 2016,
// "Physically Based Sky, Atmosphere and Cloud Rendering in Frostbite"), the sky from above and
// the sunlit ground from below through the vertical optical depths, each averaged over its
// hemisphere (E₂, the exponential integral: the plane-parallel mean of e^(−τ/μ)), and extinction
// per colour channel (the absorption colour). Hot smoke also glows: each step adds the radiance
// `glow(T)` in proportion to what it absorbs (Kirchhoff's law: a body emits as it absorbs), a
// blackbody-like ramp from dark red through orange to white. The smoke's medium — extinction,
// albedo, temperature, glow — is medium.wgsl's, bound beside the parameters in group 2, where a
// path tracer samples it too.
// Field views: velocity |u − ∇q|, pressure q, divergence ∇·u (before the solve), residual
// ∇·u − ∇²q (after it), pressure gradient |∇q|, vorticity |∇ × u|, density, temperature T (K,
// ambient plus the velocity texture's fourth channel), the light volume's transmittance to the
// sun e^(−τ) and to the sky E₂(τ up) — as an axis-aligned
// slice or a maximum-intensity projection (for signed fields, the value of largest magnitude),
// fitted to the screen. Their display range is the field's min / max over what is shown,
// reduced here per workgroup and then with one global atomic (common/range.wgsl).
// #import common/scene_inputs.wgsl
// #import common/range.wgsl
// #import 07-smoke/common.wgsl
// #import 07-smoke/medium.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var pressure_in: texture_3d<f32>;
@group(3) @binding(2) var divergence_in: texture_3d<f32>;
@group(3) @binding(3) var fluid_in: texture_3d<f32>;
@group(3) @binding(4) var light_in: texture_3d<f32>;

// The projected velocity at the centre of `cell`: per axis the mean of its two faces, u − ∇q.
fn projected_centre_velocity(cell: vec3<i32>) -> vec3<f32> {
    var v = vec3(0.0);
    for (var c = 0u; c < 3u; c++) {
        v[c] = 0.5 * (projected_face(velocity_in, pressure_in, cell, c) + projected_face(velocity_in, pressure_in, cell + axis(c), c));
    }
    return v;
}

// The face gradient of q averaged to the centre of `cell` (what the projection removes there).
fn centre_pressure_gradient(cell: vec3<i32>) -> vec3<f32> {
    var v = vec3(0.0);
    for (var c = 0u; c < 3u; c++) {
        v[c] = 0.5 * (face_gradient(pressure_in, cell, c) + face_gradient(pressure_in, cell + axis(c), c));
    }
    return v;
}

// The shown quantity at one cell.
fn field_value(view: u32, cell: vec3<i32>) -> f32 {
    switch view {
        case VIEW_VELOCITY: { return length(projected_centre_velocity(cell)); }
        case VIEW_PRESSURE: { return pressure_at(pressure_in, cell); }
        case VIEW_DIVERGENCE: { return textureLoad(divergence_in, cell, 0).r; }
        case VIEW_RESIDUAL: {
            // The compact 7-point Laplacian: the divergence of the face gradient, the operator the
            // solvers invert and the projection applies.
            let h = smoke.grid.cell_m;
            let lap = (pressure_at(pressure_in, cell + vec3(1, 0, 0)) + pressure_at(pressure_in, cell - vec3(1, 0, 0))
                + pressure_at(pressure_in, cell + vec3(0, 1, 0)) + pressure_at(pressure_in, cell - vec3(0, 1, 0))
                + pressure_at(pressure_in, cell + vec3(0, 0, 1)) + pressure_at(pressure_in, cell - vec3(0, 0, 1))
                - 6.0 * pressure_at(pressure_in, cell)) / (h * h);
            return textureLoad(divergence_in, cell, 0).r - lap;
        }
        case VIEW_PRESSURE_GRADIENT: { return length(centre_pressure_gradient(cell)); }
        case VIEW_VORTICITY: { return length(curl_at(velocity_in, cell)); }
        case VIEW_TEMPERATURE: { return smoke.optics.ambient_k + textureLoad(velocity_in, cell, 0).w; } // K
        case VIEW_SUN_TRANSMITTANCE: { return exp(-textureLoad(light_in, cell, 0).r); }
        case VIEW_SKY_TRANSMITTANCE: { return exponential_integral_e2(textureLoad(light_in, cell, 0).g); }
        case VIEW_OBSTACLES: { return f32(solid_at(cell)); } // 0 fluid, 1 sphere, 2 box
        default: { return textureLoad(fluid_in, cell, 0).a; }
    }
}

// The cell that screen position `uv` (0..1 within the square panel) shows on a slice at depth k.
fn panel_cell(uv: vec2<f32>, k: i32) -> vec3<i32> {
    let n = grid_n();
    let ij = clamp(vec2<i32>(uv * f32(n)), vec2(0), vec2(n - 1));
    let flipped = vec2(ij.x, n - 1 - ij.y); // image rows go down, the grid's y goes up
    switch smoke.display.slice_axis {
        case 0u: { return vec3(k, flipped.y, flipped.x); }   // x slice: z across, y up
        case 1u: { return vec3(flipped.x, k, ij.y); }        // y slice: x across, z down
        default: { return vec3(flipped.x, flipped.y, k); }   // z slice: x across, y up
    }
}

// ANCHOR: field_view
fn field_view(view: u32, pixel: vec2<u32>, size: vec2<u32>) -> vec2<f32> {
    // A square panel, as tall as the image, centred; x = 1 marks "inside the panel".
    let side = f32(size.y);
    let left = (f32(size.x) - side) * 0.5;
    let uv = vec2((f32(pixel.x) + 0.5 - left) / side, (f32(pixel.y) + 0.5) / side);
    if any(uv < vec2(0.0)) || any(uv >= vec2(1.0)) {
        return vec2(0.0, 0.0);
    }
    let n = grid_n();
    if smoke.display.field_display == 0u {
        let k = clamp(i32(smoke.display.slice_position * f32(n)), 0, n - 1);
        return vec2(field_value(view, panel_cell(uv, k)), 1.0);
    }
    var best = 0.0;
    for (var k = 0; k < n; k++) {
        let v = field_value(view, panel_cell(uv, k));
        if abs(v) > abs(best) {
            best = v;
        }
    }
    return vec2(best, 1.0);
}
// ANCHOR_END: field_view

// Ray-box intersection in box units: (t_near, t_far) along `dir` from `origin`, in metres.
fn box_hit(origin: vec3<f32>, dir: vec3<f32>) -> vec2<f32> {
    let lo = smoke.grid.box_min;
    let hi = lo + vec3(box_world_size());
    let inv = 1.0 / select(dir, vec3(1e-9), abs(dir) < vec3(1e-9));
    let t0 = (lo - origin) * inv;
    let t1 = (hi - origin) * inv;
    let near = max(max(min(t0.x, t1.x), min(t0.y, t1.y)), min(t0.z, t1.z));
    let far = min(min(max(t0.x, t1.x), max(t0.y, t1.y)), max(t0.z, t1.z));
    return vec2(max(near, 0.0), far);
}

// ANCHOR: phase

// Henyey–Greenstein phase function (1/sr), cos θ between the light's and the scattered
// direction of travel.
fn henyey_greenstein(cos_theta: f32, g: f32) -> f32 {
    let denom = 1.0 + g * g - 2.0 * g * cos_theta;
    return (1.0 - g * g) / (4.0 * PI * denom * sqrt(denom));
}

// The sun's light scattered towards the eye per unit of extinction, over π (the scene's units,
// in which a white Lambertian surface facing a sun of `sun` shows `sun`): Σ_i b^i p(θ, c^i g)
// e^(−a^i τ tint), octave 0 being single scattering.
fn sun_octaves(cos_theta: f32, tau_sun: f32) -> vec3<f32> {
    var sum = vec3(0.0);
    var a = 1.0;
    var b = 1.0;
    var g = smoke.light.phase_g;
    for (var i = 0u; i < smoke.light.octaves; i++) {
        sum += b * henyey_greenstein(cos_theta, g) * exp(-a * tau_sun * smoke.optics.extinction_tint);
        a *= smoke.light.octave_extinction;
        b *= smoke.light.octave_contribution;
        g *= smoke.light.octave_eccentricity;
    }
    return PI * sum;
}
// ANCHOR_END: phase

// ANCHOR: ambient
// E₂(τ) = ∫₀¹ e^(−τ/μ) dμ: the mean transmittance of isotropic light arriving over a hemisphere
// through a plane-parallel layer of vertical optical depth τ. From E₁ (Abramowitz and Stegun
// 1964, 5.1.53 below 1, |ε| < 2e-7; 5.1.56 above, |ε| < 5e-5), E₂ = e^(−τ) − τ E₁(τ), the
// rational form rearranged above 1 so that nothing cancels.
fn exponential_integral_e2(tau: f32) -> f32 {
    let x = max(tau, 0.0);
    if x < 1e-6 {
        return 1.0;
    }
    if x <= 1.0 {
        let series = -0.57721566 + x * (0.99999193 + x * (-0.24991055 + x * (0.05519968 + x * (-0.00976004 + x * 0.00107857))));
        return exp(-x) - x * (series - log(x));
    }
    let x2 = x * x;
    return exp(-x) * ((3.330657 - 2.334733) * x + (1.681534 - 0.250621)) / (x2 + 3.330657 * x + 1.681534);
}

// The sky's light from above and the ground's from below, scattered towards the eye per unit of
// extinction: with an isotropic phase each hemisphere gives half its radiance, dimmed by E₂ of
// the smoke above or below (the tint's mean stands for the three channels).
fn ambient_light(tau_up: f32, tau_down: f32) -> vec3<f32> {
    let sky = frame.ambient.rgb;
    let sun_on_ground = frame.sun_color.rgb * frame.sun_dir.w * max(frame.sun_dir.y, 0.0);
    let ground = smoke.light.ground_albedo * (sun_on_ground + sky);
    let mean_tint = dot(smoke.optics.extinction_tint, vec3(1.0 / 3.0));
    let above = exponential_integral_e2(tau_up * mean_tint);
    let below = exponential_integral_e2(tau_down * mean_tint);
    return smoke.light.ambient_scale * 0.5 * (sky * above + ground * below);
}
// ANCHOR_END: ambient

// ANCHOR: light_lookup
// Optical depths to the sun, up and down at uv. The light volume knows them at cell centres;
// in the outermost half cell a clamped sample reads the centre's value, which counts the smoke
// between the centre and the point once too often. τ along a direction s is σρ times the
// distance to the face where the path leaves the box: moving by δ changes that distance by
// −δ_k / s_k, k the axis of that face. The clamped sample is corrected by that change with the
// local density (exact for uniform smoke; measured in the tests).
fn light_volume_at(uv: vec3<f32>, density: f32) -> vec3<f32> {
    let inside = clamp_uv(uv);
    let tau = textureSampleLevel(light_in, linear_clamp, inside, 0.0).rgb;
    let offset_m = (uv - inside) * smoke.grid.box_m;
    let sigma = smoke.optics.extinction * density;
    let s = smoke.light.towards_sun;
    let safe = select(s, vec3(1e-9), abs(s) < vec3(1e-9));
    let to_face = (select(vec3(0.0), vec3(1.0), s > vec3(0.0)) - inside) / safe;
    var k = 0;
    if to_face.y < to_face[k] { k = 1; }
    if to_face.z < to_face[k] { k = 2; }
    let along_sun = select(0.0, offset_m[k] / safe[k], abs(s[k]) > 1e-3);
    let correction = -sigma * vec3(along_sun, offset_m.y, -offset_m.y);
    return max(tau + correction, vec3(0.0));
}
// ANCHOR_END: light_lookup

fn fluid_view(pixel: vec2<u32>) -> vec3<f32> {
    let scene = textureLoad(scene_color, vec2<i32>(pixel), 0).rgb;
    let d = textureLoad(scene_distance, vec2<i32>(pixel), 0).r;
    let origin = frame.camera_pos.xyz;
    let dir = view_ray_dir(frame, vec2<f32>(pixel));
    // ANCHOR: march
    let hit = box_hit(origin, dir);
    let t_end = min(hit.y, d);
    if t_end <= hit.x {
        return scene;
    }
    let steps = max(smoke.display.march_steps, 1u);
    let ds = (t_end - hit.x) / f32(steps);
    let sun = smoke.light.sun_intensity * frame.sun_color.rgb * frame.sun_dir.w;
    // Light travels along −towards_sun and leaves towards the eye along −dir.
    let cos_theta = dot(smoke.light.towards_sun, dir);
    var transmittance = vec3(1.0);
    var light = vec3(0.0);
    for (var i = 0u; i < steps; i++) {
        let p = origin + dir * (hit.x + ds * (f32(i) + 0.5));
        let uv = (p - smoke.grid.box_min) / box_world_size();
        let fluid = textureSampleLevel(fluid_in, linear_clamp, uv, 0.0);
        let density = max(fluid.a, 0.0);
        if density < 1e-5 {
            continue;
        }
        let albedo = smoke_albedo(fluid, density);
        let temperature = smoke_temperature(uv);
        let tau = light_volume_at(uv, density);
        // Radiance per unit of extinction, and the energy-conserving step integral (Hillaire
        // 2015): what the step absorbs, (1 − e^(−σρ ds)), times it.
        let lit = albedo * (sun * sun_octaves(cos_theta, tau.r) + ambient_light(tau.g, tau.b)) + glow(temperature);
        let step_t = exp(-smoke_extinction(density) * ds);
        light += transmittance * (1.0 - step_t) * lit;
        transmittance *= step_t;
        if max(transmittance.r, max(transmittance.g, transmittance.b)) < 1e-3 {
            break;
        }
    }
    return scene * transmittance + light;
    // ANCHOR_END: march
}

// ANCHOR: smoke_view
var<workgroup> group_min: atomic<u32>;
var<workgroup> group_max: atomic<u32>;

@compute @workgroup_size(8, 8, 1)
fn smoke_view(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    if local == 0u {
        atomicStore(&group_min, 0xffffffffu);
        atomicStore(&group_max, 0u);
    }
    workgroupBarrier();
    let size = textureDimensions(view_out);
    let inside = id.x < size.x && id.y < size.y;
    let view = smoke.display.view;
    if inside {
        if view == VIEW_FLUID {
            textureStore(view_out, id.xy, vec4(fluid_view(id.xy), 1.0));
        } else {
            let v = field_view(view, id.xy, size);
            // Alpha 0 outside the panel: "no data" to the display pass.
            textureStore(view_out, id.xy, vec4(v.x, v.x, v.x, v.y));
            if v.y > 0.0 && v.x == v.x {
                atomicMin(&group_min, range_encode(v.x));
                atomicMax(&group_max, range_encode(v.x));
            }
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
// ANCHOR_END: smoke_view
