//! Pipelines of the 2D solver and of its views, and the recording of one step.

use crate::fields::{DYE_FORMAT, Field, Fields, SCALAR_FORMAT, VELOCITY_FORMAT};
use crate::params::{Advection, PressureSolver};
use anyhow::Result;
use fogbook_core::bindings::uniform_entry;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::GpuContext;
use fogbook_core::grid_solver::{Kernel, record_sweeps};
use fogbook_core::shaders::{ShaderStore, create_module};
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

/// A kernel's own group: every slot of a 2D kernel is a field.
fn bind(kernel: &Kernel, device: &wgpu::Device, fields: &[&Field]) -> wgpu::BindGroup {
    let views: Vec<_> = fields.iter().map(|f| wgpu::BindingResource::TextureView(&f.view)).collect();
    kernel.bind(device, &views)
}

pub struct Pipelines {
    pub params_layout: wgpu::BindGroupLayout,
    pub advect: Kernel,
    pub maccormack: Kernel,
    pub forces: Kernel,
    pub divergence: Kernel,
    pub jacobi: Kernel,
    pub rbgs_red: Kernel,
    pub rbgs_black: Kernel,
    pub project: Kernel,
    pub view: Kernel,
}

impl Pipelines {
    pub fn new(gpu: &GpuContext, frame_layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<Self> {
        let device = &gpu.device;
        let params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smoke-2d params"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::COMPUTE)],
        });
        let make = |file: &str, entry: &str, slots: &[Slot], with_frame: bool| -> Result<Kernel> {
            let module = create_module(device, &shaders.load(&format!("07-smoke-2d/{file}"))?)?;
            let frame = with_frame.then_some(frame_layouts);
            Kernel::new(device, &module, entry, frame, &params_layout, layout(device, entry, slots), &[])
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
fn groups(n: u32) -> [u32; 3] {
    [n.div_ceil(WORKGROUP), (n + 1).div_ceil(WORKGROUP), 1]
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
            let g = bind(&p.advect, d, &[f.velocity.read(), f.dye.read(), f.velocity.write(), f.dye.write()]);
            p.advect.dispatch(passes, "smoke-2d: advect", params, &g, groups(f.n));
        }
        Advection::MacCormack => {
            let g = bind(&p.advect, d, &[f.velocity.read(), f.dye.read(), &f.velocity_forward, &f.dye_forward]);
            p.advect.dispatch(passes, "smoke-2d: MacCormack forward", params, &g, groups(f.n));
            let g = bind(
                &p.maccormack,
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
            p.maccormack.dispatch(passes, "smoke-2d: MacCormack correct + limit", params, &g, groups(f.n));
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
    let g = bind(&p.forces, &gpu.device, &[f.velocity.read(), f.dye.read(), f.velocity.write(), f.dye.write()]);
    p.forces.dispatch(passes, "smoke-2d: forces", params, &g, groups(f.n));
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
    let g = bind(&p.divergence, &gpu.device, &[f.velocity.read(), &f.divergence]);
    p.divergence.dispatch(passes, "smoke-2d: divergence", params, &g, groups(f.n));
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
    match solver {
        PressureSolver::Jacobi => {
            // Even sweeps read a and write b, odd ones back: an odd count ends in b.
            let (forward, backward) = (bind(&p.jacobi, d, &[a, div, b]), bind(&p.jacobi, d, &[b, div, a]));
            let steps = [(&p.jacobi, &forward), (&p.jacobi, &backward)];
            record_sweeps(passes, "smoke-2d: pressure (Jacobi)", params, &steps, sweeps, groups(f.n));
            if sweeps % 2 == 1 {
                f.pressure.swap();
            }
        }
        PressureSolver::RedBlackGs => {
            // Red reads a and writes b, black reads b and writes a: a sweep ends in a.
            let (red, black) = (bind(&p.rbgs_red, d, &[a, div, b]), bind(&p.rbgs_black, d, &[b, div, a]));
            let steps = [(&p.rbgs_red, &red), (&p.rbgs_black, &black)];
            let label = "smoke-2d: pressure (red–black Gauss–Seidel)";
            record_sweeps(passes, label, params, &steps, 2 * sweeps, groups(f.n));
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
    let g = bind(&p.project, &gpu.device, &[f.velocity.read(), f.pressure.read(), f.velocity.write()]);
    p.project.dispatch(passes, "smoke-2d: project", params, &g, groups(f.n));
    f.velocity.swap();
}

/// Binds the fields the view pass reads.
pub fn view_textures(gpu: &GpuContext, p: &Pipelines, f: &Fields) -> wgpu::BindGroup {
    bind(&p.view, &gpu.device, &[f.velocity.read(), f.dye.read(), f.pressure.read(), &f.divergence])
}
