// The shared sky's tables as a reader sees them: Bruneton's (2017, "Precomputed Atmospheric
// Scattering: a New Implementation"; 2008 with Neyret, "Precomputed Atmospheric Scattering")
// atmosphere uniform and the parameterisations of his lookup textures, coordinates to texture
// (the inverses, texel to coordinates, belong to the lending chapter's precomputation):
// - transmittance (r, μ): x_μ from the distance to the top of the atmosphere, x_r from the
//   distance to the horizon;
// - scattering (r, μ, μ_s, ν) in a 3D texture: r as for transmittance, μ split into rays that hit
//   the ground (lower half) and rays that do not (upper half), μ_s from the distance to the top
//   at ground level with a cut at μ_s_min, ν linear; ν and μ_s share the texture's x axis; the
//   tables hold scattering without its phase function, which a reader applies (Rayleigh's,
//   and Cornette–Shanks for Mie, below);
// - irradiance (r, μ_s): both linear.
// All coordinates map 0 and 1 to texel centres. Units: metres, 1/m, W/m²/nm. The planet's
// centre lies on the −Y axis below the camera.
// The core's side of this layout is `fogbook_core::shared_sky` (chapters/core/src/shared_sky.rs:
// the group-3 bindings and the stand-ins bound without the sky, an all-zero uniform); the sky
// that lends them fills the tables (its precomputation imports this file) and any later stage
// reads them through common/sky_light.wgsl. `AtmosphereParams` mirrors the sky's
// `AtmosphereUniform` (in the lending chapter's crate; checked in tests/contracts.rs).

struct AtmosphereParams {
    radii: vec4<f32>,    // x: ground radius; y: top radius (m); z: added camera altitude (m); w: exposure
    rayleigh: vec4<f32>, // rgb: scattering (1/m); w: scale height (m)
    mie: vec4<f32>,      // x: scattering; y: extinction (1/m); z: scale height (m); w: g
    ozone: vec4<f32>,    // rgb: absorption at the peak (1/m); w: ground albedo
    solar: vec4<f32>,    // rgb: solar irradiance at the top (W/m²/nm); w: sun angular radius (rad)
    view: u32,           // the debug view
    scattering_orders: u32,
    horizon_blend_on: u32,  // 1: blend two rays across the horizon
    _pad0: u32,
    sizes: vec4<u32>,    // scattering texture: x ν, y μ_s, z μ, w r
    mu_s_min: f32,       // lowest sun-zenith cosine the scattering texture covers
    horizon_blend_half_width: f32, // as a cosine
    lut_slice: f32,      // the LUT views' r slice (0..1)
    _pad1: f32,
}

// TRANSMITTANCE_SIZE and IRRADIANCE_SIZE, the 2D tables' texels, come from Rust
// (fogbook_core::shared_sky); PI from the core's constants too.

fn safe_sqrt(a: f32) -> f32 {
    return sqrt(max(a, 0.0));
}

fn clamp_cosine(mu: f32) -> f32 {
    return clamp(mu, -1.0, 1.0);
}

fn clamp_radius(atm: AtmosphereParams, r: f32) -> f32 {
    return clamp(r, atm.radii.x, atm.radii.y);
}

// ANCHOR: geometry
fn distance_to_top(atm: AtmosphereParams, r: f32, mu: f32) -> f32 {
    let disc = r * r * (mu * mu - 1.0) + atm.radii.y * atm.radii.y;
    return max(-r * mu + safe_sqrt(disc), 0.0);
}

// r² − bottom², as (r − bottom)(r + bottom): near the ground the naive difference of two
// numbers near 4·10¹³ m² keeps no digit of a few metres' altitude in f32.
fn squared_horizon_distance(atm: AtmosphereParams, r: f32) -> f32 {
    return (r - atm.radii.x) * (r + atm.radii.x);
}

fn hits_ground(atm: AtmosphereParams, r: f32, mu: f32) -> bool {
    return mu < 0.0 && (r * mu) * (r * mu) - squared_horizon_distance(atm, r) >= 0.0;
}

fn distance_to_ground(atm: AtmosphereParams, r: f32, mu: f32) -> f32 {
    let disc = (r * mu) * (r * mu) - squared_horizon_distance(atm, r);
    return max(-r * mu - safe_sqrt(disc), 0.0);
}

fn distance_to_nearest_boundary(atm: AtmosphereParams, r: f32, mu: f32, ground: bool) -> f32 {
    if ground {
        return distance_to_ground(atm, r, mu);
    }
    return distance_to_top(atm, r, mu);
}
// ANCHOR_END: geometry

fn coord_from_unit_range(x: f32, size: f32) -> f32 {
    return 0.5 / size + x * (1.0 - 1.0 / size);
}

fn unit_range_from_coord(u: f32, size: f32) -> f32 {
    return (u - 0.5 / size) / (1.0 - 1.0 / size);
}

// ANCHOR: transmittance_uv
fn transmittance_uv(atm: AtmosphereParams, r: f32, mu: f32) -> vec2<f32> {
    let horizon = sqrt(atm.radii.y * atm.radii.y - atm.radii.x * atm.radii.x);
    let rho = safe_sqrt(squared_horizon_distance(atm, r));
    let d = distance_to_top(atm, r, mu);
    let d_min = atm.radii.y - r;
    let d_max = rho + horizon;
    let x_mu = (d - d_min) / (d_max - d_min);
    return vec2(coord_from_unit_range(x_mu, TRANSMITTANCE_SIZE.x), coord_from_unit_range(rho / horizon, TRANSMITTANCE_SIZE.y));
}
// ANCHOR_END: transmittance_uv

fn transmittance_to_top(atm: AtmosphereParams, lut: texture_2d<f32>, s: sampler, r: f32, mu: f32) -> vec3<f32> {
    return textureSampleLevel(lut, s, transmittance_uv(atm, r, mu), 0.0).rgb;
}

// ANCHOR: transmittance_between
// Transmittance over the segment of length d from (r, μ): a ratio of two values to the top of
// the atmosphere; for rays that hit the ground both are taken in the reversed direction, so that
// neither passes through the planet.
fn transmittance_along(
    atm: AtmosphereParams,
    lut: texture_2d<f32>,
    s: sampler,
    r: f32,
    mu: f32,
    d: f32,
    ground: bool,
) -> vec3<f32> {
    let r_d = clamp_radius(atm, sqrt(d * d + 2.0 * r * mu * d + r * r));
    let mu_d = clamp_cosine((r * mu + d) / r_d);
    if ground {
        return min(transmittance_to_top(atm, lut, s, r_d, -mu_d)
            / max(transmittance_to_top(atm, lut, s, r, -mu), vec3(1e-30)), vec3(1.0));
    }
    return min(transmittance_to_top(atm, lut, s, r, mu)
        / max(transmittance_to_top(atm, lut, s, r_d, mu_d), vec3(1e-30)), vec3(1.0));
}

// Transmittance to the sun, faded over the part of the sun's disc below the horizon.
fn transmittance_to_sun(atm: AtmosphereParams, lut: texture_2d<f32>, s: sampler, r: f32, mu_s: f32) -> vec3<f32> {
    let sin_h = atm.radii.x / r;
    let cos_h = -safe_sqrt(1.0 - sin_h * sin_h);
    let alpha = atm.solar.w;
    return transmittance_to_top(atm, lut, s, r, mu_s) * smoothstep(-sin_h * alpha, sin_h * alpha, mu_s - cos_h);
}
// ANCHOR_END: transmittance_between

// ANCHOR: scattering_uvwz
// Texture coordinates (u_ν, u_μs, u_μ, u_r) of the 4D scattering function.
fn scattering_uvwz(atm: AtmosphereParams, r: f32, mu: f32, mu_s: f32, nu: f32, ground: bool) -> vec4<f32> {
    let size = vec4<f32>(atm.sizes);
    let bottom = atm.radii.x;
    let top = atm.radii.y;
    let horizon = sqrt(top * top - bottom * bottom);
    let rho = safe_sqrt(squared_horizon_distance(atm, r));
    let u_r = coord_from_unit_range(rho / horizon, size.w);
    // μ: the distance to the ground (lower half) or to the top (upper half), each normalised
    // between its values straight down/up and at the horizon.
    let r_mu = r * mu;
    let disc = r_mu * r_mu - rho * rho;
    var u_mu: f32;
    if ground {
        let d = -r_mu - safe_sqrt(disc);
        let d_min = r - bottom;
        let d_max = rho;
        var x = 0.0;
        if d_max > d_min {
            x = (d - d_min) / (d_max - d_min);
        }
        u_mu = 0.5 - 0.5 * coord_from_unit_range(x, size.z / 2.0);
    } else {
        let d = -r_mu + safe_sqrt(disc + horizon * horizon);
        let d_min = top - r;
        let d_max = rho + horizon;
        u_mu = 0.5 + 0.5 * coord_from_unit_range((d - d_min) / (d_max - d_min), size.z / 2.0);
    }
    // μ_s: the distance to the top from the ground in the sun's direction, compressed so that
    // μ_s_min maps to 0 and more texels go to sun elevations near the horizon.
    let d = distance_to_top(atm, bottom, mu_s);
    let d_min = top - bottom;
    let d_max = horizon;
    let a = (d - d_min) / (d_max - d_min);
    let big_a = (distance_to_top(atm, bottom, atm.mu_s_min) - d_min) / (d_max - d_min);
    let u_mu_s = coord_from_unit_range(max(1.0 - a / big_a, 0.0) / (1.0 + a), size.y);
    return vec4((nu + 1.0) / 2.0, u_mu_s, u_mu, u_r);
}
// ANCHOR_END: scattering_uvwz

// ANCHOR: get_scattering
// The 4D function at (r, μ, μ_s, ν): two trilinear samples, interpolated along ν by hand.
fn get_scattering(
    atm: AtmosphereParams,
    tex: texture_3d<f32>,
    s: sampler,
    r: f32,
    mu: f32,
    mu_s: f32,
    nu: f32,
    ground: bool,
) -> vec3<f32> {
    let size = vec4<f32>(atm.sizes);
    let uvwz = scattering_uvwz(atm, r, mu, mu_s, nu, ground);
    let x = uvwz.x * (size.x - 1.0);
    let x0 = floor(x);
    let f = x - x0;
    let uvw0 = vec3((x0 + uvwz.y) / size.x, uvwz.z, uvwz.w);
    let uvw1 = vec3((x0 + 1.0 + uvwz.y) / size.x, uvwz.z, uvwz.w);
    return mix(textureSampleLevel(tex, s, uvw0, 0.0).rgb, textureSampleLevel(tex, s, uvw1, 0.0).rgb, f);
}
// ANCHOR_END: get_scattering

fn irradiance_uv(atm: AtmosphereParams, r: f32, mu_s: f32) -> vec2<f32> {
    let x_r = (r - atm.radii.x) / (atm.radii.y - atm.radii.x);
    let x_mu_s = mu_s * 0.5 + 0.5;
    return vec2(coord_from_unit_range(x_mu_s, IRRADIANCE_SIZE.x), coord_from_unit_range(x_r, IRRADIANCE_SIZE.y));
}

fn get_irradiance(atm: AtmosphereParams, tex: texture_2d<f32>, s: sampler, r: f32, mu_s: f32) -> vec3<f32> {
    return textureSampleLevel(tex, s, irradiance_uv(atm, r, mu_s), 0.0).rgb;
}

fn rayleigh_phase(nu: f32) -> f32 {
    return 3.0 * (1.0 + nu * nu) / (16.0 * PI);
}

// Cornette–Shanks, as in Bruneton 2017.
fn mie_phase(g: f32, nu: f32) -> f32 {
    let k = 3.0 / (8.0 * PI) * (1.0 - g * g) / (2.0 + g * g);
    return k * (1.0 + nu * nu) / pow(max(1.0 + g * g - 2.0 * g * nu, 1e-6), 1.5);
}
