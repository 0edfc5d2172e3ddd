// Shared by every smoke pass: the parameter block, grid addressing, and the finite differences
// with the box's boundary conditions.
//
// Grid: n³ cells, cell-centred (collocated) velocity u (m/s), pressure q and divergence (1/s).
// q is the "pressure" of the projection, ∇²q = ∇·u, u ← u − ∇q (it absorbs dt/ρ: units m²/s).
// Boundary conditions at the six walls of the closed box:
//   velocity  free-slip: the normal component is mirrored in the ghost cell (u·n = 0 at the wall),
//             the tangential component is copied;
//   pressure  Neumann, ∂q/∂n = 0: the ghost cell copies the cell inside;
//   density   zero flux: samples are clamped to the box.

struct SmokeParams {
    grid: vec4<f32>,          // x: n; y: cell size h (m); z: box size (m); w: dt (s)
    keep: vec4<f32>,          // x: velocity kept per step 1/(1 + k_u dt); y: density kept 1/(1 + k_ρ dt);
                              // z: pressure-gradient multiplier; w: vorticity ε
    injection: vec4<f32>,     // xyz: emitter centre (box coordinates 0..1); w: radius (box units)
    injection_velocity: vec4<f32>, // xyz: velocity inside the emitter (m/s); w: density added per s
    injection_color: vec4<f32>,    // rgb: smoke colour; w: buoyancy (m/s² per unit density)
    box_min: vec4<f32>,       // xyz: world position of the box's corner (m); w: extinction per density (1/m)
    sun: vec4<f32>,           // xyz: unit vector towards the sun; w: sun intensity
    view: vec4<u32>,          // x: debug view; y: field display (0 slice, 1 max projection); z: slice axis; w: steps
    slice: vec4<f32>,         // x: slice position (0..1); y: shadow steps; z, w: unused
}

// Group 2 holds these for every smoke pass; group 3 the pass's own textures. The display pass
// also binds the core's scene inputs (group 0) and view output (group 1).
@group(2) @binding(0) var<uniform> smoke: SmokeParams;
@group(2) @binding(1) var linear_clamp: sampler;

fn grid_n() -> i32 {
    return i32(smoke.grid.x);
}

// Texture coordinate of a cell centre.
fn cell_uv(cell: vec3<i32>) -> vec3<f32> {
    return (vec3<f32>(cell) + vec3(0.5)) / smoke.grid.x;
}

// ANCHOR: clamp_uv
// Keeps sample positions within the outermost cell centres (zero-flux walls).
fn clamp_uv(uv: vec3<f32>) -> vec3<f32> {
    let half_texel = 0.5 / smoke.grid.x;
    return clamp(uv, vec3(half_texel), vec3(1.0 - half_texel));
}
// ANCHOR_END: clamp_uv

fn in_grid(cell: vec3<i32>) -> bool {
    return all(cell >= vec3(0)) && all(cell < vec3(grid_n()));
}

// ANCHOR: boundaries
// Velocity at `cell`, or its mirror image in the wall for a ghost cell just outside the box.
fn velocity_at(u: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    let n = grid_n();
    let inside = clamp(cell, vec3(0), vec3(n - 1));
    var v = textureLoad(u, inside, 0).xyz;
    // Mirror the normal component for each axis the ghost lies beyond.
    let outside = cell != inside;
    v = select(v, -v, outside);
    return v;
}

// Pressure at `cell`; a ghost cell copies its neighbour inside (∂q/∂n = 0).
fn pressure_at(q: texture_3d<f32>, cell: vec3<i32>) -> f32 {
    return textureLoad(q, clamp(cell, vec3(0), vec3(grid_n() - 1)), 0).r;
}
// ANCHOR_END: boundaries

// Central-difference gradient of q at a cell centre (m/s).
fn pressure_gradient_at(q: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    let dx = pressure_at(q, cell + vec3(1, 0, 0)) - pressure_at(q, cell - vec3(1, 0, 0));
    let dy = pressure_at(q, cell + vec3(0, 1, 0)) - pressure_at(q, cell - vec3(0, 1, 0));
    let dz = pressure_at(q, cell + vec3(0, 0, 1)) - pressure_at(q, cell - vec3(0, 0, 1));
    return vec3(dx, dy, dz) / (2.0 * smoke.grid.y);
}

// The same gradient at any point, from trilinear samples one cell apart (clamped: Neumann).
fn pressure_sampled(q: texture_3d<f32>, uv: vec3<f32>) -> f32 {
    return textureSampleLevel(q, linear_clamp, clamp_uv(uv), 0.0).r;
}

fn pressure_gradient_sampled(q: texture_3d<f32>, uv: vec3<f32>) -> vec3<f32> {
    let e = 1.0 / smoke.grid.x;
    let dx = pressure_sampled(q, uv + vec3(e, 0.0, 0.0)) - pressure_sampled(q, uv - vec3(e, 0.0, 0.0));
    let dy = pressure_sampled(q, uv + vec3(0.0, e, 0.0)) - pressure_sampled(q, uv - vec3(0.0, e, 0.0));
    let dz = pressure_sampled(q, uv + vec3(0.0, 0.0, e)) - pressure_sampled(q, uv - vec3(0.0, 0.0, e));
    return vec3(dx, dy, dz) / (2.0 * smoke.grid.y);
}

// ANCHOR: divergence
// Central-difference divergence at a cell (1/s), with free-slip ghost cells.
fn divergence_at(u: texture_3d<f32>, cell: vec3<i32>) -> f32 {
    let dx = velocity_at(u, cell + vec3(1, 0, 0)).x - velocity_at(u, cell - vec3(1, 0, 0)).x;
    let dy = velocity_at(u, cell + vec3(0, 1, 0)).y - velocity_at(u, cell - vec3(0, 1, 0)).y;
    let dz = velocity_at(u, cell + vec3(0, 0, 1)).z - velocity_at(u, cell - vec3(0, 0, 1)).z;
    return (dx + dy + dz) / (2.0 * smoke.grid.y);
}
// ANCHOR_END: divergence

// Central-difference curl ω = ∇ × u at a cell (1/s).
fn curl_at(u: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    let px = velocity_at(u, cell + vec3(1, 0, 0));
    let nx = velocity_at(u, cell - vec3(1, 0, 0));
    let py = velocity_at(u, cell + vec3(0, 1, 0));
    let ny = velocity_at(u, cell - vec3(0, 1, 0));
    let pz = velocity_at(u, cell + vec3(0, 0, 1));
    let nz = velocity_at(u, cell - vec3(0, 0, 1));
    let inv = 1.0 / (2.0 * smoke.grid.y);
    return vec3(
        (py.z - ny.z) - (pz.y - nz.y),
        (pz.x - nz.x) - (px.z - nx.z),
        (px.y - nx.y) - (py.x - ny.x),
    ) * inv;
}
