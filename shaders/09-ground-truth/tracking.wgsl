// Ground truth, a ray's tentative collisions: the superposition of two Poisson processes, one per
// region of bounded media — the majorant grid over the scene's box (majorant_grid.wgsl) and the
// cloud layer's spherical shell at the clouds' constant bound, which no box of the grid's scale
// could hold (it runs for hundreds of kilometres around the planet). The sum of two Poisson
// processes of rates σ̄₁(t) and σ̄₂(t) is one of rate σ̄₁ + σ̄₂, so each region draws its own next
// collision, the nearer one is the ray's, and its majorant is the sum of both regions' rates
// there; the other region's pending draw stays valid (exponential free paths are memoryless).
// After the piecewise-constant and combined majorants of Novák et al., "Monte Carlo Methods for
// Volumetric Light Transport Simulation" (2018), §4, and Kutz et al., "Spectral and Decomposition
// Tracking for Rendering Heterogeneous Volumes" (2017).
// The shell's geometry and bound come from the clouds' density.wgsl, through the stack's media:
// #needs clouds_in_stack, cloud_majorant_in_shell, planet_centre, planet_radius, layer_bottom_radius, layer_top_radius, sphere_hits, random, Walk, walk_start, walk_next, grid_majorant_at

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

fn in_span(s: vec2<f32>, t: f32) -> bool {
    return t >= s.x && t < s.y;
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

struct Track {
    t: f32,
    majorant: f32,     // σ̄ at the last tentative collision: both regions' rates there
    o: vec3<f32>,
    d: vec3<f32>,
    grid: Walk,
    grid_t: f32,       // the grid's pending collision (NO_COLLISION_M: none left)
    grid_sigma: f32,   // its cell's σ̄
    shell: ShellSpan,
    shell_sigma: f32,
    shell_t: f32,      // the shell's pending collision
}

// The grid's next collision. (Its walk is copied out and back: a pointer into a member of the
// track trips naga's SPIR-V writer.)
fn grid_pending(track: ptr<function, Track>) {
    var walk = (*track).grid;
    if walk_next(&walk) {
        (*track).grid_t = walk.t;
        (*track).grid_sigma = walk.majorant;
    } else {
        (*track).grid_t = NO_COLLISION_M;
    }
    (*track).grid = walk;
}

fn track_start(o: vec3<f32>, d: vec3<f32>, t_max: f32) -> Track {
    var track: Track;
    track.o = o;
    track.d = d;
    track.grid = walk_start(o, d, t_max);
    grid_pending(&track);
    track.shell = shell_span(o, d, t_max);
    track.shell_sigma = cloud_majorant_in_shell();
    track.shell_t = shell_next(track.shell, 0.0, track.shell_sigma);
    return track;
}

// ANCHOR: track_next
// Moves the track to its next tentative collision; false when neither region has one left.
fn track_next(track: ptr<function, Track>) -> bool {
    let t = min((*track).grid_t, (*track).shell_t);
    if t >= NO_COLLISION_M {
        return false;
    }
    (*track).t = t;
    if (*track).grid_t <= (*track).shell_t {
        let shell = in_span((*track).shell.a, t) || in_span((*track).shell.b, t);
        (*track).majorant = (*track).grid_sigma + select(0.0, (*track).shell_sigma, shell);
        grid_pending(track);
    } else {
        (*track).majorant = (*track).shell_sigma + grid_majorant_at((*track).o + t * (*track).d);
        (*track).shell_t = shell_next((*track).shell, t, (*track).shell_sigma);
    }
    return true;
}
// ANCHOR_END: track_next
