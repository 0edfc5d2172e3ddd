// Ground truth: a progressive, unbiased Monte Carlo path tracer of the stack's frame — the test
// scene's diffuse surfaces, the sun, the scene's point and spot lights, the scene's sky as the
// environment (or the sky's atmosphere as a medium over the planet's ground,
// sky_environment.wgsl), and every medium the stack lends, read through the media layer
// (stack_media.wgsl). Free paths are sampled by delta (Woodcock) tracking against a majorant
// σ̄ ≥ σt, with null collisions (Woodcock et al. 1965); chromatic media by spectral tracking
// (Kutz et al. 2017), the collision type chosen in proportion to the path throughput times each
// coefficient, never by one mean coefficient. Lights are reached by next-event estimation, their
// transmittance by residual ratio tracking (Novák et al. 2014), the media with a
// closed-form optical depth taken out as its control. Emission is collected at every tentative
// collision as ε/σ̄. Russian roulette ends paths; a bounce cap exists only for the tests. After
// Novák, Georgiev, Hanika & Jarosz, "Monte Carlo Methods for Volumetric Light Transport
// Simulation" (2018) and Pharr, Jakob & Humphreys, "Physically Based Rendering", 4th ed. (2023),
// ch. 14.
// Light units are the scene's: frame.sun_color · frame.sun_dir.w is the sun's E / π (the radiance
// a white Lambertian surface facing it reflects), and a light's I · attenuation is its E / π.
// Each invocation adds one path to its pixel's sums. A frame traces one class of the screen's
// 8 × 8 tiles, those t with t mod share = phase (all of them but in the viewer under a frame
// budget; chapters/09-ground-truth/src/budget.rs), and each pixel counts its own paths. Under a
// step budget a path takes at most that many tentative collisions a dispatch, waits in its
// pixel's path state and goes on in the next: a null collision is a point a flight may restart
// from, since the free paths are memoryless.
// #import common/scene_inputs.wgsl
// #import common/scene_sky.wgsl
// #import 09-ground-truth/sampling.wgsl
// #import 09-ground-truth/scene_geometry.wgsl
// #import 09-ground-truth/stack_media.wgsl
// #import 09-ground-truth/majorant_grid.wgsl
// #import 09-ground-truth/tracking.wgsl
// #import 09-ground-truth/sky_environment.wgsl

// ANCHOR: tracer
struct Tracer {
    share: u32,            // the frame traces the tiles t with t mod share = phase
    phase: u32,
    groups_x: u32,         // workgroups per row of the dispatch
    tiles_x: u32,          // tiles per row of the frame
    tile_count: u32,       // tiles in the frame
    samples: u32,          // paths per pixel this frame (one per dispatch)
    max_bounces: u32,      // scattering or surface vertices a path may have (0: Russian roulette alone)
    max_collisions: u32,   // tentative collisions after which a path is cut (and counted as biased)
    flags: u32,            // FLAG_* (from Rust)
    volume_count: u32,     // live entries of fog_volumes
    box_count: u32,        // live entries of boxes
    seed: u32,
    step_budget: u32,      // tentative collisions a path may take this dispatch (0: no bound)
    resume: u32,           // 1: `paths` holds a state per pixel, and a waiting path goes on
    pad0: u32,
    pad1: u32,
    domain_min: vec4<f32>, // xyz: the box the media are traced in (m)
    domain_max: vec4<f32>,
    environment: vec4<f32>, // rgb: the constant environment's radiance (FLAG_CONSTANT_ENVIRONMENT)
    ground: vec4<f32>,      // rgb: the ground's albedo; w: its half size (m)
}
// ANCHOR_END: tracer

@group(1) @binding(2) var<uniform> tracer: Tracer;
// Per pixel: (Σ L.rgb, n) and (Σ Y², Σ Y, paths cut, Σ vertices), Y the luminance of one path's
// L and its vertices the scatterings and surface hits where it gathered light.
@group(1) @binding(3) var<storage, read_write> sums: array<vec4<f32>>;
@group(1) @binding(4) var<storage, read_write> moments: array<vec4<f32>>;
@group(1) @binding(5) var<storage, read> boxes: array<SceneBox>;
// ANCHOR: path_state
// A path that waits for the next dispatch: where its flight stopped, its direction, throughput
// and radiance so far, its vertex (+1; 0: no path waits), random state and counts.
struct PathState {
    origin: vec3<f32>,
    vertex: u32,
    dir: vec3<f32>,
    rng: u32,
    beta: vec3<f32>,
    collisions: u32,
    radiance: vec3<f32>,
    vertices: u32,
}
// ANCHOR_END: path_state
@group(1) @binding(7) var<storage, read_write> paths: array<PathState>;

const RAY_OFFSET_M: f32 = 1e-3;
const NO_HIT_M: f32 = 1e9;


fn luminance(c: vec3<f32>) -> f32 {
    return dot(c, MEDIUM_LUMA);
}

fn average(c: vec3<f32>) -> f32 {
    return (c.x + c.y + c.z) / 3.0;
}


// ANCHOR: ratio_tracking
// Transmittance from o along d over (0, t_max), per channel: residual ratio tracking through the
// regions (Novák et al. 2014) — the control's closed-form transmittance e^(−τ_c) times the
// product of (1 − (σt − σ_c) / σ̄) over tentative collisions, each region's part against its own
// rate, so that the media with a closed form add no noise — with Russian roulette once little
// of the product is left; 0 where a surface is in the way.
fn transmittance(o: vec3<f32>, d: vec3<f32>, t_max: f32) -> vec3<f32> {
    var t_r = vec3(1.0);
    if (tracer.flags & FLAG_SURFACES) != 0u && intersect_scene(o, d, t_max, tracer.ground, tracer.box_count).hit {
        t_r = vec3(0.0);
    }
    if planet_ground_hit(o, d, t_max).hit {
        t_r = vec3(0.0);
    }
    let span = box_span(o, d, tracer.domain_min.xyz, tracer.domain_max.xyz);
    let controlled = control_present();
    var control = vec3(1.0);
    if controlled {
        control = exp(-control_optical_depth(o, d, span.x, min(span.y, t_max)));
    }
    var track = track_start(o, d, t_max, GRID_RESIDUAL);
    for (var i = 0u; i < tracer.max_collisions && any(t_r > vec3(0.0)); i++) {
        if !track_next(&track) {
            break;
        }
        // The control is a part of the media that fill the box, which the scene's grid bounds.
        var residual = collision_medium(&track, false).extinction;
        if controlled && track.drew == REGION_GRID {
            residual -= control_extinction_at(o + track.t * d);
        }
        t_r *= max(vec3(0.0), 1.0 - residual / track.majorant);
        steps_left -= min(steps_left, 1u);
        let left = max(max(t_r.x, t_r.y), t_r.z);
        if left < 0.1 {
            // Unbiased: the survivors are scaled up.
            t_r = select(vec3(0.0), t_r / left, random() < left);
        }
    }
    return control * t_r;
}
// ANCHOR_END: ratio_tracking

// ANCHOR: next_event
// Light arriving at p from the sun and the scene's lights through ratio-tracked transmittance,
// then weighted by the phase (in a medium) or the cosine and albedo / π (at a surface).
// ANCHOR: sun_arrival
struct Arrival {
    dir: vec3<f32>,
    radiance: vec3<f32>, // E (irradiance at normal incidence) of the light, after the medium
}

fn sun_arrival(p: vec3<f32>) -> Arrival {
    let l = frame.sun_dir.xyz;
    if (tracer.flags & FLAG_SUN) == 0u || frame.sun_dir.w <= 0.0 {
        return Arrival(l, vec3(0.0));
    }
    // The sun through the atmosphere to p's altitude where the sky is in the stack: from its
    // tables, or from above it through the traced atmosphere.
    var light = sun_light_at(p);
    if atmosphere_traced() {
        light = sun_above_atmosphere();
    }
    let e = PI * light * frame.sun_dir.w;
    return Arrival(l, e * transmittance(p, l, NO_HIT_M));
}
// ANCHOR_END: sun_arrival

fn light_arrival(k: u32, p: vec3<f32>) -> Arrival {
    let light = frame.lights[k];
    let to_light = light.position.xyz - p;
    let dist = length(to_light);
    let l = to_light / max(dist, 1e-6);
    let e = PI * light.intensity.rgb * light_attenuation(light, p);
    if (tracer.flags & FLAG_LOCAL_LIGHTS) == 0u || max(max(e.x, e.y), e.z) <= 0.0 {
        return Arrival(l, vec3(0.0));
    }
    return Arrival(l, e * transmittance(p, l, dist));
}

fn light_count() -> u32 {
    return min(frame.light_count, MAX_LOCAL_LIGHTS);
}

// ANCHOR: scattered_light
// Next-event estimation at a scattering point: Σ_lights E · T · phase(d · l).
fn scattered_light(p: vec3<f32>, d: vec3<f32>, lobe: PhaseLobe) -> vec3<f32> {
    let sun = sun_arrival(p);
    var total = sun.radiance * lobe_phase(lobe, dot(d, sun.dir));
    for (var k = 0u; k < light_count(); k++) {
        let a = light_arrival(k, p);
        total += a.radiance * lobe_phase(lobe, dot(d, a.dir));
    }
    return total;
}

// Next-event estimation at a diffuse surface: Σ_lights (albedo / π) · E · T · max(n · l, 0).
fn reflected_light(p: vec3<f32>, n: vec3<f32>, albedo: vec3<f32>) -> vec3<f32> {
    let sun = sun_arrival(p);
    var total = sun.radiance * max(dot(n, sun.dir), 0.0);
    for (var k = 0u; k < light_count(); k++) {
        let a = light_arrival(k, p);
        total += a.radiance * max(dot(n, a.dir), 0.0);
    }
    return total * albedo / PI;
}
// ANCHOR_END: scattered_light
// ANCHOR_END: next_event

// The light of everything beyond the traced media seen from p in d: a constant (the furnaces),
// the sky's tables where the sky is in the stack, else the test scene's sky.
fn environment(p: vec3<f32>, d: vec3<f32>) -> vec3<f32> {
    if (tracer.flags & FLAG_CONSTANT_ENVIRONMENT) != 0u {
        return tracer.environment.rgb;
    }
    // Where the atmosphere is traced, a path that leaves it is in black space.
    if atmosphere_traced() {
        return vec3(0.0);
    }
    if sky_in_stack() {
        return sky_environment(p, d);
    }
    return scene_sky_radiance(frame.ambient.rgb, d);
}

// ANCHOR: free_flight
// Delta tracking with spectral tracking from o along d up to t_max through the majorant grid, from
// throughput `beta`: the first real collision, or none. The emission of every tentative collision
// is collected as β ε / σ̄.
// ANCHOR: flight
const EVENT_ESCAPED: u32 = 0u;   // no real collision before t_max
const EVENT_SCATTERED: u32 = 1u; // a scattering collision at t
const EVENT_ABSORBED: u32 = 2u;  // absorbed at t: the path ends
const EVENT_CUT: u32 = 3u;       // the collision cap: the path ends, biased
const EVENT_WAITING: u32 = 4u;   // the dispatch's steps are spent: the path waits at t, a null collision

struct Flight {
    t: f32,             // the last tentative collision's distance (t_max before the first)
    event: u32,
    medium: Medium,
    beta: vec3<f32>,    // the throughput after the flight's null and scattering weights
    emitted: vec3<f32>, // Σ β ε / σ̄ over its tentative collisions
}

// ANCHOR_END: flight
var<private> collisions: u32;
var<private> vertices: u32;
// Tentative collisions (of flights and shadow rays) the invocation may still take this dispatch.
var<private> steps_left: u32;

// ANCHOR: free_flight_loop
fn free_flight(o: vec3<f32>, d: vec3<f32>, t_max: f32, beta: vec3<f32>) -> Flight {
    var f = Flight(t_max, EVENT_ESCAPED, medium_none(), beta, vec3(0.0));
    var track = track_start(o, d, t_max, GRID_WHOLE);
    loop {
        if collisions >= tracer.max_collisions {
            f.event = EVENT_CUT;
            break;
        }
        collisions += 1u;
        if !track_next(&track) {
            break;
        }
        steps_left -= min(steps_left, 1u);
        f.t = track.t;
        let m = collision_medium(&track, true);
        f.emitted += f.beta * m.emission / track.majorant;
        let sigma_n = max(vec3(track.majorant) - m.extinction, vec3(0.0));
        let c_a = average(f.beta * max(m.extinction - m.scattering, vec3(0.0)));
        let c_s = average(f.beta * m.scattering);
        let c_n = average(f.beta * sigma_n);
        let total = c_a + c_s + c_n;
        let u = random() * total;
        if total <= 0.0 || u < c_a {
            f.event = EVENT_ABSORBED;
            break;
        }
        if u < c_a + c_s {
            f.beta *= m.scattering / (track.majorant * c_s / total);
            f.event = EVENT_SCATTERED;
            f.medium = m;
            break;
        }
        f.beta *= sigma_n / (track.majorant * c_n / total);
        if steps_left == 0u {
            f.event = EVENT_WAITING;
            break;
        }
    }
    return f;
}
// ANCHOR_END: free_flight_loop
// ANCHOR_END: free_flight

// ANCHOR: path
// A path between its segments: a segment runs from o along d to the next surface, through the
// media; the vertex it ends at (a scattering or a surface) is `vertex`, the camera's being 0.
struct Path {
    o: vec3<f32>,
    d: vec3<f32>,
    beta: vec3<f32>,
    radiance: vec3<f32>,
    vertex: u32,
    done: bool,
}

// The camera's path through pixel position `xy` (pixels, jittered).
fn camera_path(xy: vec2<f32>) -> Path {
    let uv = xy * frame.viewport.zw;
    let ndc = vec2(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    let d = normalize(frame.cam_forward.xyz + ndc.x * frame.cam_right.xyz + ndc.y * frame.cam_up.xyz);
    return Path(frame.camera_pos.xyz, d, vec3(1.0), vec3(0.0), 0u, false);
}

// Runs `start` segment by segment until it ends (`done`, its radiance whole) or the dispatch's
// steps are spent in a flight: the path then waits at that null collision, from which the
// flight starts again as it would have gone on.
fn advance_path(start: Path) -> Path {
    var path = start;
    let surfaces = (tracer.flags & FLAG_SURFACES) != 0u;
    loop {
        let o = path.o;
        let d = path.d;
        var hit = SurfaceHit(NO_HIT_M, vec3(0.0, 1.0, 0.0), vec3(0.0), false);
        if surfaces {
            hit = intersect_scene(o, d, NO_HIT_M, tracer.ground, tracer.box_count);
        }
        let planet = planet_ground_hit(o, d, hit.t);
        if planet.hit {
            hit = planet;
        }
        // ANCHOR: path_events
        let flight = free_flight(o, d, hit.t, path.beta);
        path.radiance += flight.emitted;
        path.beta = flight.beta;
        // A waiting path stands at the null collision its next dispatch flies on from.
        path.o = o + flight.t * d;
        path.done = flight.event != EVENT_WAITING;
        if flight.event == EVENT_WAITING || flight.event == EVENT_ABSORBED || flight.event == EVENT_CUT {
            return path;
        }
        let last = tracer.max_bounces > 0u && path.vertex + 1u >= tracer.max_bounces;
        if flight.event == EVENT_SCATTERED {
            vertices += 1u;
            // The lobe was picked by the components' luminance weights: each channel's share.
            path.beta *= medium_lobe_weight(flight.medium);
            path.radiance += path.beta * scattered_light(path.o, d, flight.medium.lobe);
            if last {
                return path;
            }
            let next = sample_phase(flight.medium.lobe, d);
            path.beta *= next.weight;
            path.d = next.dir;
        } else if hit.hit {
            vertices += 1u;
            path.o = o + hit.t * d + hit.normal * RAY_OFFSET_M;
            path.radiance += path.beta * reflected_light(path.o, hit.normal, hit.albedo);
            if last {
                return path;
            }
            // Cosine-weighted: the albedo is the whole weight.
            path.d = sample_cosine(hit.normal);
            path.beta *= hit.albedo;
        } else {
            path.radiance += path.beta * environment(o, d);
            // The sun's disc as the eye sees it (after a bounce, next-event estimation has it).
            if path.vertex == 0u && (tracer.flags & FLAG_SUN) != 0u {
                path.radiance += path.beta * sun_disc(o, d);
            }
            return path;
        }
        // ANCHOR_END: path_events
        // ANCHOR: roulette
        // Russian roulette after the third vertex.
        if path.vertex >= 3u {
            let survive = min(max(max(path.beta.x, path.beta.y), path.beta.z), 0.95);
            if random() >= survive {
                return path;
            }
            path.beta /= survive;
        }
        // ANCHOR_END: roulette
        path.done = false;
        path.vertex += 1u;
    }
    return path;
}
// ANCHOR_END: path

// ANCHOR: resume
// The path waiting in `pixel`'s state, its random state and counts restored; or, where none
// waits, its next path from the camera, seeded by the pixel's count of paths.
fn path_for(pixel: u32, id: vec2<u32>, paths_so_far: f32) -> Path {
    if tracer.resume != 0u {
        let s = paths[pixel];
        if s.vertex != 0u {
            rng_state = s.rng;
            collisions = s.collisions;
            vertices = s.vertices;
            return Path(s.origin, s.dir, s.beta, s.radiance, s.vertex - 1u, false);
        }
    }
    rng_state = pcg(pixel ^ pcg(u32(paths_so_far) * 0x9E3779B9u + tracer.seed));
    collisions = 0u;
    vertices = 0u;
    let jitter = vec2(random(), random());
    return camera_path(vec2<f32>(id) + jitter);
}
// ANCHOR_END: resume

// ANCHOR: accumulate
// One path per pixel and dispatch (a loop over several lost paths on lavapipe, and would make a
// dispatch's length grow with the sample count); under a step budget a long path spreads over
// dispatches and is summed in the one where it ends. A workgroup is a tile of the frame's class.
@compute @workgroup_size(8, 8, 1)
fn trace(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>) {
    let t = tracer.phase + (group.y * tracer.groups_x + group.x) * tracer.share;
    if t >= tracer.tile_count {
        return;
    }
    let id = vec2(t % tracer.tiles_x, t / tracer.tiles_x) * 8u + local.xy;
    let size = vec2<u32>(frame.viewport.xy);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let pixel = id.y * size.x + id.x;
    let sum = sums[pixel];
    let moment = moments[pixel];
    steps_left = select(0xFFFFFFFFu, tracer.step_budget, tracer.step_budget > 0u);
    let path = advance_path(path_for(pixel, id, sum.w));
    if tracer.resume != 0u {
        let vertex = select(path.vertex + 1u, 0u, path.done);
        paths[pixel] = PathState(path.o, vertex, path.d, rng_state, path.beta, collisions, path.radiance, vertices);
    }
    if !path.done {
        return;
    }
    var l = path.radiance;
    // A non-finite path (it should not happen) is dropped and counted with the cut ones.
    let finite = all(l == l) && all(abs(l) < vec3(3.0e38));
    let cut = collisions >= tracer.max_collisions || !finite;
    l = select(vec3(0.0), l, finite);
    let y = luminance(l);
    sums[pixel] = sum + vec4(l, 1.0);
    moments[pixel] = moment + vec4(y * y, y, select(0.0, 1.0, cut), f32(vertices));
}
// ANCHOR_END: accumulate
