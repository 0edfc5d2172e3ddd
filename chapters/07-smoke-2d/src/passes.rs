//! Pipelines of the 2D solver and of its views, and the recording of one step.

use crate::fields::{DYE_FORMAT, Field, Fields, SCALAR_FORMAT, VELOCITY_FORMAT};
use crate::params::{Advection, PressureSolver};
use anyhow::Result;
use fogbook_core::bindings::uniform_entry;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::timing::PassRecorder;

/// Workgroup of every pass (the shaders use 8 × 8).
pub const WORKGROUP: u32 = 8;

/// How a pass binds one texture: read with `textureLoad`, or written as storage.
#[derive(Clone, Copy)]
enum Slot {
    Read,
    Write(wgpu::TextureFormat),
}

/// The layout of a kernel's own group (the core's builder, every texture 2D and read with
/// `textureLoad`).
fn layout(device: &wgpu::Device, label: &str, slots: &[Slot]) -> wgpu::BindGroupLayout {
    use fogbook_core::bindings::{Slot as Binding, compute_layout};
    let d2 = wgpu::TextureViewDimension::D2;
    let slots: Vec<Binding> = slots
        .iter()
        .map(|slot| match *slot {
            Slot::Read => Binding::Texture { filterable: false, dimension: d2 },
            Slot::Write(format) => Binding::Storage { format, dimension: d2 },
        })
        .collect();
    compute_layout(device, label, &slots)
}

/// One compute pipeline and the layout of its textures (group 3).
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
    pub maccormack: Pass,
    pub forces: Pass,
    pub divergence: Pass,
    pub jacobi: Pass,
    pub rbgs_red: Pass,
    pub rbgs_black: Pass,
    pub project: Pass,
    pub view: Pass,
}

impl Pipelines {
    pub fn new(gpu: &GpuContext, frame_layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<Self> {
        let device = &gpu.device;
        let params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smoke-2d params"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::COMPUTE)],
        });
        let make = |file: &str, entry: &str, slots: &[Slot], with_frame: bool| -> Result<Pass> {
            let module = create_module(device, &shaders.load(&format!("07-smoke-2d/{file}"))?)?;
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
            let pipeline = compute_pipeline(device, &module, entry, &groups)?;
            Ok(Pass { pipeline, textures })
        };
        use Slot::*;
        let (vel, dye, scalar) = (Write(VELOCITY_FORMAT), Write(DYE_FORMAT), Write(SCALAR_FORMAT));
        Ok(Self {
            advect: make("advect.wgsl", "advect", &[Read, Read, vel, dye], false)?,
            maccormack: make("maccormack.wgsl", "maccormack_correct", &[Read, Read, Read, Read, vel, dye], false)?,
            forces: make("forces.wgsl", "forces", &[Read, Read, vel, dye], false)?,
            divergence: make("divergence.wgsl", "divergence", &[Read, scalar], false)?,
            jacobi: make("jacobi.wgsl", "jacobi", &[Read, Read, scalar], false)?,
            rbgs_red: make("rbgs.wgsl", "rbgs_red", &[Read, Read, scalar], false)?,
            rbgs_black: make("rbgs.wgsl", "rbgs_black", &[Read, Read, scalar], false)?,
            project: make("project.wgsl", "project", &[Read, Read, vel], false)?,
            view: make("view.wgsl", "smoke_2d_view", &[Read, Read, Read, Read], true)?,
            params_layout,
        })
    }
}

/// Workgroups covering the velocity texture (n × (n + 1)), which covers the cells too.
fn groups(n: u32) -> [u32; 2] {
    [n.div_ceil(WORKGROUP), (n + 1).div_ceil(WORKGROUP)]
}

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
        let [x, y] = groups(n);
        p.dispatch_workgroups(x, y, 1);
    });
}

/// What one step does, beyond the fields' current contents.
#[derive(Clone, Copy, Debug)]
pub struct StepPlan {
    pub advection: Advection,
    pub solver: PressureSolver,
    pub sweeps: u32,
}

// ANCHOR: step
/// One simulation step: advect, forces, divergence, pressure solve, projection. Every pass
/// reads one side of its pairs and writes the other; the swaps make the result current.
pub fn record_step(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    plan: StepPlan,
) {
    record_advect(gpu, passes, p, params, f, plan.advection);
    record_forces(gpu, passes, p, params, f);
    record_divergence(gpu, passes, p, params, f);
    record_pressure(gpu, passes, p, params, f, plan.solver, plan.sweeps);
    record_project(gpu, passes, p, params, f);
}
// ANCHOR_END: step

// ANCHOR: record_advect
/// Advection of velocity, temperature and dye: one pass semi-Lagrangian; MacCormack runs the
/// same pass into the scratch fields (the forward step φ̂), then the correction and limiter.
pub fn record_advect(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    advection: Advection,
) {
    let d = &gpu.device;
    match advection {
        Advection::SemiLagrangian => {
            let g = p.advect.bind(d, &[f.velocity.read(), f.dye.read(), f.velocity.write(), f.dye.write()]);
            dispatch(passes, "smoke-2d: advect", &p.advect, params, &g, f.n);
        }
        Advection::MacCormack => {
            let g = p.advect.bind(d, &[f.velocity.read(), f.dye.read(), &f.velocity_forward, &f.dye_forward]);
            dispatch(passes, "smoke-2d: MacCormack forward", &p.advect, params, &g, f.n);
            let g = p.maccormack.bind(
                d,
                &[
                    f.velocity.read(),
                    f.dye.read(),
                    &f.velocity_forward,
                    &f.dye_forward,
                    f.velocity.write(),
                    f.dye.write(),
                ],
            );
            dispatch(passes, "smoke-2d: MacCormack correct + limit", &p.maccormack, params, &g, f.n);
        }
    }
    f.velocity.swap();
    f.dye.swap();
}
// ANCHOR_END: record_advect

/// Dissipation, buoyancy, vorticity confinement, cooling and the emitter.
pub fn record_forces(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let g = p.forces.bind(&gpu.device, &[f.velocity.read(), f.dye.read(), f.velocity.write(), f.dye.write()]);
    dispatch(passes, "smoke-2d: forces", &p.forces, params, &g, f.n);
    f.velocity.swap();
    f.dye.swap();
}

/// ∇·u of the current velocity into the divergence field.
pub fn record_divergence(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let g = p.divergence.bind(&gpu.device, &[f.velocity.read(), &f.divergence]);
    dispatch(passes, "smoke-2d: divergence", &p.divergence, params, &g, f.n);
}

/// `sweeps` sweeps of the chosen solver on the current divergence, from the current q (the last
/// step's: a warm start), all in one compute pass: each dispatch sees the previous one's writes.
pub fn record_pressure(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    solver: PressureSolver,
    sweeps: u32,
) {
    if sweeps == 0 {
        return;
    }
    // ANCHOR: record_pressure
    let d = &gpu.device;
    let (a, b, div) = (f.pressure.read(), f.pressure.write(), &f.divergence);
    let [x, y] = groups(f.n);
    match solver {
        PressureSolver::Jacobi => {
            let forward = p.jacobi.bind(d, &[a, div, b]);
            let backward = p.jacobi.bind(d, &[b, div, a]);
            passes.compute("smoke-2d: pressure (Jacobi)", |pass| {
                pass.set_pipeline(&p.jacobi.pipeline);
                pass.set_bind_group(2, params, &[]);
                for i in 0..sweeps {
                    pass.set_bind_group(3, if i % 2 == 0 { &forward } else { &backward }, &[]);
                    pass.dispatch_workgroups(x, y, 1);
                }
            });
            if sweeps % 2 == 1 {
                f.pressure.swap();
            }
        }
        PressureSolver::RedBlackGs => {
            // Red reads a and writes b, black reads b and writes a: a sweep ends in a.
            let red = p.rbgs_red.bind(d, &[a, div, b]);
            let black = p.rbgs_black.bind(d, &[b, div, a]);
            passes.compute("smoke-2d: pressure (red–black Gauss–Seidel)", |pass| {
                pass.set_bind_group(2, params, &[]);
                for _ in 0..sweeps {
                    pass.set_pipeline(&p.rbgs_red.pipeline);
                    pass.set_bind_group(3, &red, &[]);
                    pass.dispatch_workgroups(x, y, 1);
                    pass.set_pipeline(&p.rbgs_black.pipeline);
                    pass.set_bind_group(3, &black, &[]);
                    pass.dispatch_workgroups(x, y, 1);
                }
            });
        }
    }
    // ANCHOR_END: record_pressure
}

/// u ← u − ∇q.
pub fn record_project(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let g = p.project.bind(&gpu.device, &[f.velocity.read(), f.pressure.read(), f.velocity.write()]);
    dispatch(passes, "smoke-2d: project", &p.project, params, &g, f.n);
    f.velocity.swap();
}

/// Binds the fields the view pass reads.
pub fn view_textures(gpu: &GpuContext, p: &Pipelines, f: &Fields) -> wgpu::BindGroup {
    p.view.bind(&gpu.device, &[f.velocity.read(), f.dye.read(), f.pressure.read(), &f.divergence])
}
