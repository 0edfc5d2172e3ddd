//! What the grid fluid solvers share, on a square of cells and on a cube alike: the choice of
//! advection scheme and of the top boundary, and a kernel — one compute pipeline and the layout
//! of its own group — bound and dispatched in the solvers' group order: 0 and 1 the frame's scene
//! inputs and view output (for the kernels that draw a view), 2 the solver's parameters, 3 the
//! kernel's own fields and buffers; and the sweeps of an iterative solve, recorded as one pass.

use crate::frame::FrameLayouts;
use crate::shaders::compute_pipeline_with;
use crate::timing::PassRecorder;
use serde::{Deserialize, Serialize};

/// How velocity, and what the flow carries with it, move along the flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Advection {
    /// One backward trace and a linear sample, bilinear on a square or trilinear on a cube (Stam
    /// 1999): stable, diffusive.
    SemiLagrangian,
    /// A forward and a backward semi-Lagrangian step, half their disagreement added back, and a
    /// clamp to the values the forward sample read (Selle et al. 2008): sharper, one more pass.
    #[serde(rename = "maccormack")]
    MacCormack,
}
crate::choice_enum!(Advection { SemiLagrangian = "semi-lagrangian", MacCormack = "maccormack" });

/// What the domain's top side is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TopBoundary {
    /// A wall like the others: free slip (zero normal velocity), Neumann pressure, zero flux.
    Closed,
    /// An outflow: q = 0 on it (Dirichlet); the top faces' velocity copies the faces below (zero
    /// gradient) before the projection, and what the flow carries leaves with it.
    Open,
}
crate::choice_enum!(TopBoundary { Closed = "closed", Open = "open" });

/// One kernel of a grid solver: its compute pipeline and the layout of its own group (3).
pub struct Kernel {
    pub pipeline: wgpu::ComputePipeline,
    pub textures: wgpu::BindGroupLayout,
}

impl Kernel {
    /// `entry` of `module` with `params` as group 2 and its own `textures` as group 3, and with
    /// `frame`'s scene inputs and view output as groups 0 and 1 where it draws a view;
    /// `constants` are the shader's `override` values.
    pub fn new(
        device: &wgpu::Device,
        module: &wgpu::ShaderModule,
        entry: &str,
        frame: Option<&FrameLayouts>,
        params: &wgpu::BindGroupLayout,
        textures: wgpu::BindGroupLayout,
        constants: &[(&str, f64)],
    ) -> anyhow::Result<Self> {
        let (inputs, output) = frame.map_or((None, None), |f| (Some(&f.scene_inputs), Some(&f.view_out)));
        let groups = [inputs, output, Some(params), Some(&textures)];
        let pipeline = compute_pipeline_with(device, module, entry, &groups, constants)?;
        Ok(Self { pipeline, textures })
    }

    /// The kernel's own group: `resources` at bindings 0, 1, … in order.
    pub fn bind(&self, device: &wgpu::Device, resources: &[wgpu::BindingResource]) -> wgpu::BindGroup {
        let entries: Vec<_> = resources
            .iter()
            .enumerate()
            .map(|(i, resource)| wgpu::BindGroupEntry { binding: i as u32, resource: resource.clone() })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &self.textures, entries: &entries })
    }

    /// Records the kernel over `workgroups` as the compute pass `label`, with the parameter
    /// group `params` and its own group `textures`.
    pub fn dispatch(
        &self,
        passes: &mut PassRecorder,
        label: &str,
        params: &wgpu::BindGroup,
        textures: &wgpu::BindGroup,
        workgroups: [u32; 3],
    ) {
        passes.compute(label, |p| {
            p.set_pipeline(&self.pipeline);
            p.set_bind_group(2, params, &[]);
            p.set_bind_group(3, textures, &[]);
            p.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        });
    }
}

// ANCHOR: record_sweeps
/// Records `dispatches` dispatches of `steps` in turn (a kernel and its own group each, over
/// `workgroups`) as the one compute pass `label`: the sweeps of an iterative solve, where each
/// sweep reads what the one before wrote. Within a pass wgpu orders the dispatches and makes
/// each see the previous one's writes, and the pass is timed once rather than once per sweep.
pub fn record_sweeps(
    passes: &mut PassRecorder,
    label: &str,
    params: &wgpu::BindGroup,
    steps: &[(&Kernel, &wgpu::BindGroup)],
    dispatches: u32,
    workgroups: [u32; 3],
) {
    passes.compute(label, |pass| {
        pass.set_bind_group(2, params, &[]);
        for (kernel, group) in steps.iter().cycle().take(dispatches as usize) {
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(3, *group, &[]);
            pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        }
    });
}
// ANCHOR_END: record_sweeps
