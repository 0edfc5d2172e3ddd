// Ground truth, a ray's tentative collisions: the superposition of Poisson processes, one per
// region of bounded media — the majorant grids over the scene's box and over the placed media
// (majorant_grid.wgsl); the cloud layer's spherical shell at the clouds' constant bound, which
// no box of the grid's scale could hold (it runs for hundreds of kilometres around the planet);
// where the sky's atmosphere is traced as a medium, the ray's stretch inside the atmosphere cut
// into segments, each bounded at its lowest altitude; and the six-way cards' bricks, each at its
// own bound (the cards' medium.wgsl: cards_next), which a grid cell would sum. The sum of
// Poisson processes of rates σ̄₁(t), σ̄₂(t), … is one of rate Σ σ̄ᵢ, so each region draws its own
// next collision, the nearest one is the ray's, and the others' pending draws stay valid
// (exponential free paths are memoryless). The medium is split the same way, a part per region
// with σᵢ ≤ σ̄ᵢ, so a collision drawn by region i is real with probability σᵢ / σ̄ᵢ: it asks for
// its own part alone, not the whole stack's medium against the sum of the rates — the same
// process of real collisions, at a fraction of the cost where media overlap. After the
// piecewise-constant and combined majorants of Novák et al., "Monte Carlo Methods for
// Volumetric Light Transport Simulation" (2018), §4, and the decomposition of the medium of
// Kutz et al., "Spectral and Decomposition Tracking for Rendering Heterogeneous Volumes" (2017).
// The shell's geometry and bound come from the clouds' density.wgsl, the atmosphere's from the
// sky's medium.wgsl, through the stack's media:
// #needs scene_grid, placed_grid, Grid, clouds_in_stack, cloud_majorant_in_shell, planet_centre, planet_radius, layer_bottom_radius, layer_top_radius, sphere_hits, random, Walk, walk_start, walk_next, atmosphere_traced, shared_atmosphere, atmosphere_altitude, atmosphere_majorant, AtmosphereParams, cards_in_stack, cards_next, CardDraw, Medium, medium_none, filling_media_at, placed_media_at, add_clouds, atmosphere_media_at, card_component_at

const NO_COLLISION_M: f32 = 3.0e38;

// ANCHOR: shell_span
// Where o + t d (0 ≤ t ≤ t_max) is inside the shell: at most two stretches (in through the top
// and out through the bottom sphere, then in again and out through the top), none once the ray
// meets the planet's ground.
struct ShellSpan {
    a: vec2<f32>,
    b: vec2<f32>,
}

fn shell_span(o: vec3<f32>, d: vec3<f32>, t_max: f32) -> ShellSpan {
    var span = ShellSpan(vec2(0.0), vec2(0.0));
    if !clouds_in_stack() {
        return span;
    }
    let rel = o - planet_centre();
    let r = length(rel);
    let mu = dot(rel, d) / r;
    let top = sphere_hits(r, mu, layer_top_radius());
    if top.y <= 0.0 {
        return span;
    }
    var end = min(top.y, t_max);
    let ground = sphere_hits(r, mu, planet_radius());
    if ground.y > 0.0 {
        end = min(end, max(ground.x, 0.0));
    }
    let start = max(top.x, 0.0);
    let bottom = sphere_hits(r, mu, layer_bottom_radius());
    if bottom.y <= 0.0 || bottom.x >= end {
        span.a = vec2(start, end);
    } else {
        span.a = vec2(start, min(max(bottom.x, start), end));
        span.b = vec2(max(bottom.y, start), end);
    }
    return span;
}

// The shell's next tentative collision after `after`: an exponential distance at rate σ̄ measured
// inside the shell only.
fn shell_next(span: ShellSpan, after: f32, sigma: f32) -> f32 {
    if sigma <= 0.0 {
        return NO_COLLISION_M;
    }
    var left = -log(1.0 - random()) / sigma;
    for (var k = 0u; k < 2u; k++) {
        let s = select(span.b, span.a, k == 0u);
        let start = max(after, s.x);
        if start < s.y {
            if start + left < s.y {
                return start + left;
            }
            left -= s.y - start;
        }
    }
    return NO_COLLISION_M;
}
// ANCHOR_END: shell_span

// ANCHOR: air_span
// The ray's stretch inside the atmosphere, where it is traced: from the camera (or where the ray
// enters through the top) to where it leaves through the top, meets the planet's ground or
// reaches t_max; cut into segments of one length, each bounded over the altitudes it spans. The
// length is the one over which the ray at its start climbs or falls 400 m (at least 400 m, at
// most 20 km): the Mie profile (1.2 km scale height) is then bounded within a factor 1.4.
struct AirSpan {
    start: f32,
    end: f32,  // end ≤ start: no stretch
    step: f32,
}

const AIR_STEP_CLIMB_M: f32 = 400.0;

// The distances (t_in, t_out) where o + t d is inside the sphere of radius R + h_s about the
// planet's centre, h the altitude of o; (−1, −1) where it misses. The quadratic's roots in the
// form that keeps f32's precision when o lies close to the sphere: c = (h − h_s)(r + R + h_s).
fn air_sphere_hits(atm: AtmosphereParams, o: vec3<f32>, d: vec3<f32>, h_s: f32) -> vec2<f32> {
    let h = atmosphere_altitude(atm, o);
    let r = atm.radii.x + h;
    let b = dot(o - atmosphere_planet_centre(atm), d);
    let c = (h - h_s) * (r + atm.radii.x + h_s);
    let disc = b * b - c;
    if disc < 0.0 {
        return vec2(-1.0);
    }
    let q = -(b + select(-1.0, 1.0, b >= 0.0) * sqrt(disc));
    let t1 = q;
    let t2 = select(c / q, 0.0, q == 0.0);
    return vec2(min(t1, t2), max(t1, t2));
}

fn air_span(o: vec3<f32>, d: vec3<f32>, t_max: f32) -> AirSpan {
    var span = AirSpan(0.0, 0.0, 1.0);
    if !atmosphere_traced() {
        return span;
    }
    let atm = shared_atmosphere;
    let top = air_sphere_hits(atm, o, d, atm.radii.y - atm.radii.x);
    if top.y <= 0.0 {
        return span;
    }
    span.start = max(top.x, 0.0);
    span.end = min(top.y, t_max);
    let ground = air_sphere_hits(atm, o, d, 0.0);
    if ground.y > 0.0 {
        span.end = min(span.end, max(ground.x, 0.0));
    }
    let climb = abs(dot(normalize(o - atmosphere_planet_centre(atm)), d));
    span.step = clamp(AIR_STEP_CLIMB_M / max(climb, 1e-3), AIR_STEP_CLIMB_M, 20000.0);
    return span;
}

// ANCHOR: air_bound
// The bound of segment k: the atmosphere's majorant over the altitudes the segment spans. The
// distance to the centre along a line is convex, so its lowest point is the closest approach
// clamped to the segment, its highest an end.
fn air_bound(o: vec3<f32>, d: vec3<f32>, span: AirSpan, k: f32) -> f32 {
    let atm = shared_atmosphere;
    let a = span.start + k * span.step;
    let b = min(a + span.step, span.end);
    let closest = clamp(-dot(o - atmosphere_planet_centre(atm), d), a, b);
    let low = atmosphere_altitude(atm, o + closest * d);
    let high = max(atmosphere_altitude(atm, o + a * d), atmosphere_altitude(atm, o + b * d));
    let m = atmosphere_majorant(atm, low, high).extinction;
    return max(max(m.x, m.y), m.z);
}

// ANCHOR_END: air_bound

// The atmosphere's next tentative collision after `after`, and its segment's rate: an
// exponential optical distance spent segment by segment. At most AIR_MAX_SEGMENTS are walked
// per draw (a ray from the ground to the top crosses 150 at most).
const AIR_MAX_SEGMENTS: u32 = 4096u;

fn air_next(o: vec3<f32>, d: vec3<f32>, span: AirSpan, after: f32) -> vec2<f32> {
    // No stretch left: no draw (and no random number spent, so other media's streams are as
    // they were without the atmosphere).
    if after >= span.end {
        return vec2(NO_COLLISION_M, 0.0);
    }
    var left = -log(1.0 - random());
    var s = max(after, span.start);
    for (var i = 0u; i < AIR_MAX_SEGMENTS && s < span.end; i++) {
        let k = floor((s - span.start) / span.step);
        let segment_end = min(span.start + (k + 1.0) * span.step, span.end);
        let sigma = air_bound(o, d, span, k);
        let need = sigma * (segment_end - s);
        if left < need {
            return vec2(s + left / sigma, sigma);
        }
        left -= need;
        // Past this segment (a step of at least one ulp, whatever the rounding of its end).
        s = max(segment_end, s + max(abs(s), 1.0) * 1e-6);
    }
    return vec2(NO_COLLISION_M, 0.0);
}
// ANCHOR_END: air_span

struct Track {
    t: f32,
    majorant: f32,     // σ̄ of the region that drew the last tentative collision, there
    drew: u32,         // that region (REGION_*)
    card: u32,         // where the cards drew it: the brick's link (card << 8 | brick)
    o: vec3<f32>,
    d: vec3<f32>,
    grid: Walk,
    grid_t: f32,       // the scene grid's pending collision (NO_COLLISION_M: none left)
    grid_sigma: f32,   // its cell's σ̄
    placed: Walk,
    placed_t: f32,     // the placed media's grid's pending collision
    placed_sigma: f32,
    shell: ShellSpan,
    shell_sigma: f32,
    shell_t: f32,      // the shell's pending collision
    air: AirSpan,
    air_t: f32,        // the atmosphere's pending collision
    air_sigma: f32,    // its segment's σ̄
    t_max: f32,        // where the ray leaves the media's box (or ends before)
    cards: CardDraw,   // the cards' pending collision
}

// A walk's next collision. (Walks are copied out and back: a pointer into a member of the track
// trips naga's SPIR-V writer.)
struct Pending {
    walk: Walk,
    t: f32,
    sigma: f32,
}

fn next_of(start: Walk) -> Pending {
    var walk = start;
    if walk_next(&walk) {
        return Pending(walk, walk.t, walk.majorant);
    }
    return Pending(walk, NO_COLLISION_M, 0.0);
}

fn grid_pending(track: ptr<function, Track>) {
    let next = next_of((*track).grid);
    (*track).grid = next.walk;
    (*track).grid_t = next.t;
    (*track).grid_sigma = next.sigma;
}

fn placed_pending(track: ptr<function, Track>) {
    let next = next_of((*track).placed);
    (*track).placed = next.walk;
    (*track).placed_t = next.t;
    (*track).placed_sigma = next.sigma;
}

// The atmosphere's next collision after `after`.
fn air_pending(track: ptr<function, Track>, after: f32) {
    let next = air_next((*track).o, (*track).d, (*track).air, after);
    (*track).air_t = next.x;
    (*track).air_sigma = next.y;
}

// A track from o along d up to t_max; the scene grid's bounds are the whole medium's
// (GRID_WHOLE, free flights) or the residual's (GRID_RESIDUAL, residual ratio tracking).
fn track_start(o: vec3<f32>, d: vec3<f32>, t_max: f32, bounds: u32) -> Track {
    var track: Track;
    track.o = o;
    track.d = d;
    track.grid = walk_start(o, d, t_max, scene_grid(bounds));
    // The cards live in the media's box: their stretch is the scene grid's.
    let box_start = track.grid.t;
    track.t_max = track.grid.end;
    grid_pending(&track);
    track.placed = walk_start(o, d, t_max, placed_grid());
    placed_pending(&track);
    track.shell = shell_span(o, d, t_max);
    track.shell_sigma = cloud_majorant_in_shell();
    track.shell_t = shell_next(track.shell, 0.0, track.shell_sigma);
    track.air = air_span(o, d, t_max);
    air_pending(&track, 0.0);
    track.cards = CardDraw(NO_COLLISION_M, 0.0, 0u);
    if cards_in_stack() {
        track.cards = cards_next(o, d, box_start, track.t_max);
    }
    return track;
}

// The regions, in the order a tie is settled.
const REGION_GRID: u32 = 0u;
const REGION_PLACED: u32 = 1u;
const REGION_SHELL: u32 = 2u;
const REGION_AIR: u32 = 3u;
const REGION_CARDS: u32 = 4u;

fn region_that_drew(track: ptr<function, Track>, t: f32) -> u32 {
    if (*track).grid_t == t {
        return REGION_GRID;
    }
    if (*track).placed_t == t {
        return REGION_PLACED;
    }
    if (*track).shell_t == t {
        return REGION_SHELL;
    }
    return select(REGION_CARDS, REGION_AIR, (*track).air_t == t);
}

// ANCHOR: track_next
// Moves the track to its next tentative collision, with the rate of the region that drew it;
// false when no region has one left. That region draws again; the others' pending draws stay
// valid.
fn track_next(track: ptr<function, Track>) -> bool {
    let grids = min((*track).grid_t, (*track).placed_t);
    let t = min(min(grids, min((*track).shell_t, (*track).air_t)), (*track).cards.t);
    if t >= NO_COLLISION_M {
        return false;
    }
    (*track).t = t;
    let drew = region_that_drew(track, t);
    (*track).drew = drew;
    switch drew {
        case REGION_GRID: {
            (*track).majorant = (*track).grid_sigma;
            grid_pending(track);
        }
        case REGION_PLACED: {
            (*track).majorant = (*track).placed_sigma;
            placed_pending(track);
        }
        case REGION_SHELL: {
            (*track).majorant = (*track).shell_sigma;
            (*track).shell_t = shell_next((*track).shell, t, (*track).shell_sigma);
        }
        case REGION_AIR: {
            (*track).majorant = (*track).air_sigma;
            air_pending(track, t);
        }
        default: {
            (*track).majorant = (*track).cards.sigma;
            (*track).card = (*track).cards.link;
            (*track).cards = cards_next((*track).o, (*track).d, t, (*track).t_max);
        }
    }
    return true;
}
// ANCHOR_END: track_next

// ANCHOR: collision_medium
// The part of the medium that the region which drew the last collision bounds, at its point.
fn collision_medium(track: ptr<function, Track>, pick: bool) -> Medium {
    let p = (*track).o + (*track).t * (*track).d;
    switch (*track).drew {
        case REGION_GRID: { return filling_media_at(p); }
        case REGION_PLACED: { return placed_media_at(p, pick); }
        case REGION_SHELL: { return add_clouds(medium_none(), p, pick); }
        case REGION_AIR: { return atmosphere_media_at(p, pick); }
        default: { return card_component_at((*track).card, p); }
    }
}
// ANCHOR_END: collision_medium
