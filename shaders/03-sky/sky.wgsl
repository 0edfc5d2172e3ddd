// Sky, planet ground and aerial perspective from Bruneton's precomputed textures (Bruneton 2017,
// "Precomputed Atmospheric Scattering: a New Implementation", GetSkyRadiance,
// GetSkyRadianceToPoint, GetSunAndSkyIrradiance): per pixel a few texture lookups, no ray march.
// Scene pixels get the light scattered between the camera and the surface (the difference of
// two lookups, one at the camera and one at the surface) and its transmittance. Close to the
// horizon that difference switches between the texture's ground and sky halves, which can band;
// `horizon_blend_deg` (off by default: no jump measured at the full texture size) blends two
// rays just above and below the horizon instead.
// Inputs: scene colour and distance, the LUTs. Output: the selected view.
// #import common/scene_inputs.wgsl
// #import common/range.wgsl
// #import 03-sky/atmosphere.wgsl

@group(2) @binding(0) var<uniform> atm: AtmosphereParams;
@group(2) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(2) @binding(2) var lut_sampler: sampler;
@group(2) @binding(3) var scattering_lut: texture_3d<f32>;
@group(2) @binding(4) var single_mie_lut: texture_3d<f32>;
@group(2) @binding(5) var single_rayleigh_lut: texture_3d<f32>;
@group(2) @binding(6) var irradiance_lut: texture_2d<f32>;
@group(2) @binding(7) var density_lut: texture_3d<f32>;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

// Which orders of scattering to show.
const ALL_ORDERS: u32 = 0u;
const SINGLE_ONLY: u32 = 1u;
const MULTIPLE_ONLY: u32 = 2u;

// Spectral radiance at 680 / 550 / 440 nm to linear sRGB luminance (cd/m²), Bruneton 2017;
// the luminance view weighs the three by Rec. 709.
const SKY_LUMINANCE: vec3<f32> = vec3(114974.916, 71305.955, 65310.549);

struct Scattering {
    rayleigh: vec3<f32>, // without its phase function
    mie: vec3<f32>,
}

fn scattering_at(r: f32, mu: f32, mu_s: f32, nu: f32, ground: bool, orders: u32) -> Scattering {
    var s: Scattering;
    let all = get_scattering(atm, scattering_lut, lut_sampler, r, mu, mu_s, nu, ground);
    if orders == ALL_ORDERS {
        s.rayleigh = all;
    } else {
        let single = get_scattering(atm, single_rayleigh_lut, lut_sampler, r, mu, mu_s, nu, ground);
        s.rayleigh = select(all - single, single, orders == SINGLE_ONLY);
    }
    if orders != MULTIPLE_ONLY {
        s.mie = get_scattering(atm, single_mie_lut, lut_sampler, r, mu, mu_s, nu, ground);
    }
    return s;
}

fn phased(s: Scattering, nu: f32) -> vec3<f32> {
    return max(s.rayleigh * rayleigh_phase(nu) + s.mie * mie_phase(atm.mie.w, nu), vec3(0.0));
}

struct Radiance {
    inscattering: vec3<f32>, // W/m²/sr/nm
    transmittance: vec3<f32>,
}

// A viewer at radius r (possibly in space) looking along μ; the sun at μ_s, ν.
struct Ray {
    r: f32,
    mu: f32,
    mu_s: f32,
    nu: f32,
    // How far the viewer moved to reach the top of the atmosphere (0 inside it).
    entry: f32,
    // False when the ray misses the atmosphere altogether.
    in_atmosphere: bool,
}

fn camera_ray(dir: vec3<f32>) -> Ray {
    var ray: Ray;
    ray.r = atm.radii.x + max(frame.camera_pos.y + atm.radii.z, 1.0);
    ray.mu = clamp_cosine(dir.y);
    ray.mu_s = frame.sun_dir.y;
    ray.nu = dot(dir, frame.sun_dir.xyz);
    ray.in_atmosphere = true;
    // From space: move the viewer to where the ray enters the atmosphere.
    if ray.r > atm.radii.y {
        let r_mu = ray.r * ray.mu;
        let disc = r_mu * r_mu - ray.r * ray.r + atm.radii.y * atm.radii.y;
        let entry = -r_mu - safe_sqrt(disc);
        if disc < 0.0 || entry < 0.0 {
            ray.in_atmosphere = false;
            return ray;
        }
        ray.entry = entry;
        ray.mu = clamp_cosine((r_mu + entry) / atm.radii.y);
        ray.mu_s = clamp_cosine((ray.r * ray.mu_s + entry * ray.nu) / atm.radii.y);
        ray.r = atm.radii.y;
    }
    return ray;
}

// ANCHOR: radiance_to_point
// Light scattered into the ray between the viewer and a point at distance d, and the
// transmittance over that segment: the scattering from the viewer to the end of the atmosphere
// minus the transmittance-weighted scattering from the point on.
fn radiance_to_point_raw(ray: Ray, mu: f32, d: f32, ground: bool, orders: u32) -> Radiance {
    var out: Radiance;
    out.transmittance = transmittance_along(atm, transmittance_lut, lut_sampler, ray.r, mu, d, ground);
    let at_viewer = scattering_at(ray.r, mu, ray.mu_s, ray.nu, ground, orders);
    let r_p = clamp_radius(atm, sqrt(d * d + 2.0 * ray.r * mu * d + ray.r * ray.r));
    let mu_p = clamp_cosine((ray.r * mu + d) / r_p);
    let mu_s_p = clamp_cosine((ray.r * ray.mu_s + d * ray.nu) / r_p);
    let at_point = scattering_at(r_p, mu_p, mu_s_p, ray.nu, ground, orders);
    var s: Scattering;
    s.rayleigh = at_viewer.rayleigh - out.transmittance * at_point.rayleigh;
    // Bruneton's guard: the Mie difference is unreliable once the sun has set.
    s.mie = (at_viewer.mie - out.transmittance * at_point.mie) * smoothstep(0.0, 0.01, ray.mu_s);
    out.inscattering = phased(s, ray.nu);
    return out;
}

fn radiance_to_point(ray: Ray, d: f32, orders: u32) -> Radiance {
    let mu_horizon = -safe_sqrt(squared_horizon_distance(atm, ray.r)) / ray.r;
    let half_width = atm.horizon_blend_half_width;
    if atm.horizon_blend_on == 1u && abs(ray.mu - mu_horizon) < half_width {
        // Two rays just below and above the horizon, interpolated: no jump between halves.
        let below = radiance_to_point_raw(ray, mu_horizon - half_width, d, true, orders);
        let above = radiance_to_point_raw(ray, mu_horizon + half_width, d, false, orders);
        let f = (ray.mu - (mu_horizon - half_width)) / (2.0 * half_width);
        var out: Radiance;
        out.inscattering = mix(below.inscattering, above.inscattering, f);
        out.transmittance = mix(below.transmittance, above.transmittance, f);
        return out;
    }
    return radiance_to_point_raw(ray, ray.mu, d, hits_ground(atm, ray.r, ray.mu), orders);
}
// ANCHOR_END: radiance_to_point

// ANCHOR: sky_radiance
// Everything a ray sees without the test scene: the sky, the sun's disc, or the planet's ground
// lit by the sun and the sky (Lambertian, `ground_albedo`).
fn sky_radiance(dir: vec3<f32>, orders: u32) -> Radiance {
    var out: Radiance;
    out.transmittance = vec3(1.0);
    let ray = camera_ray(dir);
    if !ray.in_atmosphere {
        return out;
    }
    if !hits_ground(atm, ray.r, ray.mu) {
        out.inscattering = phased(scattering_at(ray.r, ray.mu, ray.mu_s, ray.nu, false, orders), ray.nu);
        out.transmittance = transmittance_to_top(atm, transmittance_lut, lut_sampler, ray.r, ray.mu);
        if ray.nu > cos(atm.solar.w) && orders != MULTIPLE_ONLY {
            let disc = atm.solar.rgb / (PI * atm.solar.w * atm.solar.w);
            out.inscattering += out.transmittance * disc;
        }
        return out;
    }
    let d = distance_to_ground(atm, ray.r, ray.mu);
    let to_ground = radiance_to_point(ray, d, orders);
    let r_p = atm.radii.x;
    let mu_s_p = clamp_cosine((ray.r * ray.mu_s + d * ray.nu) / r_p);
    // The sun lights the ground directly (with single scattering), the sky with every order.
    var irradiance = vec3(0.0);
    if orders != SINGLE_ONLY {
        irradiance += get_irradiance(atm, irradiance_lut, lut_sampler, r_p, mu_s_p);
    }
    if orders != MULTIPLE_ONLY {
        irradiance += atm.solar.rgb * transmittance_to_sun(atm, transmittance_lut, lut_sampler, r_p, mu_s_p)
            * max(mu_s_p, 0.0);
    }
    out.inscattering = to_ground.inscattering + to_ground.transmittance * atm.ozone.w / PI * irradiance;
    out.transmittance = to_ground.transmittance;
    return out;
}
// ANCHOR_END: sky_radiance

// The texels of one r slice of a 4D texture (`lut_slice`): ν blocks with μ_s inside each
// across, μ up. Texel values as stored, without filtering.
fn write_lut_slice(pixel: vec2<u32>, tex: texture_3d<f32>, uv: vec2<f32>) {
    let size = textureDimensions(tex);
    let z = u32(round(atm.lut_slice * f32(size.z - 1u)));
    let xy = min(vec2<u32>(vec2(uv.x, 1.0 - uv.y) * vec2<f32>(size.xy)), size.xy - vec2(1u));
    let value = textureLoad(tex, vec3(xy, z), 0).rgb;
    if atm.view == VIEW_DENSITY_LUT {
        let v = dot(value, vec3(1.0 / 3.0));
        write_scalar(pixel, v);
        if v > 0.0 {
            atomicMin(&view_range[0], range_encode(v));
            atomicMax(&view_range[1], range_encode(v));
        }
    } else {
        // Stored without a phase function: shown as for an isotropic one, 1/(4π), to be on the
        // scale of the sky.
        write_color(pixel, value * atm.radii.w / (4.0 * PI));
    }
}

@compute @workgroup_size(8, 8, 1)
fn sky(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let view = atm.view;
    let exposure = atm.radii.w;
    let uv = (vec2<f32>(id.xy) + vec2(0.5)) / vec2<f32>(size);
    switch view {
        case VIEW_TRANSMITTANCE_LUT: {
            // μ across (x_μ), altitude up (x_r grows upwards).
            write_color(id.xy, textureSampleLevel(transmittance_lut, lut_sampler, vec2(uv.x, 1.0 - uv.y), 0.0).rgb);
            return;
        }
        case VIEW_IRRADIANCE_LUT: {
            // μ_s across, altitude up; sky irradiance (all orders) × exposure.
            let e = textureSampleLevel(irradiance_lut, lut_sampler, vec2(uv.x, 1.0 - uv.y), 0.0).rgb;
            write_color(id.xy, e * exposure);
            return;
        }
        case VIEW_SCATTERING_LUT: {
            write_lut_slice(id.xy, scattering_lut, uv);
            return;
        }
        case VIEW_MIE_LUT: {
            write_lut_slice(id.xy, single_mie_lut, uv);
            return;
        }
        case VIEW_DENSITY_LUT: {
            write_lut_slice(id.xy, density_lut, uv);
            return;
        }
        default: {}
    }
    let pixel = vec2<i32>(id.xy);
    let dir = view_ray_dir(frame, vec2<f32>(id.xy));
    let d = textureLoad(scene_distance, pixel, 0).r;
    let is_sky = d >= frame.sky_distance_m * 0.999 || view == VIEW_SKY;
    var orders = ALL_ORDERS;
    if view == VIEW_SINGLE_SCATTERING {
        orders = SINGLE_ONLY;
    } else if view == VIEW_MULTIPLE_SCATTERING {
        orders = MULTIPLE_ONLY;
    }
    // ANCHOR: composite
    var radiance: Radiance;
    var color: vec3<f32>;
    if is_sky {
        radiance = sky_radiance(dir, orders);
        color = radiance.inscattering * exposure;
    } else {
        let ray = camera_ray(dir);
        radiance.transmittance = vec3(1.0);
        if ray.in_atmosphere {
            radiance = radiance_to_point(ray, max(d - ray.entry, 0.0), orders);
        }
        color = textureLoad(scene_color, pixel, 0).rgb * radiance.transmittance + radiance.inscattering * exposure;
        if view == VIEW_MULTIPLE_SCATTERING || view == VIEW_SINGLE_SCATTERING {
            color = radiance.inscattering * exposure;
        }
    }
    // ANCHOR_END: composite
    switch view {
        case VIEW_AERIAL_INSCATTERING: { write_color(id.xy, radiance.inscattering * exposure); }
        case VIEW_AERIAL_TRANSMITTANCE: { write_scalar(id.xy, dot(radiance.transmittance, vec3(1.0 / 3.0))); }
        case VIEW_LUMINANCE: {
            // What the eye sees, back in physical units (the scene is lit in radiance × exposure).
            write_scalar(id.xy, dot(color / exposure * SKY_LUMINANCE, vec3(0.2126, 0.7152, 0.0722)));
        }
        default: { write_color(id.xy, color); }
    }
}
