// The test scene as a path tracer sees it: the ground (a square at y = 0) and the boxes
// (fogbook_core::scene), hit by rays with the slab method (Kay & Kajiya 1986), every surface
// diffuse with its albedo. The ground's grid lines are the raster's (core/scene.wgsl) in world
// units, without its screen-space anti-aliasing: lines 2 cm (1 m grid) and 10 cm (10 m grid)
// wide; the tracer's jittered pixels anti-alias them. The boxes' storage is the including file's
// (trace.wgsl):
// #needs boxes

// ANCHOR: scene_box
// One box (fogbook_core::scene::SceneBox).
struct SceneBox {
    min: vec4<f32>,    // xyz (m)
    max: vec4<f32>,    // xyz (m)
    albedo: vec4<f32>, // rgb
}
// ANCHOR_END: scene_box

struct SurfaceHit {
    t: f32,               // distance along the ray (m); the ray's limit where nothing was hit
    normal: vec3<f32>,    // unit, facing the ray
    albedo: vec3<f32>,
    hit: bool,
}

const MINOR_LINE_HALF_WIDTH_M: f32 = 0.01;
const MAJOR_LINE_HALF_WIDTH_M: f32 = 0.05;

// The ground's albedo at (x, z): the raster's grid_albedo with lines of fixed width.
fn ground_albedo(xz: vec2<f32>, base: vec3<f32>) -> vec3<f32> {
    let minor = abs(fract(xz - 0.5) - 0.5);
    let major = abs(fract(xz / 10.0 - 0.5) - 0.5) * 10.0;
    let minor_line = select(0.0, 1.0, min(minor.x, minor.y) < MINOR_LINE_HALF_WIDTH_M);
    let major_line = select(0.0, 1.0, min(major.x, major.y) < MAJOR_LINE_HALF_WIDTH_M);
    let line = max(minor_line * 0.35, major_line * 0.7);
    return mix(base, base * 0.25, line);
}

// The nearest surface along o + t d for t in (0, t_max). `ground`: rgb its albedo, w its half size.
fn intersect_scene(o: vec3<f32>, d: vec3<f32>, t_max: f32, ground: vec4<f32>, box_count: u32) -> SurfaceHit {
    var best = SurfaceHit(t_max, vec3(0.0, 1.0, 0.0), vec3(0.0), false);
    if d.y < 0.0 && o.y > 0.0 {
        let t = -o.y / d.y;
        let p = o + t * d;
        if t < best.t && max(abs(p.x), abs(p.z)) <= ground.w {
            best = SurfaceHit(t, vec3(0.0, 1.0, 0.0), ground_albedo(p.xz, ground.rgb), true);
        }
    }
    let inv = 1.0 / d;
    for (var i = 0u; i < box_count; i++) {
        let b = boxes[i];
        let t_lo = (b.min.xyz - o) * inv;
        let t_hi = (b.max.xyz - o) * inv;
        let near = min(t_lo, t_hi);
        let far = max(t_lo, t_hi);
        let t_enter = max(max(near.x, near.y), near.z);
        let t_exit = min(min(far.x, far.y), far.z);
        if t_enter <= t_exit && t_enter > 0.0 && t_enter < best.t {
            // The face entered is the one of the largest near distance.
            var n = vec3(0.0, 0.0, -sign(d.z));
            if t_enter == near.x {
                n = vec3(-sign(d.x), 0.0, 0.0);
            } else if t_enter == near.y {
                n = vec3(0.0, -sign(d.y), 0.0);
            }
            best = SurfaceHit(t_enter, n, b.albedo.rgb, true);
        }
    }
    return best;
}
