// 2D smoke, step 2 — what acts on the advected fluid: dissipation, buoyancy (Fedkiw, Stam and
// Jensen 2001, "Visual Simulation of Smoke": f = (−α ρ + β (T − T_amb)) ŷ), vorticity
// confinement (ibid.: N = ∇|ω| / |∇|ω||, f = ε h (N × ω ẑ)), Newtonian cooling, and the emitter,
// a disc that sets velocity and temperature and adds dye, with seeded noise. Each force is
// evaluated where its component lives: buoyancy on the y-faces from the two cells they separate,
// confinement at cell centres from the curl at the corners, averaged onto the faces. Under an
// open top the top edge's faces take the value of the faces below (a zero-gradient outflow).
// Inputs: velocity (T in .z), dye after advection. Outputs: velocity, dye.
// #import 07-smoke-2d/common.wgsl

@group(3) @binding(0) var velocity_in: texture_2d<f32>;
@group(3) @binding(1) var dye_in: texture_2d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_2d<rgba16float, write>;
@group(3) @binding(3) var dye_out: texture_storage_2d<rgba16float, write>;

// ANCHOR: confinement
// The confinement force at the centre of cell c (m/s²). |ω| at the four corners gives ∇|ω|
// there; N is its direction (softened where |ω| is flat, so that rounding cannot pick one), and
// N × ω ẑ = ω (N_y, −N_x) pushes towards the vortex's core, spinning it up.
fn confinement_at(c: vec2<i32>) -> vec2<f32> {
    let w00 = curl_at_node(velocity_in, c.x, c.y);
    let w10 = curl_at_node(velocity_in, c.x + 1, c.y);
    let w01 = curl_at_node(velocity_in, c.x, c.y + 1);
    let w11 = curl_at_node(velocity_in, c.x + 1, c.y + 1);
    let h = smoke.cell_m;
    let grad = vec2(abs(w10) + abs(w11) - abs(w00) - abs(w01), abs(w01) + abs(w11) - abs(w00) - abs(w10)) / (2.0 * h);
    let n = grad / (length(grad) + CONFINEMENT_SOFTENING / h);
    let omega = 0.25 * (w00 + w10 + w01 + w11);
    return smoke.vorticity * h * omega * vec2(n.y, -n.x);
}
// ANCHOR_END: confinement

// |∇|ω|| below about this / h (1/(m s)) counts as flat.
const CONFINEMENT_SOFTENING: f32 = 1e-3;

// ANCHOR: emitter
// The emitter's weight at p (cell units): 1 inside half its radius, smoothly 0 at the radius.
fn emitter_weight(p: vec2<f32>) -> f32 {
    let to_centre = (p / smoke.grid_n - smoke.emitter_centre) / max(smoke.emitter_radius, 1e-6);
    return 1.0 - smoothstep(0.5, 1.0, length(to_centre));
}

// The velocity the emitter sets at p (asked for only inside it, where w > 0): its velocity plus,
// with turbulence, seeded noise as large as turbulence × its speed (at least 1 m/s); .z is the
// density factor 1 ± turbulence.
fn emitter_velocity(p: vec2<f32>) -> vec3<f32> {
    if smoke.turbulence <= 0.0 {
        return vec3(smoke.emitter_velocity, 1.0);
    }
    let to_centre = (p / smoke.grid_n - smoke.emitter_centre) / max(smoke.emitter_radius, 1e-6);
    let noise = emitter_noise(to_centre);
    let speed = max(length(smoke.emitter_velocity), 1.0);
    return vec3(smoke.emitter_velocity + smoke.turbulence * speed * noise.xy, max(1.0 + smoke.turbulence * noise.z, 0.0));
}
// ANCHOR_END: emitter

// The PCG hash's output permutation (Jarzynski and Olano 2020, "Hash Functions for GPU
// Rendering"), as in the 3D chapter.
fn pcg(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Three values in −1..1 at an integer lattice point and lattice time.
fn lattice_noise(p: vec2<i32>, t: u32) -> vec3<f32> {
    var h = pcg(smoke.turbulence_seed ^ pcg(t ^ pcg(bitcast<u32>(p.x) ^ pcg(bitcast<u32>(p.y)))));
    var out = vec3(0.0);
    for (var k = 0; k < 3; k++) {
        h = pcg(h);
        out[k] = f32(h >> 8u) / 8388607.5 - 1.0;
    }
    return out;
}

// Value noise over the emitter (p in emitter radii, lattice points half a radius apart),
// smoothstep-interpolated in space and linear in time between lattice times 8 steps apart.
fn emitter_noise(p_radii: vec2<f32>) -> vec3<f32> {
    let p = p_radii * 2.0;
    let base = vec2<i32>(floor(p));
    let f = p - floor(p);
    let s = f * f * (3.0 - 2.0 * f);
    let t0 = smoke.step_index / 8u;
    let ft = f32(smoke.step_index % 8u) / 8.0;
    var result = vec3(0.0);
    for (var c = 0; c < 4; c++) {
        let o = vec2(c & 1, (c >> 1u) & 1);
        let w = select(1.0 - s, s, o == vec2(1));
        result += w.x * w.y * mix(lattice_noise(base + o, t0), lattice_noise(base + o, t0 + 1u), ft);
    }
    return result;
}

// ANCHOR: faces
// The new u on x-face t (free faces only).
fn new_u(t: vec2<i32>) -> f32 {
    let force = 0.5 * (confinement_at(t - vec2(1, 0)).x + confinement_at(t).x);
    var u = textureLoad(velocity_in, t, 0).x * smoke.velocity_keep + smoke.dt_s * force;
    let p = u_position(t);
    let w = emitter_weight(p);
    if w > 0.0 {
        u = mix(u, emitter_velocity(p).x, w);
    }
    return clamp(u, -MAX_SPEED, MAX_SPEED);
}

// The new v on an interior y-face t: buoyancy from the density and temperature of the two
// cells it separates.
fn new_v(t: vec2<i32>) -> f32 {
    let below = t - vec2(0, 1);
    let density = 0.5 * (textureLoad(dye_in, below, 0).a + textureLoad(dye_in, t, 0).a);
    let excess = 0.5 * (textureLoad(velocity_in, below, 0).z + textureLoad(velocity_in, t, 0).z);
    let lift = smoke.buoyancy * density + smoke.heat_lift * excess;
    let force = lift + 0.5 * (confinement_at(below).y + confinement_at(t).y);
    var v = textureLoad(velocity_in, t, 0).y * smoke.velocity_keep + smoke.dt_s * force;
    let p = v_position(t);
    let w = emitter_weight(p);
    if w > 0.0 {
        v = mix(v, emitter_velocity(p).y, w);
    }
    return clamp(v, -MAX_SPEED, MAX_SPEED);
}
// ANCHOR_END: faces

// ANCHOR: forces
@compute @workgroup_size(8, 8, 1)
fn forces(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = vec2<i32>(id.xy);
    if !in_velocity_texels(t) {
        return;
    }
    var out = vec4(0.0);
    if u_is_free(t) {
        out.x = new_u(t);
    }
    if v_is_free(t) {
        // The open top's faces copy the face below (zero gradient); the projection corrects them.
        out.y = new_v(select(t, t - vec2(0, 1), t.y == grid_n()));
    }
    if in_cells(t) {
        let p = centre_position(t);
        let w = emitter_weight(p);
        // Newtonian cooling, exact over the step; the emitter holds its temperature.
        out.z = mix(textureLoad(velocity_in, t, 0).z * smoke.temperature_keep, smoke.emitter_excess_k, w);
        var dye = textureLoad(dye_in, t, 0) * smoke.density_keep;
        if w > 0.0 {
            let added = smoke.dt_s * smoke.emitter_rate * w * emitter_velocity(p).z;
            dye += added * vec4(smoke.emitter_color, 1.0);
        }
        textureStore(dye_out, t, dye);
    }
    textureStore(velocity_out, t, out);
}
// ANCHOR_END: forces
