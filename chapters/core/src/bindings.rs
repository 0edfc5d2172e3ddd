//! Bind group layouts, built one way by the core and every chapter: one entry per binding from
//! what it holds (`texture_entry`, `storage_texture_entry`, `uniform_entry`, …), and a compute
//! kernel's own group from its slots in binding order (`compute_layout`).

/// A texture binding of `sample_type` and `view_dimension`.
fn texture_binding(
    binding: u32,
    visibility: wgpu::ShaderStages,
    sample_type: wgpu::TextureSampleType,
    view_dimension: wgpu::TextureViewDimension,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Texture { sample_type, view_dimension, multisampled: false },
        count: None,
    }
}

/// A 2D texture binding of `sample_type`.
pub fn texture_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    sample_type: wgpu::TextureSampleType,
) -> wgpu::BindGroupLayoutEntry {
    texture_binding(binding, visibility, sample_type, wgpu::TextureViewDimension::D2)
}

/// A 3D texture binding of `sample_type`.
pub fn texture_3d_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    sample_type: wgpu::TextureSampleType,
) -> wgpu::BindGroupLayoutEntry {
    texture_binding(binding, visibility, sample_type, wgpu::TextureViewDimension::D3)
}

/// A filtering sampler binding.
pub fn sampler_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

/// A one-texel texture of `dimension` and `format` to bind where a resource is missing (zero:
/// wgpu initialises it), and its view.
pub fn one_texel_view(
    device: &wgpu::Device,
    label: &str,
    dimension: wgpu::TextureDimension,
    format: wgpu::TextureFormat,
) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

/// A comparison sampler binding (shadow maps).
pub fn comparison_sampler_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
        count: None,
    }
}

/// A storage buffer binding.
pub fn storage_buffer_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    read_only: bool,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A uniform buffer binding.
pub fn uniform_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A write-only storage texture binding of `format` and `view_dimension`.
pub fn storage_texture_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    format: wgpu::TextureFormat,
    view_dimension: wgpu::TextureViewDimension,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::StorageTexture { access: wgpu::StorageTextureAccess::WriteOnly, format, view_dimension },
        count: None,
    }
}

/// What one binding of a compute kernel's own group holds; a kernel lists its slots in binding
/// order (slot i is binding i).
#[derive(Clone, Copy, Debug)]
pub enum Slot {
    /// A float texture read with `textureLoad` or sampled (`filterable`).
    Texture { filterable: bool, dimension: wgpu::TextureViewDimension },
    /// A write-only storage texture.
    Storage { format: wgpu::TextureFormat, dimension: wgpu::TextureViewDimension },
    /// A storage buffer.
    Buffer { read_only: bool },
    /// A uniform buffer.
    Uniform,
}

/// The layout of a compute kernel's group from its slots, binding i for slot i.
pub fn compute_layout(device: &wgpu::Device, label: &str, slots: &[Slot]) -> wgpu::BindGroupLayout {
    let c = wgpu::ShaderStages::COMPUTE;
    let entries: Vec<_> = slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let i = i as u32;
            match *slot {
                Slot::Texture { filterable, dimension } => {
                    texture_binding(i, c, wgpu::TextureSampleType::Float { filterable }, dimension)
                }
                Slot::Storage { format, dimension } => storage_texture_entry(i, c, format, dimension),
                Slot::Buffer { read_only } => storage_buffer_entry(i, c, read_only),
                Slot::Uniform => uniform_entry(i, c),
            }
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries: &entries })
}
