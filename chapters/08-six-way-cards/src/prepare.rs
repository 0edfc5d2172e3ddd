//! The prepare pass (`shaders/08-six-way-cards/prepare.wgsl`): what is constant over a card —
//! its plane relative to the eye, the flipbook frame pair, the six weights of the sun, the sun's
//! and the sky's light at its centre — computed once per card for both renderers, which read it
//! per pixel.

use anyhow::Result;
use fogbook_core::bindings::{storage_buffer_entry, uniform_entry};
use fogbook_core::frame::FrameLayouts;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};

pub const SHADER: &str = "08-six-way-cards/prepare.wgsl";

/// Cards per workgroup (`@workgroup_size` in prepare.wgsl).
const WORKGROUP: u32 = 64;

// ANCHOR: prepared_card
/// Mirrors `struct PreparedCard` in `cards_common.wgsl` (what each member holds is said there).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PreparedCard {
    pub plane: [f32; 4],
    pub u_axis: [f32; 4],
    pub v_axis: [f32; 4],
    pub atlas: [f32; 4],
    pub flipbook: [f32; 4],
    pub light: [f32; 4],
    pub positive: [f32; 4],
    pub negative: [f32; 4],
    pub sun: [f32; 4],
    pub ground_sun: [f32; 4],
    pub ambient: [[f32; 4]; 6],
}
// ANCHOR_END: prepared_card

/// The pass's pipeline and its group 1 (the uniform, the instances, the prepared cards).
pub struct Prepare {
    pub layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl Prepare {
    pub fn new(device: &wgpu::Device, layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<Self> {
        let compute = wgpu::ShaderStages::COMPUTE;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("six-way prepare"),
            entries: &[
                uniform_entry(2, compute),
                storage_buffer_entry(3, compute, true),
                storage_buffer_entry(4, compute, false),
            ],
        });
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let groups = [Some(&layouts.scene_inputs), Some(&layout), None, Some(&layouts.shared_sky)];
        let pipeline = compute_pipeline(device, &module, "main", &groups)?;
        Ok(Self { layout, pipeline })
    }

    /// Prepares `count` cards.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass, group: &wgpu::BindGroup, count: u32) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(1, group, &[]);
        pass.dispatch_workgroups(count.div_ceil(WORKGROUP), 1, 1);
    }
}

/// A storage buffer of `bytes`.
pub fn storage_buffer(device: &wgpu::Device, label: &str, bytes: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | usage,
        mapped_at_creation: false,
    })
}
