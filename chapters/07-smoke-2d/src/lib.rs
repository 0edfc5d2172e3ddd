//! Chapter 7, first section — smoke in 2D: the Eulerian solver of the 3D chapter on a square of
//! cells, on a staggered (MAC) grid (Harlow and Welch 1965): semi-Lagrangian or MacCormack
//! advection, buoyancy from density and temperature and vorticity confinement (Fedkiw, Stam and
//! Jensen 2001), a disc emitter with seeded turbulence, and a pressure projection solved by Jacobi
//! or red–black Gauss–Seidel sweeps. Every field is a view on a square panel; `reference` is the
//! whole step in f64 on the CPU.
//!
//! The chapter draws a full-screen panel of its own rather than into the 3D scene: it is a
//! standalone chapter (`registry::STANDALONE`), not part of the `everything` stack.

pub mod fields;
pub mod params;
pub mod passes;
#[cfg(feature = "book")]
pub mod plots;
pub mod reference;

use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use fields::{FieldId, Fields};
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE};
use fogbook_core::gpu::GpuContext;
use fogbook_core::params::{DynParameters, finite_in};
use fogbook_core::shaders::ShaderStore;
use fogbook_core::timing::PassRecorder;
use fogbook_core::views::SnapshotTolerance;
use fogbook_core::{
    Book, Chapter, ChapterContext, ChapterInfo, Figure, Resource, Stage, StageIo, UpdateContext, ViewInfo,
};
pub use params::Smoke2dParams;
use params::{Advection, TopBoundary};
use passes::{Pipelines, StepPlan};

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("fluid", "The dye over a dark background, shaded as a relief lit from the upper left"),
    ViewInfo::scalar("velocity", "Speed |u| at the cell centres after the projection", 0.0, 1.0, "m/s").auto_range(),
    ViewInfo::scalar("pressure", "Pressure q of the projection (laplacian q = div u)", 0.0, 1.0, "m²/s").auto_range(),
    ViewInfo::scalar("divergence", "Divergence div u before the pressure solve", 0.0, 1.0, "1/s").auto_range(),
    ViewInfo::scalar("residual", "Divergence left after the sweeps: div u − laplacian q", 0.0, 1.0, "1/s").auto_range(),
    ViewInfo::scalar("pressure-gradient", "|grad q|, the velocity the projection removes", 0.0, 1.0, "m/s")
        .auto_range(),
    ViewInfo::scalar("vorticity", "Vorticity ω = ∂v/∂x − ∂u/∂y (signed; positive counter-clockwise)", 0.0, 1.0, "1/s")
        .auto_range(),
    ViewInfo::scalar("density", "Dye density", 0.0, 1.0, "").auto_range(),
    ViewInfo::scalar("temperature", "Temperature T: ambient plus the advected excess", 0.0, 1.0, "K").auto_range(),
];
// ANCHOR_END: views

/// Mirrors `struct Smoke2dParams` in shaders/07-smoke-2d/common.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Smoke2dUniform {
    pub grid_n: f32,
    pub cell_m: f32,
    pub domain_m: f32,
    pub dt_s: f32,
    pub velocity_keep: f32,
    pub density_keep: f32,
    pub temperature_keep: f32,
    pub vorticity: f32,
    pub emitter_centre: [f32; 2],
    pub emitter_radius: f32,
    pub emitter_rate: f32,
    pub emitter_velocity: [f32; 2],
    pub buoyancy: f32,
    pub heat_lift: f32,
    pub emitter_color: [f32; 3],
    pub emitter_excess_k: f32,
    pub ambient_k: f32,
    pub turbulence: f32,
    pub turbulence_seed: u32,
    pub step_index: u32,
    pub view: u32,
    pub advection: u32,
    pub top_boundary: u32,
    pub sor_omega: f32,
}

// ANCHOR: uniform
impl Smoke2dUniform {
    /// The GPU's parameter block: every value finite and inside its range whatever the
    /// parameters hold (values set in code bypass the range checks of `--set`).
    pub fn new(p: &Smoke2dParams, n: u32, view: usize, step_index: u32) -> Self {
        let dt = finite_in(p.time_step_s, 1e-4, 1.0, 1.0 / 60.0);
        let domain = finite_in(p.domain_size_m, 0.01, 1e4, 8.0);
        let keep = |k: f32| (1.0 / (1.0 + finite_in(k, 0.0, 1e3, 0.0) as f64 * dt as f64)) as f32;
        let excess = finite_in(p.emitter_temperature_k - p.ambient_temperature_k, -60_000.0, 60_000.0, 0.0);
        Self {
            grid_n: n as f32,
            cell_m: domain / n as f32,
            domain_m: domain,
            dt_s: dt,
            velocity_keep: keep(p.velocity_dissipation),
            density_keep: keep(p.density_dissipation),
            temperature_keep: (-(finite_in(p.cooling_rate, 0.0, 1e3, 0.0) as f64) * dt as f64).exp() as f32,
            vorticity: finite_in(p.vorticity, 0.0, 100.0, 0.0),
            emitter_centre: [finite_in(p.emitter_x, 0.0, 1.0, 0.5), finite_in(p.emitter_y, 0.0, 1.0, 0.1)],
            emitter_radius: finite_in(p.emitter_radius, 0.001, 1.0, 0.06),
            emitter_rate: finite_in(p.emitter_rate, 0.0, 1e3, 0.0),
            emitter_velocity: [
                finite_in(p.emitter_velocity_x, -1e3, 1e3, 0.0),
                finite_in(p.emitter_velocity_y, -1e3, 1e3, 0.0),
            ],
            buoyancy: finite_in(p.buoyancy, -1e3, 1e3, 0.0),
            heat_lift: finite_in(p.heat_lift, 0.0, 10.0, 0.0),
            emitter_color: [0, 1, 2].map(|i| finite_in(p.emitter_color[i], 0.0, 1.0, 1.0)),
            emitter_excess_k: excess,
            ambient_k: finite_in(p.ambient_temperature_k, 1.0, 1e4, 293.15),
            turbulence: finite_in(p.turbulence, 0.0, 1.0, 0.0),
            turbulence_seed: p.turbulence_seed,
            step_index,
            view: view as u32,
            advection: (p.advection == Advection::MacCormack) as u32,
            top_boundary: (p.top_boundary == TopBoundary::Open) as u32,
            sor_omega: finite_in(p.sor_omega, 0.0, 1.99, 1.0),
        }
    }
}
// ANCHOR_END: uniform

/// GPU state: pipelines, the parameter block and the fields.
pub struct Smoke2dGpu {
    pub pipelines: Pipelines,
    pub uniform: wgpu::Buffer,
    pub params_group: wgpu::BindGroup,
    pub fields: Fields,
}

impl Smoke2dGpu {
    /// Current values of a field (see `Fields::download` for the layout).
    pub fn download(&self, gpu: &GpuContext, id: FieldId) -> Result<Vec<f32>> {
        self.fields.download(gpu, id)
    }

    pub fn upload(&self, gpu: &GpuContext, id: FieldId, values: &[f32]) -> Result<()> {
        self.fields.upload(gpu, id, values)
    }
}

#[derive(Default)]
pub struct Smoke2d {
    pub params: Smoke2dParams,
    last_view: usize,
    status: Option<String>,
    /// Steps taken since the fields were created or reset: the emitter noise's clock.
    steps: u32,
}

impl Smoke2d {
    pub fn new() -> Self {
        Self::default()
    }

    /// Steps taken since the fields were created or reset.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn uniform(&self, n: u32) -> Smoke2dUniform {
        Smoke2dUniform::new(&self.params, n, self.last_view, self.steps)
    }

    /// Reallocates the fields when `grid_size` changed; a size the device cannot hold is refused
    /// with a message and the parameter goes back to the size in use.
    fn follow_grid_size(&mut self, g: &mut Smoke2dGpu, gpu: &GpuContext) {
        if g.fields.n == self.params.grid_size {
            return;
        }
        match Fields::new(gpu, self.params.grid_size) {
            Ok(f) => {
                g.fields = f;
                self.status = None;
                self.steps = 0;
            }
            Err(e) => {
                self.status = Some(format!("{e:#}; keeping {}²", g.fields.n));
                self.params.grid_size = g.fields.n;
            }
        }
    }

    /// Writes the parameter block for everything but a step, with the last step's noise clock.
    fn write_uniform(&self, g: &Smoke2dGpu, passes: &mut PassRecorder) {
        self.write_uniform_at(g, passes, self.steps.wrapping_sub(1));
    }

    /// Writes the parameter block with the emitter noise's clock at `clock`, in order with the
    /// passes (`PassRecorder::write_buffer`): steps recorded into one submission each read
    /// their own.
    fn write_uniform_at(&self, g: &Smoke2dGpu, passes: &mut PassRecorder, clock: u32) {
        let uniform = Smoke2dUniform { step_index: clock, ..self.uniform(g.fields.n) };
        passes.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
    }

    fn plan(&self) -> StepPlan {
        StepPlan {
            advection: self.params.advection,
            solver: self.params.pressure_solver,
            sweeps: self.params.pressure_iterations,
        }
    }

    /// Records one simulation step, its parameter block written in order with its passes.
    pub fn step(&mut self, g: &mut Smoke2dGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.follow_grid_size(g, gpu);
        self.write_uniform_at(g, passes, self.steps);
        passes::record_step(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, self.plan());
        self.steps = self.steps.wrapping_add(1);
    }

    /// Records advection alone (velocity, temperature and dye by the current velocity).
    pub fn advect(&mut self, g: &mut Smoke2dGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform(g, passes);
        passes::record_advect(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, self.params.advection);
    }

    /// Records the configured pressure solve on the current divergence, from the current q.
    pub fn solve(&mut self, g: &mut Smoke2dGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform(g, passes);
        let plan = self.plan();
        passes::record_pressure(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, plan.solver, plan.sweeps);
    }

    /// Records divergence → the configured solve → u − ∇q: a projection of the current velocity.
    pub fn project(&mut self, g: &mut Smoke2dGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform(g, passes);
        let (p, params, f) = (&g.pipelines, &g.params_group, &mut g.fields);
        passes::record_divergence(gpu, passes, p, params, f);
        let plan = self.plan();
        passes::record_pressure(gpu, passes, p, params, f, plan.solver, plan.sweeps);
        passes::record_project(gpu, passes, p, params, f);
    }
}

impl Chapter for Smoke2d {
    type Gpu = Smoke2dGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "smoke-2d",
            number: 7,
            title: "Smoke in 2D",
            summary: "The smoke solver in 2D on a staggered grid, the warm-up for 3D smoke: advection, buoyancy, vorticity confinement, pressure projection; every field a view",
        }
    }

    // ANCHOR: stage
    /// The panel covers the whole image: it reads nothing of the scene.
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "simulation step",
            stage: Stage::Transparent,
            reads: &[],
            writes: &[Resource::Color, Resource::ViewRange],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[
            "07-smoke-2d/advect.wgsl",
            "07-smoke-2d/maccormack.wgsl",
            "07-smoke-2d/forces.wgsl",
            "07-smoke-2d/divergence.wgsl",
            "07-smoke-2d/jacobi.wgsl",
            "07-smoke-2d/rbgs.wgsl",
            "07-smoke-2d/project.wgsl",
            "07-smoke-2d/view.wgsl",
        ]
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<Smoke2dGpu> {
        let pipelines = Pipelines::new(gpu, layouts, shaders)?;
        let uniform = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("smoke-2d params"),
            size: std::mem::size_of::<Smoke2dUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("smoke-2d params"),
            layout: &pipelines.params_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }],
        });
        let fields = Fields::new(gpu, self.params.grid_size)?;
        let state = Smoke2dGpu { pipelines, uniform, params_group, fields };
        let initial = Smoke2dUniform { step_index: self.steps.wrapping_sub(1), ..self.uniform(state.fields.n) };
        gpu.write_buffer(&state.uniform, 0, bytemuck::bytes_of(&initial));
        Ok(state)
    }

    /// Hot reload keeps the simulation running when the grid keeps its size.
    fn carry_over(&mut self, old: Smoke2dGpu, new: &mut Smoke2dGpu) {
        if old.fields.n == new.fields.n {
            new.fields = old.fields;
        }
    }

    fn reset(&mut self, g: &mut Smoke2dGpu, gpu: &GpuContext) {
        if let Ok(f) = Fields::new(gpu, g.fields.n) {
            g.fields = f;
        }
        self.steps = 0;
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    fn update(&mut self, g: &mut Smoke2dGpu, ctx: &mut UpdateContext) {
        self.step(g, ctx.gpu, ctx.passes);
    }

    // ANCHOR: render
    fn render(&mut self, g: &mut Smoke2dGpu, ctx: &mut ChapterContext) {
        self.last_view = ctx.view;
        self.follow_grid_size(g, ctx.gpu);
        self.write_uniform(g, ctx.passes);
        let textures = passes::view_textures(ctx.gpu, &g.pipelines, &g.fields);
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("smoke-2d: view", |pass| {
            pass.set_pipeline(&g.pipelines.view.pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &g.params_group, &[]);
            pass.set_bind_group(3, &textures, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
    // ANCHOR_END: render

    fn book(&self) -> Book {
        Book {
            warmup_frames: 150,
            warmup_steps_only: true,
            test_settings: vec!["grid_size=64"],
            test_frames: 40,
            // Measured on lavapipe; see `snapshot_tolerance` in the 3D chapter for why a
            // simulation's images drift between GPUs. The numeric tests carry the solver's
            // correctness; these guard the passes and the views.
            snapshot_tolerance: SnapshotTolerance::pixels(8, 0.03),
            figures: figures(),
            #[cfg(feature = "book")]
            plots: plots::all,
            ..Default::default()
        }
    }
}

// ANCHOR: figures
fn figures() -> Vec<Figure> {
    let fig = |name, view, settings: &[&'static str]| Figure::new(name, view, settings, None);
    vec![
        fig("divergence-no-solve", "divergence", &["pressure_iterations=0"]),
        fig("residual-red-black", "residual", &["pressure_solver=red-black-gs", "sor_omega=1.9"]),
        fig("fluid-maccormack", "fluid", &["advection=maccormack"]),
        fig("fluid-no-confinement", "fluid", &["vorticity=0"]),
        fig("fluid-open-top", "fluid", &["top_boundary=open"]),
        fig("fluid-heavy-smoke", "fluid", &["buoyancy=-2", "heat_lift=0.02", "emitter_temperature_k=700"]),
    ]
}
// ANCHOR_END: figures
