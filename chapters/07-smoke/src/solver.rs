//! The solver's state and its frame step: `Smoke` and `SmokeGpu`, the steps and projections
//! they record, and the parameter block written before each.

use crate::fields::{FieldId, Fields};
use crate::params::SmokeParams;
use crate::passes::{self, Pipelines};
use crate::uniform::SmokeUniform;
use crate::{multigrid, obstacles};
use anyhow::Result;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::GpuContext;
use fogbook_core::shaders::ShaderStore;
use fogbook_core::timing::PassRecorder;

/// Steps recorded into one submission by `Smoke::steps`.
pub const STEP_BATCH: u32 = 50;

/// GPU state: pipelines, the parameter block and the fields.
pub struct SmokeGpu {
    /// The pipelines for the current settings: with the obstacle code when an obstacle is
    /// enabled, without otherwise (`follow_obstacles`).
    pub pipelines: Pipelines,
    /// The other variant, once it has been needed, and what compiling it takes.
    pub(crate) spare_pipelines: Option<Pipelines>,
    pub(crate) shaders: ShaderStore,
    pub(crate) frame_layouts: FrameLayouts,
    pub uniform: wgpu::Buffer,
    /// Group 2 of every pass: the parameter block, the sampler and the solid mask (rebuilt when
    /// the uniform is written, since the fields may have been replaced); the obstacles pass, which
    /// writes the mask, gets the first two only (`params_basic`).
    pub params_group: wgpu::BindGroup,
    pub params_basic: wgpu::BindGroup,
    pub sampler: wgpu::Sampler,
    pub fields: Fields,
    /// The smoke's shadow on the scene: the core's volume-shadow uniform, a sampler, and the
    /// group over the light volume, made again only when the light volume is a new texture (a
    /// new grid size or loaded fields).
    pub(crate) shadow_uniform: wgpu::Buffer,
    pub(crate) shadow_sampler: wgpu::Sampler,
    pub(crate) shadow_bind: Option<(wgpu::Texture, wgpu::BindGroup)>,
    /// What the scene binds this frame: the group above, or `None` when the shadow is off.
    pub(crate) shadow_group: Option<wgpu::BindGroup>,
}

pub struct Smoke {
    pub params: SmokeParams,
    /// Sun direction and view of the last frame (the step's parameter block carries them too).
    pub(crate) last_sun: [f32; 3],
    pub(crate) last_view: usize,
    pub(crate) status: Option<String>,
    /// The parameters the light volume was computed for; `None` after the fluid changed.
    /// The volume is recomputed only then, not on every frame (a paused viewer needs none).
    pub(crate) light_for: Option<SmokeUniform>,
    /// Steps taken since the fields were created or reset: the emitter noise's clock.
    pub(crate) steps: u32,
}

impl Default for Smoke {
    fn default() -> Self {
        Self {
            params: SmokeParams::default(),
            last_sun: [0.0, 1.0, 0.0],
            last_view: 0,
            status: None,
            light_for: None,
            steps: 0,
        }
    }
}

impl Smoke {
    pub fn new() -> Self {
        Self::default()
    }

    pub(crate) fn uniform(&self, n: u32) -> SmokeUniform {
        SmokeUniform::new(&self.params, n, self.last_sun, self.last_view).at_step(self.steps)
    }

    /// Reallocates the fields when `grid_size` changed; a size the device cannot hold is refused
    /// with a message and the parameter goes back to the size in use.
    pub(crate) fn follow_grid_size(&mut self, g: &mut SmokeGpu, gpu: &GpuContext) {
        if g.fields.n == self.params.grid_size {
            return;
        }
        match Fields::new(gpu, self.params.grid_size) {
            Ok(f) => {
                g.fields = f;
                self.status = None;
            }
            Err(e) => {
                self.status = Some(format!("{e:#}; keeping {}³", g.fields.n));
                self.params.grid_size = g.fields.n;
            }
        }
    }

    /// Swaps in the pipeline variant the obstacle settings need, compiling it the first time.
    /// If it cannot be compiled (a broken shader on disk), an obstacle just enabled is switched
    /// off again with a message; without obstacles the variant with them serves as well.
    fn follow_obstacles(&mut self, g: &mut SmokeGpu, gpu: &GpuContext) {
        let wanted = self.params.sphere_enabled || self.params.box_enabled;
        if g.pipelines.with_obstacles == wanted {
            return;
        }
        let variant = match g.spare_pipelines.take() {
            Some(p) if p.with_obstacles == wanted => Ok(p),
            spare => {
                g.spare_pipelines = spare;
                Pipelines::new(gpu, &g.frame_layouts, &g.shaders, wanted)
            }
        };
        match variant {
            Ok(p) => g.spare_pipelines = Some(std::mem::replace(&mut g.pipelines, p)),
            Err(e) if wanted => {
                self.status = Some(format!("{e:#}; the obstacles stay off"));
                self.params.sphere_enabled = false;
                self.params.box_enabled = false;
            }
            Err(_) => {}
        }
    }

    /// Writes the parameter block for everything but a step, with the last step's noise clock.
    pub(crate) fn write_uniform(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform_at(g, gpu, passes, self.steps.wrapping_sub(1));
    }

    // ANCHOR: write_uniform
    /// Writes the parameter block with the emitter noise's clock at `clock`, with the pipelines
    /// that match the obstacle settings. The write is recorded in order with the passes: every
    /// step of a batch recorded into one submission reads its own clock and obstacle positions
    /// (`PassRecorder::write_buffer`; a queue write would give them all the last step's).
    fn write_uniform_at(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder, clock: u32) {
        self.follow_obstacles(g, gpu);
        let uniform = self.uniform(g.fields.n).at_step(clock);
        passes.write_buffer(&g.uniform, 0, bytemuck::bytes_of(&uniform));
        g.params_group = passes::params_group(gpu, &g.pipelines, &g.uniform, &g.sampler, &g.fields);
    }
    // ANCHOR_END: write_uniform

    /// Records the solid mask of the obstacles where they are now. With none enabled a mask
    /// already clear stays so, and the pass is skipped.
    fn obstacles(&self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        let any = self.params.sphere_enabled || self.params.box_enabled;
        if !any && g.fields.solid_clear {
            return;
        }
        passes::record_obstacles(gpu, passes, &g.pipelines, &g.params_basic, &g.fields);
        g.fields.solid_clear = !any;
    }

    /// Records one simulation step: the obstacles move, their mask is rebuilt, then the solver's
    /// passes.
    pub fn step(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.follow_grid_size(g, gpu);
        obstacles::advance(&mut self.params);
        self.write_uniform_at(g, gpu, passes, self.steps);
        self.obstacles(g, gpu, passes);
        let solve = multigrid::Solve::new(&self.params, g.fields.n);
        let (vorticity, advection) = (self.params.vorticity, self.params.advection);
        passes::record_step(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, &solve, vorticity, advection);
        self.light_for = None;
        self.steps = self.steps.wrapping_add(1);
    }

    /// `count` steps, submitted in batches of `STEP_BATCH` so that a long run does not record
    /// thousands of passes in one encoder (`smoke-save`, and the flipbook bakes of chapter 8).
    pub fn steps(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, count: u32) {
        self.steps_in_batches(g, gpu, count, STEP_BATCH);
    }

    /// `count` steps, `batch` of them recorded into each submission (at least one). Every batch
    /// size reaches the same state, bit for bit, as stepping one submission at a time.
    pub fn steps_in_batches(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, count: u32, batch: u32) {
        let mut left = count;
        while left > 0 {
            let batch = left.min(batch.max(1));
            fogbook_core::timing::run_now(gpu, |passes| {
                for _ in 0..batch {
                    self.step(g, gpu, passes);
                }
            });
            left -= batch;
        }
    }

    /// The light volume is recomputed at the next frame (the fluid changed outside a step).
    pub fn invalidate_light(&mut self) {
        self.light_for = None;
    }

    /// Records the light volume of the current fluid now, for the last frame's sun (tests and
    /// tools; a frame does it itself when it needs the volume).
    pub fn compute_light(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform(g, gpu, passes);
        passes::record_light(gpu, passes, &g.pipelines, &g.params_group, &g.fields);
        self.light_for = None;
    }

    /// Records `iterations` Jacobi sweeps on the current divergence.
    pub fn jacobi(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder, iterations: u32) {
        self.write_uniform(g, gpu, passes);
        passes::record_jacobi(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, iterations);
    }

    /// Records the configured pressure solve (`pressure_solver`, with its sweeps or cycles) on
    /// the current divergence, from the current pressure.
    pub fn solve(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform(g, gpu, passes);
        let solve = multigrid::Solve::new(&self.params, g.fields.n);
        passes::record_pressure(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, &solve);
    }

    /// Records divergence → `iterations` sweeps → u − ∇q: a full projection of the current velocity.
    pub fn project(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder, iterations: u32) {
        self.write_uniform(g, gpu, passes);
        self.obstacles(g, gpu, passes);
        passes::record_divergence(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields);
        passes::record_jacobi(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, iterations);
        passes::record_project(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields);
    }

    /// Records divergence → the configured pressure solve (`pressure_solver`, from the current
    /// pressure) → u − ∇q: a full projection with the step's own solver.
    pub fn project_solved(&mut self, g: &mut SmokeGpu, gpu: &GpuContext, passes: &mut PassRecorder) {
        self.write_uniform(g, gpu, passes);
        self.obstacles(g, gpu, passes);
        let solve = multigrid::Solve::new(&self.params, g.fields.n);
        passes::record_divergence(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields);
        passes::record_pressure(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields, &solve);
        passes::record_project(gpu, passes, &g.pipelines, &g.params_group, &mut g.fields);
    }
}

impl SmokeGpu {
    /// Current values of a field (see `Fields::download` for the layout).
    pub fn download(&self, gpu: &GpuContext, id: FieldId) -> Result<Vec<f32>> {
        self.fields.download(gpu, id)
    }

    pub fn upload(&self, gpu: &GpuContext, id: FieldId, values: &[f32]) -> Result<()> {
        self.fields.upload(gpu, id, values)
    }
}
