//! The GPU copies of the frame's density grids (`media::density::DensityTexture`): up to
//! `MAX_DENSITY_TEXTURES` r32float 3D textures in fixed bindings 12–15 of a chapter's group 2
//! (declared in shaders/common/media/fog_volume_density.wgsl). They are a shared resource of the
//! stack: the core owns one set (`Renderer::fog_density`), updates it once a frame from what the
//! stack published, and hands it to every chapter (`StackMedia::density`); the chapters
//! that draw fog volumes (the volumetric grid's injection, the per-pixel analytic path) put its views into their own
//! groups, made again when its `generation` changes. A slot is uploaded again only when the grid in
//! it changes (compared by `Arc` identity). Empty slots hold a 1³ texture, so that a layout never
//! changes. Beside them, in bindings 16–17, the noise baked once (`NoiseBake`) and its repeating
//! trilinear sampler.

use crate::bindings::texture_3d_entry;
use crate::gpu::GpuContext;
use crate::media::density::{DensityTexture, MAX_DENSITY_TEXTURES, NOISE_BAKE_SIDE, SOURCE_NOISE};
use crate::media::volumes::FogVolume;
use crate::shaders::{ShaderStore, compute_pipeline, compute_pipeline_with, create_module};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The first of the `MAX_DENSITY_TEXTURES` bindings, in group 2.
pub const FIRST_BINDING: u32 = 12;
/// The baked noise's binding, in group 2; its sampler's is the next.
pub const NOISE_BINDING: u32 = 16;
/// The bake's shader.
pub const NOISE_BAKE_SHADER: &str = "common/noise_bake.wgsl";

pub struct DensityTextureSlots {
    views: Vec<wgpu::TextureView>,
    held: Vec<Option<Arc<DensityTexture>>>,
    noise: NoiseBake,
    /// Changes (to a value no other set has had) whenever a view changes.
    generation: u64,
}

// ANCHOR: uploads
/// The GPU work the density resources did: noise bakes and grid uploads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DensityWork {
    pub noise_bakes: u32,
    pub grid_uploads: u32,
}

thread_local! {
    /// Counted per thread, so that tests running side by side in one process do not see each
    /// other's work: a frame's GPU calls are made on the thread that renders it.
    static WORK: Cell<DensityWork> = const { Cell::new(DensityWork { noise_bakes: 0, grid_uploads: 0 }) };
}

/// The bakes and uploads made on this thread so far, by every set of density resources.
pub fn work_on_this_thread() -> DensityWork {
    WORK.with(Cell::get)
}

fn count(f: impl FnOnce(&mut DensityWork)) {
    WORK.with(|w| {
        let mut now = w.get();
        f(&mut now);
        w.set(now);
    });
}
// ANCHOR_END: uploads

/// A generation no set of slots has had yet.
fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The fog volumes' noise, baked on the GPU into a `NOISE_BAKE_SIDE`³ r16float texture of one
/// period (shaders/common/noise_bake.wgsl) the first time a frame has a noise volume, and never
/// again: every parameter of a volume's noise (frequency, octaves, contrast, scroll, scale) is
/// applied where the texture is read. Until then a 1³ texture stands in.
pub struct NoiseBake {
    shaders: ShaderStore,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    sampler: wgpu::Sampler,
    /// Whether the bake ran, or why it could not (not tried again).
    done: Option<Result<(), String>>,
}

fn noise_texture(device: &wgpu::Device, n: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("fog volume noise"),
        size: wgpu::Extent3d { width: n, height: n, depth_or_array_layers: n },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format: wgpu::TextureFormat::R16Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

impl NoiseBake {
    fn new(device: &wgpu::Device, shaders: &ShaderStore) -> Self {
        // ANCHOR: noise_sampler
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("fog volume noise"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            address_mode_w: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        // ANCHOR_END: noise_sampler
        let texture = noise_texture(device, 1);
        let view = texture.create_view(&Default::default());
        Self { shaders: shaders.clone(), texture, view, sampler, done: None }
    }

    /// Bakes the noise unless it was (or could not be); true when the view changed.
    fn ensure(&mut self, gpu: &GpuContext) -> bool {
        if self.done.is_some() {
            return false;
        }
        let baked = self.bake(gpu);
        let changed = baked.is_ok();
        count(|w| w.noise_bakes += 1);
        self.done = Some(
            baked
                .map(|texture| {
                    self.view = texture.create_view(&Default::default());
                    self.texture = texture;
                })
                .map_err(|e| {
                    log::error!("fog volume noise: {e:#}");
                    format!("{e:#}")
                }),
        );
        changed
    }

    fn bake(&self, gpu: &GpuContext) -> anyhow::Result<wgpu::Texture> {
        let device = &gpu.device;
        let n = NOISE_BAKE_SIDE;
        let module = create_module(device, &self.shaders.load(NOISE_BAKE_SHADER)?)?;
        let entry = crate::bindings::storage_buffer_entry(0, wgpu::ShaderStages::COMPUTE, false);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("noise bake"),
            entries: &[entry],
        });
        let pipeline = compute_pipeline(device, &module, "bake", &[Some(&layout)])?;
        // ANCHOR: noise_bake
        let bytes = 2 * (n as u64).pow(3);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("noise bake"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("noise bake"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
        });
        let texture = noise_texture(device, n);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("noise bake") });
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(n / 2 / 8, n / 8, n);
        }
        encoder.copy_buffer_to_texture(
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(2 * n), rows_per_image: Some(n) },
            },
            texture.as_image_copy(),
            wgpu::Extent3d { width: n, height: n, depth_or_array_layers: n },
        );
        gpu.submit([encoder.finish()]);
        // ANCHOR_END: noise_bake
        Ok(texture)
    }
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
    pub fn new(device: &wgpu::Device, shaders: &ShaderStore) -> Self {
        let empty = |_| texture_3d(device, "empty density texture", 1).create_view(&Default::default());
        Self {
            views: (0..MAX_DENSITY_TEXTURES).map(empty).collect(),
            held: vec![None; MAX_DENSITY_TEXTURES],
            noise: NoiseBake::new(device, shaders),
            generation: next_generation(),
        }
    }

    /// The layout entries of the slots (unfilterable: the shader interpolates itself, in f32),
    /// then the baked noise (filterable) and its sampler.
    pub fn layout_entries(visibility: wgpu::ShaderStages) -> Vec<wgpu::BindGroupLayoutEntry> {
        let float = wgpu::TextureSampleType::Float { filterable: false };
        let mut entries: Vec<_> =
            (0..MAX_DENSITY_TEXTURES as u32).map(|i| texture_3d_entry(FIRST_BINDING + i, visibility, float)).collect();
        entries.push(texture_3d_entry(NOISE_BINDING, visibility, wgpu::TextureSampleType::Float { filterable: true }));
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: NOISE_BINDING + 1,
            visibility,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        });
        entries
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
            .chain([
                wgpu::BindGroupEntry {
                    binding: NOISE_BINDING,
                    resource: wgpu::BindingResource::TextureView(&self.noise.view),
                },
                wgpu::BindGroupEntry {
                    binding: NOISE_BINDING + 1,
                    resource: wgpu::BindingResource::Sampler(&self.noise.sampler),
                },
            ])
            .collect()
    }

    /// Puts `textures` (the frame's, at most `MAX_DENSITY_TEXTURES` used) into the slots, and
    /// bakes the noise the first time one of `volumes` has a noise density. True when a view
    /// changed, so that the bind groups that hold them must be made again. The grids were checked
    /// against the device when they were loaded (`DensityTexture::check`).
    pub fn update(&mut self, gpu: &GpuContext, textures: &[Arc<DensityTexture>], volumes: &[FogVolume]) -> bool {
        let (device, queue) = (&gpu.device, &gpu.queue);
        let mut changed = false;
        if any_noise(volumes) {
            changed |= self.noise.ensure(gpu);
        }
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
                    count(|w| w.grid_uploads += 1);
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
        if changed {
            self.generation = next_generation();
        }
        changed
    }

    /// Changes whenever a view does: a group holding the views made at another generation must
    /// be made again. No two sets, and no two states of one, share a generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Why the noise could not be baked, if it could not.
    pub fn noise_error(&self) -> Option<&str> {
        self.noise.done.as_ref().and_then(|d| d.as_ref().err()).map(String::as_str)
    }

    /// The baked noise (a 1³ stand-in until a volume has a noise density).
    pub fn noise_texture(&self) -> &wgpu::Texture {
        &self.noise.texture
    }
}

/// Whether any of `volumes` takes its density from the noise.
pub fn any_noise(volumes: &[FogVolume]) -> bool {
    volumes.iter().any(|v| (v.texture[0] - SOURCE_NOISE).abs() < 0.5)
}

/// Whether any of `volumes` takes its density from a texture (noise or a grid).
pub fn any_textured(volumes: &[FogVolume]) -> bool {
    volumes.iter().any(|v| v.texture[0] > 0.5)
}

/// A pass over fog volumes, compiled with the shaders' `DENSITY_TEXTURES` override off, and on the
/// first time a volume has a texture (common/media/fog_volume_density.wgsl). Without it the texture
/// code is compiled out: on a software driver a branch no lane takes still runs, and there the
/// noise doubled the time of the volumetric grid's tests.
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
