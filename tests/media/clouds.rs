//! The clouds as a medium (`cloud_medium_at`, `cloud_majorant` in 06-clouds/density.wgsl), in
//! two configurations. The slab (constant density), which the chapter's f64 reference
//! (`fogbook_clouds::reference::Slab`) describes: σt inside its shell, nothing outside. And the
//! noise clouds, whose density has no f64 reference in the chapter: textures filled with the
//! chapter's f64 noise (`fogbook_clouds::noise`, quantised as the GPU's Rgba8Unorm textures hold
//! it) are sampled by the GPU and read by an f64 model of `cloud_density` below, texel for texel.
//! The probe's sampler is nearest (one texel per lookup, which the model reads exactly; the
//! chapter's trilinear filter is the sampler's, no part of the medium), and points whose lookups
//! lie within a few thousandths of a texel of a texel's edge are left out.

use super::*;
use fogbook_clouds::reference::coverage_at;
use fogbook_clouds::{CloudParams, CloudUniform, DensityModel, noise};

/// Texels per side of the probe's base shape, detail, weather map and curl noise.
const SIZES: [usize; 4] = [32, 16, 32, 16];
/// Lookups this close to a texel's edge (in texels) are left out: f32 positions could pick the
/// neighbour.
const EDGE: f64 = 2e-3;
/// Points this close to the shell's spheres (m) are left out (f32 radii ~1e5 m err by ~5 mm).
const SHELL_EDGE: f64 = 0.05;

const CLOUD_PROBE: &str = "
@compute @workgroup_size(64)
fn probe_clouds(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&points) {
        return;
    }
    let p = points[id.x].xyz;
    let half = vec3(points[id.x].w);
    put(cloud_medium_at(p), cloud_majorant(p - half, p + half), majorant_none(), id.x);
}
";

/// The noise clouds on a 100 km planet (the smallest the parameters allow: f32 radii keep
/// millimetres), tiles small enough that a few kilometres cross many texels, the curl on.
fn noise_params() -> CloudParams {
    CloudParams {
        planet_radius_km: 100.0,
        layer_bottom_m: 1500.0,
        layer_thickness_m: 2500.0,
        coverage: 0.6,
        cloud_type: 0.75,
        type_variation: 0.5,
        detail_erosion: 0.35,
        curl_strength_m: 150.0,
        shape_tile_km: 2.0,
        detail_tile_km: 0.5,
        weather_tile_km: 4.0,
        wind_speed_m_s: 10.0,
        wind_direction_deg: 30.0,
        wind_shear: 0.3,
        extinction: 0.05,
        albedo: 0.9,
        phase_forward_g: 0.8,
        phase_backward_g: -0.2,
        phase_forward_weight: 0.5,
        ..Default::default()
    }
}

/// One texture's texels (x fastest, then y, then z), as the GPU holds them.
struct Texels {
    n: usize,
    dims: u32,
    data: Vec<[u8; 4]>,
}

impl Texels {
    /// An n-texel side of `dims` dimensions filled by `f` at each texel's tile coordinates.
    fn new(n: usize, dims: u32, f: impl Fn(DVec3) -> [f64; 4]) -> Self {
        let count = n.pow(dims);
        let data = (0..count)
            .map(|i| {
                let id = [(i % n) as u32, ((i / n) % n) as u32, (i / (n * n)) as u32];
                f(noise::texel_uvw(id, n as u32)).map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
            })
            .collect();
        Self { n, dims, data }
    }

    /// The texel a nearest, repeating sampler picks at tile coordinates `uvw` (0..1 per tile),
    /// as 0..1; `None` too near a texel's edge.
    fn fetch(&self, uvw: &[f64]) -> Option<[f64; 4]> {
        let (mut index, mut stride) = (0, 1);
        for &u in uvw {
            let x = u.rem_euclid(1.0) * self.n as f64;
            if (x - x.round()).abs() < EDGE {
                return None;
            }
            index += (x.floor() as usize).min(self.n - 1) * stride;
            stride *= self.n;
        }
        Some(self.data[index].map(|b| b as f64 / 255.0))
    }

    fn upload(&self, gpu: &GpuContext) -> wgpu::TextureView {
        let n = self.n as u32;
        let (dimension, depth) =
            if self.dims == 3 { (wgpu::TextureDimension::D3, n) } else { (wgpu::TextureDimension::D2, 1) };
        let size = wgpu::Extent3d { width: n, height: n, depth_or_array_layers: depth };
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("media probe cloud noise"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format: fogbook_clouds::textures::NOISE_FORMAT,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let layout = wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * n), rows_per_image: Some(n) };
        gpu.queue.write_texture(texture.as_image_copy(), bytemuck::cast_slice(&self.data), layout, size);
        texture.create_view(&Default::default())
    }
}

fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn mix(a: f64, b: f64, t: f64) -> f64 {
    a * (1.0 - t) + b * t
}

fn remap(x: f64, lo0: f64, hi0: f64, lo1: f64, hi1: f64) -> f64 {
    lo1 + (x - lo0) * (hi1 - lo1) / (hi0 - lo0).max(1e-5)
}

/// Schneider & Vos 2015's gradients per cloud type, as the chapter writes them.
fn height_gradient(h: f64, cloud_type: f64) -> f64 {
    let gradient =
        |rise: [f64; 2], fall: [f64; 2]| smoothstep(rise[0], rise[1], h) * (1.0 - smoothstep(fall[0], fall[1], h));
    let stratus = gradient([0.0, 0.08], [0.15, 0.25]);
    let stratocumulus = gradient([0.0, 0.15], [0.35, 0.55]);
    let cumulus = gradient([0.0, 0.1], [0.65, 0.95]);
    let t = cloud_type.clamp(0.0, 1.0) * 2.0;
    if t < 1.0 { mix(stratus, stratocumulus, t) } else { mix(stratocumulus, cumulus, t - 1.0) }
}

/// The cloud density in f64 from the uniform and the texels: density.wgsl's `cloud_density`
/// with the detail at its finest mip. `None` where a lookup or the point is too near an edge.
struct CloudModel {
    u: CloudUniform,
    /// Base shape, detail, weather map, curl.
    textures: [Texels; 4],
}

impl CloudModel {
    fn new(u: CloudUniform, seed: u32) -> Self {
        let [nb, nd, nw, nc] = SIZES;
        let textures = [
            Texels::new(nb, 3, |uvw| noise::base_shape(uvw, seed)),
            Texels::new(nd, 3, |uvw| noise::detail(uvw, seed)),
            Texels::new(nw, 2, |uvw| noise::weather([uvw.x, uvw.y], seed)),
            Texels::new(nc, 2, |uvw| noise::curl([uvw.x, uvw.y], nc as u32, seed)),
        ];
        Self { u, textures }
    }

    fn density(&self, p: DVec3) -> Option<f64> {
        let f = |v: f32| v as f64;
        let (shell, shape, scales, wind) =
            (self.u.shell.map(f), self.u.shape.map(f), self.u.scales.map(f), self.u.wind.map(f));
        let [base_tex, detail_tex, weather_tex, curl_tex] = &self.textures;
        let r = (p - DVec3::new(0.0, -shell[0], 0.0)).length();
        let (bottom, top) = (shell[0] + shell[1], shell[0] + shell[1] + shell[2]);
        if (r - bottom).abs() < SHELL_EDGE || (r - top).abs() < SHELL_EDGE {
            return None;
        }
        if r < bottom || r > top {
            return Some(0.0);
        }
        if self.u.flags[0] == 1 {
            return Some(1.0);
        }
        let h = ((r - bottom) / shell[2].max(1.0)).clamp(0.0, 1.0);
        let height_m = h * shell[2];
        let downwind = DVec3::new(wind[3].cos(), 0.0, wind[3].sin());
        let q = DVec3::new(p.x, height_m, p.z) - DVec3::new(wind[0], 0.0, wind[1]) - downwind * (wind[2] * height_m);
        let weather = weather_tex.fetch(&[q.x * scales[2], q.z * scales[2]])?;
        let coverage = coverage_at(weather[0], shape[0]);
        if coverage <= 0.0 {
            return Some(0.0);
        }
        let cloud_type = (shape[1] + (weather[1] - 0.5) * shape[2]).clamp(0.0, 1.0);
        let n = base_tex.fetch(&(q * scales[0]).to_array())?;
        let low_fbm = noise::worley_fbm(n[1], n[2], n[3]);
        let mut base = remap(n[0], low_fbm - 1.0, 1.0, 0.0, 1.0).clamp(0.0, 1.0) * height_gradient(h, cloud_type);
        base = remap(base, 1.0 - coverage, 1.0, 0.0, 1.0).clamp(0.0, 1.0) * coverage;
        if base <= 0.0 {
            return Some(0.0);
        }
        let mut qd = q;
        if scales[3] > 0.0 {
            let c = curl_tex.fetch(&[q.x * scales[0], q.z * scales[0]])?;
            qd += DVec3::new(c[0] * 2.0 - 1.0, 0.0, c[1] * 2.0 - 1.0) * scales[3] * (1.0 - h);
        }
        let d = detail_tex.fetch(&(qd * scales[1]).to_array())?;
        let high_fbm = noise::worley_fbm(d[0], d[1], d[2]);
        let erosion = mix(high_fbm, 1.0 - high_fbm, (h * 10.0).clamp(0.0, 1.0)) * shape[3];
        Some(remap(base, erosion, 1.0, 0.0, 1.0).clamp(0.0, 1.0) * weather[2])
    }
}

/// Boxes whose majorant is known: (centre, half side, whether it meets the layer), the layer
/// 1500–4000 m above a 100 km planet's ground (y = 0) at x = z = 0.
const BOXES: [([f32; 3], f32, bool); 5] = [
    ([0.0, 500.0, 0.0], 400.0, false),   // below
    ([0.0, 5000.0, 0.0], 400.0, false),  // above
    ([0.0, 1500.0, 0.0], 400.0, true),   // across the bottom
    ([300.0, 4000.0, 0.0], 400.0, true), // across the top
    ([0.0, 2500.0, 0.0], 10.0, true),    // inside
];

/// Runs the probe over random points of the layer (and above and below it), each with a 2 m box,
/// then the boxes of `BOXES`; returns the model, the points and the samples.
fn run_clouds(p: &CloudParams, t_s: f64) -> (CloudModel, Vec<[f32; 4]>, Vec<Sample>) {
    let gpu = GpuContext::headless(&Default::default()).unwrap();
    let shader = compose_probe("06-clouds/density.wgsl", &[], CLOUD_PROBE);
    let model = CloudModel::new(CloudUniform::new(p, 0, t_s), 3);
    let views = model.textures.each_ref().map(|t| t.upload(&gpu));
    let sampler = gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        address_mode_u: wgpu::AddressMode::Repeat,
        address_mode_v: wgpu::AddressMode::Repeat,
        address_mode_w: wgpu::AddressMode::Repeat,
        ..Default::default()
    });
    let uniform = buffer(&gpu, bytemuck::bytes_of(&model.u), wgpu::BufferUsages::UNIFORM);
    // No sky in the stack: an all-zero atmosphere (the core's stand-in), so the chapter's planet.
    let atmosphere = vec![0u8; fogbook_core::shared_sky::ATMOSPHERE_UNIFORM_BYTES as usize];
    let atmosphere = buffer(&gpu, &atmosphere, wgpu::BufferUsages::UNIFORM);
    let view = |v| wgpu::BindingResource::TextureView(v);
    let bound = vec![
        (2, 24, uniform.as_entire_binding()),
        (2, 25, view(&views[0])),
        (2, 26, view(&views[1])),
        (2, 27, view(&views[2])),
        (2, 28, wgpu::BindingResource::Sampler(&sampler)),
        (2, 29, view(&views[3])),
        (3, 0, atmosphere.as_entire_binding()),
    ];
    let mut points: Vec<[f32; 4]> = random_points_in([-2000.0, 1000.0, -2000.0], [2000.0, 4500.0, 2000.0])
        .iter()
        .map(|q| [q[0], q[1], q[2], 1.0])
        .collect();
    points.extend(BOXES.iter().map(|&(c, half, _)| [c[0], c[1], c[2], half]));
    let s = dispatch(&gpu, &shader, "probe_clouds", &points, bound);
    (model, points, s)
}

/// Checks each random point's medium against σt,1 · the model's density, σs = albedo · σt and
/// the two lobes' mean g, and its box's majorant against σt; then the boxes of `BOXES`. Returns
/// (points compared, points with cloud, largest σt / majorant).
fn check_clouds(p: &CloudParams, t_s: f64) -> (usize, usize, f64) {
    let (model, points, s) = run_clouds(p, t_s);
    let (sigma, albedo) = (p.extinction as f64, p.albedo as f64);
    let w = p.phase_forward_weight as f64;
    let g = mix(p.phase_backward_g as f64, p.phase_forward_g as f64, w);
    let (mut compared, mut cloudy, mut worst, mut apart) = (0, 0, 0.0f64, 0.0f64);
    for (q, m) in points.iter().zip(&s).take(POINTS) {
        assert!(
            m.extinction[0] <= m.majorant,
            "σt {} above its box's majorant {} at {q:?}",
            m.extinction[0],
            m.majorant
        );
        worst = worst.max(m.extinction[0] as f64 / m.majorant as f64);
        let Some(density) = model.density(DVec3::new(q[0] as f64, q[1] as f64, q[2] as f64)) else {
            continue;
        };
        let t = sigma * density;
        // An f32 radius near 1e5 m errs by ~8 mm, 3e-6 of the height fraction, which the steepest
        // gradient (a ramp 0.08 wide, slope 1.5 / 0.08) makes 6e-5 of density: 3e-6 /m of σt.
        assert!(close(m.extinction[0], t, 1e-4, 4e-6), "σt at {q:?}: {} against {t}", m.extinction[0]);
        apart = apart.max((m.extinction[0] as f64 - t).abs());
        assert!(close(m.scattering[1], albedo * t, 1e-4, 4e-6), "σs at {q:?}");
        assert!(close(m.g, g, 1e-6, 1e-6), "g at {q:?}: {} against {g}", m.g);
        assert_eq!((m.lobe_g, m.lobe_kind), (p.phase_forward_g, 0.0), "the forward lobe at {q:?}");
        compared += 1;
        cloudy += (density > 0.0) as usize;
    }
    for (&(c, half, meets), m) in BOXES.iter().zip(&s[POINTS..]) {
        let want = if meets { p.extinction } else { 0.0 };
        assert_eq!(m.majorant, want, "the box of half side {half} m about {c:?}");
    }
    eprintln!("clouds at t = {t_s} s: σt within {apart:.1e} /m of the f64 model");
    (compared, cloudy, worst)
}

/// The slab: σt,1 inside the shell of the chapter's f64 `Slab` (its planet, bottom and
/// thickness), nothing outside, σs = albedo · σt, one lobe; and every box's majorant bounds it.
#[test]
fn the_cloud_slab_is_the_references_shell_and_its_majorant_bounds_it() {
    let p = CloudParams { density_model: DensityModel::Slab, phase_forward_weight: 1.0, ..noise_params() };
    let slab = p.slab(DVec3::Y, DVec3::ONE);
    assert_eq!((slab.extinction, slab.g), (p.extinction as f64, p.phase_forward_g as f64));
    let (model, points, s) = run_clouds(&p, 0.0);
    let (bottom, top) = (slab.planet_radius_m + slab.bottom_m, slab.planet_radius_m + slab.bottom_m + slab.thickness_m);
    let mut inside = 0;
    for (q, m) in points.iter().zip(&s).take(POINTS) {
        let x = DVec3::new(q[0] as f64, q[1] as f64, q[2] as f64);
        let r = (x + DVec3::new(0.0, slab.planet_radius_m, 0.0)).length();
        if model.density(x).is_none() {
            continue; // within millimetres of a sphere
        }
        let t = if (bottom..=top).contains(&r) { slab.extinction } else { 0.0 };
        assert!(close(m.extinction[0], t, 1e-6, 0.0), "σt at {q:?} (r − bottom {}): {}", r - bottom, m.extinction[0]);
        assert!(close(m.scattering[2], slab.albedo * t, 1e-6, 0.0), "σs at {q:?}");
        if t > 0.0 {
            assert_eq!((m.g, m.lobe_g), (slab.g as f32, slab.g as f32));
            inside += 1;
        }
        assert!(m.extinction[0] <= m.majorant, "σt above its box's majorant at {q:?}");
    }
    eprintln!("slab: {inside} of {POINTS} points inside the shell");
    assert!(inside > POINTS / 2 && inside < POINTS * 9 / 10, "{inside} inside");
}

/// The noise clouds: at each point σt = σt,1 · the f64 model's density from the same texels, σs
/// = albedo · σt, g the two lobes' mean w g_f + (1 − w) g_b with the forward lobe kept; the
/// majorant of a 2 m box about each point bounds its σt, boxes clear of the shell have none,
/// and boxes that meet it σt,1. With the wind at two times.
#[test]
fn the_noise_clouds_are_the_density_of_their_texels_and_their_majorant_bounds_them() {
    let p = noise_params();
    for t in [0.0, 37.0] {
        let (compared, cloudy, worst) = check_clouds(&p, t);
        eprintln!(
            "clouds at t = {t} s: {compared} points compared, {cloudy} in cloud; σt reaches {worst:.3} of the majorant"
        );
        assert!(compared > POINTS * 9 / 10, "{compared} compared");
        assert!(cloudy > POINTS / 10 && cloudy < compared * 9 / 10, "{cloudy} of {compared} in cloud");
        assert!(worst > 0.3, "no point comes near the majorant: {worst}");
    }
}
