// Lighting of the cloud medium, after Hillaire 2016 ("Physically Based Sky, Atmosphere and
// Cloud Rendering in Frostbite") and Schneider & Vos 2015:
// - the sun through the sky's transmittance at the sample's own radius and sun zenith (chapter
//   3's tables, group 3), then through the cloud itself along a short light march: Beer–Lambert
//   e^(−τ) on the optical depth τ of a few samples spread in a cone towards the sun;
// - a dual-lobe Henyey–Greenstein phase function (a forward lobe for the silver lining, a
//   backward one);
// - multiple scattering as octaves of single scattering (Wrenninge et al. 2013): octave i sees
//   the extinction × a^i, contributes × b^i, with the phase's asymmetry × c^i;
// - optionally Schneider's "powder" darkening of the edges that face the sun;
// - ambient light from the sky above (its irradiance at the layer's top) and the ground below
//   (its albedo times the sun and sky on it), blended by the height in the layer.
// #import 06-clouds/density.wgsl

const INV_FOUR_PI: f32 = 0.07957747154594767;

// ANCHOR: phase
fn henyey_greenstein(g_in: f32, cos_theta: f32) -> f32 {
    let g = clamp(g_in, -0.99, 0.99);
    let denom = max(1.0 + g * g - 2.0 * g * cos_theta, 1e-6);
    return (1.0 - g * g) * INV_FOUR_PI / (denom * sqrt(denom));
}

// The two lobes, each asymmetry scaled by `eccentricity` (c^i for octave i).
fn dual_lobe_phase(cos_theta: f32, eccentricity: f32) -> f32 {
    let forward = henyey_greenstein(clouds.phase.x * eccentricity, cos_theta);
    let backward = henyey_greenstein(clouds.phase.y * eccentricity, cos_theta);
    return mix(backward, forward, clamp(clouds.phase.z, 0.0, 1.0));
}
// ANCHOR_END: phase

// ANCHOR: sun_and_sky
// The sun's direction relative to the local zenith at p (the planet is round: over a cloud
// 100 km away the sun stands about 1° lower).
fn sun_zenith_cosine(p: vec3<f32>, r: f32) -> f32 {
    return dot(p - planet_centre(), frame.sun_dir.xyz) / r;
}

// Sunlight arriving at radius r above the atmosphere's absorption (units of frame.sun_color):
// the sky's transmittance to the sun, or the frame's constant sun without the sky.
fn sun_at(r: f32, mu_s: f32) -> vec3<f32> {
    if !sky_in_stack() {
        // The planet's shadow: a sun below this point's horizon does not reach it.
        let below_horizon = mu_s < 0.0 && r * r * (1.0 - mu_s * mu_s) < planet_radius() * planet_radius();
        return select(frame.sun_color.rgb * frame.sun_dir.w, vec3(0.0), below_horizon);
    }
    let atm = shared_atmosphere;
    let t = transmittance_to_sun(atm, shared_transmittance, shared_sampler, clamp_radius(atm, r), mu_s);
    return atm.solar.rgb * t * atm.radii.w / PI * frame.sun_dir.w;
}

// Sky light on a horizontal surface at radius r as a radiance (E / π), or the frame's ambient.
fn sky_at(r: f32, mu_s: f32) -> vec3<f32> {
    if !sky_in_stack() {
        return frame.ambient.rgb;
    }
    let atm = shared_atmosphere;
    let uv = irradiance_uv(atm, clamp_radius(atm, r), mu_s);
    return textureSampleLevel(shared_irradiance, shared_sampler, uv, 0.0).rgb * atm.radii.w / PI;
}

// Isotropic radiance reaching a sample from around it, per unit scattering: the sky from above
// (taken at the layer's top) and the sunlit ground from below (Lambertian, ground albedo),
// weighted by the height fraction h — the part of the layer above or below shades the rest.
fn ambient_light(mu_s: f32, h: f32) -> vec3<f32> {
    let top = sky_at(layer_top_radius(), mu_s);
    let ground_r = planet_radius();
    let ground = clouds.light.y * (sun_at(ground_r, mu_s) * max(mu_s, 0.0) + sky_at(ground_r, mu_s));
    return mix(ground, top, h) * clouds.medium.z;
}
// ANCHOR_END: sun_and_sky

// ANCHOR: light_march
// Six fixed directions in a cone around the sun's ray (Schneider & Vos 2015's cone samples),
// scaled by the distance along the ray and `spread`.
const CONE: array<vec3<f32>, 6> = array(
    vec3(0.38, -0.52, 0.22), vec3(-0.61, 0.15, -0.33), vec3(0.12, 0.58, -0.47),
    vec3(-0.27, -0.41, 0.64), vec3(0.55, 0.34, 0.18), vec3(-0.45, -0.08, -0.56),
);

// Optical depth from p towards the sun through the layer: `light steps` midpoint samples over
// the way out of the shell, at most `light march length`; the last two skip the detail noise.
fn light_optical_depth(p: vec3<f32>) -> f32 {
    let sun = frame.sun_dir.xyz;
    let rel = p - planet_centre();
    let r = length(rel);
    let mu = dot(rel, sun) / r;
    var exit = sphere_hits(r, mu, layer_top_radius()).y;
    let bottom = sphere_hits(r, mu, layer_bottom_radius());
    if bottom.x > 0.0 {
        exit = min(exit, bottom.x); // towards a low sun, the ray leaves through the bottom
    }
    let n = max(clouds.counts.y, 1u);
    let ds = clamp(exit, 0.0, clouds.light.x) / f32(n);
    var tau = 0.0;
    for (var i = 0u; i < n; i++) {
        let t = (f32(i) + 0.5) * ds;
        let q = p + sun * t + CONE[i % 6u] * (clouds.octaves.w * t);
        tau += cloud_density(q, radius_at(q), i + 2u < n, ds) * ds;
    }
    return tau * clouds.medium.x;
}
// ANCHOR_END: light_march

// ANCHOR: octaves
// Sun light scattered towards the eye per unit scattering coefficient, by octave: octave i sees
// e^(−a^i τ), weighs b^i, phase asymmetry × c^i (octave 0 is single scattering).
fn sun_octaves(sun: vec3<f32>, cos_theta: f32, tau: f32) -> array<vec3<f32>, MAX_OCTAVES> {
    var out: array<vec3<f32>, MAX_OCTAVES>;
    var a = 1.0;
    var b = 1.0;
    var c = 1.0;
    // π: frame.sun_color is the radiance a white Lambertian surface facing the sun reflects,
    // E / π; a medium scatters E · p(θ).
    let light = sun * PI * clouds.medium.w;
    var powder = 1.0;
    if clouds.phase.w > 0.5 {
        powder = 2.0 * (1.0 - exp(-2.0 * tau)); // Schneider & Vos 2015's "beer–powder" × 2
    }
    for (var i = 0u; i < min(clouds.counts.z, MAX_OCTAVES); i++) {
        out[i] = light * (b * dual_lobe_phase(cos_theta, c) * exp(-a * tau) * powder);
        a *= clouds.octaves.x;
        b *= clouds.octaves.y;
        c *= clouds.octaves.z;
    }
    return out;
}
// ANCHOR_END: octaves
