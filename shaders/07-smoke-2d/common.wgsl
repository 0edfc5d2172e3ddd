// Shared by every pass of the 2D smoke: the parameter block, the staggered (MAC) grid and its
// boundary rules, bilinear sampling of each velocity component where it lives, the compact
// divergence and gradient, and the scalar curl.
//
// Grid (Harlow and Welch 1965): n × n square cells of side h. Positions are in cell units, x to
// the right, y up; cell (i, j) spans [i, i+1] × [j, j+1] and its centre is (i + ½, j + ½).
//   velocity texture, n × (n + 1) texels, rgba16float:
//     .x  u, the x-component on the cell's low x-face, at (i, j + ½)
//     .y  v, the y-component on the cell's low y-face, at (i + ½, j)
//     .z  T − T_amb (K) at the cell centre (rows j < n)
//   Row j = n holds only v on the top edge's faces (0 unless the top is open). The high x wall's
//   faces (i = n) are not stored: they are 0.
//   dye (rgba16float: colour × density, density), pressure q and divergence (r32float): n × n,
//   at cell centres.
// Boundaries: closed walls are free-slip — the normal component is 0 on the wall faces, the
// tangential one has zero gradient across the wall (a ghost copies the value inside); pressure
// is Neumann (a ghost copies the cell inside); dye and temperature have zero flux (samples are
// clamped to the outermost centres). An open top (`top_boundary` = 1) is an outflow: q = 0 on
// the edge (the ghost above the top row holds −q), and the top faces' v is a real unknown that
// the forces pass sets to the face below (zero gradient) and the projection corrects.
// q is the "pressure" of the projection: ∇²q = ∇·u, u ← u − ∇q (it absorbs dt/ρ: m²/s).

// ANCHOR: uniform
struct Smoke2dParams {
    grid_n: f32,             // cells per side n
    cell_m: f32,             // cell size h (m)
    domain_m: f32,           // side of the domain (m)
    dt_s: f32,               // time step (s)
    velocity_keep: f32,      // velocity kept per step, 1 / (1 + k_u dt)
    density_keep: f32,       // dye kept per step, 1 / (1 + k_ρ dt)
    temperature_keep: f32,   // T − T_amb kept per step, exp(−k_T dt)
    vorticity: f32,          // confinement ε
    emitter_centre: vec2<f32>,   // domain fractions
    emitter_radius: f32,         // domain fraction
    emitter_rate: f32,           // density added per second
    emitter_velocity: vec2<f32>, // m/s
    buoyancy: f32,               // −α, m/s² per unit density
    heat_lift: f32,              // β, m/s² per K
    emitter_color: vec3<f32>,
    emitter_excess_k: f32,       // the emitter's T − T_amb (K)
    ambient_k: f32,              // T_amb (K)
    turbulence: f32,             // emitter noise, 0..1
    turbulence_seed: u32,
    step_index: u32,             // steps taken: the noise's clock
    view: u32,                   // the display view
    advection: u32,              // 0 semi-Lagrangian, 1 MacCormack
    top_boundary: u32,           // 0 closed, 1 open
    sor_omega: f32,              // red–black Gauss–Seidel over-relaxation ω
}
// ANCHOR_END: uniform

@group(2) @binding(0) var<uniform> smoke: Smoke2dParams;

// Half precision ends at 65504: a velocity component that grew past it would become infinite,
// then NaN. No setting needs more than a few hundred m/s; the passes that change the velocity
// by more than advection can (forces, projection) clamp to this.
const MAX_SPEED: f32 = 4096.0;

fn grid_n() -> i32 {
    return i32(smoke.grid_n);
}

fn open_top() -> bool {
    return smoke.top_boundary == 1u;
}

// ANCHOR: faces
// u on the low x-face of cell (i, j). The faces on the left and right walls are 0; beyond the
// bottom and top rows the value is copied (free slip: the tangential component has zero gradient).
fn u_at(vel: texture_2d<f32>, i: i32, j: i32) -> f32 {
    let n = grid_n();
    if i <= 0 || i >= n {
        return 0.0;
    }
    return textureLoad(vel, vec2(i, clamp(j, 0, n - 1)), 0).x;
}

// v on the low y-face of cell (i, j). The bottom wall's faces are 0, and the top edge's too
// unless it is open (then row n holds them); beyond the side walls the value is copied.
fn v_at(vel: texture_2d<f32>, i: i32, j: i32) -> f32 {
    let n = grid_n();
    if j <= 0 || (j >= n && !open_top()) {
        return 0.0;
    }
    return textureLoad(vel, vec2(clamp(i, 0, n - 1), min(j, n)), 0).y;
}

// A cell-centred value (any texture; `.x` of r32float, every channel of rgba), clamped to the
// grid: zero flux through the walls.
fn centre_at(field: texture_2d<f32>, i: i32, j: i32) -> vec4<f32> {
    let n = grid_n();
    return textureLoad(field, clamp(vec2(i, j), vec2(0), vec2(n - 1)), 0);
}
// ANCHOR_END: faces

// Bilinear weights and the lower corner of a point given in a component's own index space
// (where its samples sit at integer coordinates).
struct Lerp {
    base: vec2<i32>,
    f: vec2<f32>,
}

fn lerp_at(x: vec2<f32>) -> Lerp {
    let b = floor(x);
    return Lerp(vec2<i32>(b), x - b);
}

fn bilerp(a: f32, b: f32, c: f32, d: f32, f: vec2<f32>) -> f32 {
    // a (0,0), b (1,0), c (0,1), d (1,1)
    return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

// The domain, in cell units, that sample points are kept in.
fn clamp_to_domain(p: vec2<f32>) -> vec2<f32> {
    return clamp(p, vec2(0.0), vec2(smoke.grid_n));
}

// ANCHOR: sampling
// u at any point p (cell units). u sits at (i, j + ½): its index space is p − (0, ½).
fn sample_u(vel: texture_2d<f32>, p: vec2<f32>) -> f32 {
    let l = lerp_at(clamp_to_domain(p) - vec2(0.0, 0.5));
    let b = l.base;
    return bilerp(u_at(vel, b.x, b.y), u_at(vel, b.x + 1, b.y), u_at(vel, b.x, b.y + 1), u_at(vel, b.x + 1, b.y + 1), l.f);
}

// v at any point p. v sits at (i + ½, j): its index space is p − (½, 0).
fn sample_v(vel: texture_2d<f32>, p: vec2<f32>) -> f32 {
    let l = lerp_at(clamp_to_domain(p) - vec2(0.5, 0.0));
    let b = l.base;
    return bilerp(v_at(vel, b.x, b.y), v_at(vel, b.x + 1, b.y), v_at(vel, b.x, b.y + 1), v_at(vel, b.x + 1, b.y + 1), l.f);
}

// The velocity (m/s) at any point p (cell units): each component from its own faces.
fn velocity_at_point(vel: texture_2d<f32>, p: vec2<f32>) -> vec2<f32> {
    return vec2(sample_u(vel, p), sample_v(vel, p));
}
// ANCHOR_END: sampling

// A cell-centred field at any point p: index space p − (½, ½), clamped to the outer centres.
fn sample_centre(field: texture_2d<f32>, p: vec2<f32>) -> vec4<f32> {
    let n = smoke.grid_n;
    let l = lerp_at(clamp(p - vec2(0.5), vec2(0.0), vec2(n - 1.0)));
    let b = l.base;
    let a = centre_at(field, b.x, b.y);
    let bx = centre_at(field, b.x + 1, b.y);
    let c = centre_at(field, b.x, b.y + 1);
    let d = centre_at(field, b.x + 1, b.y + 1);
    return mix(mix(a, bx, l.f.x), mix(c, d, l.f.x), l.f.y);
}

// Where the texel's samples sit: u at (i, j + ½), v at (i + ½, j), the centre at (i + ½, j + ½).
fn u_position(t: vec2<i32>) -> vec2<f32> {
    return vec2<f32>(t) + vec2(0.0, 0.5);
}
fn v_position(t: vec2<i32>) -> vec2<f32> {
    return vec2<f32>(t) + vec2(0.5, 0.0);
}
fn centre_position(t: vec2<i32>) -> vec2<f32> {
    return vec2<f32>(t) + vec2(0.5);
}

// Which of a velocity texel's samples are unknowns (the others are walls or unused): u on the
// interior x-faces, v on the interior y-faces (and the top edge's when open), T in the cells.
fn u_is_free(t: vec2<i32>) -> bool {
    return t.x >= 1 && t.x < grid_n() && t.y < grid_n();
}
fn v_is_free(t: vec2<i32>) -> bool {
    return t.x < grid_n() && t.y >= 1 && (t.y < grid_n() || (t.y == grid_n() && open_top()));
}
fn in_cells(t: vec2<i32>) -> bool {
    return all(t >= vec2(0)) && all(t < vec2(grid_n()));
}
fn in_velocity_texels(t: vec2<i32>) -> bool {
    return all(t >= vec2(0)) && t.x < grid_n() && t.y <= grid_n();
}

// ANCHOR: divergence
// The compact divergence of cell (i, j) (1/s): the net flow out through its four faces over h.
fn divergence_at(vel: texture_2d<f32>, c: vec2<i32>) -> f32 {
    let out_x = u_at(vel, c.x + 1, c.y) - u_at(vel, c.x, c.y);
    let out_y = v_at(vel, c.x, c.y + 1) - v_at(vel, c.x, c.y);
    return (out_x + out_y) / smoke.cell_m;
}
// ANCHOR_END: divergence

// ANCHOR: pressure
// q of cell (i, j), or a ghost's: beyond a wall the cell inside (Neumann), above an open top −q
// of the top row (q = 0 on the edge between them).
fn q_at(q: texture_2d<f32>, i: i32, j: i32) -> f32 {
    let n = grid_n();
    let inside = textureLoad(q, clamp(vec2(i, j), vec2(0), vec2(n - 1)), 0).x;
    return select(inside, -inside, open_top() && j >= n);
}

// The compact gradient of q on the faces of cell c, (∂q/∂x on its low x-face, ∂q/∂y on its low
// y-face) in m/s; 0 on wall faces (the projection never moves them).
fn pressure_gradient_at(q: texture_2d<f32>, t: vec2<i32>) -> vec2<f32> {
    let gx = (q_at(q, t.x, t.y) - q_at(q, t.x - 1, t.y)) / smoke.cell_m;
    let gy = (q_at(q, t.x, t.y) - q_at(q, t.x, t.y - 1)) / smoke.cell_m;
    return vec2(select(0.0, gx, u_is_free(t)), select(0.0, gy, v_is_free(t)));
}
// ANCHOR_END: pressure

// ANCHOR: curl
// The scalar curl ω = ∂v/∂x − ∂u/∂y (1/s) at grid node (i, j), the corner shared by cells
// (i−1, j−1) … (i, j): where the four faces around it meet, so the differences are compact.
fn curl_at_node(vel: texture_2d<f32>, i: i32, j: i32) -> f32 {
    let dv_dx = v_at(vel, i, j) - v_at(vel, i - 1, j);
    let du_dy = u_at(vel, i, j) - u_at(vel, i, j - 1);
    return (dv_dx - du_dy) / smoke.cell_m;
}

// ω at the centre of cell c: the mean of its four corners.
fn curl_at_centre(vel: texture_2d<f32>, c: vec2<i32>) -> f32 {
    return 0.25 * (curl_at_node(vel, c.x, c.y) + curl_at_node(vel, c.x + 1, c.y)
        + curl_at_node(vel, c.x, c.y + 1) + curl_at_node(vel, c.x + 1, c.y + 1));
}
// ANCHOR_END: curl
