//! Pipelines of the smoke solver and of its views, and the recording of one step.

use crate::fields::{FLUID_FORMAT, Field, Fields, LIGHT_FORMAT, SCALAR_FORMAT, VELOCITY_FORMAT};
use crate::multigrid::{self, Kernels, Solve};
use crate::params::{Advection, PressureSolver};
use anyhow::Result;
use fogbook_core::bindings::uniform_entry;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::GpuContext;
use fogbook_core::grid_solver::{Kernel, record_sweeps};
use fogbook_core::shaders::{ShaderStore, create_module};
use fogbook_core::timing::PassRecorder;

/// How a pass binds one resource.
#[derive(Clone, Copy)]
pub(crate) enum Slot {
    /// Sampled (filterable float) 3D texture.
    Sampled,
    /// Write-only 3D storage texture of this format.
    Storage(wgpu::TextureFormat),
    /// Storage buffer, read-only or read-write.
    Buffer { read_only: bool },
    /// Uniform buffer.
    Uniform,
}

/// The layout of a kernel's own group (the core's builder, every texture 3D).
pub(crate) fn layout(device: &wgpu::Device, label: &str, slots: &[Slot]) -> wgpu::BindGroupLayout {
    use fogbook_core::bindings::{Slot as Binding, compute_layout};
    let d3 = wgpu::TextureViewDimension::D3;
    let slots: Vec<Binding> = slots
        .iter()
        .map(|slot| match *slot {
            Slot::Sampled => Binding::Texture { filterable: true, dimension: d3 },
            Slot::Storage(format) => Binding::Storage { format, dimension: d3 },
            Slot::Buffer { read_only } => Binding::Buffer { read_only },
            Slot::Uniform => Binding::Uniform,
        })
        .collect();
    compute_layout(device, label, &slots)
}

/// A field as a binding of a kernel's own group.
pub(crate) fn tex(f: &Field) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::TextureView(&f.view)
}

/// A whole buffer as a binding of a kernel's own group.
pub(crate) fn buf(b: &wgpu::Buffer) -> wgpu::BindingResource<'_> {
    b.as_entire_binding()
}

pub struct Pipelines {
    /// Whether these were compiled with the obstacle code (`OBSTACLES` in common.wgsl); the
    /// smoke keeps a variant of each kind and steps with the one its settings need.
    pub with_obstacles: bool,
    /// Group 2: the parameter block, the sampler, the solid mask; without the mask, for the pass
    /// that writes it; and with the smoke's medium (medium.rs) beside them, for the view pass.
    pub params_layout: wgpu::BindGroupLayout,
    pub params_basic_layout: wgpu::BindGroupLayout,
    pub view_params_layout: wgpu::BindGroupLayout,
    pub obstacles: Kernel,
    pub advect: Kernel,
    pub maccormack_forward: Kernel,
    pub maccormack_correct: Kernel,
    pub curl: Kernel,
    pub vorticity: Kernel,
    pub divergence: Kernel,
    pub jacobi: Kernel,
    pub store_pressure: Kernel,
    pub project: Kernel,
    pub light: Kernel,
    pub light_columns: Kernel,
    pub view: Kernel,
    /// Red–black Gauss–Seidel and multigrid (multigrid.rs).
    pub solvers: Kernels,
}

/// The value of the shaders' `OBSTACLES` override (common.wgsl, poisson.wgsl).
pub fn obstacle_constants(with_obstacles: bool) -> [(&'static str, f64); 1] {
    [("OBSTACLES", if with_obstacles { 1.0 } else { 0.0 })]
}

/// Workgroup size of the 3D passes (shaders use 8 × 8 × 4). Measured on an H200 at 128³: the
/// Jacobi sweep takes 19.6–19.7 µs with 8×8×4, 32×4×2, 16×8×2, 64×4×1, 16×16×1 or 8×8×8 alike
/// (22.6 µs with 4×4×4): it is bound by memory traffic, not by the shape.
pub const WORKGROUP: [u32; 3] = [8, 8, 4];

impl Pipelines {
    /// The parameters' group layouts: uniform, sampler and obstacle mask; the same without the
    /// mask; and with the medium's bindings.
    fn params_layouts(device: &wgpu::Device) -> [wgpu::BindGroupLayout; 3] {
        let basic = [
            uniform_entry(0, wgpu::ShaderStages::COMPUTE),
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ];
        let mask = wgpu::BindGroupLayoutEntry {
            binding: 2,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D3,
                multisampled: false,
            },
            count: None,
        };
        let params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smoke params"),
            entries: &[basic[0], basic[1], mask],
        });
        let params_basic_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smoke params (no mask)"),
            entries: &basic,
        });
        let mut with_medium = vec![basic[0], basic[1], mask];
        with_medium.extend(crate::medium::medium_layout_entries());
        let view_params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smoke params (view)"),
            entries: &with_medium,
        });
        [params_layout, params_basic_layout, view_params_layout]
    }

    pub fn new(
        gpu: &GpuContext,
        frame_layouts: &FrameLayouts,
        shaders: &ShaderStore,
        with_obstacles: bool,
    ) -> Result<Self> {
        let device = &gpu.device;
        let constants = obstacle_constants(with_obstacles);
        let [params_layout, params_basic_layout, view_params_layout] = Self::params_layouts(device);
        let obstacles = {
            let module = create_module(device, &shaders.load("07-smoke/obstacles.wgsl")?)?;
            let textures =
                layout(device, "obstacles", &[Slot::Storage(SCALAR_FORMAT), Slot::Buffer { read_only: false }]);
            Kernel::new(device, &module, "obstacles", None, &params_basic_layout, textures, &[])?
        };
        // A view draws with the frame's groups and the smoke's medium beside its parameters.
        let make = |file: &str, entry: &str, slots: &[Slot], view: bool| -> Result<Kernel> {
            let module = create_module(device, &shaders.load(&format!("07-smoke/{file}"))?)?;
            let frame = view.then_some(frame_layouts);
            let params = if view { &view_params_layout } else { &params_layout };
            Kernel::new(device, &module, entry, frame, params, layout(device, entry, slots), &constants)
        };
        use Slot::*;
        let vel = Storage(VELOCITY_FORMAT);
        let scalar = Storage(SCALAR_FORMAT);
        let (read, read_write) = (Buffer { read_only: true }, Buffer { read_only: false });
        Ok(Self {
            advect: make("advect.wgsl", "advect", &[Sampled, Sampled, Sampled, vel, vel], false)?,
            maccormack_forward: make(
                "maccormack.wgsl",
                "maccormack_forward",
                &[Sampled, Sampled, vel, Storage(FLUID_FORMAT), read, read],
                false,
            )?,
            maccormack_correct: make(
                "maccormack_correct.wgsl",
                "maccormack_correct",
                &[read, read, Sampled, Sampled, Sampled, vel, Storage(FLUID_FORMAT)],
                false,
            )?,
            curl: make("curl.wgsl", "curl", &[Sampled, vel], false)?,
            vorticity: make("vorticity.wgsl", "confine", &[Sampled, Sampled, vel], false)?,
            divergence: make("divergence.wgsl", "divergence", &[Sampled, scalar, read_write], false)?,
            jacobi: make("jacobi.wgsl", "jacobi", &[read, read, read_write], false)?,
            store_pressure: make("store_pressure.wgsl", "store_pressure", &[read, scalar], false)?,
            project: make("project.wgsl", "project", &[Sampled, Sampled, vel, read_write, read_write], false)?,
            light: make("light.wgsl", "light", &[Sampled, Storage(LIGHT_FORMAT), read_write], false)?,
            light_columns: make("light.wgsl", "light_columns", &[Sampled, Storage(LIGHT_FORMAT), read_write], false)?,
            view: make("view.wgsl", "smoke_view", &[Sampled, Sampled, Sampled, Sampled, Sampled], true)?,
            solvers: Kernels::new(gpu, shaders, with_obstacles)?,
            with_obstacles,
            params_layout,
            params_basic_layout,
            view_params_layout,
            obstacles,
        })
    }
}

fn groups(n: u32) -> [u32; 3] {
    groups_for(n, WORKGROUP)
}

fn groups_for(n: u32, wg: [u32; 3]) -> [u32; 3] {
    [n.div_ceil(wg[0]), n.div_ceil(wg[1]), n.div_ceil(wg[2])]
}

/// Workgroup of the passes over the linear pressure buffers: 64 consecutive cells along x.
pub const LINEAR_WORKGROUP: [u32; 3] = [64, 4, 1];

// ANCHOR: step
/// One simulation step: advect (with the previous projection; one pass semi-Lagrangian, two
/// MacCormack), vorticity confinement (skipped when its strength is 0), divergence, then the
/// pressure solve (`record_pressure`).
#[allow(clippy::too_many_arguments)]
pub fn record_step(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    solve: &Solve,
    vorticity: f32,
    advection: Advection,
) {
    let d = &gpu.device;
    let n = f.n;
    // ANCHOR: step_passes
    match advection {
        Advection::SemiLagrangian => {
            let g = p.advect.bind(
                d,
                &[
                    tex(f.velocity.read()),
                    tex(&f.pressure_texture),
                    tex(f.fluid.read()),
                    tex(f.velocity.write()),
                    tex(f.fluid.write()),
                ],
            );
            p.advect.dispatch(passes, "smoke: advect + project", params, &g, groups(n));
        }
        Advection::MacCormack => record_maccormack(gpu, passes, p, params, f),
    }
    f.velocity.swap();
    f.fluid.swap();

    if vorticity > 0.0 {
        let g = p.curl.bind(d, &[tex(f.velocity.read()), tex(&f.vorticity)]);
        p.curl.dispatch(passes, "smoke: curl", params, &g, groups(n));
        let g = p.vorticity.bind(d, &[tex(f.velocity.read()), tex(&f.vorticity), tex(f.velocity.write())]);
        p.vorticity.dispatch(passes, "smoke: vorticity confinement", params, &g, groups(n));
        f.velocity.swap();
    }

    record_divergence(gpu, passes, p, params, f);
    record_pressure(gpu, passes, p, params, f, solve);
    // ANCHOR_END: step_passes
}
// ANCHOR_END: step

// ANCHOR: record_maccormack
/// MacCormack advection in three passes. The projection writes V = u − ∇q to the velocity's
/// write side; after a swap V is the read side, the forward pass writes the forward step φ̂ to
/// the two scratch fields, and the correction writes the new velocity and fluid to the write
/// sides (the caller swaps them).
fn record_maccormack(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let d = &gpu.device;
    record_project(gpu, passes, p, params, f);
    let g = p.maccormack_forward.bind(
        d,
        &[
            tex(f.velocity.read()),
            tex(f.fluid.read()),
            tex(&f.velocity_forward),
            tex(&f.fluid_forward),
            buf(&f.projected_packed[0]),
            buf(&f.projected_packed[1]),
        ],
    );
    p.maccormack_forward.dispatch(passes, "smoke: MacCormack forward", params, &g, groups(f.n));
    let g = p.maccormack_correct.bind(
        d,
        &[
            buf(&f.projected_packed[0]),
            buf(&f.projected_packed[1]),
            tex(&f.velocity_forward),
            tex(f.fluid.read()),
            tex(&f.fluid_forward),
            tex(f.velocity.write()),
            tex(f.fluid.write()),
        ],
    );
    p.maccormack_correct.dispatch(passes, "smoke: MacCormack correct + limit", params, &g, groups(f.n));
}
// ANCHOR_END: record_maccormack

// ANCHOR: record_jacobi
/// `iterations` Jacobi sweeps on the pressure buffers, warm-started from the last solve, in one
/// compute pass (each dispatch sees the previous one's writes); then the result is copied into
/// the pressure texture that advection samples.
pub fn record_jacobi(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    iterations: u32,
) {
    let d = &gpu.device;
    // ANCHOR: jacobi_dispatches
    let (a, b, div) = (f.pressure.read(), f.pressure.write(), &f.divergence_linear);
    let forward = p.jacobi.bind(d, &[buf(a), buf(div), buf(b)]);
    let backward = p.jacobi.bind(d, &[buf(b), buf(div), buf(a)]);
    let steps = [(&p.jacobi, &forward), (&p.jacobi, &backward)];
    let workgroups = groups_for(f.n, LINEAR_WORKGROUP);
    if iterations > 0 {
        record_sweeps(passes, "smoke: pressure (Jacobi)", params, &steps, iterations, workgroups);
        if iterations % 2 == 1 {
            f.pressure.swap();
        }
    }
    // ANCHOR_END: jacobi_dispatches
    record_store_pressure(gpu, passes, p, params, f);
}
// ANCHOR_END: record_jacobi

// ANCHOR: record_pressure
/// The pressure solve `solve` asks for on the current divergence, then the copy of q into the
/// texture advection samples. Every solver starts from the last step's q.
pub fn record_pressure(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
    solve: &Solve,
) {
    match solve.solver {
        PressureSolver::Jacobi => return record_jacobi(gpu, passes, p, params, f, solve.sweeps),
        PressureSolver::RedBlackGs => multigrid::record_rbgs(gpu, passes, &p.solvers, f, solve),
        PressureSolver::Multigrid => multigrid::record_multigrid(gpu, passes, &p.solvers, f, solve),
    }
    record_store_pressure(gpu, passes, p, params, f);
}
// ANCHOR_END: record_pressure

/// Copies the current pressure buffer into the pressure texture.
fn record_store_pressure(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &Fields,
) {
    let store = p.store_pressure.bind(&gpu.device, &[buf(f.pressure.read()), tex(&f.pressure_texture)]);
    p.store_pressure.dispatch(passes, "smoke: store pressure", params, &store, groups_for(f.n, LINEAR_WORKGROUP));
}

/// u ← u − ∇q on its own: MacCormack's first pass, and tests and tools.
pub fn record_project(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &mut Fields,
) {
    let g = p.project.bind(
        &gpu.device,
        &[
            tex(f.velocity.read()),
            tex(&f.pressure_texture),
            tex(f.velocity.write()),
            buf(&f.projected_packed[0]),
            buf(&f.projected_packed[1]),
        ],
    );
    p.project.dispatch(passes, "smoke: project", params, &g, groups(f.n));
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
    let g = p.divergence.bind(&gpu.device, &[tex(f.velocity.read()), tex(&f.divergence), buf(&f.divergence_linear)]);
    p.divergence.dispatch(passes, "smoke: divergence", params, &g, groups(f.n));
}

/// Group 2's entries of every pass: the parameter block, the sampler and the fields' solid mask.
fn params_entries<'a>(
    uniform: &'a wgpu::Buffer,
    sampler: &'a wgpu::Sampler,
    f: &'a Fields,
) -> Vec<wgpu::BindGroupEntry<'a>> {
    vec![
        wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
        wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
        wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(&f.solid.view) },
    ]
}

/// Group 2 of the passes: `params_entries`.
pub fn params_group(
    gpu: &GpuContext,
    p: &Pipelines,
    uniform: &wgpu::Buffer,
    sampler: &wgpu::Sampler,
    f: &Fields,
) -> wgpu::BindGroup {
    gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("smoke params"),
        layout: &p.params_layout,
        entries: &params_entries(uniform, sampler, f),
    })
}

/// Group 2 of the view pass: `params_entries` and the smoke's medium over the same uniform,
/// sampler and current fields (medium.wgsl, which the march takes its formulas from).
pub fn view_params_group(
    gpu: &GpuContext,
    p: &Pipelines,
    uniform: &wgpu::Buffer,
    sampler: &wgpu::Sampler,
    f: &Fields,
) -> wgpu::BindGroup {
    let mut entries = params_entries(uniform, sampler, f);
    entries.extend(crate::medium::medium_entries(uniform, sampler, f));
    gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("smoke params (view)"),
        layout: &p.view_params_layout,
        entries: &entries,
    })
}

// ANCHOR: record_obstacles
/// The solid mask of the obstacles where the parameter block puts them (obstacles.wgsl), as a
/// texture and as a buffer. `params` is the group without the mask.
pub fn record_obstacles(
    gpu: &GpuContext,
    passes: &mut PassRecorder,
    p: &Pipelines,
    params: &wgpu::BindGroup,
    f: &Fields,
) {
    let g = p.obstacles.bind(&gpu.device, &[tex(&f.solid), buf(&f.solid_linear)]);
    p.obstacles.dispatch(passes, "smoke: obstacles", params, &g, groups(f.n));
}
// ANCHOR_END: record_obstacles

/// The light volume: optical depth to the sun, up and down per cell, for the rendered smoke and
/// its shadow on the scene.
pub fn record_light(gpu: &GpuContext, passes: &mut PassRecorder, p: &Pipelines, params: &wgpu::BindGroup, f: &Fields) {
    let g = p.light.bind(&gpu.device, &[tex(f.fluid.read()), tex(&f.light), buf(&f.light_columns)]);
    // One thread per column (8 × 1 × 8 workgroups), then one per cell.
    let columns = [f.n.div_ceil(8), 1, f.n.div_ceil(8)];
    p.light_columns.dispatch(passes, "smoke: light volume columns", params, &g, columns);
    p.light.dispatch(passes, "smoke: light volume", params, &g, groups(f.n));
}

/// Binds the fields the view pass reads.
pub fn view_textures(gpu: &GpuContext, p: &Pipelines, f: &Fields) -> wgpu::BindGroup {
    p.view.bind(
        &gpu.device,
        &[tex(f.velocity.read()), tex(&f.pressure_texture), tex(&f.divergence), tex(f.fluid.read()), tex(&f.light)],
    )
}
