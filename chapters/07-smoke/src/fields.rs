//! The solver's fields: three read/write pairs (velocity, pressure, fluid), the divergence, the
//! vorticity, and the per-frame light volume.
//!
//! The velocity is staggered (a MAC grid): texel (i, j, k) holds u_x on the cell's low x-face,
//! u_y on its low y-face and u_z on its low z-face (see shaders/07-smoke/common.wgsl); the faces on
//! the far walls are not stored. `FieldId::Velocity` reads and writes those face values.
//!
//! The temperature has no texture of its own: it is the velocity's fourth channel, T − T_amb in
//! kelvin, which the velocity's three components left free. It is sampled with the velocity in
//! the same trilinear fetch, so it costs neither memory nor bandwidth (`FieldId::Temperature`
//! reads and writes that channel).
//!
//! Formats: velocity and fluid are `rgba16float` 3D textures — filterable everywhere
//! (semi-Lagrangian advection samples them trilinearly) and half the bandwidth of f32. Pressure
//! and divergence are f32, because the Jacobi solve accumulates small differences of large values
//! and f16's 11-bit mantissa would stall it. The pressure pair are storage buffers (x fastest),
//! where the sweeps run faster than on 3D textures; after the sweeps the result is copied into an
//! `r32float` texture for trilinear sampling (which needs FLOAT32_FILTERABLE). The divergence is
//! kept both ways too: a buffer for the solve, a texture for the views.

use anyhow::{Result, bail};
use fogbook_core::gpu::GpuContext;

// ANCHOR: formats
pub const VELOCITY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const FLUID_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const SCALAR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
/// The light volume: optical depth to the sun, up and down (r, g, b), filterable everywhere
/// (the core's scene pass samples it for the smoke's shadow without FLOAT32_FILTERABLE).
pub const LIGHT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// The most GPU memory the fields may take (bytes).
pub const MEMORY_BUDGET: u64 = 4 << 30;

/// Bytes of field storage per cell: 2 × 8 (velocity and temperature) + 2 × 8 (fluid) + 2 × 4 + 4 (pressure
/// buffers and texture) + 4 + 4 (divergence buffer and texture) + 8 (vorticity) + 8 + 4 (light,
/// and its column sums) + 8 + 8 + 8 (MacCormack's forward velocity and fluid, and the packed
/// projected velocity) + 4 + 4 (the solid mask, texture and buffer).
pub const BYTES_PER_CELL: u64 = 104;

/// GPU memory the fields take at grid size `n` (bytes), the multigrid's coarse grids included.
pub fn memory_bytes(n: u32) -> u64 {
    BYTES_PER_CELL * (n as u64).pow(3) + crate::multigrid::memory_bytes(n)
}
// ANCHOR_END: formats

/// Checks a grid size against the device and the memory budget, with a message a user can act on.
pub fn check_grid(gpu: &GpuContext, n: u32) -> Result<()> {
    let max = gpu.device.limits().max_texture_dimension_3d;
    if n > max {
        bail!("grid_size {n} exceeds this device's largest 3D texture ({max} per side)");
    }
    if memory_bytes(n) > MEMORY_BUDGET {
        bail!(
            "grid_size {n} needs {:.1} GiB of fields, over the {} GiB budget",
            memory_bytes(n) as f64 / (1u64 << 30) as f64,
            MEMORY_BUDGET >> 30
        );
    }
    if !n.is_multiple_of(4) {
        bail!("grid_size {n} must be a multiple of 4");
    }
    let scalar_bytes = 4 * (n as u64).pow(3);
    let max_binding = gpu.device.limits().max_storage_buffer_binding_size;
    if scalar_bytes > max_binding {
        bail!("grid_size {n} needs {scalar_bytes}-byte pressure buffers; this device binds at most {max_binding}");
    }
    Ok(())
}

/// One 3D texture and its view.
pub struct Field {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
}

impl Field {
    pub fn new(gpu: &GpuContext, label: &str, n: u32, format: wgpu::TextureFormat) -> Self {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: n, height: n, depth_or_array_layers: n },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D3,
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

/// The read/write pair of every field that a pass updates from its previous values (the core's,
/// shared with the 2D chapter).
pub use fogbook_core::pingpong::PingPong;

fn texture_pair(gpu: &GpuContext, label: &str, n: u32, format: wgpu::TextureFormat) -> PingPong<Field> {
    PingPong::new(Field::new(gpu, &format!("{label} A"), n, format), Field::new(gpu, &format!("{label} B"), n, format))
}

fn scalar_buffer(gpu: &GpuContext, label: &str, n: u32) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: 4 * (n as u64).pow(3),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

/// Every field of one grid.
pub struct Fields {
    pub n: u32,
    pub velocity: PingPong<Field>,
    pub fluid: PingPong<Field>,
    /// The pressure solve's pair of buffers, and the texture its result is sampled from.
    pub pressure: PingPong<wgpu::Buffer>,
    pub pressure_texture: Field,
    pub divergence: Field,
    pub divergence_linear: wgpu::Buffer,
    /// ω and |ω| of the advected velocity, for vorticity confinement.
    pub vorticity: Field,
    pub light: Field,
    /// The density's running sums up each column, for the light volume's τ up and down.
    pub light_columns: wgpu::Buffer,
    /// MacCormack's forward semi-Lagrangian step φ̂ of velocity and fluid.
    pub velocity_forward: Field,
    pub fluid_forward: Field,
    /// The projected velocity V that MacCormack advects with, packed as f16 pairs (u_x, u_y) and
    /// (u_z, T): its passes read V at fixed cells from these buffers rather than the texture
    /// (packed_velocity.wgsl).
    pub projected_packed: [wgpu::Buffer; 2],
    /// The obstacles' solid mask of this step (0 fluid, 1 sphere, 2 box), as a texture for the
    /// passes and a buffer for the pressure solvers.
    pub solid: Field,
    pub solid_linear: wgpu::Buffer,
    /// The mask holds no obstacle (new fields are zeroed): without obstacles the step then
    /// skips rebuilding it.
    pub solid_clear: bool,
    /// The multigrid's coarse grids and the solvers' per-level parameter blocks.
    pub multigrid: crate::multigrid::Hierarchy,
}

impl Fields {
    /// Zeroed fields (wgpu zero-initialises textures).
    pub fn new(gpu: &GpuContext, n: u32) -> Result<Self> {
        check_grid(gpu, n)?;
        Ok(Self {
            n,
            velocity: texture_pair(gpu, "smoke velocity", n, VELOCITY_FORMAT),
            fluid: texture_pair(gpu, "smoke fluid", n, FLUID_FORMAT),
            pressure: PingPong::new(
                scalar_buffer(gpu, "smoke pressure A", n),
                scalar_buffer(gpu, "smoke pressure B", n),
            ),
            pressure_texture: Field::new(gpu, "smoke pressure", n, SCALAR_FORMAT),
            divergence: Field::new(gpu, "smoke divergence", n, SCALAR_FORMAT),
            divergence_linear: scalar_buffer(gpu, "smoke divergence (linear)", n),
            vorticity: Field::new(gpu, "smoke vorticity", n, VELOCITY_FORMAT),
            light: Field::new(gpu, "smoke light", n, LIGHT_FORMAT),
            light_columns: scalar_buffer(gpu, "smoke light column sums", n),
            velocity_forward: Field::new(gpu, "smoke velocity (MacCormack forward)", n, VELOCITY_FORMAT),
            fluid_forward: Field::new(gpu, "smoke fluid (MacCormack forward)", n, FLUID_FORMAT),
            projected_packed: [
                scalar_buffer(gpu, "smoke projected velocity (x, y) packed", n),
                scalar_buffer(gpu, "smoke projected velocity (z, T) packed", n),
            ],
            solid: Field::new(gpu, "smoke solid mask", n, SCALAR_FORMAT),
            solid_linear: scalar_buffer(gpu, "smoke solid mask (linear)", n),
            solid_clear: true,
            multigrid: crate::multigrid::Hierarchy::new(gpu, n),
        })
    }
}

/// The fields tests and tools can read and write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldId {
    Velocity,
    Pressure,
    Fluid,
    Divergence,
    /// T − T_amb (K): the velocity texture's fourth channel, one value per cell.
    Temperature,
    /// The solid mask: 0 fluid, 1 the sphere, 2 the box.
    Solid,
    /// The light volume: optical depth to the sun, up and down, and 0 (read only).
    Light,
}

impl Fields {
    /// The texture currently holding `id`'s values (the read side of a pair).
    pub fn current(&self, id: FieldId) -> &Field {
        match id {
            FieldId::Velocity => self.velocity.read(),
            FieldId::Pressure => &self.pressure_texture,
            FieldId::Fluid => self.fluid.read(),
            FieldId::Divergence => &self.divergence,
            FieldId::Temperature => self.velocity.read(),
            FieldId::Solid => &self.solid,
            FieldId::Light => &self.light,
        }
    }

    /// Components per cell of `id` (4 for velocity and fluid, 1 for the scalars).
    pub fn components(id: FieldId) -> usize {
        match id {
            FieldId::Velocity | FieldId::Fluid | FieldId::Light => 4,
            _ => 1,
        }
    }

    /// Writes `values` (x fastest, then y, then z; `components` per cell) into `id`'s current texture.
    pub fn upload(&self, gpu: &GpuContext, id: FieldId, values: &[f32]) -> Result<()> {
        let c = Self::components(id);
        let n = self.n as usize;
        if values.len() != n * n * n * c {
            bail!("upload of {} values into a {n}³ × {c} field", values.len());
        }
        if id == FieldId::Temperature {
            // Replace the fourth channel, keep the velocity.
            let mut u = self.download(gpu, FieldId::Velocity)?;
            for (cell, t) in u.chunks_exact_mut(4).zip(values) {
                cell[3] = *t;
            }
            return self.upload(gpu, FieldId::Velocity, &u);
        }
        let field = self.current(id);
        let bytes: Vec<u8> = if c == 4 {
            values.iter().flat_map(|v| f16_bits(*v).to_le_bytes()).collect()
        } else {
            bytemuck::cast_slice(values).to_vec()
        };
        let row = (self.n as usize * c * if c == 4 { 2 } else { 4 }) as u32;
        gpu.queue.write_texture(
            field.texture.as_image_copy(),
            &bytes,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: Some(self.n) },
            field.texture.size(),
        );
        // The solve's buffers hold the same values.
        match id {
            FieldId::Pressure => gpu.write_buffer(self.pressure.read(), 0, &bytes),
            FieldId::Divergence => gpu.write_buffer(&self.divergence_linear, 0, &bytes),
            _ => {}
        }
        Ok(())
    }

    /// Reads `id`'s current values back (same layout as `upload`).
    pub fn download(&self, gpu: &GpuContext, id: FieldId) -> Result<Vec<f32>> {
        if id == FieldId::Temperature {
            return Ok(self.download(gpu, FieldId::Velocity)?.chunks_exact(4).map(|c| c[3]).collect());
        }
        let c = Self::components(id);
        let field = self.current(id);
        let texel = if c == 4 { 8 } else { 4 };
        let n = self.n;
        let row = n * texel;
        let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("field readback"),
            size: padded as u64 * n as u64 * n as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc = gpu.device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            field.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(n) },
            },
            field.texture.size(),
        );
        gpu.submit([enc.finish()]);
        let data = fogbook_core::capture::map_read(gpu, &buffer)?;
        let mut out = Vec::with_capacity((n * n * n) as usize * c);
        for r in 0..(n * n) as usize {
            let bytes = &data[r * padded as usize..r * padded as usize + row as usize];
            if c == 4 {
                out.extend(bytes.chunks_exact(2).map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]]))));
            } else {
                out.extend(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
            }
        }
        Ok(out)
    }
}

/// IEEE half-precision bits of `v`, rounded to nearest even (as GPUs store rgba16float).
pub fn f16_bits(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut h = m >> shift;
        if rest > half || (rest == half && h & 1 == 1) {
            h += 1;
        }
        return sign | h as u16;
    }
    let mut h = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise.
            let shift = m.leading_zeros() - 21;
            sign | ((127 - 15 + 1 - shift) << 23) | ((m << shift) & 0x3ff) << 13
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// `v` rounded to the nearest half-precision value.
pub fn round_f16(v: f32) -> f32 {
    f16_to_f32(f16_bits(v))
}

/// `v` rounded toward zero to a half-precision value (the other rounding Vulkan allows for f16
/// storage writes, and the one lavapipe uses).
pub fn round_f16_toward_zero(v: f32) -> f32 {
    let r = round_f16(v);
    if r.abs() <= v.abs() {
        return r;
    }
    // One half-precision step towards zero.
    let bits = f16_bits(v);
    f16_to_f32(if bits & 0x7fff == 0 { bits } else { bits - 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_round_trips() {
        for v in [0.0f32, 1.0, -2.5, 0.1, 65504.0, 6.1e-5, 3.0e-7, -1.0e-6] {
            let r = round_f16(v);
            assert!((r - v).abs() <= v.abs() * 4.9e-4 + 6e-8, "{v} -> {r}");
            assert_eq!(round_f16(r), r);
        }
        assert_eq!(round_f16(1.0 + 1.0 / 2048.0), 1.0, "ties go to even");
        assert_eq!(round_f16(1.0 + 3.0 / 2048.0), 1.0 + 2.0 / 1024.0);
    }
}
