// The atmosphere as a participating medium, for a consumer that samples it at points (the path
// tracer of chapter 9): Bruneton's (2017, "Precomputed Atmospheric Scattering: a New
// Implementation") Rayleigh and Mie scattering and ozone absorption, from atmosphere.wgsl's
// density profiles, in the media layer's interface (common/media/medium.wgsl). Rayleigh's phase
// 3 (1 + ν²) / (16 π) is Cornette–Shanks at g = 0; Mie's is Cornette–Shanks at the atmosphere's g.
// Points are in scene coordinates: the scene's origin stands at the sky's camera altitude (at
// least 1 m, as common/sky_light.wgsl places it) above the planet's ground, the planet's centre
// straight below. A bound over a range of altitudes: both exponentials are largest at its lowest
// altitude, the ozone tent at the altitude of the range nearest its peak.
// #import common/media/medium.wgsl
// #import 03-sky/atmosphere.wgsl

// ANCHOR: altitude
// Height of the scene's origin above the planet's ground (m).
fn atmosphere_origin_altitude(atm: AtmosphereParams) -> f32 {
    return max(atm.radii.z, 1.0);
}

// Where the planet's centre is in scene coordinates.
fn atmosphere_planet_centre(atm: AtmosphereParams) -> vec3<f32> {
    return vec3(0.0, -(atm.radii.x + atmosphere_origin_altitude(atm)), 0.0);
}

// Altitude of the scene point p above the planet's ground, in a form that keeps f32's
// precision 6,360 km from the centre: with q = a + y the height above the ground's tangent
// plane at the origin and s² = x² + z², r − R = q + s² / (r + R + q).
fn atmosphere_altitude(atm: AtmosphereParams, p: vec3<f32>) -> f32 {
    let q = atmosphere_origin_altitude(atm) + p.y;
    let s2 = p.x * p.x + p.z * p.z;
    let up = atm.radii.x + q;
    return q + s2 / (sqrt(up * up + s2) + up);
}
// ANCHOR_END: altitude

// ANCHOR: atmosphere_medium
// The air (Rayleigh scattering and ozone absorption) at an altitude (m, clamped to the ground).
fn air_medium_at(atm: AtmosphereParams, altitude: f32) -> Medium {
    let h = max(altitude, 0.0);
    let scattering = atm.rayleigh.rgb * rayleigh_density(atm, h);
    let extinction = scattering + atm.ozone.rgb * ozone_density(h);
    return medium_of(extinction, scattering, vec3(0.0), 0.0, PHASE_CORNETTE_SHANKS);
}

// The aerosols (Mie scattering and absorption) at an altitude.
fn aerosol_medium_at(atm: AtmosphereParams, altitude: f32) -> Medium {
    let density = mie_density(atm, max(altitude, 0.0));
    return medium_of(vec3(atm.mie.y * density), vec3(atm.mie.x * density), vec3(0.0), atm.mie.w, PHASE_CORNETTE_SHANKS);
}

// A relative margin for f32 rounding of the altitudes a bound and a point are computed at.
const ATMOSPHERE_MARGIN: f32 = 1.001;

// A bound on both over the altitudes [low, high] (m).
fn atmosphere_majorant(atm: AtmosphereParams, low: f32, high: f32) -> Majorant {
    let h = max(low, 0.0);
    let ozone = ozone_density(clamp(25000.0, h, max(high, h)));
    let bound = atm.rayleigh.rgb * rayleigh_density(atm, h) + vec3(atm.mie.y * mie_density(atm, h)) + atm.ozone.rgb * ozone;
    return Majorant(bound * ATMOSPHERE_MARGIN);
}
// ANCHOR_END: atmosphere_medium
