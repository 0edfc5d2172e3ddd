// Earth's atmosphere after Bruneton (2017, "Precomputed Atmospheric Scattering: a New
// Implementation"; 2008 with Neyret): Rayleigh and Mie scattering with exponential density
// profiles, an ozone layer with a tent profile (10–40 km, peak 25 km), and the parameterisation
// of the transmittance texture by (r, μ): x_μ from the distance to the top of the atmosphere,
// x_r from the distance to the horizon, both mapped onto texel centres.
// Units: metres, 1/m. The planet's centre lies on the −Y axis below the camera.

struct AtmosphereParams {
    radii: vec4<f32>,    // x: ground radius; y: top radius (m); z: added camera altitude (m); w: exposure
    rayleigh: vec4<f32>, // rgb: scattering (1/m); w: scale height (m)
    mie: vec4<f32>,      // x: scattering; y: extinction (1/m); z: scale height (m); w: g
    ozone: vec4<f32>,    // rgb: absorption at the peak (1/m)
    solar: vec4<f32>,    // rgb: solar irradiance at the top (W/m²/nm)
    mode: vec4<u32>,     // x: debug view; y: ray-march steps
}

const PI: f32 = 3.14159265358979;
const TRANSMITTANCE_SIZE: vec2<f32> = vec2(256.0, 64.0);

fn extinction_at(atm: AtmosphereParams, altitude: f32) -> vec3<f32> {
    let rayleigh = exp(-altitude / atm.rayleigh.w);
    let mie = exp(-altitude / atm.mie.z);
    let ozone = clamp(1.0 - abs(altitude - 25000.0) / 15000.0, 0.0, 1.0);
    return atm.rayleigh.rgb * rayleigh + vec3(atm.mie.y * mie) + atm.ozone.rgb * ozone;
}

fn distance_to_top(atm: AtmosphereParams, r: f32, mu: f32) -> f32 {
    let disc = r * r * (mu * mu - 1.0) + atm.radii.y * atm.radii.y;
    return max(-r * mu + sqrt(max(disc, 0.0)), 0.0);
}

fn hits_ground(atm: AtmosphereParams, r: f32, mu: f32) -> bool {
    return mu < 0.0 && r * r * (mu * mu - 1.0) + atm.radii.x * atm.radii.x >= 0.0;
}

fn distance_to_ground(atm: AtmosphereParams, r: f32, mu: f32) -> f32 {
    let disc = r * r * (mu * mu - 1.0) + atm.radii.x * atm.radii.x;
    return max(-r * mu - sqrt(max(disc, 0.0)), 0.0);
}

fn coord_from_unit_range(x: f32, size: f32) -> f32 {
    return 0.5 / size + x * (1.0 - 1.0 / size);
}

fn unit_range_from_coord(u: f32, size: f32) -> f32 {
    return (u - 0.5 / size) / (1.0 - 1.0 / size);
}

// ANCHOR: transmittance_uv
fn transmittance_uv(atm: AtmosphereParams, r: f32, mu: f32) -> vec2<f32> {
    let horizon = sqrt(atm.radii.y * atm.radii.y - atm.radii.x * atm.radii.x);
    let rho = sqrt(max(r * r - atm.radii.x * atm.radii.x, 0.0));
    let d = distance_to_top(atm, r, mu);
    let d_min = atm.radii.y - r;
    let d_max = rho + horizon;
    let x_mu = (d - d_min) / (d_max - d_min);
    return vec2(coord_from_unit_range(x_mu, TRANSMITTANCE_SIZE.x), coord_from_unit_range(rho / horizon, TRANSMITTANCE_SIZE.y));
}
// ANCHOR_END: transmittance_uv

// (r, μ) of a transmittance-texture coordinate.
fn transmittance_r_mu(atm: AtmosphereParams, uv: vec2<f32>) -> vec2<f32> {
    let x_mu = unit_range_from_coord(uv.x, TRANSMITTANCE_SIZE.x);
    let x_r = unit_range_from_coord(uv.y, TRANSMITTANCE_SIZE.y);
    let horizon = sqrt(atm.radii.y * atm.radii.y - atm.radii.x * atm.radii.x);
    let rho = horizon * x_r;
    let r = sqrt(rho * rho + atm.radii.x * atm.radii.x);
    let d_min = atm.radii.y - r;
    let d_max = rho + horizon;
    let d = d_min + x_mu * (d_max - d_min);
    var mu = 1.0;
    if d > 0.0 {
        mu = clamp((horizon * horizon - rho * rho - d * d) / (2.0 * r * d), -1.0, 1.0);
    }
    return vec2(r, mu);
}

fn rayleigh_phase(nu: f32) -> f32 {
    return 3.0 * (1.0 + nu * nu) / (16.0 * PI);
}

// Cornette–Shanks, as in Bruneton 2017.
fn mie_phase(g: f32, nu: f32) -> f32 {
    let k = 3.0 / (8.0 * PI) * (1.0 - g * g) / (2.0 + g * g);
    return k * (1.0 + nu * nu) / pow(max(1.0 + g * g - 2.0 * g * nu, 1e-6), 1.5);
}
