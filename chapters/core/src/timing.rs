//! Per-pass timing.
//!
//! Every pass is recorded through a `PassRecorder`, which brackets it with GPU timestamp queries
//! when the device supports them. On software rasterisers (lavapipe) timestamps attribute time
//! to the wrong passes, so there the recorder can run in *split* mode instead: each pass is
//! submitted on its own and timed on the CPU from submit to completion.

use crate::gpu::GpuContext;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

/// Passes per query set. A frame that records more adds query sets as it goes, so every pass is
/// timed whatever the count; 32 passes are 64 timestamps, 512 bytes, which keeps each set's
/// resolve at the 256-byte alignment `resolve_query_set` asks for.
const PASSES_PER_QUERY_SET: u32 = 32;

// ANCHOR: timing_mode
/// How passes are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingMode {
    Off,
    /// GPU timestamp queries around each pass.
    Timestamps,
    /// Submit and wait per pass, timed on the CPU (for CPU devices; serialises the GPU).
    CpuSplit,
}

impl TimingMode {
    /// Timestamps on real GPUs, CPU split timing on software rasterisers.
    pub fn best_for(gpu: &GpuContext) -> Self {
        if gpu.is_cpu() || !gpu.timestamps { TimingMode::CpuSplit } else { TimingMode::Timestamps }
    }
}
// ANCHOR_END: timing_mode

/// Times of one frame's passes, in milliseconds, in recording order.
#[derive(Clone, Debug, Default)]
pub struct PassTimes {
    pub passes: Vec<(String, f64)>,
    /// Which clock produced them: [`PassTimes::GPU_TIMESTAMPS`] or "cpu-submit-wait".
    pub source: &'static str,
    /// The work the passes that noted one were recorded with (`PassRecorder::note_work`), by
    /// label, in the units their recorder chose: times arrive frames late, and this says what
    /// they measured.
    pub work: Vec<(String, f64)>,
}

impl PassTimes {
    /// The `source` of times read from GPU timestamp queries.
    pub const GPU_TIMESTAMPS: &'static str = "gpu-timestamps";

    pub fn total(&self) -> f64 {
        self.passes.iter().map(|(_, t)| t).sum()
    }

    /// The time (ms) and the noted work of the passes labelled `label`, each summed over the
    /// frame; `None` where none of them noted work.
    pub fn timed_work(&self, label: &str) -> Option<(f64, f64)> {
        let work: f64 = self.work.iter().filter(|(l, _)| l == label).map(|(_, w)| w).sum();
        let noted = self.work.iter().any(|(l, _)| l == label);
        let ms: f64 = self.passes.iter().filter(|(l, _)| l == label).map(|(_, t)| t).sum();
        noted.then_some((ms, work))
    }
}

const IDLE: u8 = 0;
const MAPPING: u8 = 1;
const READY: u8 = 2;

/// Timestamp queries for the passes of one frame, read back without stalling the viewer.
pub struct GpuTimer {
    /// Query sets of `PASSES_PER_QUERY_SET` passes each, added when a frame needs more and kept.
    queries: Vec<wgpu::QuerySet>,
    /// Resolve and readback buffers for `capacity` passes, grown at submit when a frame had more.
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    capacity: u32,
    state: Arc<AtomicU8>,
    labels: Vec<String>,
    pending_labels: Vec<String>,
    /// The work noted for this frame's passes, and for the frame being read back.
    work: Vec<(String, f64)>,
    pending_work: Vec<(String, f64)>,
    period_ns: f64,
}

impl GpuTimer {
    pub fn new(gpu: &GpuContext) -> Option<Self> {
        if !gpu.timestamps {
            return None;
        }
        let (resolve, readback) = Self::buffers(gpu, PASSES_PER_QUERY_SET);
        Some(Self {
            queries: vec![Self::query_set(gpu)],
            resolve,
            readback,
            capacity: PASSES_PER_QUERY_SET,
            state: Arc::new(AtomicU8::new(IDLE)),
            labels: Vec::new(),
            pending_labels: Vec::new(),
            work: Vec::new(),
            pending_work: Vec::new(),
            period_ns: gpu.queue.get_timestamp_period() as f64,
        })
    }

    fn query_set(gpu: &GpuContext) -> wgpu::QuerySet {
        gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: PASSES_PER_QUERY_SET * 2,
        })
    }

    /// Resolve and readback buffers for `passes` passes (two 8-byte timestamps each).
    fn buffers(gpu: &GpuContext, passes: u32) -> (wgpu::Buffer, wgpu::Buffer) {
        let size = passes as u64 * 16;
        let buffer = |label, usage| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        (
            buffer("timestamp resolve", wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC),
            buffer("timestamp readback", wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST),
        )
    }

    /// Whether this frame's timestamps can be collected (the readback buffer is free).
    fn available(&self) -> bool {
        self.state.load(Ordering::Acquire) == IDLE
    }

    /// Reads the newest completed frame's times, if one has arrived. Never blocks.
    pub fn try_collect(&mut self, gpu: &GpuContext) -> Option<PassTimes> {
        let _ = gpu.device.poll(wgpu::PollType::Poll);
        if self.state.load(Ordering::Acquire) != READY {
            return None;
        }
        let times = {
            let Ok(data) = self.readback.slice(..).get_mapped_range() else {
                self.readback.unmap();
                self.state.store(IDLE, Ordering::Release);
                return None;
            };
            let ticks: &[u64] = bytemuck::cast_slice(&data);
            self.pending_labels
                .iter()
                .enumerate()
                .map(|(i, label)| {
                    let (a, b) = (ticks[2 * i], ticks[2 * i + 1]);
                    (label.clone(), b.saturating_sub(a) as f64 * self.period_ns * 1e-6)
                })
                .collect()
        };
        self.readback.unmap();
        self.state.store(IDLE, Ordering::Release);
        Some(PassTimes { passes: times, source: PassTimes::GPU_TIMESTAMPS, work: self.pending_work.clone() })
    }

    /// Waits for the frame just submitted and returns its times (bench, tests).
    pub fn collect_blocking(&mut self, gpu: &GpuContext) -> Option<PassTimes> {
        gpu.wait();
        self.try_collect(gpu)
    }
}

/// Records a frame's passes into one encoder (or one per pass in CPU-split mode).
pub struct PassRecorder<'a> {
    gpu: &'a GpuContext,
    encoder: Option<wgpu::CommandEncoder>,
    timer: Option<&'a mut GpuTimer>,
    mode: TimingMode,
    cpu_times: Vec<(String, f64)>,
    /// The label of the pass recorded last, and the work noted for the frame's passes.
    last_label: String,
    work: Vec<(String, f64)>,
}

/// Records what `f` records with an untimed recorder of its own, submits it and waits for the
/// GPU (tests and tools).
pub fn run_now(gpu: &GpuContext, f: impl FnOnce(&mut PassRecorder)) {
    let mut passes = PassRecorder::new(gpu, None, TimingMode::Off);
    f(&mut passes);
    passes.submit();
    gpu.wait();
}

impl<'a> PassRecorder<'a> {
    pub fn new(gpu: &'a GpuContext, timer: Option<&'a mut GpuTimer>, mode: TimingMode) -> Self {
        let mut timer = if mode == TimingMode::Timestamps { timer.filter(|t| t.available()) } else { None };
        if let Some(t) = timer.as_deref_mut() {
            t.labels.clear();
            t.work.clear();
        }
        Self { gpu, encoder: None, timer, mode, cpu_times: Vec::new(), last_label: String::new(), work: Vec::new() }
    }

    /// Notes how much work the pass recorded last holds (in units of the caller's choosing, such
    /// as pixels times paths), so that whoever reads its time later knows what it measured
    /// (`PassTimes::timed_work`).
    pub fn note_work(&mut self, units: f64) {
        let noted = (self.last_label.clone(), units);
        match self.timer.as_deref_mut() {
            Some(t) => t.work.push(noted),
            None => self.work.push(noted),
        }
    }

    // ANCHOR: ordered_write
    /// Writes `data` into `buffer` at this point of the recording: passes recorded before it read
    /// the old contents, passes after it the new. The bytes go to a staging buffer and a copy is
    /// recorded (`Queue::write_buffer` would land before every command of the submission; see
    /// `GpuContext::write_buffer`). For a buffer written more than once per submission, such as
    /// a simulation step's parameters when several steps are recorded together.
    pub fn write_buffer(&mut self, buffer: &wgpu::Buffer, offset: u64, data: &[u8]) {
        use wgpu::util::DeviceExt;
        debug_assert!((data.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT), "copies move whole words");
        let staging = self.gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("ordered write"),
            contents: data,
            usage: wgpu::BufferUsages::COPY_SRC,
        });
        self.encoder().copy_buffer_to_buffer(&staging, 0, buffer, offset, data.len() as u64);
    }
    // ANCHOR_END: ordered_write

    /// The encoder for work outside passes (copies, clears).
    pub fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        self.encoder.get_or_insert_with(|| self.gpu.device.create_command_encoder(&Default::default()))
    }

    /// The query set and first index of the next pass's two timestamps, with a query set added
    /// when the frame has used up the ones it has.
    fn next_query(&mut self, label: &str) -> Option<(&wgpu::QuerySet, u32)> {
        let t = self.timer.as_deref_mut()?;
        let i = t.labels.len() as u32;
        let set = (i / PASSES_PER_QUERY_SET) as usize;
        if set == t.queries.len() {
            t.queries.push(GpuTimer::query_set(self.gpu));
        }
        t.labels.push(label.to_string());
        Some((&t.queries[set], (i % PASSES_PER_QUERY_SET) * 2))
    }

    // ANCHOR: split
    fn begin_split(&mut self) -> Option<Instant> {
        (self.mode == TimingMode::CpuSplit).then(|| {
            self.flush();
            Instant::now()
        })
    }

    fn end_split(&mut self, label: &str, start: Option<Instant>) {
        if let Some(start) = start {
            self.flush();
            self.cpu_times.push((label.to_string(), start.elapsed().as_secs_f64() * 1e3));
        }
    }

    /// Submits what has been recorded so far and waits for it (split mode only).
    fn flush(&mut self) {
        if let Some(enc) = self.encoder.take() {
            self.gpu.submit([enc.finish()]);
        }
        self.gpu.wait();
    }
    // ANCHOR_END: split

    /// Records one compute pass.
    pub fn compute(&mut self, label: &str, f: impl FnOnce(&mut wgpu::ComputePass)) {
        label.clone_into(&mut self.last_label);
        let start = self.begin_split();
        let query = self.next_query(label).map(|(q, i)| (q.clone(), i));
        let mut pass = self.encoder().begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: query.as_ref().map(|(q, i)| wgpu::ComputePassTimestampWrites {
                query_set: q,
                beginning_of_pass_write_index: Some(*i),
                end_of_pass_write_index: Some(*i + 1),
            }),
        });
        f(&mut pass);
        drop(pass);
        self.end_split(label, start);
    }

    /// Records one render pass.
    pub fn render(
        &mut self,
        label: &str,
        color: &[Option<wgpu::RenderPassColorAttachment<'_>>],
        depth: Option<wgpu::RenderPassDepthStencilAttachment<'_>>,
        f: impl FnOnce(&mut wgpu::RenderPass),
    ) {
        label.clone_into(&mut self.last_label);
        let start = self.begin_split();
        let query = self.next_query(label).map(|(q, i)| (q.clone(), i));
        let mut pass = self.encoder().begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: color,
            depth_stencil_attachment: depth,
            timestamp_writes: query.as_ref().map(|(q, i)| wgpu::RenderPassTimestampWrites {
                query_set: q,
                beginning_of_pass_write_index: Some(*i),
                end_of_pass_write_index: Some(*i + 1),
            }),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        f(&mut pass);
        drop(pass);
        self.end_split(label, start);
    }

    /// Submits the frame. Returns CPU split times at once; timestamp times arrive later through
    /// `GpuTimer::try_collect`.
    pub fn submit(mut self) -> Option<PassTimes> {
        if let Some(t) = self.timer.take() {
            let n = t.labels.len() as u32;
            if n > 0 {
                // The readback is idle (the recorder only takes an available timer), so it can
                // be replaced by a larger one.
                if n > t.capacity {
                    t.capacity = n.next_multiple_of(PASSES_PER_QUERY_SET);
                    (t.resolve, t.readback) = GpuTimer::buffers(self.gpu, t.capacity);
                }
                let enc =
                    self.encoder.get_or_insert_with(|| self.gpu.device.create_command_encoder(&Default::default()));
                for (k, set) in t.queries.iter().enumerate() {
                    let first = k as u32 * PASSES_PER_QUERY_SET;
                    if first >= n {
                        break;
                    }
                    let count = (n - first).min(PASSES_PER_QUERY_SET);
                    enc.resolve_query_set(set, 0..count * 2, &t.resolve, first as u64 * 16);
                }
                enc.copy_buffer_to_buffer(&t.resolve, 0, &t.readback, 0, n as u64 * 16);
                self.gpu.submit(self.encoder.take().map(|e| e.finish()));
                t.pending_labels = std::mem::take(&mut t.labels);
                t.pending_work = std::mem::take(&mut t.work);
                t.state.store(MAPPING, Ordering::Release);
                let state = t.state.clone();
                t.readback.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                    state.store(if r.is_ok() { READY } else { IDLE }, Ordering::Release);
                });
            }
        }
        if let Some(enc) = self.encoder.take() {
            self.gpu.submit([enc.finish()]);
        }
        match self.mode {
            TimingMode::CpuSplit => {
                self.gpu.wait();
                let passes = std::mem::take(&mut self.cpu_times);
                Some(PassTimes { passes, source: "cpu-submit-wait", work: std::mem::take(&mut self.work) })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The work a pass notes comes back with its frame's timestamps, under its label, and does
    /// not linger into the next frame.
    #[test]
    fn noted_work_comes_back_with_the_times() {
        let gpu = GpuContext::headless(&Default::default()).expect("a GPU device");
        let mut timer = GpuTimer::new(&gpu).expect("timestamp queries");
        for (frame, work) in [(0, Some(96.0)), (1, None)] {
            let mut passes = PassRecorder::new(&gpu, Some(&mut timer), TimingMode::Timestamps);
            passes.compute("first", |_| {});
            passes.compute("traced", |_| {});
            if let Some(w) = work {
                passes.note_work(w);
            }
            passes.submit();
            let times = timer.collect_blocking(&gpu).expect("the frame's timestamps");
            assert_eq!(times.timed_work("traced").map(|(_, w)| w), work, "frame {frame}: {times:?}");
            assert_eq!(times.timed_work("first"), None, "frame {frame}");
        }
    }

    /// A label's time and noted work are each summed over the frame's passes of that label.
    #[test]
    fn timed_work_sums_a_labels_passes() {
        let times = PassTimes {
            passes: vec![("a".into(), 1.0), ("b".into(), 2.0), ("a".into(), 3.0)],
            source: PassTimes::GPU_TIMESTAMPS,
            work: vec![("a".into(), 10.0), ("a".into(), 30.0)],
        };
        assert_eq!(times.timed_work("a"), Some((4.0, 40.0)));
        assert_eq!(times.timed_work("b"), None, "b noted no work");
        assert_eq!(times.timed_work("c"), None);
    }

    /// Every pass is timed however many a frame records: 100 passes, three query sets and a
    /// part, give 100 times under their own labels, in order, and so does the next frame, which
    /// reuses the grown timer. (With a fixed 32, the report kept the first 32 and dropped the
    /// rest without a word.) Needs timestamp queries, which lavapipe and hardware GPUs have.
    #[test]
    fn every_pass_is_timed_whatever_the_count() {
        let gpu = GpuContext::headless(&Default::default()).expect("a GPU device");
        assert!(gpu.timestamps, "{} offers no timestamp queries", gpu.describe());
        let mut timer = GpuTimer::new(&gpu).unwrap();
        for frame in 0..2 {
            let mut passes = PassRecorder::new(&gpu, Some(&mut timer), TimingMode::Timestamps);
            for i in 0..100 {
                passes.compute(&format!("pass {i}"), |_| {});
            }
            assert!(passes.submit().is_none(), "timestamp times arrive through the timer");
            let times = timer.collect_blocking(&gpu).expect("the frame's timestamps");
            let labels: Vec<&str> = times.passes.iter().map(|(label, _)| label.as_str()).collect();
            let want: Vec<String> = (0..100).map(|i| format!("pass {i}")).collect();
            assert_eq!(labels, want, "frame {frame}: one time per pass, in recording order");
            assert!(times.passes.iter().all(|(_, t)| t.is_finite() && *t >= 0.0), "frame {frame}: {times:?}");
        }
    }
}
