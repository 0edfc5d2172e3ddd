//! The media layer (`shaders/common/media/medium.wgsl`): the WGSL medium interface evaluated on
//! the GPU against f64 references. `medium_add` adds extinctions, scatterings and emissions and
//! mixes the phase's g by scattering weight; chapter 2's layers (`height_layers_medium`, what
//! `height_fog_medium_at` returns) and chapter 5's volumes (`fog_volume_medium_at`, summed over
//! the list by `local_volumes_medium_at`) are the densities their chapters' f64 references give
//! (`fogbook_height_fog::reference::Layer`, `FogVolume::weight_at`); chapter 4's global medium
//! (`froxel_global_medium_at`, in `froxel.rs`) is its constant, its layers and its drifting noise
//! (`fogbook_froxel_fog::reference::noise_factor`); the clouds (`cloud_medium_at`, in
//! `clouds.rs`) are the chapter's slab and, with noise, the density an f64 model reads from the
//! same texels; and each majorant bounds its medium at many random points of its box.

mod clouds;
mod froxel;

use bytemuck::{Pod, Zeroable};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::volumes::{FogVolume, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_ELLIPSOID};
use fogbook_core::shaders::{ComposedShader, ShaderStore, create_module};
use glam::DVec3;

/// Points per probe.
const POINTS: usize = 2048;
/// The box the points are drawn from, and the majorants are taken over (m).
const BOX_MIN: [f32; 3] = [-6.0, -1.0, -6.0];
const BOX_MAX: [f32; 3] = [6.0, 7.0, 6.0];
/// Chapter 2's two layers (density 1/m, falloff 1/m, height m), as in the probe below.
/// The second grows with height, so that the sum peaks at neither end alone: each layer must be
/// bounded at its own denser end.
const LAYERS: [[f64; 3]; 2] = [[0.02, 0.5, 0.0], [0.005, -0.5, 3.0]];

/// Every probe's points and results (group 1, clear of the scene inputs' bindings 0 and 1), and
/// `put`: one medium and two bounds per point.
const IO: &str = "
@group(1) @binding(8) var<storage, read_write> out: array<vec4<f32>>;
@group(1) @binding(9) var<storage, read> points: array<vec4<f32>>;

fn put(m: Medium, bound: Majorant, other: Majorant, i: u32) {
    out[4u * i] = vec4(m.extinction, m.weight);
    out[4u * i + 1u] = vec4(m.scattering, m.g);
    out[4u * i + 2u] = vec4(m.emission, m.lobe.g);
    out[4u * i + 3u] = vec4(bound.extinction.x, f32(m.lobe.kind), m.lobe.weight, other.extinction.x);
}
";

const PROBE: &str = "
@group(1) @binding(10) var<storage, read> volumes: array<FogVolume>;

fn caster_volume(j: u32) -> FogVolume {
    return volumes[j];
}

fn caster_volume_count() -> u32 {
    return arrayLength(&volumes);
}

const BOX_MIN: vec3<f32> = vec3(-6.0, -1.0, -6.0);
const BOX_MAX: vec3<f32> = vec3(6.0, 7.0, 6.0);
const L1: vec4<f32> = vec4(0.02, 0.5, 0.0, 0.0);
const L2: vec4<f32> = vec4(0.005, -0.5, 3.0, 0.0);

@compute @workgroup_size(64)
fn probe_add(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = medium_of(vec3(0.1, 0.2, 0.3), vec3(0.05, 0.1, 0.2), vec3(0.01, 0.02, 0.03), 0.6, PHASE_HENYEY_GREENSTEIN);
    let b = medium_of(vec3(0.4), vec3(0.3, 0.2, 0.1), vec3(0.5), -0.3, PHASE_CORNETTE_SHANKS);
    if id.x == 0u && arrayLength(&points) > 0u {
        let none = majorant_none();
        put(medium_add(a, b), majorant_add(Majorant(vec3(1.0)), Majorant(vec3(2.0))), none, 0u);
        put(medium_add(medium_none(), b), none, none, 1u);
        put(medium_add(a, medium_none()), none, none, 2u);
        put(medium_add_sampled(a, b, 0.1), none, none, 3u);
        put(medium_add_sampled(a, b, 0.9), none, none, 4u);
    }
}

@compute @workgroup_size(64)
fn probe_layers(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&points) {
        return;
    }
    let h = points[id.x].y;
    let m = height_layers_medium(L1, L2, h, vec3(0.9, 0.8, 0.7), 0.25);
    let bound = Majorant(vec3(layer_majorant(L1, BOX_MIN.y, BOX_MAX.y) + layer_majorant(L2, BOX_MIN.y, BOX_MAX.y)));
    put(m, bound, majorant_none(), id.x);
}

@compute @workgroup_size(64)
fn probe_volumes(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&points) {
        return;
    }
    put(local_volumes_medium_at(points[id.x].xyz), local_volumes_majorant(BOX_MIN, BOX_MAX), majorant_none(), id.x);
}
";

/// What `put` writes for one medium.
#[derive(Clone, Copy, Debug)]
struct Sample {
    extinction: [f32; 3],
    weight: f32,
    scattering: [f32; 3],
    g: f32,
    emission: [f32; 3],
    lobe_g: f32,
    majorant: f32,
    lobe_kind: f32,
    /// The probe's second bound (0 where it has none).
    other_majorant: f32,
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Vec4([f32; 4]);

fn luminance(c: [f64; 3]) -> f64 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// A resource a probe binds besides its points and results: (group, binding, resource).
type Bound<'a> = (u32, u32, wgpu::BindingResource<'a>);

/// `file` composed with the results' bindings and `probe` after it, validated.
fn compose_probe(file: &str, extra: &[&str], probe: &str) -> ComposedShader {
    let store = ShaderStore::discover();
    let mut composed = store.compose(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    for path in extra {
        // A file's own text, its imports already in.
        composed.source.push_str(&store.read(path).unwrap());
    }
    composed.source.push_str(IO);
    composed.source.push_str(probe);
    composed.validate().unwrap_or_else(|e| panic!("{e}"));
    composed
}

/// A uniform or storage buffer holding `bytes`.
fn buffer(gpu: &GpuContext, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("media probe"),
        contents: bytes,
        usage,
    })
}

/// Runs `entry` of `shader` over `points` (xyz, and w for the probe's own use), with `bound`
/// besides; one `Sample` per point. The pipeline's layout is the one its entry point uses.
fn dispatch(
    gpu: &GpuContext,
    shader: &ComposedShader,
    entry: &str,
    points: &[[f32; 4]],
    bound: Vec<Bound>,
) -> Vec<Sample> {
    let device = &gpu.device;
    let module = create_module(device, shader).unwrap();
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry),
        layout: None,
        module: &module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    });
    let n = points.len();
    let out = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("media probe out"),
        size: (n.max(8) * 4 * 16) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut point_data: Vec<Vec4> = points.iter().map(|&p| Vec4(p)).collect();
    point_data.resize(n.max(1), Vec4([0.0; 4]));
    let point_buffer = buffer(gpu, bytemuck::cast_slice(&point_data), wgpu::BufferUsages::STORAGE);
    let mut entries = vec![(1, 8, out.as_entire_binding()), (1, 9, point_buffer.as_entire_binding())];
    entries.extend(bound);
    let last = entries.iter().map(|e| e.0).max().unwrap();
    let groups: Vec<wgpu::BindGroup> = (0..=last)
        .map(|g| {
            let group: Vec<wgpu::BindGroupEntry> = entries
                .iter()
                .filter(|e| e.0 == g)
                .map(|e| wgpu::BindGroupEntry { binding: e.1, resource: e.2.clone() })
                .collect();
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("media probe"),
                layout: &pipeline.get_bind_group_layout(g),
                entries: &group,
            })
        })
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        for (g, group) in groups.iter().enumerate() {
            pass.set_bind_group(g as u32, group, &[]);
        }
        pass.dispatch_workgroups(n.max(1).div_ceil(64) as u32, 1, 1);
    }
    gpu.submit([encoder.finish()]);
    let bytes = fogbook_core::capture::read_buffer(gpu, &out).unwrap();
    let f: &[f32] = bytemuck::cast_slice(&bytes);
    (0..n.max(8))
        .map(|i| {
            let v = &f[16 * i..16 * i + 16];
            Sample {
                extinction: [v[0], v[1], v[2]],
                weight: v[3],
                scattering: [v[4], v[5], v[6]],
                g: v[7],
                emission: [v[8], v[9], v[10]],
                lobe_g: v[11],
                majorant: v[12],
                lobe_kind: v[13],
                other_majorant: v[15],
            }
        })
        .collect()
}

/// Runs `entry` of the probe after chapter 5's volume list and chapter 2's layers over `points`
/// with `volumes`, the density textures' bindings (fog_volume_density.wgsl, group 2) bound to
/// zero stand-ins: every volume here has a constant density.
fn run(entry: &str, volumes: &[FogVolume], points: &[[f32; 3]]) -> Vec<Sample> {
    let gpu = GpuContext::headless(&Default::default()).unwrap();
    // Chapter 5's volume list (and through it the media layer), then chapter 2's layers.
    let shader = compose_probe("common/media/local_volumes.wgsl", &["common/height_layer.wgsl"], PROBE);
    let stand_in = gpu
        .device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("media probe stand-in"),
            size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D3,
            format: wgpu::TextureFormat::R16Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&Default::default());
    let sampler = gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    });
    let mut volume_bytes = bytemuck::cast_slice::<FogVolume, u8>(volumes).to_vec();
    if volume_bytes.is_empty() {
        volume_bytes = vec![0; std::mem::size_of::<FogVolume>()];
    }
    let volume_buffer = buffer(&gpu, &volume_bytes, wgpu::BufferUsages::STORAGE);
    // Only what the entry point uses: its layout is derived from it.
    let mut bound: Vec<Bound> = Vec::new();
    if entry == "probe_volumes" {
        bound.push((1, 10, volume_buffer.as_entire_binding()));
        bound.extend((12..=16).map(|b| (2, b, wgpu::BindingResource::TextureView(&stand_in))));
        bound.push((2, 17, wgpu::BindingResource::Sampler(&sampler)));
    }
    let points: Vec<[f32; 4]> = points.iter().map(|p| [p[0], p[1], p[2], 0.0]).collect();
    dispatch(&gpu, &shader, entry, &points, bound)
}

/// A fixed linear congruential sequence in [0, 1).
fn sequence(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Points spread over the box [lo, hi] by a fixed linear congruential sequence.
fn random_points_in(lo: [f32; 3], hi: [f32; 3]) -> Vec<[f32; 3]> {
    let mut next = sequence(0x2545_f491_4f6c_dd1d);
    (0..POINTS).map(|_| std::array::from_fn(|k| lo[k] + (hi[k] - lo[k]) * next() as f32)).collect()
}

fn random_points() -> Vec<[f32; 3]> {
    random_points_in(BOX_MIN, BOX_MAX)
}

fn close(got: f32, want: f64, rel: f64, abs: f64) -> bool {
    (got as f64 - want).abs() <= rel * want.abs() + abs
}

/// Two media add: extinction, scattering and emission sum; g is the scattering-weighted mean and
/// the heavier lobe is kept; a zero medium on either side changes nothing; the sampled sum keeps
/// b's lobe for u below b's share of the weight and a's above it; majorants add.
#[test]
fn media_add_by_extinction_and_mix_their_phase_by_scattering_weight() {
    let s = run("probe_add", &[], &[[0.0; 3]]);
    let (ea, eb) = ([0.1, 0.2, 0.3], [0.4, 0.4, 0.4]);
    let (sa, sb) = ([0.05, 0.1, 0.2], [0.3, 0.2, 0.1]);
    let (ga, gb) = (0.6, -0.3);
    let (wa, wb) = (luminance(sa), luminance(sb));
    let sum = s[0];
    for k in 0..3 {
        assert!(close(sum.extinction[k], ea[k] + eb[k], 1e-6, 0.0), "σt: {sum:?}");
        assert!(close(sum.scattering[k], sa[k] + sb[k], 1e-6, 0.0), "σs: {sum:?}");
    }
    assert!(close(sum.emission[0], 0.51, 1e-6, 0.0), "emission: {sum:?}");
    assert!(close(sum.weight, wa + wb, 1e-6, 0.0), "weight: {sum:?}");
    let g = (wa * ga + wb * gb) / (wa + wb);
    assert!(close(sum.g, g, 1e-5, 1e-7), "g {} against {g}", sum.g);
    // b scatters more (luminance 0.214 against 0.097): its lobe, Cornette–Shanks, is kept.
    assert!(wb > wa);
    assert_eq!((sum.lobe_kind, sum.lobe_g), (1.0, gb as f32), "{sum:?}");
    assert_eq!(sum.majorant, 3.0);
    // The zero medium is the identity, exactly.
    let (left, right) = (s[1], s[2]);
    assert_eq!((left.g, left.lobe_g, left.lobe_kind), (gb as f32, gb as f32, 1.0));
    assert_eq!((right.g, right.lobe_g, right.lobe_kind), (ga as f32, ga as f32, 0.0));
    assert_eq!(left.extinction, [0.4, 0.4, 0.4]);
    // Sampled: u = 0.1 < w_b / (w_a + w_b) ≈ 0.69 keeps b's lobe, u = 0.9 a's.
    assert_eq!((s[3].lobe_kind, s[3].lobe_g), (1.0, gb as f32));
    assert_eq!((s[4].lobe_kind, s[4].lobe_g), (0.0, ga as f32));
}

/// Chapter 2's two layers as a medium: σt = ρ₁(h) + ρ₂(h) from chapter 2's f64 `Layer`, σs =
/// albedo · σt; and the layers' majorant over the box bounds σt at every point of it.
#[test]
fn height_layers_are_chapter_2s_density_and_their_majorant_bounds_them() {
    use fogbook_height_fog::reference::Layer;
    let points = random_points();
    let s = run("probe_layers", &[], &points);
    let layers = LAYERS.map(|[density, falloff, height]| Layer { density, falloff, height });
    let mut worst = 0.0f64;
    for (p, m) in points.iter().zip(&s) {
        let want: f64 = layers.iter().map(|l| l.density_at(p[1] as f64)).sum();
        assert!(close(m.extinction[0], want, 2e-6, 1e-12), "σt at {p:?}: {} against {want}", m.extinction[0]);
        assert!(close(m.scattering[2], 0.7 * want, 2e-6, 1e-12), "σs at {p:?}");
        assert!(m.extinction[0] <= m.majorant, "σt {} above the majorant {} at {p:?}", m.extinction[0], m.majorant);
        worst = worst.max(m.extinction[0] as f64 / m.majorant as f64);
    }
    eprintln!("layers: σt reaches {worst:.4} of the majorant");
    // The layers peak at opposite ends (0.0337 and 0.0376 1/m there; the bound is their sum, 0.0704).
    assert!(worst > 0.5, "the majorant is loose: {worst}");
}

fn volumes() -> Vec<FogVolume> {
    let mut a = FogVolume {
        centre: [0.5, 2.0, 0.0, SHAPE_BOX],
        half_size: [2.0, 1.5, 1.0, 0.4],
        albedo_density: [0.9, 0.7, 0.5, 0.8],
        emission_falloff: [0.1, 0.0, 0.0, 0.3],
        ..FogVolume::AXIS_ALIGNED
    };
    a.axis_x[3] = 0.7;
    a.set_rotation_deg(30.0, 10.0, -15.0);
    let mut b = FogVolume {
        centre: [-0.5, 2.5, 0.5, SHAPE_ELLIPSOID],
        half_size: [1.5, 2.0, 2.5, 0.0],
        albedo_density: [0.5, 0.6, 0.9, 0.5],
        emission_falloff: [0.0, 0.05, 0.0, 0.0],
        ..FogVolume::AXIS_ALIGNED
    };
    b.axis_x[3] = -0.4;
    b.set_rotation_deg(-20.0, 0.0, 25.0);
    let mut c = FogVolume {
        centre: [1.0, 3.0, -1.0, SHAPE_CYLINDER],
        half_size: [1.0, 2.5, 1.5, 0.6],
        albedo_density: [1.0, 1.0, 1.0, 1.2],
        emission_falloff: [0.0, 0.0, 0.0, 0.8],
        ..FogVolume::AXIS_ALIGNED
    };
    c.axis_x[3] = 0.2;
    c.set_rotation_deg(0.0, 35.0, 0.0);
    vec![a, b, c]
}

/// Chapter 5's volumes as one medium: at each point the sum over the list of ρ · weight (the f64
/// `FogVolume::weight_at`), σs = albedo · σt, emission · weight, g the scattering-weighted mean of
/// the volumes' g; and the list's majorant over the box bounds σt at every point of it (points
/// mostly in the part of the box the volumes fill).
#[test]
fn local_volumes_are_chapter_5s_density_and_their_majorant_bounds_them() {
    let list = volumes();
    // Most of them where the volumes are, inside the majorant's box.
    let mut points = random_points_in([-3.0, 0.0, -3.0], [3.5, 6.0, 3.0]);
    points.truncate(POINTS * 3 / 4);
    points.extend(random_points().into_iter().take(POINTS / 4));
    let s = run("probe_volumes", &list, &points);
    let (mut inside, mut overlaps, mut worst) = (0, 0, 0.0f64);
    for (p, m) in points.iter().zip(&s) {
        let q = DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64);
        let (mut t, mut sr, mut e, mut w, mut wg, mut count) = (0.0, 0.0, 0.0, 0.0, 0.0, 0);
        for v in &list {
            let weight = v.weight_at(q);
            let tv = v.albedo_density[3] as f64 * weight;
            let sv = v.albedo_density.map(|x| (x as f64).clamp(0.0, 1.0) * tv);
            t += tv;
            sr += sv[0];
            e += v.emission_falloff[0] as f64 * weight;
            w += luminance([sv[0], sv[1], sv[2]]);
            wg += luminance([sv[0], sv[1], sv[2]]) * v.axis_x[3] as f64;
            count += (weight > 0.0) as usize;
        }
        // Across a fade the weight's slope is up to 1 / (0.4 m): f32 positions move it by ~1e-6.
        assert!(close(m.extinction[0], t, 1e-4, 1e-5), "σt at {p:?}: {} against {t}", m.extinction[0]);
        assert!(close(m.scattering[0], sr, 1e-4, 1e-5), "σs at {p:?}: {} against {sr}", m.scattering[0]);
        assert!(close(m.emission[0], e, 1e-4, 1e-6), "emission at {p:?}");
        if w > 1e-2 {
            assert!(close(m.g, wg / w, 1e-3, 1e-4), "g at {p:?}: {} against {}", m.g, wg / w);
        }
        assert!(m.extinction[0] <= m.majorant, "σt {} above the majorant {} at {p:?}", m.extinction[0], m.majorant);
        worst = worst.max(m.extinction[0] as f64 / m.majorant as f64);
        inside += (count > 0) as usize;
        overlaps += (count > 1) as usize;
    }
    eprintln!("volumes: {inside} points inside, {overlaps} in overlaps; σt reaches {worst:.3} of the majorant");
    assert!(inside > POINTS / 10 && overlaps > 50, "{inside} inside, {overlaps} in overlaps");
}
