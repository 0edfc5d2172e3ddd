//! Reading back the GPU-computed range of auto-ranged views (for the legend's numbers), without
//! stalling the viewer: one staging buffer, refilled only when the previous read has arrived.

use crate::gpu::GpuContext;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

const IDLE: u8 = 0;
const MAPPING: u8 = 1;
const READY: u8 = 2;

/// Inverse of `range_encode` in shaders/common/range.wgsl.
pub fn decode(u: u32) -> f32 {
    f32::from_bits(if u & 0x8000_0000 != 0 { u & 0x7fff_ffff } else { !u })
}

/// The inverse mapping, for tests.
pub fn encode(v: f32) -> u32 {
    let b = v.to_bits();
    if b & 0x8000_0000 != 0 { !b } else { b | 0x8000_0000 }
}

/// Decodes a [min, max] pair; `None` if the chapter wrote nothing this frame.
pub fn decode_pair(words: [u32; 2]) -> Option<(f32, f32)> {
    let (lo, hi) = (decode(words[0]), decode(words[1]));
    (lo.is_finite() && hi.is_finite() && hi >= lo).then_some((lo, hi))
}

pub struct RangeReadback {
    staging: wgpu::Buffer,
    state: Arc<AtomicU8>,
    /// The newest range that arrived.
    pub last: Option<(f32, f32)>,
}

impl RangeReadback {
    pub fn new(gpu: &GpuContext) -> Self {
        Self {
            staging: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("view range readback"),
                size: 8,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            }),
            state: Arc::new(AtomicU8::new(IDLE)),
            last: None,
        }
    }

    /// Queues a copy of `range` (after this frame's work) if the staging buffer is free.
    pub fn request(&mut self, gpu: &GpuContext, range: &wgpu::Buffer) {
        if self.state.load(Ordering::Acquire) != IDLE {
            return;
        }
        let mut enc = gpu.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(range, 0, &self.staging, 0, 8);
        gpu.submit([enc.finish()]);
        self.state.store(MAPPING, Ordering::Release);
        let state = self.state.clone();
        self.staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            state.store(if r.is_ok() { READY } else { IDLE }, Ordering::Release);
        });
    }

    /// Takes an arrived range, if any. Never blocks.
    pub fn poll(&mut self, gpu: &GpuContext) -> Option<(f32, f32)> {
        let _ = gpu.device.poll(wgpu::PollType::Poll);
        if self.state.load(Ordering::Acquire) == READY {
            if let Ok(data) = self.staging.slice(..).get_mapped_range() {
                let words: &[u32] = bytemuck::cast_slice(&data);
                self.last = decode_pair([words[0], words[1]]);
            }
            self.staging.unmap();
            self.state.store(IDLE, Ordering::Release);
        }
        self.last
    }

    /// Reads `range` as it is after all submitted work, waiting for it (headless captures).
    pub fn read_now(&mut self, gpu: &GpuContext, range: &wgpu::Buffer) -> Option<(f32, f32)> {
        // Drain a read still in flight (an older frame's), then read afresh.
        gpu.wait();
        self.poll(gpu);
        self.request(gpu, range);
        gpu.wait();
        self.poll(gpu)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_preserves_order() {
        let values = [-1e30f32, -5.0, -1e-20, -0.0, 0.0, 1e-20, 0.5, 3.0, 1e30];
        for w in values.windows(2) {
            assert!(encode(w[0]) <= encode(w[1]), "{} {}", w[0], w[1]);
            assert_eq!(decode(encode(w[0])), w[0]);
        }
        assert_eq!(decode_pair([u32::MAX, 0]), None, "the reset value means no range");
    }
}
