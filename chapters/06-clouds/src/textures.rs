//! The cloud noise textures on the GPU: the 3D base shape and detail (with its mip chain) and
//! the 2D weather map, and the compute passes that fill them (shaders/06-clouds/
//! noise_generate.wgsl). They are generated once, in the prepare stage of the first frame, and
//! again only when the seed or the resolution changes (or every frame on request, to time them).

use crate::params::NoiseResolution;
use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::{texture_3d_entry, uniform_entry};
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::compute_pipeline;
use fogbook_core::timing::PassRecorder;

pub const GENERATE_SHADER: &str = "06-clouds/noise_generate.wgsl";
pub const NOISE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Mirrors `struct NoiseParams` in noise_generate.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct NoiseUniform {
    pub seed: u32,
    pub size: u32,
    pub _pad0: u32,
    pub _pad1: u32,
}

/// One generation pass: its pipeline, its uniform and bind group, and the texels it covers.
struct Pass {
    label: String,
    pipeline: wgpu::ComputePipeline,
    uniform: wgpu::Buffer,
    group: wgpu::BindGroup,
    size: u32,
    workgroups: [u32; 3],
    /// The weather map's pass (left out while the map comes from a file).
    weather: bool,
}

pub struct NoiseTextures {
    pub base: wgpu::Texture,
    pub detail: wgpu::Texture,
    pub weather: wgpu::Texture,
    /// Curl noise, a quarter of the weather map's side.
    pub curl: wgpu::Texture,
    pub base_view: wgpu::TextureView,
    pub detail_view: wgpu::TextureView,
    pub weather_view: wgpu::TextureView,
    pub curl_view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
    passes: Vec<Pass>,
    /// The seed the textures hold; `None` until the first generation.
    pub generated: Option<u32>,
    pub resolution: NoiseResolution,
}

fn mip_count(size: u32) -> u32 {
    32 - size.leading_zeros()
}

fn texture(gpu: &GpuContext, label: &str, size: u32, dimension: wgpu::TextureDimension, mips: u32) -> wgpu::Texture {
    let depth = if dimension == wgpu::TextureDimension::D3 { size } else { 1 };
    gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: depth },
        mip_level_count: mips,
        sample_count: 1,
        dimension,
        format: NOISE_FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

/// A compute pass's write-only storage texture of `format` and `dimension`.
pub(crate) fn storage_entry(
    binding: u32,
    format: wgpu::TextureFormat,
    dimension: wgpu::TextureViewDimension,
) -> wgpu::BindGroupLayoutEntry {
    fogbook_core::bindings::storage_texture_entry(binding, wgpu::ShaderStages::COMPUTE, format, dimension)
}

fn mip_view(texture: &wgpu::Texture, level: u32) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        base_mip_level: level,
        mip_level_count: Some(1),
        ..Default::default()
    })
}

impl NoiseTextures {
    // ANCHOR: create
    /// The textures at `resolution` and their passes, from the compiled generation shader.
    pub fn new(gpu: &GpuContext, module: &wgpu::ShaderModule, resolution: NoiseResolution) -> anyhow::Result<Self> {
        let device = &gpu.device;
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })
        };
        let volume_layout = layout(
            "cloud noise",
            &[uniform_entry(0, c), storage_entry(1, NOISE_FORMAT, wgpu::TextureViewDimension::D3)],
        );
        let map_layout = layout(
            "weather map",
            &[uniform_entry(0, c), storage_entry(2, NOISE_FORMAT, wgpu::TextureViewDimension::D2)],
        );
        let float = wgpu::TextureSampleType::Float { filterable: true };
        let mip_layout = layout(
            "cloud noise mip",
            &[
                uniform_entry(0, c),
                storage_entry(1, NOISE_FORMAT, wgpu::TextureViewDimension::D3),
                texture_3d_entry(3, c, float),
            ],
        );
        let [base_n, detail_n, weather_n] = resolution.sizes();
        let d3 = wgpu::TextureDimension::D3;
        let base = texture(gpu, "cloud base shape", base_n, d3, 1);
        let detail = texture(gpu, "cloud detail", detail_n, d3, mip_count(detail_n));
        let weather = texture(gpu, "weather map", weather_n, wgpu::TextureDimension::D2, 1);
        let curl_n = weather_n / 4;
        let curl = texture(gpu, "curl noise", curl_n, wgpu::TextureDimension::D2, 1);

        let mut passes = Vec::new();
        let mut add = |label: String,
                       entry: &str,
                       layout: &wgpu::BindGroupLayout,
                       size: u32,
                       bindings: Vec<(u32, wgpu::TextureView)>|
         -> anyhow::Result<()> {
            passes.push(Self::pass(device, module, label, entry, layout, size, bindings)?);
            Ok(())
        };
        add("clouds: noise base shape".into(), "base_shape", &volume_layout, base_n, vec![(1, mip_view(&base, 0))])?;
        add("clouds: noise detail".into(), "detail", &volume_layout, detail_n, vec![(1, mip_view(&detail, 0))])?;
        for level in 1..mip_count(detail_n) {
            let views = vec![(1, mip_view(&detail, level)), (3, mip_view(&detail, level - 1))];
            add(format!("clouds: noise detail mip {level}"), "downsample", &mip_layout, detail_n >> level, views)?;
        }
        add("clouds: weather map".into(), "weather", &map_layout, weather_n, vec![(2, mip_view(&weather, 0))])?;
        add("clouds: curl noise".into(), "curl", &map_layout, curl_n, vec![(2, mip_view(&curl, 0))])?;

        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("cloud noise"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            address_mode_w: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        Ok(Self {
            base_view: base.create_view(&Default::default()),
            detail_view: detail.create_view(&Default::default()),
            weather_view: weather.create_view(&Default::default()),
            curl_view: curl.create_view(&Default::default()),
            curl,
            base,
            detail,
            weather,
            sampler,
            passes,
            generated: None,
            resolution,
        })
    }

    /// One generation pass: its uniform, its bind group over `bindings`, the pipeline of the
    /// shader's `entry` and its workgroup count for a texture `size` texels across.
    fn pass(
        device: &wgpu::Device,
        module: &wgpu::ShaderModule,
        label: String,
        entry: &str,
        layout: &wgpu::BindGroupLayout,
        size: u32,
        bindings: Vec<(u32, wgpu::TextureView)>,
    ) -> anyhow::Result<Pass> {
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(&label),
            size: std::mem::size_of::<NoiseUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }];
        entries.extend(
            bindings
                .iter()
                .map(|(b, v)| wgpu::BindGroupEntry { binding: *b, resource: wgpu::BindingResource::TextureView(v) }),
        );
        let group =
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(&label), layout, entries: &entries });
        let pipeline = compute_pipeline(device, module, entry, &[Some(layout)])?;
        let workgroups = if entry == "weather" || entry == "curl" {
            [size.div_ceil(8), size.div_ceil(8), 1]
        } else {
            [size.div_ceil(4); 3]
        };
        Ok(Pass { label, pipeline, uniform, group, size, workgroups, weather: entry == "weather" })
    }
    // ANCHOR_END: create

    // ANCHOR: generate
    /// Records the passes that fill every texture for `seed` (the weather map's only with
    /// `weather`); the mip levels in order, each after the level it reads.
    pub fn generate(&mut self, gpu: &GpuContext, passes: &mut PassRecorder, seed: u32, weather: bool) {
        for pass in self.passes.iter().filter(|p| weather || !p.weather) {
            let uniform = NoiseUniform { seed, size: pass.size, _pad0: 0, _pad1: 0 };
            gpu.write_buffer(&pass.uniform, 0, bytemuck::bytes_of(&uniform));
            passes.compute(&pass.label, |p| {
                p.set_pipeline(&pass.pipeline);
                p.set_bind_group(0, &pass.group, &[]);
                let [x, y, z] = pass.workgroups;
                p.dispatch_workgroups(x, y, z);
            });
        }
        self.generated = Some(seed);
    }
    // ANCHOR_END: generate
}

/// Reads mip level 0 of a 3D rgba8 texture back: texels in x-fastest order.
pub fn read_volume(gpu: &GpuContext, texture: &wgpu::Texture) -> anyhow::Result<Vec<[u8; 4]>> {
    let bytes = fogbook_core::capture::read_texture(gpu, texture)?;
    Ok(bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect())
}
