// Earth's atmosphere after Bruneton (2017, "Precomputed Atmospheric Scattering: a New
// Implementation"; 2008 with Neyret, "Precomputed Atmospheric Scattering"): Rayleigh and Mie
// scattering with exponential density profiles and an ozone layer with a tent profile (10–40 km,
// peak 25 km), as the precomputation passes integrate them, and the inverses of the lookup
// textures' parameterisations (texel to (r, μ, μ_s, ν)). The uniform, the parameterisations
// themselves (coordinates to texture), the lookups and the phase functions are the shared sky's
// table layout, read by later stages too: common/atmosphere_tables.wgsl (its Rust side is
// `fogbook_core::shared_sky`). Units: metres, 1/m, W/m²/nm.
// #import common/atmosphere_tables.wgsl

fn rayleigh_density(atm: AtmosphereParams, altitude: f32) -> f32 {
    return exp(-altitude / atm.rayleigh.w);
}

fn mie_density(atm: AtmosphereParams, altitude: f32) -> f32 {
    return exp(-altitude / atm.mie.z);
}

// The ozone layer's tent: 0 below 10 km and above 40 km, 1 at its 25 km peak.
fn ozone_density(altitude: f32) -> f32 {
    return clamp(1.0 - abs(altitude - 25000.0) / 15000.0, 0.0, 1.0);
}

fn extinction_at(atm: AtmosphereParams, altitude: f32) -> vec3<f32> {
    return atm.rayleigh.rgb * rayleigh_density(atm, altitude) + vec3(atm.mie.y * mie_density(atm, altitude))
        + atm.ozone.rgb * ozone_density(altitude);
}

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
        mu = clamp_cosine((horizon * horizon - rho * rho - d * d) / (2.0 * r * d));
    }
    return vec2(r, mu);
}

struct ScatteringCoord {
    r: f32,
    mu: f32,
    mu_s: f32,
    nu: f32,
    ground: bool,
}

// The inverse of scattering_uvwz.
fn scattering_coord(atm: AtmosphereParams, uvwz: vec4<f32>) -> ScatteringCoord {
    let size = vec4<f32>(atm.sizes);
    let bottom = atm.radii.x;
    let top = atm.radii.y;
    let horizon = sqrt(top * top - bottom * bottom);
    let rho = horizon * unit_range_from_coord(uvwz.w, size.w);
    var c: ScatteringCoord;
    c.r = sqrt(rho * rho + bottom * bottom);
    if uvwz.z < 0.5 {
        let d_min = c.r - bottom;
        let d_max = rho;
        let d = d_min + (d_max - d_min) * unit_range_from_coord(1.0 - 2.0 * uvwz.z, size.z / 2.0);
        c.mu = -1.0;
        if d > 0.0 {
            c.mu = clamp_cosine(-(rho * rho + d * d) / (2.0 * c.r * d));
        }
        c.ground = true;
    } else {
        let d_min = top - c.r;
        let d_max = rho + horizon;
        let d = d_min + (d_max - d_min) * unit_range_from_coord(2.0 * uvwz.z - 1.0, size.z / 2.0);
        c.mu = 1.0;
        if d > 0.0 {
            c.mu = clamp_cosine((horizon * horizon - rho * rho - d * d) / (2.0 * c.r * d));
        }
        c.ground = false;
    }
    let x_mu_s = unit_range_from_coord(uvwz.y, size.y);
    let d_min = top - bottom;
    let d_max = horizon;
    let big_a = (distance_to_top(atm, bottom, atm.mu_s_min) - d_min) / (d_max - d_min);
    let a = (big_a - x_mu_s * big_a) / (1.0 + x_mu_s * big_a);
    let d = d_min + min(a, big_a) * (d_max - d_min);
    c.mu_s = 1.0;
    if d > 0.0 {
        c.mu_s = clamp_cosine((horizon * horizon - d * d) / (2.0 * bottom * d));
    }
    c.nu = clamp_cosine(uvwz.x * 2.0 - 1.0);
    return c;
}

// The (r, μ, μ_s, ν) a texel of the scattering texture stands for: x holds ν (in blocks of
// μ_s texels), y μ, z r. ν is clamped to the values the other three allow.
fn scattering_coord_of_texel(atm: AtmosphereParams, texel: vec3<u32>) -> ScatteringCoord {
    let size = vec4<f32>(atm.sizes);
    let frag = vec3<f32>(texel) + vec3(0.5);
    let frag_nu = floor(frag.x / size.y);
    let frag_mu_s = frag.x - frag_nu * size.y;
    let uvwz = vec4(frag_nu / (size.x - 1.0), frag_mu_s / size.y, frag.y / size.z, frag.z / size.w);
    var c = scattering_coord(atm, uvwz);
    let spread = safe_sqrt((1.0 - c.mu * c.mu) * (1.0 - c.mu_s * c.mu_s));
    c.nu = clamp(c.nu, c.mu * c.mu_s - spread, c.mu * c.mu_s + spread);
    return c;
}

fn scattering_texture_size(atm: AtmosphereParams) -> vec3<u32> {
    return vec3(atm.sizes.x * atm.sizes.y, atm.sizes.z, atm.sizes.w);
}

// (r, μ_s) of an irradiance-texture texel.
fn irradiance_r_mu_s(atm: AtmosphereParams, texel: vec2<u32>) -> vec2<f32> {
    let uv = (vec2<f32>(texel) + vec2(0.5)) / IRRADIANCE_SIZE;
    let x_mu_s = unit_range_from_coord(uv.x, IRRADIANCE_SIZE.x);
    let x_r = unit_range_from_coord(uv.y, IRRADIANCE_SIZE.y);
    return vec2(atm.radii.x + x_r * (atm.radii.y - atm.radii.x), clamp_cosine(2.0 * x_mu_s - 1.0));
}
