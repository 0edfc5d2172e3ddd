//! Pipelines of the smoke solver and of its views, and the recording of one step.

use crate::fields::{Field, Fields, SCALAR_FORMAT, VELOCITY_FORMAT};
use anyhow::Result;
use fogbook_core::frame::{FrameLayouts, uniform_entry};
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::{ShaderStore, create_module};
use fogbook_core::timing::PassRecorder;

/// How a pass binds one texture.
#[derive(Clone, Copy)]
enum Slot {
    /// Sampled (filterable float) 3D texture.
    Sampled,
    /// Write-only 3D storage texture of this format.
    Storage(wgpu::TextureFormat),
}

fn layout(device: &wgpu::Device, label: &str, slots: &[Slot]) -> wgpu::BindGroupLayout {
    let entries: Vec<_> = slots
        .iter()
        .enumerate()
        .map(|(i, slot)| wgpu::BindGroupLayoutEntry {
            binding: i as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: match slot {
                Slot::Sampled => wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D3,
                    multisampled: false,
                },
                Slot::Storage(format) => wgpu::BindingType::StorageTexture {
                    access: wgpu::StorageTextureAccess::WriteOnly,
                    format: *format,
                    view_dimension: wgpu::TextureViewDimension::D3,
                },
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries: &entries })
}

/// One compute pipeline and the layout of its own textures (group 3).
pub struct Pass {
    pub pipeline: wgpu::ComputePipeline,
    pub textures: wgpu::BindGroupLayout,
}

impl Pass {
    fn bind(&self, device: &wgpu::Device, fields: &[&Field]) -> wgpu::BindGroup {
        let entries: Vec<_> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: wgpu::BindingResource::TextureView(&f.view),
            })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &self.textures, entries: &entries })
    }
}

pub struct Pipelines {
    pub params_layout: wgpu::BindGroupLayout,
    pub advect: Pass,
    pub vorticity: Pass,
    pub divergence: Pass,
    pub jacobi: Pass,
    pub project: Pass,
    pub light: Pass,
    pub view: Pass,
}

/// Workgroup size of the 3D passes (shaders use 8 × 8 × 4). Measured on an H200 at 128³: the
/// Jacobi sweep takes 19.6–19.7 µs with 8×8×4, 32×4×2, 16×8×2, 64×4×1, 16×16×1 or 8×8×8 alike
/// (22.6 µs with 4×4×4): it is bound by memory traffic, not by the shape.
pub const WORKGROUP: [u32; 3] = [8, 8, 4];

impl Pipelines {
    pub fn new(gpu: &GpuContext, frame_layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<Self> {
        let device = &gpu.device;
        let params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smoke params"),
            entries: &[
                uniform_entry(0, wgpu::ShaderStages::COMPUTE),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let make = |file: &str, entry: &str, slots: &[Slot], with_frame: bool| -> Result<Pass> {
            let module = create_module(device, &shaders.load(&format!("07-smoke/{file}"))?);
            let textures = layout(device, entry, slots);
            let groups = if with_frame {
                [
                    Some(&frame_layouts.scene_inputs),
                    Some(&frame_layouts.view_out),
                    Some(&params_layout),
                    Some(&textures),
                ]
            } else {
                [None, None, Some(&params_layout), Some(&textures)]
            };
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(entry),
                bind_group_layouts: &groups,
                immediate_size: 0,
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
            Ok(Pass { pipeline, textures })
        };
        use Slot::*;
        let vel = Storage(VELOCITY_FORMAT);
        let scalar = Storage(SCALAR_FORMAT);
        Ok(Self {
            advect: make("advect.wgsl", "advect", &[Sampled, Sampled, Sampled, vel, vel], false)?,
            vorticity: make("vorticity.wgsl", "vorticity", &[Sampled, vel], false)?,
            divergence: make("divergence.wgsl", "divergence", &[Sampled, scalar], false)?,
            jacobi: make("jacobi.wgsl", "jacobi", &[Sampled, Sampled, scalar], false)?,
            project: make("project.wgsl", "project", &[Sampled, Sampled, vel], false)?,
            light: make("light.wgsl", "light", &[Sampled, scalar], false)?,
            view: make("view.wgsl", "smoke_view", &[Sampled, Sampled, Sampled, Sampled, Sampled], true)?,
            params_layout,
        })
    }
}

fn groups(n: u32) -> [u32; 3] {
    [n.div_ceil(WORKGROUP[0]), n.div_ceil(WORKGROUP[1]), n.div_ceil(WORKGROUP[2])]
}

/// Records one pass over the grid.
fn dispatch(
    passes: &mut PassRecorder,
    label: &str,
    pass: &Pass,
    params: &wgpu::BindGroup,
    textures: &wgpu::BindGroup,
    n: u32,
) {
    passes.compute(label, |p| {
        p.set_pipeline(&pass.pipeline);
        p.set_bind_group(2, params, &[]);
        p.set_bind_group(3, textures, &[]);
        let [x, y, z] = groups(n);
        p.dispatch_workgroups(x, y, z);
    });
}

// ANCHOR: step
/// One simulation step: advect (with the previous projection), vorticity confinement,
/// divergence, then `iterations` Jacobi sweeps in one timed pass.
pub fn record_step(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    iterations: u32,
) {
    let d = &gpu.device;
    let n = f.n;
    let g =
        p.advect.bind(d, &[f.velocity.read(), f.pressure.read(), f.fluid.read(), f.velocity.write(), f.fluid.write()]);
    dispatch(passes, "smoke: advect + project", &p.advect, params, &g, n);
    f.velocity.swap();
    f.fluid.swap();

    let g = p.vorticity.bind(d, &[f.velocity.read(), f.velocity.write()]);
    dispatch(passes, "smoke: vorticity", &p.vorticity, params, &g, n);
    f.velocity.swap();

    let g = p.divergence.bind(d, &[f.velocity.read(), &f.divergence]);
    dispatch(passes, "smoke: divergence", &p.divergence, params, &g, n);

    record_jacobi(gpu, passes, p, params, f, iterations);
}
// ANCHOR_END: step

// ANCHOR: record_jacobi
/// `iterations` Jacobi sweeps, warm-started from the current pressure, in one compute pass
/// (each dispatch sees the previous one's writes).
pub fn record_jacobi(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    iterations: u32,
) {
    if iterations == 0 {
        return;
    }
    let d = &gpu.device;
    let forward = p.jacobi.bind(d, &[f.pressure.read(), &f.divergence, f.pressure.write()]);
    let backward = p.jacobi.bind(d, &[f.pressure.write(), &f.divergence, f.pressure.read()]);
    let n = f.n;
    passes.compute("smoke: pressure (Jacobi)", |pass| {
        pass.set_pipeline(&p.jacobi.pipeline);
        pass.set_bind_group(2, params, &[]);
        let [x, y, z] = groups(n);
        for i in 0..iterations {
            pass.set_bind_group(3, if i % 2 == 0 { &forward } else { &backward }, &[]);
            pass.dispatch_workgroups(x, y, z);
        }
    });
    if iterations % 2 == 1 {
        f.pressure.swap();
    }
}
// ANCHOR_END: record_jacobi

/// u ← u − ∇q on its own (tests, tools).
pub fn record_project(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let g = p.project.bind(&gpu.device, &[f.velocity.read(), f.pressure.read(), f.velocity.write()]);
    dispatch(passes, "smoke: project", &p.project, params, &g, f.n);
    f.velocity.swap();
}

/// The divergence of the current velocity on its own.
pub fn record_divergence(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let g = p.divergence.bind(&gpu.device, &[f.velocity.read(), &f.divergence]);
    dispatch(passes, "smoke: divergence", &p.divergence, params, &g, f.n);
}

/// The sun's transmittance per cell, for the rendered smoke.
pub fn record_light(gpu: &GpuContext, passes: &mut PassRecorder, p: &Pipelines, params: &wgpu::BindGroup, f: &Fields) {
    let g = p.light.bind(&gpu.device, &[f.fluid.read(), &f.light]);
    dispatch(passes, "smoke: light volume", &p.light, params, &g, f.n);
}

/// Binds the fields the view pass reads.
pub fn view_textures(gpu: &GpuContext, p: &Pipelines, f: &Fields) -> wgpu::BindGroup {
    p.view.bind(&gpu.device, &[f.velocity.read(), f.pressure.read(), &f.divergence, f.fluid.read(), &f.light])
}
