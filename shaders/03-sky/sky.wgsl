// Sky and aerial perspective from single scattering (Bruneton 2017, section 2.2, evaluated per
// pixel rather than from the 4D scattering texture): along each view ray, in `steps` midpoint
// segments, sun light attenuated by the transmittance LUT is scattered towards the eye by
// Rayleigh and Mie (phase functions in atmosphere.wgsl) and attenuated on its way; the march
// stops at the scene's surface (aerial perspective), the ground or the top of the atmosphere.
// Multiple scattering and the precomputed scattering textures are the next step of this chapter.
// Inputs: scene colour and distance, the transmittance LUT. Output: the selected view.
// #import common/scene_inputs.wgsl
// #import 03-sky/atmosphere.wgsl

@group(2) @binding(0) var<uniform> atm: AtmosphereParams;
@group(2) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(2) @binding(2) var lut_sampler: sampler;

const VIEW_FINAL: u32 = 0u;
const VIEW_SKY: u32 = 1u;
const VIEW_LUT: u32 = 2u;
const VIEW_INSCATTERING: u32 = 3u;
const VIEW_TRANSMITTANCE: u32 = 4u;
const VIEW_LUMINANCE: u32 = 5u;

const SUN_ANGULAR_RADIUS: f32 = 0.004675;
// Spectral radiance at 680 / 550 / 440 nm to linear sRGB luminance (cd/m²), Bruneton 2017;
// the luminance view weighs the three by Rec. 709.
const SKY_LUMINANCE: vec3<f32> = vec3(114974.916, 71305.955, 65310.549);

fn sun_transmittance(r: f32, mu_s: f32) -> vec3<f32> {
    if hits_ground(atm, r, mu_s) {
        return vec3(0.0);
    }
    return textureSampleLevel(transmittance_lut, lut_sampler, transmittance_uv(atm, r, mu_s), 0.0).rgb;
}

struct Segment {
    inscattering: vec3<f32>, // W/m²/sr/nm
    transmittance: vec3<f32>,
    reached_ground: bool,
}

// ANCHOR: single_scattering
// Single scattering from the camera along `dir` up to `max_distance` (m).
fn march(dir: vec3<f32>, max_distance: f32) -> Segment {
    var s: Segment;
    s.transmittance = vec3(1.0);
    let r = atm.radii.x + max(frame.camera_pos.y + atm.radii.z, 1.0);
    let mu = dir.y;
    let sun = frame.sun_dir.xyz;
    let nu = dot(dir, sun);
    var t_start = 0.0;
    // Above the atmosphere: start where the ray enters it, if it does.
    if r > atm.radii.y {
        let disc = r * r * (mu * mu - 1.0) + atm.radii.y * atm.radii.y;
        if mu >= 0.0 || disc < 0.0 {
            return s;
        }
        t_start = -r * mu - sqrt(disc);
    }
    var t_end = distance_to_top(atm, r, mu);
    if hits_ground(atm, r, mu) {
        t_end = distance_to_ground(atm, r, mu);
        s.reached_ground = t_end <= max_distance;
    }
    t_end = min(t_end, max_distance);
    if t_end <= t_start {
        return s;
    }
    let steps = max(atm.mode.y, 1u);
    let dt = (t_end - t_start) / f32(steps);
    let phase_r = rayleigh_phase(nu);
    let phase_m = mie_phase(atm.mie.w, nu);
    var optical = vec3(0.0);
    for (var i = 0u; i < steps; i++) {
        let t = t_start + (f32(i) + 0.5) * dt;
        let r_t = sqrt(t * t + 2.0 * r * mu * t + r * r);
        let altitude = r_t - atm.radii.x;
        let e = extinction_at(atm, altitude);
        let to_here = exp(-(optical + 0.5 * e * dt));
        let mu_s = (r * sun.y + t * nu) / r_t;
        let scattering = atm.rayleigh.rgb * exp(-altitude / atm.rayleigh.w) * phase_r
            + vec3(atm.mie.x * exp(-altitude / atm.mie.z) * phase_m);
        s.inscattering += to_here * sun_transmittance(r_t, mu_s) * scattering * atm.solar.rgb * dt;
        optical += e * dt;
    }
    s.transmittance = exp(-optical);
    return s;
}
// ANCHOR_END: single_scattering

@compute @workgroup_size(8, 8, 1)
fn sky(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let view = atm.mode.x;
    if view == VIEW_LUT {
        let uv = (vec2<f32>(id.xy) + vec2(0.5)) / vec2<f32>(size);
        // The LUT stretched over the screen: μ across (x_μ), altitude up (x_r grows upwards).
        write_color(id.xy, textureSampleLevel(transmittance_lut, lut_sampler, vec2(uv.x, 1.0 - uv.y), 0.0).rgb);
        return;
    }
    let pixel = vec2<i32>(id.xy);
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    let d = textureLoad(scene_distance, pixel, 0).r;
    let is_sky = d >= frame.misc.z * 0.999;
    let exposure = atm.radii.w;
    // The whole ray (sky pixels and the sky view), and the segment to the scene's surface
    // (aerial perspective) for geometry.
    var whole: Segment;
    if is_sky || view == VIEW_SKY {
        whole = march(dir, 1e12);
    }
    var segment = whole;
    if !is_sky {
        segment = march(dir, d);
    }
    // ANCHOR: composite
    var sky = whole.inscattering;
    let sun_cos = dot(dir, frame.sun_dir.xyz);
    if (is_sky || view == VIEW_SKY) && !whole.reached_ground && sun_cos > cos(SUN_ANGULAR_RADIUS) {
        sky += whole.transmittance * atm.solar.rgb / (PI * SUN_ANGULAR_RADIUS * SUN_ANGULAR_RADIUS);
    }
    var color: vec3<f32>;
    if is_sky {
        color = sky * exposure;
    } else {
        color = textureLoad(scene_color, pixel, 0).rgb * segment.transmittance + segment.inscattering * exposure;
    }
    let radiance = select(segment.inscattering, sky, is_sky);
    // ANCHOR_END: composite
    switch view {
        case VIEW_FINAL: { write_color(id.xy, color); }
        case VIEW_SKY: { write_color(id.xy, sky * exposure); }
        case VIEW_INSCATTERING: { write_color(id.xy, segment.inscattering * exposure); }
        case VIEW_TRANSMITTANCE: { write_scalar(id.xy, dot(segment.transmittance, vec3(1.0 / 3.0))); }
        case VIEW_LUMINANCE: { write_scalar(id.xy, dot(radiance * SKY_LUMINANCE, vec3(0.2126, 0.7152, 0.0722))); }
        default: { write_scalar(id.xy, 0.0); }
    }
}
