// Shared by every smoke pass: the parameter block, grid addressing, and the finite differences
// with the box's boundary conditions.
//
// Grid: n³ cells of size h. The velocity is staggered — a marker-and-cell (MAC) grid (Harlow and
// Welch 1965; Bridson 2015, "Fluid Simulation for Computer Graphics", 2nd ed., ch. 2): channel x of
// texel (i, j, k) holds u_x on the cell's low x-face, at (i, j + ½, k + ½) h, and y and z likewise.
// The high face of the last cell, i = n, is not stored: it is the wall. Pressure q, divergence,
// smoke and temperature live at the cell centres. The velocity texture's fourth channel holds the
// temperature as T − T_amb (K), cell-centred: it is advected like the density (Fedkiw, Stam and
// Jensen 2001) and costs no extra texture or bandwidth.
// q is the "pressure" of the projection, ∇²q = ∇·u, u ← u − ∇q (it absorbs dt/ρ: units m²/s). The
// divergence of a cell is the difference of its own faces, the gradient on a face the difference of
// its two cells: composed, they are exactly the compact 7-point Laplacian the solvers invert.
// Boundary conditions at the six walls of the closed box:
//   velocity  the faces on the walls (index 0 and n along their axis) hold u·n = 0 (free slip:
//             the tangential components are left alone);
//   pressure  Neumann, ∂q/∂n = 0: the ghost cell copies the cell inside;
//   density   zero flux: samples are clamped to the box.
// With `top_boundary` open, the top face (y = 1) is an outflow instead:
//   velocity  zero gradient: the top face's u_y copies the face below it (before projection);
//   pressure  Dirichlet, q = 0 on the face: the ghost cell holds −q of the cell inside;
//   density   zero gradient: samples are clamped to the top row, which the flow carries out.

// #import 07-smoke/params.wgsl

// Group 2 holds these for every smoke pass; group 3 the pass's own textures. The display pass
// also binds the core's scene inputs (group 0) and view output (group 1).
@group(2) @binding(0) var<uniform> smoke: SmokeParams;
@group(2) @binding(1) var linear_clamp: sampler;
// The solid mask of this step (obstacles.wgsl): 0 fluid, 1 the sphere, 2 the box.
@group(2) @binding(2) var solid_mask: texture_3d<f32>;

fn grid_n() -> i32 {
    return i32(smoke.grid.n);
}

// Texture coordinate of a cell centre.
fn cell_uv(cell: vec3<i32>) -> vec3<f32> {
    return (vec3<f32>(cell) + vec3(0.5)) / smoke.grid.n;
}

// ANCHOR: clamp_uv
// Keeps sample positions within the outermost cell centres (zero-flux walls).
fn clamp_uv(uv: vec3<f32>) -> vec3<f32> {
    let half_texel = 0.5 / smoke.grid.n;
    return clamp(uv, vec3(half_texel), vec3(1.0 - half_texel));
}
// ANCHOR_END: clamp_uv

fn in_grid(cell: vec3<i32>) -> bool {
    return all(cell >= vec3(0)) && all(cell < vec3(grid_n()));
}

// ANCHOR: emitted_face
// The low c-face velocity `u_c` after the emitter: pulled towards the injection velocity (with its
// noise) by the emitter's weight at the face.
fn emitted_face(cell: vec3<i32>, c: u32, u_c: f32) -> f32 {
    let p = face_uv(cell, c);
    let wf = emitter_weight(p);
    if wf <= 0.0 {
        return u_c;
    }
    var inject = smoke.emitter.velocity[c];
    if smoke.emitter.turbulence > 0.0 {
        // Velocity ± turbulence × the emitter's speed (at least 1 m/s).
        let speed = max(length(smoke.emitter.velocity), 1.0);
        inject += smoke.emitter.turbulence * speed * emitter_noise(emitter_radii(p))[c];
    }
    return mix(u_c, inject, wf);
}
// ANCHOR_END: emitted_face

// What a step adds at `cell` to the advected face velocities u (u.x on the cell's low x-face, …),
// the cell's temperature t (T − T_amb, K) and fluid. `lift` is the advected (density, temperature)
// on the cell's low y-face, where buoyancy acts.
fn add_sources(cell: vec3<i32>, u: ptr<function, vec3<f32>>, t: ptr<function, f32>, fluid: ptr<function, vec4<f32>>, lift: vec2<f32>) {
    let dt = smoke.grid.dt_s;
    // Dissipation as x / (1 + k dt): unconditionally stable, and exact to test against.
    *u *= smoke.solver.velocity_keep;
    *fluid *= smoke.solver.density_keep;
    // Newtonian cooling: T − T_amb shrinks by exp(−k dt), the exact step of dT/dt = −k (T − T_amb).
    *t *= smoke.solver.temperature_keep;
    // ANCHOR: buoyancy
    // Buoyancy (Fedkiw, Stam and Jensen 2001): f = (−α s + β (T − T_amb)) ŷ, with −α = `buoyancy`
    // (positive: light smoke rises on its own) and β = `heat_lift`, on the y-face from the density
    // and temperature there (damped and cooled like the cells'). The density term keeps the
    // arithmetic of the density-only model, dt · b · s, then + dt · β · θ.
    let s = lift.x * smoke.solver.density_keep;
    let theta = lift.y * smoke.solver.temperature_keep;
    (*u).y += dt * smoke.forces.buoyancy * s + dt * smoke.forces.heat_lift * theta;
    // ANCHOR_END: buoyancy
    *u = limit_speed(*u);

    // Emitter: a sphere with a smooth edge; inside, the face velocities are set and density added.
    // The weight is taken where each value lives: at the cell centre for the smoke and the
    // temperature, at each face for its velocity component.
    // ANCHOR: emitter_density
    let uv = cell_uv(cell);
    let w = emitter_weight(uv);
    if w > 0.0 {
        var added = dt * smoke.emitter.rate * w;
        if smoke.emitter.turbulence > 0.0 {
            // Seeded noise, smooth in space and time: density × (1 ± turbulence).
            added *= max(1.0 + smoke.emitter.turbulence * emitter_noise(emitter_radii(uv)).w, 0.0);
        }
        *t = mix(*t, smoke.emitter.excess_k, w); // the emitter holds its temperature
        *fluid += vec4(smoke.emitter.color * added, added);
    }
    // ANCHOR_END: emitter_density
    *u = vec3(emitted_face(cell, 0u, (*u).x), emitted_face(cell, 1u, (*u).y), emitted_face(cell, 2u, (*u).z));
    // The low wall faces stay closed.
    *u = select(*u, vec3(0.0), cell == vec3(0));
    apply_solids(cell, u, t, fluid);
}

// Which obstacle covers point p (box units): 0 none, 1 the sphere, 2 the box.
fn obstacle_id(p: vec3<f32>) -> u32 {
    var id = 0u;
    if smoke.sphere.enabled == 1u && length(p - smoke.sphere.centre) < smoke.sphere.radius {
        id = 1u;
    }
    if smoke.cuboid.enabled == 1u && all(abs(p - smoke.cuboid.centre) < smoke.cuboid.half) {
        id = 2u;
    }
    return id;
}

// ANCHOR: solids
// Whether this pipeline handles obstacles at all. Every pass is compiled both ways and the variant
// without runs while no obstacle is enabled (passes.rs): the obstacle code is then removed by the
// compiler, not skipped at run time. A branch that no thread takes costs nothing on a GPU, but a
// software driver (lavapipe) runs its texture loads with every lane masked off: the Jacobi sweep
// there took 3.7 times as long with the checks as without.
override OBSTACLES: bool = true;

// The obstacle covering `cell` (0: fluid; cells outside the box are not solid). With no obstacle
// enabled the mask is all 0 and is not read: the passes that test every neighbour's faces (the
// curl, the sweeps) then cost what they cost before obstacles existed.
fn solid_at(cell: vec3<i32>) -> u32 {
    if !OBSTACLES || (smoke.sphere.enabled | smoke.cuboid.enabled) == 0u || !in_grid(cell) {
        return 0u;
    }
    return u32(textureLoad(solid_mask, cell, 0).r + 0.5);
}

fn obstacle_velocity(id: u32) -> vec3<f32> {
    return select(smoke.cuboid.velocity, smoke.sphere.velocity, id == 1u);
}

// The obstacle the low c-face of `cell` touches (0: none): a face between a solid cell and any
// other moves with the solid, so nothing flows through it.
fn face_solid(cell: vec3<i32>, c: u32) -> u32 {
    return max(solid_at(cell), solid_at(cell - axis(c)));
}

// Inside an obstacle there is no smoke and no heat, and the faces it touches move with it.
fn apply_solids(cell: vec3<i32>, u: ptr<function, vec3<f32>>, t: ptr<function, f32>, fluid: ptr<function, vec4<f32>>) {
    if solid_at(cell) != 0u {
        *t = 0.0;
        *fluid = vec4(0.0);
    }
    for (var c = 0u; c < 3u; c++) {
        let id = face_solid(cell, c);
        if id != 0u && cell[c] > 0 {
            (*u)[c] = obstacle_velocity(id)[c];
        }
    }
}
// ANCHOR_END: solids

// The emitter's position of point p in emitter radii, and its smooth weight there: 1 in the inner
// half, falling to 0 at the radius.
fn emitter_radii(p: vec3<f32>) -> vec3<f32> {
    return (p - smoke.emitter.centre) / max(smoke.emitter.radius, 1e-6);
}

fn emitter_weight(p: vec3<f32>) -> f32 {
    return 1.0 - smoothstep(0.5, 1.0, length(emitter_radii(p)));
}

// Half precision ends at 65504: a speed that grows past it would become infinite and then NaN.
// No setting of the table needs more than a few hundred m/s; the limit keeps extreme ones finite.
// On the MAC grid each face holds one component, so the limit applies per face.
const MAX_SPEED: f32 = 4096.0;

fn limit_speed(u: vec3<f32>) -> vec3<f32> {
    return clamp(u, vec3(-MAX_SPEED), vec3(MAX_SPEED));
}

// ANCHOR: noise
// An integer hash (the PCG output permutation; Jarzynski and Olano 2020, "Hash Functions for GPU
// Rendering", JCGT 9(3)).
fn pcg(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Four values in −1..1 at an integer lattice point and lattice time.
fn lattice_noise(p: vec3<i32>, t: u32) -> vec4<f32> {
    let seed = smoke.emitter.turbulence_seed;
    var h = pcg(seed ^ pcg(t ^ pcg(bitcast<u32>(p.x) ^ pcg(bitcast<u32>(p.y) ^ pcg(bitcast<u32>(p.z))))));
    var out = vec4(0.0);
    for (var k = 0; k < 4; k++) {
        h = pcg(h);
        out[k] = f32(h >> 8u) / 8388607.5 - 1.0;
    }
    return out;
}

// Value noise over the emitter (p in emitter radii; lattice points half a radius apart),
// smoothstep-interpolated in space and linear in time between lattice times 8 steps apart.
fn emitter_noise(p_radii: vec3<f32>) -> vec4<f32> {
    let p = p_radii * 2.0;
    let base = vec3<i32>(floor(p));
    let f = p - floor(p);
    let s = f * f * (3.0 - 2.0 * f);
    let period = 8u;
    let t0 = smoke.grid.step_index / period;
    let ft = f32(smoke.grid.step_index % period) / f32(period);
    var result = vec4(0.0);
    for (var c = 0; c < 8; c++) {
        let o = vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1);
        let wv = select(1.0 - s, s, o == vec3(1));
        let v = mix(lattice_noise(base + o, t0), lattice_noise(base + o, t0 + 1u), ft);
        result += wv.x * wv.y * wv.z * v;
    }
    return result;
}
// ANCHOR_END: noise

// The unit vector along axis c (0 x, 1 y, 2 z).
fn axis(c: u32) -> vec3<i32> {
    return vec3(i32(c == 0u), i32(c == 1u), i32(c == 2u));
}

// Workgroup tiles (curl.wgsl, vorticity.wgsl): the i-th cell of a box of `size` cells, x fastest,
// and the index of a cell of the box.
fn tile_local(i: u32, size: vec3<i32>) -> vec3<i32> {
    return vec3(i32(i) % size.x, (i32(i) / size.x) % size.y, i32(i) / (size.x * size.y));
}

fn tile_index(local: vec3<i32>, size: vec3<i32>) -> i32 {
    return local.x + size.x * (local.y + size.y * local.z);
}

// Texture coordinate of the low face of `cell` normal to axis c: half a cell below the centre.
fn face_uv(cell: vec3<i32>, c: u32) -> vec3<f32> {
    var p = cell_uv(cell);
    p[c] -= 0.5 / smoke.grid.n;
    return p;
}

// Whether the top face is open (an outflow).
fn top_open() -> bool {
    return smoke.solver.top_boundary == 1u;
}

// ANCHOR: wall_faces
// u_c on the low c-face of `cell`, whose c index may be 0..n (the other two inside the box).
// Faces 0 and n along c are walls and hold 0; the top face under an open top copies the face
// below it (zero gradient).
fn face_at(u: texture_3d<f32>, cell: vec3<i32>, c: u32) -> f32 {
    let n = grid_n();
    if cell[c] <= 0 {
        return 0.0;
    }
    if cell[c] >= n {
        if c == 1u && top_open() {
            return textureLoad(u, vec3(cell.x, n - 1, cell.z), 0).y;
        }
        return 0.0;
    }
    let id = face_solid(cell, c);
    if id != 0u {
        return obstacle_velocity(id)[c];
    }
    return textureLoad(u, cell, 0)[c];
}
// ANCHOR_END: wall_faces

// The velocity at the centre of `cell` (inside the box): the mean of its two faces on each axis.
fn centre_velocity(u: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    return 0.5 * vec3(
        face_at(u, cell, 0u) + face_at(u, cell + axis(0u), 0u),
        face_at(u, cell, 1u) + face_at(u, cell + axis(1u), 1u),
        face_at(u, cell, 2u) + face_at(u, cell + axis(2u), 2u),
    );
}

// ANCHOR: ghost_cells
// Cell-centred velocity at `cell`, or its mirror image in the wall for a ghost cell just outside
// the box (for the curl's central differences).
fn velocity_at(u: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    let n = grid_n();
    let inside = clamp(cell, vec3(0), vec3(n - 1));
    var v = centre_velocity(u, inside);
    // Mirror the normal component for each axis the ghost lies beyond (not through an open top).
    var outside = cell != inside;
    outside.y = outside.y && !open_above(cell);
    v = select(v, -v, outside);
    return v;
}

// Whether `cell` lies above an open top face.
fn open_above(cell: vec3<i32>) -> bool {
    return smoke.solver.top_boundary == 1u && cell.y >= grid_n();
}

// Pressure at `cell`; a ghost cell copies its neighbour inside (∂q/∂n = 0), except above an
// open top, where it holds the opposite (q = 0 on the face between them).
fn pressure_at(q: texture_3d<f32>, cell: vec3<i32>) -> f32 {
    let inside = textureLoad(q, clamp(cell, vec3(0), vec3(grid_n() - 1)), 0).r;
    return select(inside, -inside, open_above(cell));
}
// ANCHOR_END: ghost_cells

// ANCHOR: face_gradient
// The pressure gradient on the low c-face of `cell` (m/s): the difference of the two cells the
// face separates. On a wall face the ghost copies the cell (0); on the open top it is −2q/h.
fn face_gradient(q: texture_3d<f32>, cell: vec3<i32>, c: u32) -> f32 {
    return (pressure_at(q, cell) - pressure_at(q, cell - axis(c))) / smoke.grid.cell_m;
}

// u − ∇q on the low c-face of `cell` (c index 0..n): what the projection leaves there.
fn projected_face(u: texture_3d<f32>, q: texture_3d<f32>, cell: vec3<i32>, c: u32) -> f32 {
    let n = grid_n();
    let wall = cell[c] <= 0 || (cell[c] >= n && !(c == 1u && top_open()));
    if wall {
        return 0.0;
    }
    let id = face_solid(cell, c);
    if id != 0u {
        return obstacle_velocity(id)[c]; // the projection leaves solid faces alone
    }
    return face_at(u, cell, c) - smoke.solver.pressure_gradient_scale * face_gradient(q, cell, c);
}
// ANCHOR_END: face_gradient

// The gradient on the cell's three low faces.
fn pressure_gradient_at(q: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    return vec3(face_gradient(q, cell, 0u), face_gradient(q, cell, 1u), face_gradient(q, cell, 2u));
}

// Trilinear sample of the cell-centred q at any point (clamped: Neumann). Above the top row's
// centres under an open top, the value falls linearly from q to the ghost's −q, as a trilinear
// sample of the field with its ghost layer would.
fn pressure_sampled(q: texture_3d<f32>, uv: vec3<f32>) -> f32 {
    let inside = textureSampleLevel(q, linear_clamp, clamp_uv(uv), 0.0).r;
    if smoke.solver.top_boundary != 1u {
        return inside;
    }
    let beyond = clamp((uv.y - (1.0 - 0.5 / smoke.grid.n)) * smoke.grid.n, 0.0, 1.0);
    return inside * (1.0 - 2.0 * beyond);
}

// ANCHOR: sampling
// u_c at any point p (box units), interpolated trilinearly from the c-faces, whose lattice sits
// half a cell lower along c than the cell centres: one texture sample, offset by half a texel.
// Below face 0 the clamp reads the wall's 0; past the last stored face (n − 1) the value falls
// linearly to the wall's 0 at face n, or, under an open top, stays (zero gradient).
fn face_sampled(u: texture_3d<f32>, p: vec3<f32>, c: u32) -> f32 {
    var offset = vec3(0.0);
    offset[c] = 0.5 / smoke.grid.n;
    let v = textureSampleLevel(u, linear_clamp, clamp_uv(p + offset), 0.0)[c];
    if c == 1u && top_open() {
        return v;
    }
    let beyond = clamp((p[c] - (1.0 - 1.0 / smoke.grid.n)) * smoke.grid.n, 0.0, 1.0);
    return v * (1.0 - beyond);
}

// The face gradient of q along c, interpolated like the c-faces: the difference of two pressure
// samples half a cell either side of p. Both are linear in q and share their weights across, so
// this is exactly the trilinear interpolation of the face gradients (on a face: its gradient).
fn face_gradient_sampled(q: texture_3d<f32>, p: vec3<f32>, c: u32) -> f32 {
    var e = vec3(0.0);
    e[c] = 0.5 / smoke.grid.n;
    return (pressure_sampled(q, p + e) - pressure_sampled(q, p - e)) / smoke.grid.cell_m;
}

// The velocity at any point: three samples, one per component.
fn velocity_sampled(u: texture_3d<f32>, p: vec3<f32>) -> vec3<f32> {
    return vec3(face_sampled(u, p, 0u), face_sampled(u, p, 1u), face_sampled(u, p, 2u));
}

// The projected velocity u − ∇q at any point: per component a face sample and two pressure samples.
fn projected_velocity_sampled(u: texture_3d<f32>, q: texture_3d<f32>, p: vec3<f32>) -> vec3<f32> {
    let g = smoke.solver.pressure_gradient_scale;
    var v = velocity_sampled(u, p);
    for (var c = 0u; c < 3u; c++) {
        v[c] -= g * face_gradient_sampled(q, p, c);
    }
    return v;
}
// ANCHOR_END: sampling

// Keeps a traced point inside the box (the faces reach its walls; cell centres stop half a cell short).
fn clamp_box(p: vec3<f32>) -> vec3<f32> {
    return clamp(p, vec3(0.0), vec3(1.0));
}

// ANCHOR: divergence
// Divergence of a cell (1/s): the flux out through its six faces, (Σ_c u_c(high) − u_c(low)) / h.
fn divergence_at(u: texture_3d<f32>, cell: vec3<i32>) -> f32 {
    var sum = 0.0;
    for (var c = 0u; c < 3u; c++) {
        sum += face_at(u, cell + axis(c), c) - face_at(u, cell, c);
    }
    return sum / smoke.grid.cell_m;
}
// ANCHOR_END: divergence

// Central-difference curl ω = ∇ × u at a cell centre (1/s), from the face-averaged velocities of
// the cell's neighbours (mirrored beyond the walls).
fn curl_at(u: texture_3d<f32>, cell: vec3<i32>) -> vec3<f32> {
    let px = velocity_at(u, cell + vec3(1, 0, 0));
    let nx = velocity_at(u, cell - vec3(1, 0, 0));
    let py = velocity_at(u, cell + vec3(0, 1, 0));
    let ny = velocity_at(u, cell - vec3(0, 1, 0));
    let pz = velocity_at(u, cell + vec3(0, 0, 1));
    let nz = velocity_at(u, cell - vec3(0, 0, 1));
    let inv = 1.0 / (2.0 * smoke.grid.cell_m);
    return vec3(
        (py.z - ny.z) - (pz.y - nz.y),
        (pz.x - nz.x) - (px.z - nx.z),
        (px.y - nx.y) - (py.x - ny.x),
    ) * inv;
}
