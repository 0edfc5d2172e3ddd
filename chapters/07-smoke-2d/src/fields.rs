//! The 2D solver's fields: read/write pairs of velocity (with the temperature), dye and
//! pressure, the divergence, and MacCormack's two scratch fields.
//!
//! Formats: velocity and dye are `rgba16float` (half the bandwidth of f32; the velocity's third
//! channel is T − T_amb, its fourth unused); pressure and divergence are `r32float`, because the
//! pressure solve accumulates small differences of large values that f16's 11-bit mantissa would
//! lose. Every pass reads with `textureLoad` and interpolates itself, in f32: no sampler, no
//! filtering hardware, and the same arithmetic as the f64 reference.
//!
//! The velocity texture is n × (n + 1): the staggered grid has n + 1 rows of y-faces, and the top
//! row holds the top edge's faces, which are unknowns when the top is open.

use anyhow::{Result, bail};
use fogbook_core::gpu::GpuContext;
pub use fogbook_core::pingpong::PingPong;

// ANCHOR: formats
pub const VELOCITY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const DYE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const SCALAR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
// ANCHOR_END: formats

/// Checks a grid size against the device, with a message a user can act on.
pub fn check_grid(gpu: &GpuContext, n: u32) -> Result<()> {
    let max = gpu.device.limits().max_texture_dimension_2d;
    if !(2..=max.saturating_sub(1)).contains(&n) {
        bail!(
            "grid_size {n} does not fit this device's largest 2D texture ({max} texels per side, and the velocity needs n + 1)"
        );
    }
    Ok(())
}

/// One 2D texture and its view.
pub struct Field {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
}

impl Field {
    pub fn new(gpu: &GpuContext, label: &str, size: [u32; 2], format: wgpu::TextureFormat) -> Self {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Self { texture, view }
    }
}

fn pair(gpu: &GpuContext, label: &str, size: [u32; 2], format: wgpu::TextureFormat) -> PingPong<Field> {
    PingPong::new(
        Field::new(gpu, &format!("{label} A"), size, format),
        Field::new(gpu, &format!("{label} B"), size, format),
    )
}

/// Every field of one grid.
pub struct Fields {
    pub n: u32,
    pub velocity: PingPong<Field>,
    pub dye: PingPong<Field>,
    pub pressure: PingPong<Field>,
    pub divergence: Field,
    /// MacCormack's forward semi-Lagrangian step of velocity and dye.
    pub velocity_forward: Field,
    pub dye_forward: Field,
}

/// The fields tests and tools can read and write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldId {
    /// n × (n + 1) texels of (u, v, T − T_amb, 0).
    Velocity,
    /// n × n texels of (colour × density, density).
    Dye,
    /// n × n values of q.
    Pressure,
    /// n × n values of ∇·u before the solve.
    Divergence,
}

impl Fields {
    /// Zeroed fields (wgpu zero-initialises textures).
    pub fn new(gpu: &GpuContext, n: u32) -> Result<Self> {
        check_grid(gpu, n)?;
        let (cells, faces) = ([n, n], [n, n + 1]);
        Ok(Self {
            n,
            velocity: pair(gpu, "smoke-2d velocity", faces, VELOCITY_FORMAT),
            dye: pair(gpu, "smoke-2d dye", cells, DYE_FORMAT),
            pressure: pair(gpu, "smoke-2d pressure", cells, SCALAR_FORMAT),
            divergence: Field::new(gpu, "smoke-2d divergence", cells, SCALAR_FORMAT),
            velocity_forward: Field::new(gpu, "smoke-2d velocity (MacCormack forward)", faces, VELOCITY_FORMAT),
            dye_forward: Field::new(gpu, "smoke-2d dye (MacCormack forward)", cells, DYE_FORMAT),
        })
    }

    /// The texture currently holding `id`'s values.
    pub fn current(&self, id: FieldId) -> &Field {
        match id {
            FieldId::Velocity => self.velocity.read(),
            FieldId::Dye => self.dye.read(),
            FieldId::Pressure => self.pressure.read(),
            FieldId::Divergence => &self.divergence,
        }
    }

    /// Components per texel and the texture's size.
    pub fn shape(&self, id: FieldId) -> (usize, [u32; 2]) {
        let n = self.n;
        match id {
            FieldId::Velocity => (4, [n, n + 1]),
            FieldId::Dye => (4, [n, n]),
            FieldId::Pressure | FieldId::Divergence => (1, [n, n]),
        }
    }

    /// Writes `values` (x fastest, then y; components per texel as `shape` says) into `id`'s
    /// current texture. Four-component fields are rounded to half precision.
    pub fn upload(&self, gpu: &GpuContext, id: FieldId, values: &[f32]) -> Result<()> {
        let (c, [w, h]) = self.shape(id);
        if values.len() != c * (w * h) as usize {
            bail!("upload of {} values into a {w} × {h} × {c} field", values.len());
        }
        let bytes: Vec<u8> = if c == 4 {
            values.iter().flat_map(|v| half::f16::from_f32(*v).to_bits().to_le_bytes()).collect()
        } else {
            bytemuck::cast_slice(values).to_vec()
        };
        let field = self.current(id);
        gpu.queue.write_texture(
            field.texture.as_image_copy(),
            &bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(w * if c == 4 { 8 } else { 4 }),
                rows_per_image: Some(h),
            },
            field.texture.size(),
        );
        Ok(())
    }

    /// Reads `id`'s current values back (the layout of `upload`).
    pub fn download(&self, gpu: &GpuContext, id: FieldId) -> Result<Vec<f32>> {
        let (c, [w, h]) = self.shape(id);
        let texel = if c == 4 { 8 } else { 4 };
        let row = w * texel;
        let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("smoke-2d readback"),
            size: padded as u64 * h as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let field = self.current(id);
        let mut enc = gpu.device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            field.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(h) },
            },
            field.texture.size(),
        );
        gpu.submit([enc.finish()]);
        let data = fogbook_core::capture::map_read(gpu, &buffer)?;
        let mut out = Vec::with_capacity(c * (w * h) as usize);
        for r in 0..h as usize {
            let bytes = &data[r * padded as usize..r * padded as usize + row as usize];
            if c == 4 {
                out.extend(
                    bytes.chunks_exact(2).map(|b| half::f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32()),
                );
            } else {
                out.extend(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
            }
        }
        Ok(out)
    }
}
