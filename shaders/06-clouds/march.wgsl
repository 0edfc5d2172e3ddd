// Volumetric clouds, the full-resolution reference march (Schneider & Vos 2015; Hillaire 2016,
// "Physically Based Sky, Atmosphere and Cloud Rendering in Frostbite"). Per pixel: the stretch
// of the view ray inside the cloud layer, before the scene's surface, in `view steps` equal
// steps (jittered per pixel); at each step with cloud, the density, a light march towards the
// sun and the octaves of scattered sun light plus the ambient light, integrated with Hillaire's
// energy-conserving step (the source times (1 − e^(−σt Δ)) / σt, not times Δ); the march stops
// once the transmittance is below 10⁻³. Over the colour so far (the sky, or the scene with its
// aerial perspective) the clouds are laid with the sky's aerial perspective between the eye and
// the clouds (the sky's tables; none without the sky):
//   colour · T_cloud + T_air(d) · L_cloud + (1 − T_cloud) · L_air(d),
// d the transmittance-weighted mean distance of the cloud's light.
// Stage: clouds (after the sky). Output: the colour, or the debug view, into `view_out`.
// The real-time mode (realtime.wgsl) calls the same march for a sixteenth of the pixels.
// #import common/scene_inputs.wgsl
// #import common/noise.wgsl
// #import 06-clouds/lighting.wgsl

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.
// Views 11–13 are the real-time mode's (realtime.wgsl); the shadow map's is drawn by
// shadow_map.wgsl's `cloud_shadow_view` and never reaches the march.

const MIN_TRANSMITTANCE: f32 = 1e-3;
// The end of a view ray that meets no surface.
const NO_END: f32 = 3.4e38;

// ANCHOR: march_result
struct March {
    octaves: array<vec3<f32>, MAX_OCTAVES>, // sun light of each octave reaching the eye
    ambient: vec3<f32>,
    transmittance: f32,
    max_density: f32,
    light_transmittance: f32, // opacity-weighted mean of e^(−τ_sun)
    steps: u32,
    distance: f32,            // transmittance-weighted mean distance of the cloud's light (m)
}
// ANCHOR_END: march_result

fn march(o: vec3<f32>, dir: vec3<f32>, end: f32, jitter: f32) -> March {
    var m: March;
    m.transmittance = 1.0;
    let segment = layer_segment(o, dir, end);
    if segment.y <= segment.x {
        return m;
    }
    let n = max(clouds.counts.x, 1u);
    let ds = (segment.y - segment.x) / f32(n);
    let sigma_t = clouds.medium.x;
    let albedo = clouds.medium.y;
    let cos_theta = dot(dir, frame.sun_dir.xyz);
    var opacity_sum = 0.0;
    var weighted_distance = 0.0;
    var weighted_light = 0.0;
    // ANCHOR: march
    for (var i = 0u; i < n; i++) {
        let t = segment.x + (f32(i) + jitter) * ds;
        let p = o + dir * t;
        let r = radius_at(p);
        m.steps++;
        let density = cloud_density(p, r, true, ds);
        if density <= 0.0 {
            continue;
        }
        m.max_density = max(m.max_density, density);
        let mu_s = sun_zenith_cosine(p, r);
        let tau_sun = light_optical_depth(p);
        let lit = sun_octaves(sun_at(r, mu_s), cos_theta, tau_sun);
        // Energy-conserving step: what the step scatters towards the eye, per unit source.
        let step_t = exp(-sigma_t * density * ds);
        let weight = m.transmittance * (1.0 - step_t) * albedo;
        for (var k = 0u; k < MAX_OCTAVES; k++) {
            m.octaves[k] += weight * lit[k];
        }
        m.ambient += weight * ambient_light(mu_s, height_fraction(r));
        let opacity = m.transmittance * (1.0 - step_t);
        opacity_sum += opacity;
        weighted_distance += opacity * t;
        weighted_light += opacity * exp(-tau_sun);
        m.transmittance *= step_t;
        if m.transmittance < MIN_TRANSMITTANCE {
            break;
        }
    }
    // ANCHOR_END: march
    m.distance = select(segment.x, weighted_distance / opacity_sum, opacity_sum > 0.0);
    m.light_transmittance = select(1.0, weighted_light / opacity_sum, opacity_sum > 0.0);
    return m;
}

// ANCHOR: aerial_perspective
struct Air {
    inscattering: vec3<f32>, // units of the colour (× exposure)
    transmittance: vec3<f32>,
}

// The sky's light scattered into the ray over its first d metres and the transmittance over
// them, from the shared tables: Bruneton's GetSkyRadianceToPoint, as chapter 3's sky.wgsl
// computes it for the scene (that file binds its own copies of the tables, so it cannot be
// imported here). Without the sky in the stack: no air.
fn air_to(dir: vec3<f32>, d_in: f32) -> Air {
    var air: Air;
    air.transmittance = vec3(1.0);
    if !sky_in_stack() || clouds.light.w < 0.5 {
        return air;
    }
    let atm = shared_atmosphere;
    var r = atm.radii.x + max(frame.camera_pos.y + atm.radii.z, 1.0);
    var mu = clamp_cosine(dir.y);
    var mu_s = frame.sun_dir.y;
    let nu = dot(dir, frame.sun_dir.xyz);
    var d = d_in;
    if r > atm.radii.y {
        // From space: start where the ray enters the atmosphere.
        let r_mu = r * mu;
        let entry = -r_mu - safe_sqrt(r_mu * r_mu - r * r + atm.radii.y * atm.radii.y);
        if entry < 0.0 || entry > d {
            return air;
        }
        mu = clamp_cosine((r_mu + entry) / atm.radii.y);
        mu_s = clamp_cosine((r * mu_s + entry * nu) / atm.radii.y);
        r = atm.radii.y;
        d -= entry;
    }
    let ground = hits_ground(atm, r, mu);
    air.transmittance = transmittance_along(atm, shared_transmittance, shared_sampler, r, mu, d, ground);
    let r_p = clamp_radius(atm, sqrt(d * d + 2.0 * r * mu * d + r * r));
    let mu_p = clamp_cosine((r * mu + d) / r_p);
    let mu_s_p = clamp_cosine((r * mu_s + d * nu) / r_p);
    let rayleigh = get_scattering(atm, shared_scattering, shared_sampler, r, mu, mu_s, nu, ground)
        - air.transmittance * get_scattering(atm, shared_scattering, shared_sampler, r_p, mu_p, mu_s_p, nu, ground);
    let mie = (get_scattering(atm, shared_single_mie, shared_sampler, r, mu, mu_s, nu, ground)
        - air.transmittance * get_scattering(atm, shared_single_mie, shared_sampler, r_p, mu_p, mu_s_p, nu, ground))
        * smoothstep(0.0, 0.01, mu_s);
    let light = rayleigh * rayleigh_phase(nu) + mie * mie_phase(atm.mie.w, nu);
    air.inscattering = max(light, vec3(0.0)) * atm.radii.w;
    return air;
}
// ANCHOR_END: aerial_perspective

// ANCHOR: noise_views
// A slice (at `noise slice`) of a noise texture, half a tile square around a corner where four
// tiles meet, so that a seam would cross the middle of each of four panels (r | g over b | a). The detail's fourth
// panel is its r channel two mip levels down; the weather map's, the coverage after the
// `coverage` parameter's remap.
fn noise_panel(pixel: vec2<u32>, size: vec2<u32>, which: u32) -> f32 {
    let half = max(size / 2u, vec2(1u));
    let panel = min(pixel / half, vec2(1u));
    let channel = panel.x + 2u * panel.y;
    let uv = (vec2<f32>(pixel % half) + 0.5) / f32(half.y) * 0.5 + 0.75; // square texels
    let uvw = vec3(uv, clouds.light.z);
    switch which {
        case 0u: { return textureSampleLevel(base_noise, noise_sampler, uvw, 0.0)[channel]; }
        case 1u: {
            let lod = select(0.0, 2.0, channel == 3u);
            return textureSampleLevel(detail_noise, noise_sampler, uvw, lod)[channel % 3u];
        }
        default: {
            let weather = textureSampleLevel(weather_map, noise_sampler, uv, 0.0);
            return select(weather[channel], coverage_at(weather), channel == 3u);
        }
    }
}
// ANCHOR_END: noise_views

// ANCHOR: pixel_ray
// Where the view ray through `pixel` ends: the scene's surface, or nowhere (3.4e38) where it
// sees the sky (the scene distance holds the sky distance, a few km, there).
fn scene_end(pixel: vec2<i32>) -> f32 {
    let end = textureLoad(scene_distance, pixel, 0).r;
    return select(end, NO_END, end >= frame.sky_distance_m * 0.999);
}

// The first step's offset (in steps) of the march through `pixel`: ½, or interleaved gradient
// noise that changes every frame.
fn pixel_jitter(pixel: vec2<u32>) -> f32 {
    if clouds.flags.y == 1u {
        return interleaved_gradient_noise(vec2<f32>(pixel) + f32(frame.frame_index % 64u) * 5.588238);
    }
    return 0.5;
}
// ANCHOR_END: pixel_ray

// The cloud's light towards the eye: every octave of the sun's and the ambient light.
fn cloud_light(m: March) -> vec3<f32> {
    return m.octaves[0] + m.octaves[1] + m.octaves[2] + m.ambient;
}

// What the clouds add to the colour behind them as the eye sees it: their light `cloud` through
// the air in front (the sky's aerial perspective at their mean distance `distance` along `dir`),
// and the air's own light where the clouds hide what is behind (1 − transmittance of it).
// Without a cloud (transmittance 1, no light) it is 0, and the sky's tables are not read.
fn cloud_through_air(dir: vec3<f32>, cloud: vec3<f32>, transmittance: f32, distance: f32) -> vec3<f32> {
    if transmittance >= 1.0 && all(cloud == vec3(0.0)) {
        return vec3(0.0);
    }
    // ANCHOR: composite
    let air = air_to(dir, distance);
    return air.transmittance * cloud + (1.0 - transmittance) * air.inscattering;
    // ANCHOR_END: composite
}

// The clouds laid over the colour so far.
fn composite(color: vec3<f32>, dir: vec3<f32>, cloud: vec3<f32>, transmittance: f32, distance: f32) -> vec3<f32> {
    return color * transmittance + cloud_through_air(dir, cloud, transmittance, distance);
}

@compute @workgroup_size(8, 8, 1)
fn clouds_march(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let view = clouds.counts.w;
    switch view {
        case VIEW_BASE_NOISE: { write_scalar(id.xy, noise_panel(id.xy, size, 0u)); return; }
        case VIEW_DETAIL_NOISE: { write_scalar(id.xy, noise_panel(id.xy, size, 1u)); return; }
        case VIEW_WEATHER_MAP: { write_scalar(id.xy, noise_panel(id.xy, size, 2u)); return; }
        default: {}
    }
    let pixel = vec2<i32>(id.xy);
    let color = textureLoad(scene_color, pixel, 0).rgb;
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    var m: March;
    m.transmittance = 1.0;
    if clouds.flags.z == 1u || view != VIEW_FINAL {
        m = march(frame.camera_pos.xyz, dir, scene_end(pixel), pixel_jitter(id.xy));
    }
    switch view {
        case VIEW_DENSITY: { write_scalar(id.xy, m.max_density); }
        case VIEW_TRANSMITTANCE: { write_scalar(id.xy, m.transmittance); }
        case VIEW_LIGHT_TRANSMITTANCE: {
            textureStore(view_out, id.xy, vec4(vec3(m.light_transmittance), select(0.0, 1.0, m.transmittance < 1.0)));
        }
        case VIEW_STEP_COUNT: { write_scalar(id.xy, f32(m.steps)); }
        case VIEW_OCTAVE0: { write_color(id.xy, m.octaves[0]); }
        case VIEW_OCTAVE1: { write_color(id.xy, m.octaves[1]); }
        case VIEW_OCTAVE2: { write_color(id.xy, m.octaves[2]); }
        default: { write_color(id.xy, composite(color, dir, cloud_light(m), m.transmittance, m.distance)); }
    }
}
