//! `fogbook bench`: per-pass times over many frames, as JSON.
//!
//! On a real GPU the times come from timestamp queries around each pass; on a software driver
//! (lavapipe) each pass is submitted alone and timed on the CPU, because its timestamps are not
//! attributed to the right passes. Reports medians and the GPU memory the core allocates.
//!
//! Those frames run one at a time (record, submit, wait, read the times back), so their wall time
//! mixes the GPU's work, the wait and the CPU's. A second, untimed run records frames back to back
//! with at most `FRAMES_IN_FLIGHT` unfinished, as the viewer runs, and reports the frame time it
//! achieves and the CPU's share: a frame's update, recording and submission.
//!
//! With `--paced` the frames are the viewer's: each frame's GPU times go back to the chapters
//! (`Stack::pass_times`), so that progressive work keeps to its frame budget, and the report adds
//! each chapter's status line (chapter 9: the share of the pixels traced a frame).

use crate::cli::{BenchArgs, parse_size};
use crate::registry;
use crate::state::Setup;
use anyhow::{Result, anyhow};
use fogbook_core::gpu::GpuContext;
use fogbook_core::headless::Headless;
use fogbook_core::time::TimeControl;
use fogbook_core::timing::{PassTimes, TimingMode};
use serde_json::json;
use std::collections::{BTreeMap, VecDeque};
use std::time::Instant;

/// Frames submitted and not yet finished in the pipelined run (a viewer with a surface of two
/// frames in its swap chain runs so).
const FRAMES_IN_FLIGHT: usize = 2;

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Measured copy bandwidth (bytes read + written per second) of a 256 MiB buffer-to-buffer copy,
/// median of 20, timed with timestamps inside the encoder: the ceiling bandwidth-bound passes
/// are compared with. `None` without timestamp support (e.g. on lavapipe, where they mislead).
fn copy_bandwidth(gpu: &GpuContext) -> Option<f64> {
    let needed = wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS;
    if gpu.is_cpu() || !gpu.device.features().contains(needed) {
        return None;
    }
    let size = 256u64 << 20;
    let reps = 20u32;
    let buffer = |usage| {
        gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bandwidth probe"),
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    let (src, dst) = (buffer(wgpu::BufferUsages::COPY_SRC), buffer(wgpu::BufferUsages::COPY_DST));
    let queries = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("bandwidth probe"),
        ty: wgpu::QueryType::Timestamp,
        count: 2 * reps,
    });
    let resolve = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bandwidth probe resolve"),
        size: 16 * reps as u64,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bandwidth probe readback"),
        size: 16 * reps as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    for i in 0..reps {
        enc.write_timestamp(&queries, 2 * i);
        enc.copy_buffer_to_buffer(&src, 0, &dst, 0, size);
        enc.write_timestamp(&queries, 2 * i + 1);
    }
    enc.resolve_query_set(&queries, 0..2 * reps, &resolve, 0);
    enc.copy_buffer_to_buffer(&resolve, 0, &readback, 0, 16 * reps as u64);
    gpu.submit([enc.finish()]);
    readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    gpu.wait();
    let data = readback.slice(..).get_mapped_range().ok()?;
    let ticks: &[u64] = bytemuck::cast_slice(&data);
    let period = gpu.queue.get_timestamp_period() as f64;
    let mut seconds: Vec<f64> =
        ticks.chunks_exact(2).map(|t| t[1].saturating_sub(t[0]) as f64 * period * 1e-9).collect();
    drop(data);
    let s = median(&mut seconds);
    (s > 0.0).then(|| 2.0 * size as f64 / s)
}

/// The pipelined run: `warmup` then `frames` frames recorded back to back, untimed, waiting only
/// when `FRAMES_IN_FLIGHT` are unfinished. Reports the achieved frame time (wall time over the
/// timed frames, the last one finished) and the median CPU time from a frame's update to the
/// return of its submission.
fn pipelined(
    headless: &mut Headless,
    setup: &mut Setup,
    view: fogbook_core::stack::StackView,
    warmup: u32,
    frames: u32,
    mode: TimingMode,
    held: bool,
) -> serde_json::Value {
    headless.renderer.timing = TimingMode::Off;
    let mut time = TimeControl::fixed(0.0);
    time.paused = held;
    let mut in_flight = VecDeque::new();
    let mut cpu_ms = Vec::new();
    let mut started = Instant::now();
    for i in 0..warmup + frames {
        if i == warmup {
            started = Instant::now();
        }
        if in_flight.len() == FRAMES_IN_FLIGHT {
            let oldest = in_flight.pop_front();
            let _ = headless.gpu.device.poll(wgpu::PollType::Wait { submission_index: oldest, timeout: None });
        }
        let start = Instant::now();
        headless.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        if i >= warmup {
            cpu_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
        // An empty submission after the frame's: its index is done when the frame is.
        in_flight.push_back(headless.gpu.submit(std::iter::empty()));
    }
    headless.gpu.wait();
    let frame_ms = started.elapsed().as_secs_f64() * 1e3 / frames as f64;
    headless.renderer.timing = mode;
    json!({ "frames_in_flight": FRAMES_IN_FLIGHT, "frame_ms": frame_ms, "cpu_median_ms": median(&mut cpu_ms) })
}

/// Times one chapter or stack: every pass's median and minimum over the timed frames, the CPU
/// frame time and the pipelined run.
fn bench_spec(headless: &mut Headless, args: &BenchArgs, spec: String, mode: TimingMode) -> Result<serde_json::Value> {
    let mut scene_args = args.scene.clone();
    (scene_args.chapter, scene_args.stack) = (Some(spec.clone()), None);
    let mut setup = Setup::from_args(&scene_args)?;
    let view = match &args.view {
        Some(name) => setup.stack.find_view(name).map_err(|e| anyhow!(e))?,
        None => setup.stack.views()[0].at,
    };
    headless.prepare_stack(&mut setup.stack)?;
    let mut time = TimeControl::fixed(0.0);
    if let Some(steps) = args.steps {
        // Untimed and undrawn (a path tracer's whole frames would take minutes): the simulations
        // alone step, to the state the timed frames then hold still.
        for _ in 0..steps {
            if let Some(dt) = time.tick(0.0) {
                headless.renderer.simulate(&headless.gpu, &mut setup.stack, dt);
            }
        }
        headless.gpu.wait();
        time.paused = true;
    }
    headless.paced = args.paced;
    let mut per_pass: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut frame_ms = Vec::new();
    for i in 0..args.warmup + args.frames {
        let start = std::time::Instant::now();
        let times = headless.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        let times: Option<PassTimes> = match mode {
            TimingMode::Timestamps => headless.renderer.timer.as_mut().and_then(|t| t.collect_blocking(&headless.gpu)),
            _ => {
                headless.gpu.wait();
                times
            }
        };
        if let Some(t) = times.as_ref().filter(|_| args.paced) {
            setup.stack.pass_times(t);
        }
        if i < args.warmup {
            continue;
        }
        frame_ms.push(start.elapsed().as_secs_f64() * 1e3);
        for (name, ms) in times.map(|t| t.passes).unwrap_or_default() {
            if !order.contains(&name) {
                order.push(name.clone());
            }
            per_pass.entry(name).or_default().push(ms);
        }
    }
    let passes: Vec<_> = order
        .iter()
        .map(|name| {
            let v = per_pass.get_mut(name).unwrap();
            json!({ "pass": name, "median_ms": median(v), "min_ms": v.iter().cloned().fold(f64::INFINITY, f64::min), "samples": v.len() })
        })
        .collect();
    let status: Vec<String> = setup.stack.chapters().iter().filter_map(|c| c.status()).collect();
    let pipelined = pipelined(headless, &mut setup, view, args.warmup, args.frames, mode, args.steps.is_some());
    headless.paced = false;
    Ok(json!({
        "chapter": setup.stack.spec(),
        "status": status,
        "view": setup.stack.view_name(view),
        "passes": passes,
        "cpu_frame_median_ms": median(&mut frame_ms),
        "simulated_frames": time.frame,
        "pipelined": pipelined,
    }))
}

pub fn run(args: &BenchArgs) -> Result<serde_json::Value> {
    let size = parse_size(&args.size).map_err(|e| anyhow!(e))?;
    if args.frames == 0 {
        anyhow::bail!("frames must be at least 1");
    }
    // Each chapter alone, or one stack timed as one frame.
    let specs: Vec<String> = if args.scene.chapter.is_some() || args.scene.stack.is_some() {
        vec![Setup::spec_from_args(&args.scene)?]
    } else if args.chapters == "all" {
        registry::chapters().iter().map(|c| c.info().id.to_string()).collect()
    } else {
        registry::stack(&args.chapters).map_err(|e| anyhow!(e))?;
        vec![args.chapters.clone()]
    };
    let mut headless = Headless::new(&registry::requirements(), size)?;
    let mode = TimingMode::best_for(&headless.gpu);
    headless.renderer.timing = mode;
    let mut chapters = Vec::new();
    for spec in specs {
        chapters.push(bench_spec(&mut headless, args, spec, mode)?);
    }
    // After the chapters have run: the clocks are up (an idle GPU starts slow).
    let bandwidth = copy_bandwidth(&headless.gpu);
    let report = json!({
        "adapter": headless.gpu.describe(),
        "copy_bandwidth_gb_s": bandwidth.map(|b| b * 1e-9),
        "size": size,
        "timing": match mode { TimingMode::Timestamps => "gpu-timestamps", _ => "cpu-submit-wait" },
        "warmup_frames": args.warmup,
        "timed_frames": args.frames,
        "paced": args.paced,
        "steps_then_held": args.steps,
        "core_gpu_memory_bytes": headless.renderer.frame.bytes(),
        "chapters": chapters,
    });
    let text = serde_json::to_string_pretty(&report)?;
    println!("{text}");
    if let Some(path) = &args.out {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, &text).map_err(|e| anyhow!("writing {}: {e}", path.display()))?;
    }
    Ok(report)
}
