//! The precomputed lookup textures of Bruneton (2017) on the GPU and the passes that fill them:
//! transmittance, direct irradiance, single scattering, then per order n ≥ 2 the scattering
//! density, the sky irradiance of order n − 1 and the multiple scattering of order n.
//!
//! Sums over orders (scattering, irradiance) ping-pong between two textures, as a compute pass
//! cannot blend; the deltas of one order are scratch textures the next order reads.

use crate::params::MAX_SCATTERING_ORDERS;
use crate::reference::TRANSMITTANCE_SIZE;
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::ShaderStore;
use fogbook_core::timing::PassRecorder;

/// Sky irradiance texture (r, μ_s), Bruneton 2017: the shared sky's layout, which the core owns.
pub use fogbook_core::shared_sky::IRRADIANCE_SIZE;
pub const LUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

pub const TRANSMITTANCE_SHADER: &str = "03-sky/transmittance_lut.wgsl";
pub const DIRECT_IRRADIANCE_SHADER: &str = "03-sky/direct_irradiance.wgsl";
pub const SINGLE_SCATTERING_SHADER: &str = "03-sky/single_scattering.wgsl";
pub const SCATTERING_DENSITY_SHADER: &str = "03-sky/scattering_density.wgsl";
pub const INDIRECT_IRRADIANCE_SHADER: &str = "03-sky/indirect_irradiance.wgsl";
pub const MULTIPLE_SCATTERING_SHADER: &str = "03-sky/multiple_scattering.wgsl";

fn texture(
    device: &wgpu::Device,
    label: &str,
    size: [u32; 3],
    dimension: wgpu::TextureDimension,
) -> (wgpu::Texture, wgpu::TextureView) {
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: size[2] },
        mip_level_count: 1,
        sample_count: 1,
        dimension,
        format: LUT_FORMAT,
        usage: wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    (texture, view)
}

// ANCHOR: textures
/// Every lookup texture. The 4D scattering function (r, μ, μ_s, ν) lives in a 3D texture of
/// (ν·μ_s) × μ × r texels.
pub struct LutTextures {
    /// (ν, μ_s, μ, r) texels.
    pub scattering_size: [u32; 4],
    pub transmittance: (wgpu::Texture, wgpu::TextureView),
    /// Sky irradiance, all orders ≥ 2 of light (the sun's own is added when rendering).
    pub irradiance: [(wgpu::Texture, wgpu::TextureView); 2],
    pub delta_irradiance: (wgpu::Texture, wgpu::TextureView),
    /// Single Rayleigh plus every higher order divided by the Rayleigh phase function.
    pub scattering: [(wgpu::Texture, wgpu::TextureView); 2],
    /// Single Rayleigh (kept for the single-vs-multiple views).
    pub single_rayleigh: (wgpu::Texture, wgpu::TextureView),
    /// Single Rayleigh, then the latest order of multiple scattering (with its phase).
    pub delta_rayleigh: (wgpu::Texture, wgpu::TextureView),
    /// Single Mie, also used when rendering.
    pub single_mie: (wgpu::Texture, wgpu::TextureView),
    /// Scattering density J of the latest order.
    pub density: (wgpu::Texture, wgpu::TextureView),
}
// ANCHOR_END: textures

impl LutTextures {
    pub fn new(device: &wgpu::Device, scattering_size: [u32; 4]) -> Self {
        use wgpu::TextureDimension::{D2, D3};
        let [nu, mu_s, mu, r] = scattering_size;
        let s3 = [nu * mu_s, mu, r];
        let [tw, th] = TRANSMITTANCE_SIZE;
        let [iw, ih] = IRRADIANCE_SIZE;
        Self {
            scattering_size,
            transmittance: texture(device, "sky: transmittance", [tw, th, 1], D2),
            irradiance: [
                texture(device, "sky: irradiance A", [iw, ih, 1], D2),
                texture(device, "sky: irradiance B", [iw, ih, 1], D2),
            ],
            delta_irradiance: texture(device, "sky: delta irradiance", [iw, ih, 1], D2),
            scattering: [texture(device, "sky: scattering A", s3, D3), texture(device, "sky: scattering B", s3, D3)],
            single_rayleigh: texture(device, "sky: single Rayleigh", s3, D3),
            delta_rayleigh: texture(device, "sky: delta Rayleigh / multiple", s3, D3),
            single_mie: texture(device, "sky: single Mie", s3, D3),
            density: texture(device, "sky: scattering density", s3, D3),
        }
    }

    // ANCHOR: final_index
    /// Which of the two sums holds the result after `orders` orders.
    pub fn final_index(orders: u32) -> usize {
        ((orders.max(1) - 1) % 2) as usize
    }
    // ANCHOR_END: final_index

    /// GPU memory of all the textures (bytes).
    pub fn bytes(&self) -> u64 {
        let [nu, mu_s, mu, r] = self.scattering_size.map(u64::from);
        let texel = 16;
        let s3 = nu * mu_s * mu * r * texel;
        let [tw, th] = TRANSMITTANCE_SIZE.map(u64::from);
        let [iw, ih] = IRRADIANCE_SIZE.map(u64::from);
        6 * s3 + tw * th * texel + 3 * iw * ih * texel
    }
}

/// One compute pipeline per precomputation pass (layouts from the shaders), the uniforms that
/// say which scattering order a pass computes, and the sampler the passes read the LUTs with.
pub struct PrecomputePipelines {
    transmittance: wgpu::ComputePipeline,
    direct_irradiance: wgpu::ComputePipeline,
    single_scattering: wgpu::ComputePipeline,
    /// Order 2 (from single scattering) and the higher orders: `FROM_SINGLE_SCATTERING` in
    /// the shader.
    scattering_density: [wgpu::ComputePipeline; 2],
    indirect_irradiance: wgpu::ComputePipeline,
    multiple_scattering: wgpu::ComputePipeline,
    order: Vec<wgpu::Buffer>,
    sampler: wgpu::Sampler,
}

fn auto_pipeline(device: &wgpu::Device, shaders: &ShaderStore, file: &str) -> anyhow::Result<wgpu::ComputePipeline> {
    auto_pipeline_with(device, shaders, file, &[])
}

/// `auto_pipeline` with values for the shader's `override` constants.
fn auto_pipeline_with(
    device: &wgpu::Device,
    shaders: &ShaderStore,
    file: &str,
    constants: &[(&str, f64)],
) -> anyhow::Result<wgpu::ComputePipeline> {
    let shader = shaders.load(file)?;
    let module = fogbook_core::shaders::create_module(device, &shader)?;
    let entry = file.trim_start_matches("03-sky/").trim_end_matches(".wgsl");
    fogbook_core::shaders::checked(device, entry, || {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions { constants, ..Default::default() },
            cache: None,
        })
    })
}

impl PrecomputePipelines {
    pub fn new(device: &wgpu::Device, shaders: &ShaderStore, sampler: wgpu::Sampler) -> anyhow::Result<Self> {
        Ok(Self {
            order: order_buffers(device),
            sampler,
            transmittance: auto_pipeline(device, shaders, TRANSMITTANCE_SHADER)?,
            direct_irradiance: auto_pipeline(device, shaders, DIRECT_IRRADIANCE_SHADER)?,
            single_scattering: auto_pipeline(device, shaders, SINGLE_SCATTERING_SHADER)?,
            scattering_density: [
                auto_pipeline_with(device, shaders, SCATTERING_DENSITY_SHADER, &[("FROM_SINGLE_SCATTERING", 1.0)])?,
                auto_pipeline_with(device, shaders, SCATTERING_DENSITY_SHADER, &[("FROM_SINGLE_SCATTERING", 0.0)])?,
            ],
            indirect_irradiance: auto_pipeline(device, shaders, INDIRECT_IRRADIANCE_SHADER)?,
            multiple_scattering: auto_pipeline(device, shaders, MULTIPLE_SCATTERING_SHADER)?,
        })
    }
}

/// Uniform buffers holding each scattering order (the indirect irradiance pass reads it).
fn order_buffers(device: &wgpu::Device) -> Vec<wgpu::Buffer> {
    use wgpu::util::DeviceExt;
    // The irradiance pass of order n integrates light of order n − 1 (1 ..= max − 1).
    (0..MAX_SCATTERING_ORDERS)
        .map(|n| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("sky: scattering order"),
                contents: bytemuck::cast_slice(&[n, 0, 0, 0]),
                usage: wgpu::BufferUsages::UNIFORM,
            })
        })
        .collect()
}

fn group(
    device: &wgpu::Device,
    pipeline: &wgpu::ComputePipeline,
    resources: &[wgpu::BindingResource],
) -> wgpu::BindGroup {
    let entries: Vec<_> = resources
        .iter()
        .enumerate()
        .map(|(i, r)| wgpu::BindGroupEntry { binding: i as u32, resource: r.clone() })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("sky LUT pass"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}

fn dispatch(
    passes: &mut PassRecorder,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    group: &wgpu::BindGroup,
    size: [u32; 3],
) {
    passes.compute(label, |pass| {
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(size[0].div_ceil(8), size[1].div_ceil(8), size[2]);
    });
}

// ANCHOR: precompute
/// Records every precomputation pass for `orders` orders of scattering.
pub fn record_precompute(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &PrecomputePipelines,
    t: &LutTextures,
    atmosphere: &wgpu::Buffer,
    orders: u32,
) {
    use wgpu::BindingResource::{Sampler, TextureView as Tex};
    let d = &gpu.device;
    let (order, sampler) = (&p.order, &p.sampler);
    let atm = atmosphere.as_entire_binding();
    let [nu, mu_s, mu, r] = t.scattering_size;
    let s3 = [nu * mu_s, mu, r];
    let [tw, th] = TRANSMITTANCE_SIZE;
    let [iw, ih] = IRRADIANCE_SIZE;

    let g = group(d, &p.transmittance, &[atm.clone(), Tex(&t.transmittance.1)]);
    dispatch(passes, "sky LUT: transmittance", &p.transmittance, &g, [tw, th, 1]);

    let g = group(
        d,
        &p.direct_irradiance,
        &[atm.clone(), Tex(&t.transmittance.1), Sampler(sampler), Tex(&t.delta_irradiance.1), Tex(&t.irradiance[0].1)],
    );
    dispatch(passes, "sky LUT: direct irradiance", &p.direct_irradiance, &g, [iw, ih, 1]);

    let g = group(
        d,
        &p.single_scattering,
        &[
            atm.clone(),
            Tex(&t.transmittance.1),
            Sampler(sampler),
            Tex(&t.delta_rayleigh.1),
            Tex(&t.single_mie.1),
            Tex(&t.scattering[0].1),
            Tex(&t.single_rayleigh.1),
        ],
    );
    dispatch(passes, "sky LUT: single scattering", &p.single_scattering, &g, s3);

    // Order n writes the sums into texture (n − 1) % 2 and reads them from the other.
    for n in 2..=orders.min(MAX_SCATTERING_ORDERS) {
        let (read, write) = ((n % 2) as usize, ((n - 1) % 2) as usize);
        let density = &p.scattering_density[usize::from(n > 2)];
        let g = group(
            d,
            density,
            &[
                atm.clone(),
                Tex(&t.transmittance.1),
                Sampler(sampler),
                Tex(&t.delta_rayleigh.1),
                Tex(&t.single_mie.1),
                Tex(&t.delta_irradiance.1),
                Tex(&t.density.1),
            ],
        );
        dispatch(passes, "sky LUT: scattering density", density, &g, s3);
        let g = group(
            d,
            &p.indirect_irradiance,
            &[
                atm.clone(),
                order[n as usize - 1].as_entire_binding(),
                Sampler(sampler),
                Tex(&t.delta_rayleigh.1),
                Tex(&t.single_mie.1),
                Tex(&t.irradiance[read].1),
                Tex(&t.delta_irradiance.1),
                Tex(&t.irradiance[write].1),
            ],
        );
        dispatch(passes, "sky LUT: indirect irradiance", &p.indirect_irradiance, &g, [iw, ih, 1]);
        let g = group(
            d,
            &p.multiple_scattering,
            &[
                atm.clone(),
                Tex(&t.transmittance.1),
                Sampler(sampler),
                Tex(&t.density.1),
                Tex(&t.scattering[read].1),
                Tex(&t.delta_rayleigh.1),
                Tex(&t.scattering[write].1),
            ],
        );
        dispatch(passes, "sky LUT: multiple scattering", &p.multiple_scattering, &g, s3);
    }
}
// ANCHOR_END: precompute
