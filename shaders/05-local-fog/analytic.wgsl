// Local fog volumes, the analytic path: per pixel, every volume the view ray crosses before the
// surface, integrated in closed form (common/media/shapes.wgsl) from `start` to the surface — from
// the eye when chapter 4 is not in the stack, else from its grid's far end (`frame.volumetric_far_m`),
// where the froxels' injection of the same volumes stops — and applied as colour · T + L_in.
// Overlapping volumes add: the crossings' ends split the ray into pieces; in each piece the
// extinctions add, and the in-scattering is the energy-conserving step of Hillaire 2015,
//   L = T_before · (Σ_i S_i W_i) · (1 − e^(−τ)) / τ,   τ = Σ_i ρ_i W_i,
// W_i the piece's optical depth of volume i at unit density and S_i its source per unit density:
//   S_i = ρ_i a_i (L_sun · p_HG(g_i, v·l) · T_sun,i · shadow + L_ambient) + E_i.
// T_sun,i, the volume's own transmittance towards the sun, is taken at one point of its crossing
// (the median scattering point, where half of the crossing's opacity lies in front), in closed
// form along the sun's ray, times that of the other volumes on the sun's ray from there (those
// binned on the CPU as able to shadow it, at most MAX_CASTERS); the scene's shadow map at the
// same point. By default (SUN_FROM_GRID) T_sun is read from the volume's grid, taken by the same
// function at SUN_GRID³ points over its box whenever the volumes or the sun change
// (sun_grid.wgsl, after deep shadow maps, Lokovic & Veach 2000); else per pixel, or (`block_sun`)
// at a coarser rate where it is smooth, as in coarse
// pixel shading (Vaidyanathan et al. 2014): per 8×8 block of pixels (one workgroup), for each of
// the first BLOCK_VOLUMES volumes of the tile, at the median scattering points of the rays through
// the block's four corners (a lattice every 8 pixels, so neighbouring blocks share corners), then
// bilinearly between them for every pixel whose crossing, like the four corners', is whole (not
// cut by the surface) and where the corners differ by at most BLOCK_SUN_SPREAD; where a corner
// misses the volume or is cut (a silhouette or a surface in the block), or where they differ more
// (a shadow's edge), the pixel evaluates it itself. The sun light's colour, the phase, the
// ambient light and the scene's shadow map stay per pixel.
// Each pixel tests only the volumes binned to its 16×16 tile on the CPU (tiled culling, after
// Olsson & Assarsson 2011), in list order.
// After Wronski 2014 and Hillaire 2015 (the froxel fog this complements) and the engines' local
// fog volumes (Unreal's Local Fog Volumes, Godot's FogVolume).
// Stage: height fog (after the sky and distance fog, before chapter 4's froxel fog, which covers
// the nearer part). Output: the colour, or the debug view, into `view_out`.
// #import common/scene_inputs.wgsl
// #import common/shadow.wgsl
// #import common/sky_light.wgsl
// #import 05-local-fog/volume_sun.wgsl

// Per screen tile of TILE_PX² pixels, a bit mask of the volumes that may cover one of its pixels
// (binned on the CPU, chapters/05-local-fog/src/binning.rs; bit i of word w is volume 32 w + i).
@group(2) @binding(2) var<storage, read> tile_bins: array<u32>;
// Per volume, T_sun at SUN_GRID³ points over its box (sun_grid.wgsl), read-only here.
@group(2) @binding(4) var<storage, read> sun_grid_t: array<f32>;

// TILE_PX comes from Rust (`binning::TILE_PX`).
// A block: the pixels of one workgroup (fogbook_core::frame::SCREEN_TILE), and the lattice of its
// corners.
const BLOCK_PX: u32 = 8u;
// The tile's volumes whose T_sun a block takes at its corners: one (volume, corner) pair per
// invocation of the 8×8 workgroup.
const BLOCK_VOLUMES: u32 = 16u;
const NO_CORNER: f32 = -1.0;
// The most the four corners' T_sun may differ for the pixels between them to interpolate it.
const BLOCK_SUN_SPREAD: f32 = 0.2;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

// The most volumes one pixel's ray integrates (of up to 256 in the list): further crossings,
// in list order, are left out.
const MAX_HITS: u32 = 32u;
const SHADOW_BIAS: f32 = 0.0005;
const INV_FOUR_PI: f32 = 0.07957747154594767;

// A volume the ray crosses before the surface: its index and the crossing [ta, tb].
struct Hit {
    index: u32,
    ta: f32,
    tb: f32,
}

// The crossings of one pixel live in `shade`'s function scope, not in a private variable: a
// variable is zeroed where it is declared (WGSL zero-initialises), and this way only the pixels
// of tiles that hold a volume pay for it (0.24 of the pass's 0.64 ms at 1080p on an H200).
alias Hits = array<Hit, MAX_HITS>;
var<private> hit_count: u32;

// Per slot k (the k-th volume of the tile's mask), T_sun at the median scattering point of its
// crossing of the ray through each corner of the block (x, then y: (0,0), (1,0), (0,1), (1,1)),
// NO_CORNER where that crossing is missing or cut by the surface.
var<workgroup> corner_sun: array<array<f32, 4>, BLOCK_VOLUMES>;

// Where a pixel lies for the interpolation: its block's tile mask (first word), its place in the
// block (0–7/8 per axis) and its surface distance.
struct PixelAt {
    first: u32,
    f: vec2<f32>,
    d: f32,
}

fn henyey_greenstein(g_in: f32, cos_theta: f32) -> f32 {
    let g = clamp(g_in, -0.999, 0.999);
    let denom = max(1.0 + g * g - 2.0 * g * cos_theta, 1e-6);
    return (1.0 - g * g) * INV_FOUR_PI / (denom * sqrt(denom));
}

// The first word of the bit mask of the tile holding `pixel`.
fn tile_first_word(pixel: vec2<u32>) -> u32 {
    let tiles_x = (textureDimensions(view_out).x + TILE_PX - 1u) / TILE_PX;
    let tile = pixel / TILE_PX;
    return (tile.y * tiles_x + tile.x) * BIN_WORDS;
}

// The slot of volume i in the tile's mask: how many of the tile's volumes come before it.
fn tile_slot(first: u32, i: u32) -> u32 {
    let w = i / 32u;
    var k = countOneBits(tile_bins[first + w] & ((1u << (i % 32u)) - 1u));
    for (var word = 0u; word < w; word++) {
        k += countOneBits(tile_bins[first + word]);
    }
    return k;
}

// The index of the tile's volume in slot k, or one past the list where there is none.
fn tile_volume(first: u32, k: u32) -> u32 {
    var left = k;
    for (var word = 0u; word < BIN_WORDS; word++) {
        var bits = tile_bins[first + word];
        let n = countOneBits(bits);
        if left < n {
            for (var j = 0u; j < left; j++) {
                bits &= bits - 1u;
            }
            return word * 32u + countTrailingZeros(bits);
        }
        left -= n;
    }
    return local_fog.counts.x;
}

// ANCHOR: collect
// Every volume of the pixel's tile that the ray o + t·dir crosses within [begin, d], in list order
// (the order every volume would be tested in without the culling). A crossing that ends before
// `begin` (nearer than chapter 4's grid covers) takes no slot and no work later.
fn collect_hits(hits: ptr<function, Hits>, pixel: vec2<u32>, o: vec3<f32>, dir: vec3<f32>, begin: f32, d: f32) {
    hit_count = 0u;
    let first = tile_first_word(pixel);
    for (var word = 0u; word < BIN_WORDS; word++) {
        var bits = tile_bins[first + word];
        while bits != 0u && hit_count < MAX_HITS {
            let i = word * 32u + countTrailingZeros(bits);
            bits &= bits - 1u; // clear the lowest set bit
            if i >= local_fog.counts.x {
                break;
            }
            let c = fog_volume_chord(volumes[i], o, dir);
            let ta = max(c.x, begin);
            let tb = min(c.y, d);
            if tb > ta {
                (*hits)[hit_count] = Hit(i, ta, tb);
                hit_count++;
            }
        }
    }
}
// ANCHOR_END: collect

struct Source {
    radiance: vec3<f32>, // S_i: radiance scattered or emitted towards the eye per unit density
    sun_transmittance: f32,
    unit_depth: f32,     // W over the whole crossing [a, b]
}

// ANCHOR: median_point
// The median scattering point of a crossing [a, b] of volume v, t_m where
// τ(a, t_m) = −ln((1 + e^(−τ)) / 2) (half of the crossing's opacity 1 − e^(−τ) lies before it),
// placed as if the density were constant along the crossing; and W over the crossing (w).
fn median_point(v: FogVolume, o: vec3<f32>, dir: vec3<f32>, a: f32, b: f32) -> vec4<f32> {
    let w = fog_volume_unit_depth(v, o, dir, a, b);
    let tau = max(v.albedo_density.w, 0.0) * w;
    var fraction = 0.5;
    if tau > 1e-4 {
        fraction = -log(0.5 * (1.0 + exp(-tau))) / tau;
    }
    return vec4(o + dir * mix(a, b, fraction), w);
}
// ANCHOR_END: median_point

// ANCHOR: sun_from_grid
// T_sun of volume i at p from its grid: trilinear between the points, clamped to the outermost
// (half a cell inside the box).
fn sun_from_grid(i: u32, p: vec3<f32>) -> f32 {
    let v = volumes[i];
    let q = fog_volume_local_dir(v, p - v.centre.xyz) / fog_volume_half(v);
    let n = f32(SUN_GRID);
    let x = clamp((q * 0.5 + 0.5) * n - 0.5, vec3(0.0), vec3(n - 1.0));
    let c = min(vec3<u32>(x), vec3(SUN_GRID - 2u));
    let f = x - vec3<f32>(c);
    let base = ((i * SUN_GRID + c.z) * SUN_GRID + c.y) * SUN_GRID + c.x;
    let row = SUN_GRID;
    let slab = SUN_GRID * SUN_GRID;
    let lower = mix(
        mix(sun_grid_t[base], sun_grid_t[base + 1u], f.x),
        mix(sun_grid_t[base + row], sun_grid_t[base + row + 1u], f.x),
        f.y,
    );
    let upper = mix(
        mix(sun_grid_t[base + slab], sun_grid_t[base + slab + 1u], f.x),
        mix(sun_grid_t[base + slab + row], sun_grid_t[base + slab + row + 1u], f.x),
        f.y,
    );
    return mix(lower, upper, f.z);
}
// ANCHOR_END: sun_from_grid

// T_sun of volume i between its block's corners, or NO_CORNER where one of them (or the pixel's
// own crossing, b ≥ d) is not a whole crossing, or where they differ by more than
// BLOCK_SUN_SPREAD.
fn sun_transmittance_between_corners(i: u32, b: f32, at: PixelAt) -> f32 {
    if sun_mode() != SUN_AT_CORNERS || b >= at.d {
        return NO_CORNER;
    }
    let k = tile_slot(at.first, i);
    if k >= BLOCK_VOLUMES {
        return NO_CORNER;
    }
    let c = corner_sun[k];
    let lo = min(min(c[0], c[1]), min(c[2], c[3]));
    if lo < 0.0 || max(max(c[0], c[1]), max(c[2], c[3])) - lo > BLOCK_SUN_SPREAD {
        return NO_CORNER;
    }
    return mix(mix(c[0], c[1], at.f.x), mix(c[2], c[3], at.f.x), at.f.y);
}

// ANCHOR: volume_source
// The source of a crossing [a, b] of volume i, lit at its median scattering point.
fn volume_source(i: u32, o: vec3<f32>, dir: vec3<f32>, a: f32, b: f32, at: PixelAt) -> Source {
    let v = volumes[i];
    let rho = max(v.albedo_density.w, 0.0);
    let m = median_point(v, o, dir, a, b);
    let p = m.xyz;
    let sun = frame.sun_dir.xyz;
    var src: Source;
    src.unit_depth = m.w;
    if sun_mode() == SUN_FROM_GRID {
        src.sun_transmittance = sun_from_grid(i, p);
    } else {
        src.sun_transmittance = sun_transmittance_between_corners(i, b, at);
        if src.sun_transmittance < 0.0 {
            src.sun_transmittance = sun_transmittance_at(i, p, sun);
        }
    }
    var shadow = 1.0;
    if local_fog.counts.w == 1u {
        shadow = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, SHADOW_BIAS);
    }
    let sun_light = sun_light_at(p) * frame.sun_dir.w * local_fog.light.x
        * henyey_greenstein(v.axis_x.w, dot(dir, sun)) * src.sun_transmittance * shadow;
    let ambient = sky_light_at(p) * local_fog.light.y;
    let albedo = clamp(v.albedo_density.rgb, vec3(0.0), vec3(1.0));
    src.radiance = rho * albedo * (sun_light + ambient) + max(v.emission_falloff.rgb, vec3(0.0));
    return src;
}
// ANCHOR_END: volume_source

struct Integrated {
    inscattering: vec3<f32>,
    transmittance: f32,
    optical_depth: f32,
}

// The nearest end of a crossing from `start` on (an entry or an exit) beyond s: the next piece's
// far end. 3e38 where none is.
fn next_end(hits: ptr<function, Hits>, start: f32, s: f32) -> f32 {
    var next = 3.0e38;
    for (var j = 0u; j < hit_count; j++) {
        let h = (*hits)[j];
        let a = max(h.ta, start);
        if h.tb > a {
            if a > s {
                next = min(next, a);
            } else if h.tb > s {
                next = min(next, h.tb);
            }
        }
    }
    return next;
}

// ANCHOR: scattering_step
// The energy-conserving step over τ: (1 − e^(−τ)) / τ, its series below 1e-4.
fn scattering_step(tau: f32) -> f32 {
    if tau < 1e-4 {
        return 1.0 - 0.5 * tau;
    }
    return (1.0 - exp(-tau)) / tau;
}
// ANCHOR_END: scattering_step

// One crossing alone (half of the pixels that cross any): one piece, the crossing itself,
// exactly as `integrate_from` takes it, without its arrays and its search for the pieces' ends.
fn integrate_one(h: Hit, o: vec3<f32>, dir: vec3<f32>, at: PixelAt) -> Integrated {
    let src = volume_source(h.index, o, dir, h.ta, h.tb, at);
    let tau = max(volumes[h.index].albedo_density.w, 0.0) * src.unit_depth;
    return Integrated(src.radiance * src.unit_depth * scattering_step(tau), exp(-tau), tau);
}

// The crossings from `start` on, cut into pieces at their ends, integrated front to back: each
// piece's far end is the nearest end beyond its near end (`next_end`), so no sorted list of ends
// is kept.
fn integrate_from(hits: ptr<function, Hits>, o: vec3<f32>, dir: vec3<f32>, start: f32, at: PixelAt) -> Integrated {
    // Per crossing: its source (rgb) and its unit optical depth W over the whole of it (w).
    var sources: array<vec4<f32>, MAX_HITS>;
    var s0 = 3.0e38;
    for (var j = 0u; j < hit_count; j++) {
        let h = (*hits)[j];
        let a = max(h.ta, start);
        if h.tb > a {
            s0 = min(s0, a);
            let src = volume_source(h.index, o, dir, a, h.tb, at);
            sources[j] = vec4(src.radiance, src.unit_depth);
        }
    }
    // ANCHOR: pieces
    var out: Integrated;
    out.inscattering = vec3(0.0);
    out.transmittance = 1.0;
    out.optical_depth = 0.0;
    var s1 = next_end(hits, start, s0);
    while s1 < 3.0e38 {
        var tau = 0.0;
        var source = vec3(0.0);
        for (var j = 0u; j < hit_count; j++) {
            let h = (*hits)[j];
            let entry = max(h.ta, start);
            let a = max(entry, s0);
            let b = min(h.tb, s1);
            if b > a {
                let v = volumes[h.index];
                // A piece that is the whole crossing (a volume no other overlaps, most of them)
                // reuses the crossing's W from `volume_source`: the same call on the same
                // arguments, so the same bits, and for a textured or faded volume one march of
                // 32 steps fewer.
                var w = sources[j].w;
                if a != entry || b != h.tb {
                    w = fog_volume_unit_depth(v, o, dir, a, b);
                }
                tau += max(v.albedo_density.w, 0.0) * w;
                source += sources[j].rgb * w;
            }
        }
        out.inscattering += out.transmittance * source * scattering_step(tau);
        out.transmittance *= exp(-tau);
        out.optical_depth += tau;
        s0 = s1;
        s1 = next_end(hits, start, s0);
    }
    return out;
    // ANCHOR_END: pieces
}

// A colour per volume for the mask view.
fn volume_color(i: u32) -> vec3<f32> {
    let palette = array<vec3<f32>, 6>(
        vec3(0.95, 0.35, 0.2), vec3(0.2, 0.75, 0.3), vec3(0.25, 0.45, 0.95),
        vec3(0.95, 0.8, 0.15), vec3(0.8, 0.3, 0.85), vec3(0.2, 0.8, 0.85),
    );
    return palette[i % 6u];
}

// Whether the tile whose mask begins at word `first` has no volume at all.
fn tile_is_empty(first: u32) -> bool {
    var any = 0u;
    for (var word = 0u; word < BIN_WORDS; word++) {
        any |= tile_bins[first + word];
    }
    return any == 0u;
}

// What every view shows where no volume is: the scene unchanged, nothing crossed.
fn write_nothing_crossed(pixel: vec2<u32>, view: u32, scene: vec3<f32>) {
    switch view {
        case VIEW_FINAL: { write_color(pixel, scene); }
        case VIEW_VOLUME_MASK, VIEW_INSCATTERING, VIEW_PATH: { write_color(pixel, vec3(0.0)); }
        case VIEW_TRANSMITTANCE, VIEW_SUN_TRANSMITTANCE: { write_scalar(pixel, 1.0); }
        default: { write_scalar(pixel, 0.0); }
    }
}

// ANCHOR: corners
// The block's corners: invocation `lane` takes slot lane / 4 of the tile's volumes at corner
// lane % 4, for the view ray's range from `begin` (as the pixels take it).
fn light_corners(block: vec2<u32>, lane: u32, first: u32, begin: f32) {
    let k = lane / 4u;
    let corner = vec2(lane % 2u, (lane / 2u) % 2u);
    var t = NO_CORNER;
    let i = tile_volume(first, k);
    if i < local_fog.counts.x {
        let size = textureDimensions(view_out);
        let lattice = (block + corner) * BLOCK_PX;
        let o = frame.camera_pos.xyz;
        let dir = view_ray_dir(frame, vec2<f32>(lattice));
        let v = volumes[i];
        let c = fog_volume_chord(v, o, dir);
        let a = max(c.x, begin);
        let d = textureLoad(scene_distance, vec2<i32>(min(lattice, size - 1u)), 0).r;
        if c.y > a && c.y < d {
            t = sun_transmittance_at(i, median_point(v, o, dir, a, c.y).xyz, frame.sun_dir.xyz);
        }
    }
    corner_sun[k][lane % 4u] = t;
}
// ANCHOR_END: corners

@compute @workgroup_size(8, 8, 1)
fn analytic(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(workgroup_id) block: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let size = textureDimensions(view_out);
    let inside = id.x < size.x && id.y < size.y;
    // The workgroup's 8×8 pixels lie in one tile: what follows is the same for all of them.
    let first = tile_first_word(block.xy * BLOCK_PX);
    if tile_is_empty(first) {
        if inside {
            let scene = textureLoad(scene_color, vec2<i32>(id.xy), 0).rgb;
            write_nothing_crossed(id.xy, local_fog.counts.y, scene);
        }
        return;
    }
    let view = local_fog.counts.y;
    let begin = select(0.0, max(frame.volumetric_far_m, 0.0), view == VIEW_FINAL);
    if sun_mode() == SUN_AT_CORNERS {
        light_corners(block.xy, lane, first, begin);
    }
    workgroupBarrier();
    if !inside {
        return;
    }
    let scene = textureLoad(scene_color, vec2<i32>(id.xy), 0).rgb;
    shade(id, scene, first);
}

// One pixel of a tile that holds volumes.
fn shade(id: vec3<u32>, scene: vec3<f32>, first: u32) {
    // ANCHOR: per_pixel
    let pixel = vec2<i32>(id.xy);
    let d = textureLoad(scene_distance, pixel, 0).r;
    let o = frame.camera_pos.xyz;
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    // The froxel grid (chapter 4) covers the eye up to volumetric_far_m (0 without it).
    let start = max(frame.volumetric_far_m, 0.0);
    let view = local_fog.counts.y;
    // The final colour integrates from `start`; the views show the volumes along the whole ray.
    let begin = select(0.0, start, view == VIEW_FINAL);
    var hits: Hits;
    collect_hits(&hits, id.xy, o, dir, begin, d);
    let at = PixelAt(first, vec2<f32>(id.xy % BLOCK_PX) / f32(BLOCK_PX), d);
    // Most pixels cross no volume: they skip the integration and the zeroing of its arrays; of
    // the rest, half cross one.
    var fog = Integrated(vec3(0.0), 1.0, 0.0);
    if hit_count == 1u {
        fog = integrate_one(hits[0], o, dir, at);
    } else if hit_count > 1u {
        fog = integrate_from(&hits, o, dir, begin, at);
    }
    var color = scene;
    if local_fog.counts.z == 1u {
        color = scene * fog.transmittance + fog.inscattering;
    }
    // ANCHOR_END: per_pixel
    switch view {
        case VIEW_FINAL: { write_color(id.xy, color); }
        case VIEW_VOLUME_MASK: {
            var nearest = 3.0e38;
            var c = vec3(0.0);
            for (var j = 0u; j < hit_count; j++) {
                if hits[j].ta < nearest {
                    nearest = hits[j].ta;
                    c = volume_color(hits[j].index);
                }
            }
            write_color(id.xy, c);
        }
        case VIEW_OVERLAP_COUNT: { write_scalar(id.xy, f32(hit_count)); }
        case VIEW_OPTICAL_DEPTH: { write_scalar(id.xy, fog.optical_depth); }
        case VIEW_TRANSMITTANCE: { write_scalar(id.xy, fog.transmittance); }
        case VIEW_INSCATTERING: { write_color(id.xy, fog.inscattering); }
        case VIEW_SUN_TRANSMITTANCE: {
            // Of the nearest volume crossed (1 where none is).
            var nearest = 3.0e38;
            var t = 1.0;
            for (var j = 0u; j < hit_count; j++) {
                let h = hits[j];
                if h.ta < nearest {
                    nearest = h.ta;
                    t = volume_source(h.index, o, dir, h.ta, h.tb, at).sun_transmittance;
                }
            }
            write_scalar(id.xy, t);
        }
        case VIEW_PATH: {
            // Blue: a crossing (or part of it) nearer than the grid's far end, drawn by the
            // froxels; orange: beyond it, integrated here; both where a crossing straddles it.
            var froxel = 0.0;
            var analytic = 0.0;
            for (var j = 0u; j < hit_count; j++) {
                froxel = max(froxel, select(0.0, 1.0, hits[j].ta < start));
                analytic = max(analytic, select(0.0, 1.0, hits[j].tb > start));
            }
            write_color(id.xy, froxel * vec3(0.2, 0.45, 1.0) + analytic * vec3(1.0, 0.55, 0.1));
        }
        case VIEW_TILE_VOLUMES: {
            var n = 0u;
            let first = tile_first_word(id.xy);
            for (var word = 0u; word < BIN_WORDS; word++) {
                n += countOneBits(tile_bins[first + word]);
            }
            write_scalar(id.xy, f32(n));
        }
        default: { write_scalar(id.xy, 0.0); }
    }
}
