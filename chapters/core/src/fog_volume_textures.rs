//! The GPU copies of the frame's density grids (`fog_volume_density::DensityTexture`): up to
//! `MAX_DENSITY_TEXTURES` r32float 3D textures in fixed bindings 12–15 of a chapter's group 2
//! (declared in shaders/common/fog_volume_density.wgsl). A chapter that draws fog volumes (4's
//! froxel injection, 5's analytic path) owns one set and calls `update` each frame; a slot is
//! uploaded again only when the grid in it changes (compared by `Arc` identity). Empty slots hold
//! a 1³ texture, so that a layout never changes.

use crate::fog_volume_density::{DensityTexture, MAX_DENSITY_TEXTURES};
use crate::fog_volumes::FogVolume;
use crate::frame::texture_3d_entry;
use crate::shaders::compute_pipeline_with;
use std::sync::Arc;

/// The first of the `MAX_DENSITY_TEXTURES` bindings, in group 2.
pub const FIRST_BINDING: u32 = 12;

pub struct DensityTextureSlots {
    views: Vec<wgpu::TextureView>,
    held: Vec<Option<Arc<DensityTexture>>>,
}

fn texture_3d(device: &wgpu::Device, label: &str, n: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: n, height: n, depth_or_array_layers: n },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format: wgpu::TextureFormat::R32Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

impl DensityTextureSlots {
    pub fn new(device: &wgpu::Device) -> Self {
        let empty = |_| texture_3d(device, "empty density texture", 1).create_view(&Default::default());
        Self { views: (0..MAX_DENSITY_TEXTURES).map(empty).collect(), held: vec![None; MAX_DENSITY_TEXTURES] }
    }

    /// The layout entries of the slots (unfilterable: the shader interpolates itself, in f32).
    pub fn layout_entries(visibility: wgpu::ShaderStages) -> Vec<wgpu::BindGroupLayoutEntry> {
        let float = wgpu::TextureSampleType::Float { filterable: false };
        (0..MAX_DENSITY_TEXTURES as u32).map(|i| texture_3d_entry(FIRST_BINDING + i, visibility, float)).collect()
    }

    /// The bind-group entries of the slots as they are now.
    pub fn entries(&self) -> Vec<wgpu::BindGroupEntry<'_>> {
        self.views
            .iter()
            .enumerate()
            .map(|(i, v)| wgpu::BindGroupEntry {
                binding: FIRST_BINDING + i as u32,
                resource: wgpu::BindingResource::TextureView(v),
            })
            .collect()
    }

    /// Puts `textures` (the frame's, at most `MAX_DENSITY_TEXTURES` used) into the slots. True
    /// when a view changed, so that the bind groups that hold them must be made again. The grids
    /// were checked against the device when they were loaded (`DensityTexture::check`).
    pub fn update(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, textures: &[Arc<DensityTexture>]) -> bool {
        let mut changed = false;
        for slot in 0..MAX_DENSITY_TEXTURES {
            let want = textures.get(slot);
            let same = match (&self.held[slot], want) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            };
            if same {
                continue;
            }
            changed = true;
            let texture = match want {
                Some(t) => {
                    let texture = texture_3d(device, &t.label, t.n);
                    queue.write_texture(
                        texture.as_image_copy(),
                        bytemuck::cast_slice(&t.values),
                        wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(4 * t.n),
                            rows_per_image: Some(t.n),
                        },
                        wgpu::Extent3d { width: t.n, height: t.n, depth_or_array_layers: t.n },
                    );
                    texture
                }
                None => texture_3d(device, "empty density texture", 1),
            };
            self.views[slot] = texture.create_view(&Default::default());
            self.held[slot] = want.cloned();
        }
        changed
    }
}

/// Whether any of `volumes` takes its density from a texture (noise or a grid).
pub fn any_textured(volumes: &[FogVolume]) -> bool {
    volumes.iter().any(|v| v.texture[0] > 0.5)
}

/// A pass over fog volumes, compiled with the shaders' `DENSITY_TEXTURES` override off, and on
/// the first time a volume has a texture (common/fog_volume_density.wgsl). Without it the texture
/// code is compiled out: on a software driver a branch no lane takes still runs, and there the
/// noise doubled the time of chapter 4's froxel tests.
pub struct DensityPipelines {
    module: wgpu::ShaderModule,
    entry: &'static str,
    groups: Vec<Option<wgpu::BindGroupLayout>>,
    plain: wgpu::ComputePipeline,
    /// The variant with textures once asked for, or why it could not be compiled (not tried
    /// again: a new shader makes new pipelines).
    textured: Option<Result<wgpu::ComputePipeline, String>>,
}

impl DensityPipelines {
    pub fn new(
        device: &wgpu::Device,
        module: wgpu::ShaderModule,
        entry: &'static str,
        groups: &[Option<&wgpu::BindGroupLayout>],
    ) -> anyhow::Result<Self> {
        let plain = compute_pipeline_with(device, &module, entry, groups, &[("DENSITY_TEXTURES", 0.0)])?;
        let groups = groups.iter().map(|g| g.cloned()).collect();
        Ok(Self { module, entry, groups, plain, textured: None })
    }

    /// Compiles the variant with textures the first time a frame has a textured volume; while it
    /// cannot be compiled, says why (the plain variant then serves).
    pub fn prepare(&mut self, device: &wgpu::Device, textured: bool) -> Option<String> {
        if !textured {
            return None;
        }
        let textured = self.textured.get_or_insert_with(|| {
            let groups: Vec<Option<&wgpu::BindGroupLayout>> = self.groups.iter().map(|g| g.as_ref()).collect();
            compute_pipeline_with(device, &self.module, self.entry, &groups, &[("DENSITY_TEXTURES", 1.0)])
                .map_err(|e| format!("{e:#}; density textures are off"))
        });
        textured.as_ref().err().cloned()
    }

    /// The pipeline for a frame whose volumes have a texture (`textured`) or not.
    pub fn pipeline(&self, textured: bool) -> &wgpu::ComputePipeline {
        match &self.textured {
            Some(Ok(p)) if textured => p,
            _ => &self.plain,
        }
    }
}
