//! The compute renderer (`shaders/08-six-way-cards/splat.wgsl`): one workgroup per 16×16-pixel
//! tile walks the tile's cards front to back (`tiles::bin`) and writes the transparent layer as
//! a storage texture — the same layer the fragment renderer blends.

use crate::tiles::TileLists;
use anyhow::Result;
use fogbook_core::bindings::{storage_buffer_entry, texture_entry, uniform_entry};
use fogbook_core::frame::FrameLayouts;
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};

pub const SHADER: &str = "08-six-way-cards/splat.wgsl";

/// The splat's pipeline and its group 1: the uniform, the atlases and their sampler, the
/// prepared cards, the tiles' lists and the layer. (Group 2 stays free: the stack's transparent
/// passes bind their fog there.)
pub struct Splat {
    pub layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl Splat {
    pub fn new(
        device: &wgpu::Device,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
        layer_format: wgpu::TextureFormat,
    ) -> Result<Self> {
        let compute = wgpu::ShaderStages::COMPUTE;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("six-way splat"),
            entries: &[
                uniform_entry(2, compute),
                texture_entry(3, compute, wgpu::TextureSampleType::Float { filterable: true }),
                texture_entry(4, compute, wgpu::TextureSampleType::Float { filterable: true }),
                wgpu::BindGroupLayoutEntry {
                    binding: 5,
                    visibility: compute,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                storage_buffer_entry(6, compute, true),
                storage_buffer_entry(7, compute, true),
                wgpu::BindGroupLayoutEntry {
                    binding: 8,
                    visibility: compute,
                    ty: wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: layer_format,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
            ],
        });
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let groups =
            [Some(&layouts.scene_inputs), Some(&layout), Some(&layouts.transparent_fog), Some(&layouts.shared_sky)];
        let pipeline = compute_pipeline(device, &module, "main", &groups)?;
        Ok(Self { layout, pipeline })
    }

    /// Splats the cards of `lists` into the layer, one workgroup per tile.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass, group: &wgpu::BindGroup, lists: &TileLists) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(1, group, &[]);
        pass.dispatch_workgroups(lists.tiles[0], lists.tiles[1], 1);
    }
}
