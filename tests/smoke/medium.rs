//! The smoke as a medium of the media layer: `smoke_medium_at` (medium.wgsl) on the GPU at random
//! points of a small grid of known density, colour and temperature, against an f64 evaluation of
//! its documented formulas on the trilinear interpolation of the same cells; and `smoke_majorant`
//! over a small random box around each point, which must bound the medium there and be the
//! largest density among the cells the box's samples read, times extinction × tint.

use crate::{UnderTest, smoke_on};
use fogbook_core::DynChapter;
use fogbook_core::headless::Headless;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_smoke::fields::{FieldId, round_f16};
use fogbook_smoke::{SmokeUniform, TEXTBOOK};

/// The grid (the smallest the chapter allows) and the points probed.
const N: usize = 16;
const POINTS: usize = 2048;
/// The media layer's rounding margin on bounds (`MAJORANT_MARGIN`, medium.wgsl).
const MAJORANT_MARGIN: f64 = 1.0001;
const LUMA: [f64; 3] = [0.2126, 0.7152, 0.0722];

const SETTINGS: &[&str] = &[
    "extinction=0.7",
    "extinction_color=1,0.8,0.6",
    "emission=3",
    "emission_start_k=600",
    "emission_full_k=1600",
    "ambient_temperature_k=293.15",
    "phase_g=0.4",
];

/// Per point: its position, then the box the majorant is taken over (a vec4 each); out: σt and
/// the scattering weight, σs and g, the emission and the lobe's kind, the majorant.
const PROBE: &str = "
@group(1) @binding(8) var<storage, read> probe_points: array<vec4<f32>>;
@group(1) @binding(9) var<storage, read_write> probe_out: array<vec4<f32>>;

@compute @workgroup_size(64)
fn probe_smoke_medium(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= arrayLength(&probe_points) / 3u {
        return;
    }
    let m = smoke_medium_at(probe_points[3u * i].xyz);
    let bound = smoke_majorant(probe_points[3u * i + 1u].xyz, probe_points[3u * i + 2u].xyz);
    probe_out[4u * i] = vec4(m.extinction, m.weight);
    probe_out[4u * i + 1u] = vec4(m.scattering, m.g);
    probe_out[4u * i + 2u] = vec4(m.emission, f32(m.lobe.kind));
    probe_out[4u * i + 3u] = vec4(bound.extinction, 0.0);
}
";

/// A small deterministic generator (xorshift64*), uniform in 0..1.
struct Random(u64);

impl Random {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The cells: (r, g, b, ρ) with ρ in 0..2 (a tenth of the cells empty) and rgb = albedo × ρ, and
/// T − T_amb in −100..1800 K; every value as the f16 texture stores it.
fn cells(rng: &mut Random) -> (Vec<[f64; 4]>, Vec<f64>) {
    let fluid = (0..N * N * N)
        .map(|_| {
            let rho = if rng.next() < 0.1 { 0.0 } else { 2.0 * rng.next() };
            let a = [0, 1, 2].map(|_| 0.2 + 0.8 * rng.next());
            [a[0] * rho, a[1] * rho, a[2] * rho, rho].map(|v| round_f16(v as f32) as f64)
        })
        .collect();
    let excess = (0..N * N * N).map(|_| round_f16((-100.0 + 1900.0 * rng.next()) as f32) as f64).collect();
    (fluid, excess)
}

/// Trilinear interpolation of `values` (x fastest) at uv in box units, as a sampler that clamps
/// to the edge reads texel centres at (i + ½) / n.
fn trilinear<const C: usize>(values: &[[f64; C]], uv: [f64; 3]) -> [f64; C] {
    let clamp = |i: f64| (i.max(0.0) as usize).min(N - 1);
    let t = uv.map(|u| u * N as f64 - 0.5);
    let base = t.map(f64::floor);
    let mut out = [0.0; C];
    for corner in 0..8 {
        let mut weight = 1.0;
        let mut index = [0; 3];
        for a in 0..3 {
            let high = (corner >> a) & 1 == 1;
            let f = t[a] - base[a];
            weight *= if high { f } else { 1.0 - f };
            index[a] = clamp(base[a] + high as u8 as f64);
        }
        let v = &values[index[0] + N * (index[1] + N * index[2])];
        for c in 0..C {
            out[c] += weight * v[c];
        }
    }
    out
}

/// What the probe writes for one point, in f64.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    extinction: [f64; 3],
    scattering: [f64; 3],
    emission: [f64; 3],
    weight: f64,
    g: f64,
    kind: f64,
    majorant: [f64; 3],
}

/// The chapter's formulas (medium.wgsl's `smoke_medium_at`) in f64 at a world point `p`.
fn medium_f64(u: &SmokeUniform, fluid: &[[f64; 4]], excess: &[[f64; 1]], p: [f64; 3]) -> Sample {
    let uv: [f64; 3] = [0, 1, 2].map(|a| (p[a] - u.grid.box_min[a] as f64) / u.grid.box_m as f64);
    if uv.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return Sample::default();
    }
    let o = &u.optics;
    let f = trilinear(fluid, uv);
    let rho = f[3].max(0.0);
    let extinction = [0, 1, 2].map(|c| o.extinction as f64 * o.extinction_tint[c] as f64 * rho);
    let albedo = [0, 1, 2].map(|c| (f[c] / rho.max(1e-30)).clamp(0.0, 1.0));
    let scattering = [0, 1, 2].map(|c| albedo[c] * extinction[c]);
    let temperature = o.ambient_k as f64 + trilinear(excess, uv)[0];
    let (t0, t1) = (o.emission_start_k as f64, o.emission_full_k as f64);
    let t = ((temperature - t0) / (t1 - t0)).clamp(0.0, 1.0);
    let glow = [t, t * t, t.powi(4)].map(|g| o.emission as f64 * g);
    Sample {
        extinction,
        scattering,
        emission: [0, 1, 2].map(|c| extinction[c] * glow[c]),
        weight: (0..3).map(|c| scattering[c] * LUMA[c]).sum(),
        g: u.light.phase_g as f64,
        kind: 0.0,
        majorant: [0.0; 3],
    }
}

/// `smoke_majorant`'s bound in f64: the largest density of the cells from floor(lo n − ½) to
/// floor(hi n − ½) + 1 (clamped to the grid) of the box's part inside the grid.
fn majorant_f64(u: &SmokeUniform, fluid: &[[f64; 4]], lo: [f64; 3], hi: [f64; 3]) -> [f64; 3] {
    let to_uv = |p: [f64; 3]| [0, 1, 2].map(|a| (p[a] - u.grid.box_min[a] as f64) / u.grid.box_m as f64);
    let (lo, hi) = (to_uv(lo), to_uv(hi));
    if (0..3).any(|a| hi[a] < 0.0 || lo[a] > 1.0 || hi[a] < lo[a]) {
        return [0.0; 3];
    }
    let cell =
        |v: f64, step: f64| ((v.clamp(0.0, 1.0) * N as f64 - 0.5).floor() + step).clamp(0.0, N as f64 - 1.0) as usize;
    let (first, last) = (lo.map(|v| cell(v, 0.0)), hi.map(|v| cell(v, 1.0)));
    let mut rho = 0.0f64;
    for z in first[2]..=last[2] {
        for y in first[1]..=last[1] {
            for x in first[0]..=last[0] {
                rho = rho.max(fluid[x + N * (y + N * z)][3]);
            }
        }
    }
    let o = &u.optics;
    [0, 1, 2].map(|c| o.extinction as f64 * o.extinction_tint[c] as f64 * rho * MAJORANT_MARGIN)
}

/// Runs the probe over `points` (position, box min, box max) with the chapter's fields and
/// parameter block as they are, bound where a pass that samples media at points binds them
/// (medium.wgsl alone, at the media layer's bindings for a simulated grid).
fn probe(h: &Headless, s: &fogbook_core::Loaded<fogbook_smoke::Smoke>, points: &[[[f32; 3]; 3]]) -> Vec<Sample> {
    use wgpu::util::DeviceExt;
    let (gpu, g) = (&h.gpu, s.gpu.as_ref().expect("GPU state"));
    let device = &gpu.device;
    let store = ShaderStore::discover().with_constants(s.shader_prelude());
    let mut composed = store.compose("07-smoke/medium.wgsl").unwrap();
    composed.source.push_str(PROBE);
    composed.validate().unwrap_or_else(|e| panic!("{e}"));
    let module = create_module(device, &composed).unwrap();
    let storage = |binding, read_only| {
        fogbook_core::bindings::storage_buffer_entry(binding, wgpu::ShaderStages::COMPUTE, read_only)
    };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("smoke medium probe"),
        entries: &[storage(8, true), storage(9, false)],
    });
    let medium_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("smoke medium"),
        entries: &fogbook_smoke::medium::medium_layout_entries(),
    });
    let groups = [None, Some(&layout), Some(&medium_layout)];
    let pipeline = compute_pipeline(device, &module, "probe_smoke_medium", &groups).unwrap();
    let data: Vec<[f32; 4]> = points.iter().flatten().map(|p| [p[0], p[1], p[2], 0.0]).collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("smoke medium probe points"),
        contents: bytemuck::cast_slice(&data),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let out = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("smoke medium probe out"),
        size: (points.len() * 4 * 16) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let own = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("smoke medium probe"),
        layout: &layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 8, resource: input.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 9, resource: out.as_entire_binding() },
        ],
    });
    let medium = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("smoke medium"),
        layout: &medium_layout,
        entries: &fogbook_smoke::medium::medium_entries(&g.uniform, &g.sampler, &g.fields),
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(1, &own, &[]);
        pass.set_bind_group(2, &medium, &[]);
        pass.dispatch_workgroups(points.len().div_ceil(64) as u32, 1, 1);
    }
    gpu.submit([encoder.finish()]);
    let bytes = fogbook_core::capture::read_buffer(gpu, &out).unwrap();
    let f: Vec<f64> = bytemuck::cast_slice::<u8, f32>(&bytes).iter().map(|v| *v as f64).collect();
    f.chunks_exact(16)
        .map(|v| Sample {
            extinction: [v[0], v[1], v[2]],
            weight: v[3],
            scattering: [v[4], v[5], v[6]],
            g: v[7],
            emission: [v[8], v[9], v[10]],
            kind: v[11],
            majorant: [v[12], v[13], v[14]],
        })
        .collect()
}

/// Random points over the box and a little beyond it, each with a box around it up to 1.5 cells
/// to either side.
fn points(u: &SmokeUniform, rng: &mut Random) -> Vec<[[f32; 3]; 3]> {
    let (min, side) = (u.grid.box_min.map(|v| v as f64), u.grid.box_m as f64);
    let cell = side / N as f64;
    (0..POINTS)
        .map(|_| {
            let p: [f64; 3] = [0, 1, 2].map(|a| min[a] + side * (-0.05 + 1.1 * rng.next()));
            let lo = p.map(|v| v - 1.5 * cell * rng.next());
            let hi = p.map(|v| v + 1.5 * cell * rng.next());
            [p, lo, hi].map(|v| v.map(|x| x as f32))
        })
        .collect()
}

#[test]
fn the_smoke_medium_matches_f64_and_its_majorant_bounds_it() {
    let h = crate::common::headless([16, 16]);
    let s = smoke_on(&h, N, TEXTBOOK, SETTINGS);
    let mut rng = Random(0x5eed_cafe_f00d_0001);
    let (fluid, excess) = cells(&mut rng);
    let flat: Vec<f32> = fluid.iter().flatten().map(|v| *v as f32).collect();
    s.upload(&h.gpu, FieldId::Fluid, &flat).unwrap();
    s.upload(&h.gpu, FieldId::Temperature, &excess.iter().map(|v| *v as f32).collect::<Vec<_>>()).unwrap();
    let u = SmokeUniform::new(&s.chapter.params, N as u32, [0.0, 1.0, 0.0], 0);
    h.gpu.write_buffer(&s.gpu.as_ref().unwrap().uniform, 0, bytemuck::bytes_of(&u));
    let points = points(&u, &mut rng);
    let gpu = probe(&h, &s, &points);
    let excess: Vec<[f64; 1]> = excess.iter().map(|v| [*v]).collect();
    let f64_of = |p: [f32; 3]| p.map(|v| v as f64);
    let want: Vec<Sample> = points
        .iter()
        .map(|[p, lo, hi]| Sample {
            majorant: majorant_f64(&u, &fluid, f64_of(*lo), f64_of(*hi)),
            ..medium_f64(&u, &fluid, &excess, f64_of(*p))
        })
        .collect();
    // Tolerances: a 256th of each quantity's largest value (GPU filters blend with 8-bit weights).
    let scale = |q: fn(&Sample) -> [f64; 3]| want.iter().flat_map(q).fold(0.0f64, f64::max) / 256.0 + 1e-6;
    let tol = [scale(|s| s.extinction), scale(|s| s.scattering), scale(|s| s.emission)];
    let inside = want.iter().filter(|w| w.extinction[0] > 0.0).count();
    assert!(inside > POINTS / 2 && inside < POINTS, "{inside} of {POINTS} points in smoke");
    // The bound first: no point's σt above its box's majorant.
    let above: Vec<usize> =
        (0..POINTS).filter(|&i| (0..3).any(|c| gpu[i].extinction[c] > gpu[i].majorant[c])).collect();
    assert!(above.is_empty(), "{} points above their majorant: {:?}", above.len(), above.first().map(|&i| gpu[i]));
    for (i, (got, want)) in gpu.iter().zip(&want).enumerate() {
        let at = format!("point {i} at {:?}", points[i][0]);
        for c in 0..3 {
            assert!((got.extinction[c] - want.extinction[c]).abs() <= tol[0], "{at}: σt {got:?} vs {want:?}");
            assert!((got.scattering[c] - want.scattering[c]).abs() <= tol[1], "{at}: σs {got:?} vs {want:?}");
            assert!((got.emission[c] - want.emission[c]).abs() <= tol[2], "{at}: emission {got:?} vs {want:?}");
            assert!(want.majorant[c] >= want.extinction[c], "{at}: the bound misses the f64 trilinear density");
            let bound = (got.majorant[c] - want.majorant[c]).abs() <= 1e-5 * want.majorant[c] + 1e-7;
            assert!(bound, "{at}: majorant {:?} vs the cells' bound {:?}", got.majorant, want.majorant);
        }
        assert!((got.weight - want.weight).abs() <= tol[1], "{at}: scattering weight {got:?} vs {want:?}");
        if want.extinction[0] > 0.0 {
            assert!((got.g - want.g).abs() < 1e-6 && got.kind == 0.0, "{at}: phase {got:?}");
        }
    }
}
