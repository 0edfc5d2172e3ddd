//! Chapter 9 — ground truth: a progressive, unbiased Monte Carlo path tracer on the GPU that
//! renders the same frame as the stack beside it — its camera, sun, lights and scene, and every
//! medium the stack lends, read through the media layer — and measures the stack's picture
//! against it. Delta tracking with spectral tracking, ratio-tracked next-event estimation,
//! Russian roulette; the mean, its standard error and the stack's relative error as views. In
//! the viewer each frame traces a share of the pixels that fits a GPU time budget, and a long
//! path goes on over frames (`budget`).

pub mod budget;
pub mod error_table;
pub mod gpu;
pub mod params;
pub mod reference;

use budget::ShareController;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::{GpuContext, Requirements};
use fogbook_core::params::DynParameters;
use fogbook_core::shaders::{ShaderStore, WgslConst};
use fogbook_core::timing::PassTimes;
use fogbook_core::views::SnapshotTolerance;
use fogbook_core::{Book, Chapter, ChapterContext, ChapterInfo, Resource, Stage, StageIo, ViewInfo};
pub use gpu::{Flags, TRACE_PASS, TracerGpu, TracerUniform};
pub use params::{GroundTruthParams, SkyMode};

pub const TRACE_SHADER: &str = "09-ground-truth/trace.wgsl";
pub const RESOLVE_SHADER: &str = "09-ground-truth/resolve.wgsl";

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("ground-truth", "The path-traced mean radiance so far"),
    ViewInfo::color("stack", "The stack's own final colour, before the display pass"),
    ViewInfo::scalar(
        "error",
        "Stack minus ground truth, relative luminance: (Y − Y_true) / max(Y_true, 1 % of the mean)",
        -0.5,
        0.5,
        "",
    ),
    ViewInfo::scalar("noise", "Standard error of the mean luminance, relative to it", 0.0, 0.1, ""),
    ViewInfo::scalar("samples", "Paths per pixel so far", 0.0, 1024.0, "paths").auto_range(),
    ViewInfo::fraction("cut", "Share of the pixel's paths cut at the collision cap (biased)"),
    ViewInfo::scalar(
        "vertices",
        "Mean vertices per path: scatterings and surface hits that gathered light",
        0.0,
        16.0,
        "",
    )
    .auto_range(),
];
// ANCHOR_END: views

/// Paths per pixel so far (a range while a cycle of the share is under way) and, where a frame
/// traces a share, which one, the budget and the trace's last measured GPU time.
fn status_line(g: &TracerGpu, p: &GroundTruthParams, c: &ShareController) -> Option<String> {
    let (min, max) = g.paths_range();
    let class = g.class?;
    let paths = if min == max { format!("{max}") } else { format!("{min}..{max}") };
    let mut line = match g.step_budget {
        0 => format!("{paths} paths per pixel summed"),
        // A path may span dispatches: the count is of dispatches, the `samples` view's of paths.
        k => format!(
            "{paths} dispatches per pixel, a path taking at most {k} collisions each (samples counts the finished)"
        ),
    };
    if g.paced {
        let measured = match c.last {
            Some((ms, paths)) => format!("the trace's last: {ms:.2} ms for {:.0} k paths", paths * 1e-3),
            None => "no GPU timestamps: the fallback estimate".into(),
        };
        line += &match p.interleave {
            0 if p.frame_budget_ms <= 0.0 => "; whole frames (no frame budget)".into(),
            0 => format!(
                "; tracing 1/{} of the tiles a frame for a budget of {} ms ({measured})",
                class.share, p.frame_budget_ms
            ),
            _ => format!("; tracing 1/{} of the tiles a frame, fixed by interleave ({measured})", class.share),
        };
    }
    (max > 0).then_some(line)
}

#[derive(Default)]
pub struct GroundTruth {
    pub params: GroundTruthParams,
    status: Option<String>,
    /// The share of the frame the viewer's frames trace, from the trace's GPU times.
    controller: ShareController,
    /// The status line: paths per pixel so far, and the share traced.
    summed: Option<String>,
}

impl GroundTruth {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Chapter for GroundTruth {
    type Gpu = TracerGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "ground-truth",
            number: 9,
            title: "Ground truth",
            summary: "A path tracer of the stack's media and scene, and every chapter's picture measured against it",
        }
    }

    fn requirements(&self) -> Requirements {
        // The trace samples every medium in one pass, each with its textures and buffers bound.
        let defaults = wgpu::Limits::default();
        let textures = gpu::sampled_textures().max(defaults.max_sampled_textures_per_shader_stage);
        let buffers = gpu::storage_buffers().max(defaults.max_storage_buffers_per_shader_stage);
        let limits = (textures > defaults.max_sampled_textures_per_shader_stage
            || buffers > defaults.max_storage_buffers_per_shader_stage)
            .then_some(wgpu::Limits {
                max_sampled_textures_per_shader_stage: textures,
                max_storage_buffers_per_shader_stage: buffers,
                ..defaults.clone()
            });
        Requirements { features: wgpu::Features::empty(), limits }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "",
            stage: Stage::Reference,
            reads: &[
                Resource::Color,
                Resource::SceneLight,
                Resource::LocalLights,
                Resource::Handover,
                Resource::FogVolumes,
                Resource::TransparentFog,
                Resource::SkyTables,
                Resource::PointMedia,
            ],
            writes: &[Resource::Color],
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
        &[TRACE_SHADER, RESOLVE_SHADER]
    }

    fn shader_constants(&self) -> Vec<WgslConst> {
        Flags::constants()
    }

    fn create_gpu(
        &mut self,
        gpu: &GpuContext,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
    ) -> anyhow::Result<TracerGpu> {
        TracerGpu::new(gpu, layouts, shaders)
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    /// The refusal, or how many paths each pixel's mean holds (the `noise` view shows their
    /// standard error without a readback) and, under a frame budget, the share traced.
    fn status(&self) -> Option<String> {
        self.status.clone().or_else(|| self.summed.clone())
    }

    fn pass_times(&mut self, times: &PassTimes) {
        if let Some((ms, paths)) = times.timed_work(TRACE_PASS) {
            self.controller.observe(ms, paths);
        }
    }

    fn render(&mut self, g: &mut TracerGpu, ctx: &mut ChapterContext) {
        self.status = g.render(&self.params, ctx, &self.controller).err();
        self.summed = status_line(g, &self.params, &self.controller);
    }

    fn book(&self) -> Book {
        Book {
            // A path tracer's image is a mean over frames: the figures sum 16 frames of the default
            // 1 path, the tests 4 frames of 16 paths.
            warmup_frames: 16,
            test_frames: 4,
            test_settings: vec!["samples_per_frame=16"],
            // Monte Carlo noise moves with the adapter's rounding (a path that turns differently
            // is another sample): the images are compared in 8 × 8 block means.
            snapshot_tolerance: SnapshotTolerance { steps: 8, max_fraction: 0.05, block: 8 },
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trace's stage binds nine storage buffers — the sums, the moments, the boxes, the
    /// majorant grids, the waiting paths, the local volumes, the smoke's parameters and the
    /// cards' two — one over WebGPU's default, and the chapter asks for them.
    #[test]
    fn the_chapter_asks_for_the_storage_buffers_it_binds() {
        assert_eq!(gpu::storage_buffers(), 9);
        let limits = GroundTruth::new().requirements().limits.expect("raised above the defaults");
        assert_eq!(limits.max_storage_buffers_per_shader_stage, 9);
        assert_eq!(limits.max_sampled_textures_per_shader_stage, gpu::sampled_textures());
    }

    /// The trace's GPU time reaches the share controller with the paths it traced, other
    /// passes' times do not, and a pass that noted no work is not taken for one.
    #[test]
    fn the_trace_pass_times_reach_the_controller() {
        let mut gt = GroundTruth::new();
        let paths = 1280.0 * 720.0;
        let mut times = PassTimes {
            passes: vec![("ground truth: views".into(), 50.0), (TRACE_PASS.into(), 1.0)],
            source: PassTimes::GPU_TIMESTAMPS,
            work: vec![],
        };
        gt.pass_times(&times);
        assert!(!gt.controller.measured(), "no work noted: no measurement");
        times.work = vec![(TRACE_PASS.into(), paths / 4.0)];
        gt.pass_times(&times);
        // 1 ms for a quarter of the frame: 4 ms a frame, inside 12 ms.
        assert_eq!(gt.controller.last, Some((1.0, paths / 4.0)));
        assert_eq!(gt.controller.share(12.0, paths, budget::MAX_SHARE), 1);
        assert_eq!(gt.controller.share(1.0, paths, budget::MAX_SHARE), 4);
    }
}
