//! `fogbook error-table`: each row's real-time picture against the path-traced ground truth
//! (chapter 9), by the rules of `fogbook_ground_truth::error_table`.
//!
//! Per row, one stack (the row's chapters and `ground-truth`) on a clock that stands still, so a
//! medium that moves with time is traced at one instant and the stack's picture is that
//! instant's. The froxel fog's temporal jitter and history are off by default (`temporal =
//! false`) and no other row's chapter keeps history, so each frame of the stack is the same
//! converged picture. Two passes of the tracer: with the medium, then with the row's
//! `without_medium` settings (the parameters change, so the tracer's sums restart), each the
//! same number of paths. A pass draws its frames through the `stack` view, then one frame each
//! through `noise`, `ground-truth` and `samples`: views share the sums (they restart only when
//! the camera, the size, the light or a parameter changes), so the noise describes a truth of
//! one frame fewer (a little larger: on the safe side), and the sample count proves that the
//! sums did not restart in between.

mod report;
pub mod rows;

use crate::cli::{ErrorTableArgs, parse_size};
use crate::registry;
use crate::state::Setup;
use anyhow::{Context, Result, anyhow, bail};
use fogbook_core::Stack;
use fogbook_core::capture::FloatImage;
use fogbook_core::headless::{Capture, Headless};
use fogbook_core::time::TimeControl;
use fogbook_ground_truth::error_table::{ErrorStats, Luminances, luminance, measure};
use fogbook_ground_truth::gpu::MAX_SAMPLES_PER_FRAME;
pub use rows::{ROWS, Row};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Work longer than this prints how far it has got.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);
/// The most paths per pixel a row may ask for: the sums count paths in f32, exact to 2²⁴.
pub const MAX_PATHS: u32 = 1 << 20;

/// What the options ask for, checked.
#[derive(Clone, Debug)]
pub struct Plan {
    pub rows: Vec<&'static Row>,
    pub size: [u32; 2],
    pub per_frame: u32,
    /// Frames drawn through the `stack` view before the three single frames of the other views.
    pub frames: u32,
    pub out: Option<PathBuf>,
}

impl Plan {
    /// Checks every option before any GPU work.
    pub fn new(args: &ErrorTableArgs) -> Result<Self> {
        let rows = rows::select(&args.rows).map_err(|e| anyhow!(e))?;
        let size = parse_size(&args.size).map_err(|e| anyhow!(e))?;
        if size[0] == 0 || size[1] == 0 {
            bail!("size {}x{} has a zero side", size[0], size[1]);
        }
        if args.paths == 0 || args.paths > MAX_PATHS {
            bail!("paths {}: must be between 1 and {MAX_PATHS} per pixel", args.paths);
        }
        if args.per_frame == 0 || args.per_frame > MAX_SAMPLES_PER_FRAME {
            bail!("per-frame {}: must be between 1 and {MAX_SAMPLES_PER_FRAME} paths", args.per_frame);
        }
        // The truth is captured after the `stack` frames and the `noise` frame.
        let frames = args.paths.div_ceil(args.per_frame).saturating_sub(2).max(1);
        Ok(Self { rows, size, per_frame: args.per_frame, frames, out: args.out.clone() })
    }

    /// Paths per pixel of the truth each pass captures.
    pub fn paths(&self) -> u32 {
        (self.frames + 2) * self.per_frame
    }
}

/// One row's measurement.
pub struct Measured {
    pub row: &'static Row,
    pub stats: ErrorStats,
    pub paths: u32,
    pub seconds: f64,
    /// The tracer's speed over the pass with the medium (frames, captures and the stack's own
    /// passes included: a lower bound on the tracer's own rate).
    pub paths_per_second: f64,
    /// Mean vertices (scatterings and surface hits) per path.
    pub vertices_per_path: f64,
    /// The share of the paths cut at the collision cap (biased), over the whole frame.
    pub cut_share: f64,
    /// The seconds to convergence (median relative standard error ≤ 1 %, 95th percentile
    /// ≤ 3 % over the counted pixels), from this pass's noise by the 1/√N law the tests hold
    /// the tracer to: the pass's time × max((median / 1 %)², (p95 / 3 %)²).
    pub converged_seconds: Option<f64>,
}

/// Convergence as the issue defines it: the median and the 95th percentile of the relative
/// standard error over the pixels where the medium matters.
pub const CONVERGED_MEDIAN: f64 = 0.01;
pub const CONVERGED_P95: f64 = 0.03;

/// The table, and the device it was measured on.
pub struct Table {
    pub rows: Vec<Measured>,
    pub device: String,
    pub size: [u32; 2],
    pub per_frame: u32,
}

/// Measures every row asked for, prints the table and writes the files; returns the table.
pub fn run(args: &ErrorTableArgs) -> Result<Table> {
    let plan = Plan::new(args)?;
    if let Some(dir) = &plan.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut headless = Headless::new(&registry::requirements(), plan.size)?;
    let device = headless.gpu.describe();
    eprintln!(
        "error table: {} row(s) at {}x{}, {} paths per pixel ({} a frame), on {device}",
        plan.rows.len(),
        plan.size[0],
        plan.size[1],
        plan.paths(),
        plan.per_frame
    );
    let mut measured = Vec::new();
    for row in &plan.rows {
        let m = measure_row(&mut headless, row, &plan).with_context(|| format!("row {}", row.name))?;
        eprintln!("{}: done in {:.1} s", row.name, m.seconds);
        measured.push(m);
    }
    let table = Table { rows: measured, device, size: plan.size, per_frame: plan.per_frame };
    let markdown = report::markdown(&table);
    print!("{markdown}");
    if let Some(dir) = &plan.out {
        let write = |name: &str, text: String| {
            let path = dir.join(name);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
        };
        write("table.md", markdown)?;
        write("table.json", serde_json::to_string_pretty(&report::json(&table))?)?;
        eprintln!("wrote table.md, table.json and each row's images to {}", dir.display());
    }
    Ok(table)
}

/// One pass of the tracer's captures.
struct Pass {
    stack: Capture,
    noise: FloatImage,
    truth: Capture,
    /// Means over the pixels of the vertices per path and of the share of paths cut.
    vertices: f64,
    cut: f64,
    seconds: f64,
}

/// The two passes of `row`, the statistics, and the images where `plan.out` asks for them.
fn measure_row(h: &mut Headless, row: &'static Row, plan: &Plan) -> Result<Measured> {
    let started = Instant::now();
    let mut setup = Setup::new(&row.spec())?;
    let mut sets: Vec<String> = row.settings.iter().map(|s| s.to_string()).collect();
    sets.push(format!("ground-truth.samples_per_frame={}", plan.per_frame));
    setup.apply(None, &sets, row.camera)?;
    h.resize(plan.size)?;
    h.prepare_stack(&mut setup.stack)?;
    develop(h, &mut setup)?;
    let with = trace(h, &mut setup, plan, &format!("{}: with the medium", row.name))?;
    for s in row.without_medium {
        setup.set(s)?;
    }
    let without = trace(h, &mut setup, plan, &format!("{}: without it", row.name))?;
    let luma = |image: &FloatImage| -> Vec<f64> {
        image.rgba.chunks_exact(4).map(|p| luminance([p[0], p[1], p[2]])).collect()
    };
    let (stack, truth, bare) = (luma(&with.stack.raw), luma(&with.truth.raw), luma(&without.truth.raw));
    let noise: Vec<f64> = with.noise.rgba.chunks_exact(4).map(|p| f64::from(p[0])).collect();
    let stats =
        measure(&Luminances { stack: &stack, truth: &truth, bare: &bare, noise: &noise }).map_err(|e| anyhow!(e))?;
    if let Some(dir) = &plan.out {
        let images = report::Images {
            stack: &with.stack,
            truth: &with.truth,
            stack_luma: &stack,
            truth_luma: &truth,
            bare_luma: &bare,
        };
        report::write_images(dir, row.name, &images)?;
    }
    let pixels = f64::from(plan.size[0]) * f64::from(plan.size[1]);
    let traced = f64::from((plan.frames + 4) * plan.per_frame);
    let converged_seconds = stats.summary.map(|x| {
        with.seconds * ((x.noise_median / CONVERGED_MEDIAN).powi(2)).max((x.noise_p95 / CONVERGED_P95).powi(2))
    });
    Ok(Measured {
        row,
        stats,
        paths: plan.paths(),
        seconds: started.elapsed().as_secs_f64(),
        paths_per_second: pixels * traced / with.seconds.max(1e-9),
        vertices_per_path: with.vertices,
        cut_share: with.cut,
        converged_seconds,
    })
}

/// Runs a simulation in the stack (the smoke) as far as its book's figures do
/// (`Book::warmup_frames`), on a running clock, before the passes stop it: the tracer's sums of
/// those frames, which hold a changing medium, are dropped by a change of its seed and back.
fn develop(h: &mut Headless, setup: &mut Setup) -> Result<()> {
    let frames =
        setup.stack.chapters().iter().map(|c| c.book()).filter(|b| b.warmup_steps_only).map(|b| b.warmup_frames);
    let frames = frames.max().unwrap_or(1);
    if frames <= 1 {
        return Ok(());
    }
    let view = setup.stack.find_view("ground-truth/stack").map_err(|e| anyhow!(e))?;
    setup.set("ground-truth.seed=2")?;
    let mut time = TimeControl::fixed(0.0);
    h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
    setup.set("ground-truth.seed=1")?;
    Ok(())
}

/// `plan.frames` frames through the `stack` view, then one frame each through `noise`,
/// `ground-truth`, `samples`, `vertices` and `cut`, on a clock standing still at 0: the stack,
/// the noise and the truth as captured, the means of the vertices and of the cut share.
fn trace(h: &mut Headless, setup: &mut Setup, plan: &Plan, label: &str) -> Result<Pass> {
    let view = |stack: &Stack, name: &str| stack.find_view(&format!("ground-truth/{name}")).map_err(|e| anyhow!(e));
    let stack_view = view(&setup.stack, "stack")?;
    let mut time = TimeControl::fixed(0.0);
    time.paused = true;
    let started = Instant::now();
    let mut reported = started;
    for frame in 1..=plan.frames {
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, stack_view, 1);
        if reported.elapsed() >= PROGRESS_EVERY {
            h.gpu.wait();
            let (done, total) = (frame * plan.per_frame, plan.paths());
            eprintln!("{label}: {done} of {total} paths per pixel, {:.0} s", started.elapsed().as_secs_f64());
            reported = Instant::now();
        }
    }
    let stack = h.capture()?;
    let mut again = |name: &str| -> Result<Capture> {
        let v = view(&setup.stack, name)?;
        h.redraw(&mut setup.stack, &setup.camera, &setup.scene, v);
        h.capture()
    };
    let noise = again("noise")?.raw;
    let truth = again("ground-truth")?;
    let samples = again("samples")?.raw;
    let vertices = again("vertices")?.raw;
    let cut = again("cut")?.raw;
    let seconds = started.elapsed().as_secs_f64();
    let mean = |image: &FloatImage| {
        image.rgba.chunks_exact(4).map(|p| f64::from(p[0])).sum::<f64>() / (image.rgba.len() / 4).max(1) as f64
    };
    let (vertices, cut) = (mean(&vertices), mean(&cut));
    for chapter in setup.stack.chapters() {
        if let Some(refusal) = chapter.refusal() {
            bail!("{}: {refusal}", chapter.info().id);
        }
    }
    // Every pixel holds the paths of every frame (fewer where a non-finite path was dropped).
    let expected = ((plan.frames + 3) * plan.per_frame) as f32;
    let most = samples.rgba.chunks_exact(4).map(|p| p[0]).fold(0.0f32, f32::max);
    if most < expected {
        bail!(
            "{label}: the tracer holds {most} paths per pixel of the {expected} traced: its sums restarted between views"
        );
    }
    if most > expected {
        bail!(
            "{label}: the tracer holds {most} paths per pixel, {expected} were traced: its sums went on from the last pass"
        );
    }
    Ok(Pass { stack, noise, truth, vertices, cut, seconds })
}
