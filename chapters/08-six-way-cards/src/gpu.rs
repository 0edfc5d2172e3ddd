//! The bake of one frame on the GPU (`shaders/08-six-way-cards/bake.wgsl`): the same
//! discretisation as `light::bake_frame` (the side lights at the cell's centre, the front and
//! back lights' exact in-cell integrals), reading the smoke's density straight from its 3D
//! texture, so only the frame's maps (8 floats a pixel) come back rather than the volume.
//! Two passes: `prefix` (the prefix sums along right and up, one invocation per line), then
//! `columns` (one invocation per view column).

use crate::card::ViewAxis;
use crate::light::{FrameMaps, Medium};
use anyhow::{Result, bail};
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};

pub const SHADER: &str = "08-six-way-cards/bake.wgsl";

/// The parameter block (`Bake` in the shader; 64 bytes, vec3s at 16-byte offsets).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BakeUniform {
    pub n: u32,
    pub glow_on: u32,
    pub _pad0: [u32; 2],
    pub world_axis: [u32; 3],
    pub _pad1: u32,
    pub positive: [u32; 3],
    pub scale: f32,
    pub ambient_k: f32,
    pub glow_start_k: f32,
    pub glow_full_k: f32,
    pub _pad2: f32,
}

/// Chapter 7's glow ramp: the ambient temperature and where the glow starts and is full (K).
#[derive(Clone, Copy, Debug)]
pub struct GlowRamp {
    pub ambient_k: f32,
    pub start_k: f32,
    pub full_k: f32,
}

/// Pipelines and buffers for an `n`³ grid.
pub struct GpuBaker {
    n: u32,
    layout: wgpu::BindGroupLayout,
    prefix: wgpu::ComputePipeline,
    columns: wgpu::ComputePipeline,
    uniform: wgpu::Buffer,
    storage: [wgpu::Buffer; 5],
    readback: wgpu::Buffer,
}

fn storage_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: false },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D3,
            multisampled: false,
        },
        count: None,
    }
}

impl GpuBaker {
    pub fn new(gpu: &GpuContext, shaders: &ShaderStore, n: u32) -> Result<Self> {
        let device = &gpu.device;
        let cells = (n as u64).pow(3) * 4;
        if cells > device.limits().max_storage_buffer_binding_size {
            bail!("grid {n}: the bake's {cells}-byte buffers are over this device's binding limit");
        }
        let shader = shaders.load(SHADER).map_err(|e| anyhow::anyhow!("{e}"))?;
        let module = create_module(device, &shader)?;
        let mut entries = vec![wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }];
        entries.extend([texture_entry(1), texture_entry(2)]);
        entries.extend((3..8).map(storage_entry));
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("six-way bake"),
            entries: &entries,
        });
        let prefix = compute_pipeline(device, &module, "prefix", &[Some(&layout)])?;
        let columns = compute_pipeline(device, &module, "columns", &[Some(&layout)])?;
        let buffer = |label: &str, size: u64, usage| {
            device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size, usage, mapped_at_creation: false })
        };
        let s = wgpu::BufferUsages::STORAGE;
        let (lines, maps) = ((n as u64).pow(2) * 4, (n as u64).pow(2) * 32);
        Ok(Self {
            n,
            uniform: buffer(
                "six-way bake parameters",
                std::mem::size_of::<BakeUniform>() as u64,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            storage: [
                buffer("six-way before right", cells, s),
                buffer("six-way before up", cells, s),
                buffer("six-way line right", lines, s),
                buffer("six-way line up", lines, s),
                buffer("six-way maps", maps, s | wgpu::BufferUsages::COPY_SRC),
            ],
            readback: buffer(
                "six-way maps read-back",
                maps,
                wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            ),
            layout,
            prefix,
            columns,
        })
    }

    /// Bakes the frame of the smoke whose density is `fluid`'s fourth channel (and T − T_amb
    /// `velocity`'s, for the glow), seen along `view`.
    pub fn bake(
        &self,
        gpu: &GpuContext,
        fluid: &wgpu::TextureView,
        velocity: &wgpu::TextureView,
        view: ViewAxis,
        medium: Medium,
        glow: Option<GlowRamp>,
    ) -> Result<FrameMaps> {
        let n = self.n;
        let frame = view.frame();
        let ramp = glow.unwrap_or(GlowRamp { ambient_k: 0.0, start_k: 0.0, full_k: 1.0 });
        let uniform = BakeUniform {
            n,
            glow_on: glow.is_some() as u32,
            _pad0: [0; 2],
            world_axis: frame.map(|a| a.axis as u32),
            _pad1: 0,
            positive: frame.map(|a| a.positive as u32),
            scale: medium.extinction * medium.cell_m,
            ambient_k: ramp.ambient_k,
            glow_start_k: ramp.start_k,
            glow_full_k: ramp.full_k,
            _pad2: 0.0,
        };
        gpu.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        let mut entries = vec![
            wgpu::BindGroupEntry { binding: 0, resource: self.uniform.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(fluid) },
            wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(velocity) },
        ];
        entries.extend(
            self.storage
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry { binding: 3 + i as u32, resource: b.as_entire_binding() }),
        );
        let group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("six-way bake"),
            layout: &self.layout,
            entries: &entries,
        });
        // ANCHOR: gpu_bake
        let mut enc = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("six-way prefix"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.prefix);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups((n * n).div_ceil(64), 2, 1);
        }
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("six-way columns"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.columns);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(n.div_ceil(8), n.div_ceil(8), 1);
        }
        enc.copy_buffer_to_buffer(&self.storage[4], 0, &self.readback, 0, self.readback.size());
        gpu.submit([enc.finish()]);
        // ANCHOR_END: gpu_bake
        let bytes = fogbook_core::capture::map_read(gpu, &self.readback)?;
        let values: &[f32] = bytemuck::cast_slice(&bytes);
        let mut out = FrameMaps::zero(n as usize);
        for (pixel, v) in values.chunks_exact(8).enumerate() {
            for (map, value) in out.lit.iter_mut().zip(&v[..6]) {
                map[pixel] = medium.albedo * value;
            }
            out.alpha[pixel] = v[6];
            out.emission[pixel] = v[7];
        }
        Ok(out)
    }
}
