//! The GPU context: instance, adapter, device and queue, chosen the same way for the window and
//! for headless runs.
//!
//! Adapter choice honours `WGPU_BACKEND` (e.g. `vulkan`) and `WGPU_ADAPTER_NAME` (a substring of
//! the adapter's name). Without `WGPU_BACKEND` only the primary backends (Vulkan, Metal, DX12)
//! are tried: wgpu's GL fallback binds only slice 0 of 3D storage textures, which later chapters
//! rely on, so it is never picked silently.

use anyhow::{Context, Result, anyhow};
use std::collections::HashMap;
use std::ops::Range;
use std::panic::Location;
use std::sync::Mutex;

/// What a chapter (or the core) needs from the device beyond wgpu's defaults.
#[derive(Clone, Debug, Default)]
pub struct Requirements {
    pub features: wgpu::Features,
    /// Limits raised above `wgpu::Limits::default()` (WebGPU's); `None` keeps the defaults. The
    /// device gets exactly these, not the adapter's maxima.
    pub limits: Option<wgpu::Limits>,
}

pub struct GpuContext {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    /// Timestamp queries are usable inside passes (per-pass GPU timings).
    pub timestamps: bool,
    /// The buffer writes queued since the last submission (`write_buffer`, `submit`).
    queued: Mutex<QueuedWrites>,
}

// ANCHOR: queued_writes
/// What `GpuContext::write_buffer` remembers until the next `submit`: the byte ranges written
/// into each buffer and where in the code, and every range written a second time.
///
/// wgpu applies all of a submission's `Queue::write_buffer` calls before any of its commands run,
/// so two writes of one range before one submission leave every pass recorded between them
/// reading the second. A uniform written once per simulation step, with the steps of a batch
/// recorded into one submission, is the classic case: every step of the batch sees the last
/// step's parameters. A write that must land between two passes goes through the pass
/// recorder (`PassRecorder::write_buffer`), which records it in order with the passes.
#[derive(Default)]
struct QueuedWrites {
    ranges: HashMap<wgpu::Buffer, Vec<(Range<u64>, &'static Location<'static>)>>,
    rewrites: Vec<String>,
}
// ANCHOR_END: queued_writes

/// The message shown when no adapter exists at all.
pub const NO_ADAPTER_HELP: &str = "no GPU adapter found (Vulkan, Metal or DX12). On a machine \
without a GPU install Mesa's software Vulkan driver: `sudo apt-get install -y \
mesa-vulkan-drivers libvulkan1` (Debian/Ubuntu), then run with WGPU_BACKEND=vulkan";

pub fn backends_from_env() -> wgpu::Backends {
    wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY)
}

pub fn new_instance(display: Option<Box<dyn wgpu::wgt::WgpuHasDisplayHandle>>) -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle().with_env();
    desc.backends = backends_from_env();
    if let Some(d) = display {
        desc = desc.with_display_handle(d);
    }
    wgpu::Instance::new(desc)
}

impl GpuContext {
    /// A device for offscreen rendering (tests, `render`, `bench`, `figures`).
    pub fn headless(req: &Requirements) -> Result<Self> {
        let instance = new_instance(None);
        Self::with_instance(instance, None, req)
    }

    /// A device able to present to `surface` (the viewer).
    pub fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
        req: &Requirements,
    ) -> Result<Self> {
        let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(&instance, surface))
            .map_err(|e| match std::env::var("WGPU_ADAPTER_NAME") {
                Ok(name) => anyhow!("no GPU adapter matches WGPU_ADAPTER_NAME={name:?} ({e})"),
                Err(_) => anyhow!("{NO_ADAPTER_HELP} ({e})"),
            })?;
        let info = adapter.get_info();
        let available = adapter.features();
        let missing = req.features - available;
        if !missing.is_empty() {
            return Err(anyhow!("adapter {:?} lacks required features {missing:?}", info.name));
        }
        let wanted_optional = wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES
            | wgpu::Features::FLOAT32_FILTERABLE
            | wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES;
        let features = req.features | (available & wanted_optional);
        // Only the limits the chapters declare (WebGPU's defaults unless one raises them), not
        // the adapter's maxima: what runs here then runs on any device that meets them, a
        // browser's included, and size checks against `device.limits()` say so honestly.
        let limits = req.limits.clone().unwrap_or_default();
        let mut failed = Vec::new();
        limits.check_limits_with_fail_fn(&adapter.limits(), false, |name, want, have| {
            failed.push(format!("{name}: wants {want}, adapter has {have}"))
        });
        if !failed.is_empty() {
            return Err(anyhow!("adapter {:?} is below required limits: {}", info.name, failed.join("; ")));
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("fogbook device"),
            required_features: features,
            required_limits: limits,
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .with_context(|| format!("creating a device on {:?}", info.name))?;
        let timestamps = features.contains(wgpu::Features::TIMESTAMP_QUERY);
        Ok(Self { instance, adapter, device, queue, info, timestamps, queued: Mutex::default() })
    }

    /// One line naming the adapter, for logs and bench output.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {:?}, driver {} {})",
            self.info.name, self.info.backend, self.info.device_type, self.info.driver, self.info.driver_info
        )
    }

    /// True on software rasterisers such as lavapipe, where GPU timestamps are unreliable.
    pub fn is_cpu(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// `Queue::write_buffer`, remembering the range until the next `submit`: a second write of
    /// any of its bytes before then is a *rewrite* (see `QueuedWrites`), listed by `rewrites`.
    #[track_caller]
    pub fn write_buffer(&self, buffer: &wgpu::Buffer, offset: u64, data: &[u8]) {
        let at = Location::caller();
        let range = offset..offset + data.len() as u64;
        if let Ok(mut q) = self.queued.lock() {
            let earlier = q.ranges.entry(buffer.clone()).or_default();
            let first = earlier.iter().find(|(r, _)| r.start < range.end && range.start < r.end).map(|(_, l)| *l);
            earlier.push((range, at));
            if let Some(first) = first {
                let rewrite = format!("{at} writes bytes of a buffer that {first} wrote before the same submission");
                if !q.rewrites.contains(&rewrite) {
                    q.rewrites.push(rewrite);
                }
            }
        }
        self.queue.write_buffer(buffer, offset, data);
    }

    /// `Queue::submit`; the writes queued so far land before these commands run.
    pub fn submit<I: IntoIterator<Item = wgpu::CommandBuffer>>(&self, commands: I) -> wgpu::SubmissionIndex {
        if let Ok(mut q) = self.queued.lock() {
            q.ranges.clear();
        }
        self.queue.submit(commands)
    }

    /// The rewrites seen since the last call (each names both places in the code), and forgets
    /// them. Tests assert that it is empty after a frame, a batch of steps or a bake.
    pub fn take_rewrites(&self) -> Vec<String> {
        self.queued.lock().map(|mut q| std::mem::take(&mut q.rewrites)).unwrap_or_default()
    }

    /// Block until all submitted work is done.
    pub fn wait(&self) {
        let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
    }
}
