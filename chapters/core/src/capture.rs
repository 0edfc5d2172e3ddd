//! Reading textures back and saving them: PNG of what is displayed, OpenEXR of raw values.

use crate::gpu::GpuContext;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// Copies mip level 0 of a texture to the CPU, returning tightly packed rows: every slice of a
/// 3D texture (x fastest, then y, then z), the first layer of any other.
pub fn read_texture(gpu: &GpuContext, texture: &wgpu::Texture) -> Result<Vec<u8>> {
    let size = texture.size();
    let depth = if texture.dimension() == wgpu::TextureDimension::D3 { size.depth_or_array_layers } else { 1 };
    let block =
        texture.format().block_copy_size(Some(wgpu::TextureAspect::All)).context("texture format cannot be copied")?;
    let row = size.width * block;
    let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let rows = size.height * depth;
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: padded as u64 * rows as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    enc.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(size.height),
            },
        },
        wgpu::Extent3d { width: size.width, height: size.height, depth_or_array_layers: depth },
    );
    gpu.submit([enc.finish()]);
    let data = map_read(gpu, &buffer)?;
    let mut out = Vec::with_capacity((row * rows) as usize);
    for y in 0..rows as usize {
        let start = y * padded as usize;
        out.extend_from_slice(&data[start..start + row as usize]);
    }
    Ok(out)
}

/// Waits for the GPU (after the copy into `buffer` was submitted), then maps the MAP_READ
/// buffer and copies its bytes out.
pub fn map_read(gpu: &GpuContext, buffer: &wgpu::Buffer) -> Result<Vec<u8>> {
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.wait();
    rx.recv().context("readback channel")?.context("mapping readback buffer")?;
    let out = slice.get_mapped_range().context("mapped range")?.to_vec();
    buffer.unmap();
    Ok(out)
}

/// Copies a whole buffer (with COPY_SRC usage) to the CPU.
pub fn read_buffer(gpu: &GpuContext, source: &wgpu::Buffer) -> Result<Vec<u8>> {
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: source.size(),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(source, 0, &buffer, 0, source.size());
    gpu.submit([enc.finish()]);
    map_read(gpu, &buffer)
}

/// An RGBA image of f32 values read from the view target.
pub struct FloatImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<f32>,
}

impl FloatImage {
    pub fn read(gpu: &GpuContext, texture: &wgpu::Texture) -> Result<Self> {
        if texture.format() != wgpu::TextureFormat::Rgba32Float {
            bail!("expected an rgba32float texture, got {:?}", texture.format());
        }
        let bytes = read_texture(gpu, texture)?;
        let s = texture.size();
        Ok(Self { width: s.width, height: s.height, rgba: bytemuck::cast_slice(&bytes).to_vec() })
    }

    pub fn pixel(&self, x: u32, y: u32) -> [f32; 4] {
        let i = 4 * (y * self.width + x) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// Minimum and maximum of the red channel over finite values, and the count of non-finite ones.
    pub fn red_stats(&self) -> (f32, f32, usize) {
        let mut lo = f32::INFINITY;
        let mut hi = f32::NEG_INFINITY;
        let mut bad = 0;
        for px in self.rgba.chunks_exact(4) {
            if px.iter().any(|v| !v.is_finite()) {
                bad += 1;
                continue;
            }
            lo = lo.min(px[0]);
            hi = hi.max(px[0]);
        }
        (lo, hi, bad)
    }

    pub fn save_exr(&self, path: &Path) -> Result<()> {
        let img =
            image::Rgba32FImage::from_raw(self.width, self.height, self.rgba.clone()).context("image size mismatch")?;
        image::DynamicImage::ImageRgba32F(img)
            .save_with_format(path, image::ImageFormat::OpenExr)
            .with_context(|| format!("writing {}", path.display()))
    }
}

/// Reads an sRGB RGBA8 texture into an image.
pub fn read_rgba8(gpu: &GpuContext, texture: &wgpu::Texture) -> Result<image::RgbaImage> {
    let bytes = read_texture(gpu, texture)?;
    let s = texture.size();
    image::RgbaImage::from_raw(s.width, s.height, bytes).context("image size mismatch")
}

pub fn save_png(image: &image::RgbaImage, path: &Path) -> Result<()> {
    image.save_with_format(path, image::ImageFormat::Png).with_context(|| format!("writing {}", path.display()))
}

/// A JPEG at `quality` (1–100), alpha dropped: for pictures with Monte Carlo noise, which PNG
/// cannot compress (a path-traced frame at 640×360 is ~700 KiB as PNG, ~80 KiB as JPEG at 90).
pub fn save_jpeg(image: &image::RgbaImage, path: &Path, quality: u8) -> Result<()> {
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).into_rgb8();
    let file = std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?;
    let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(std::io::BufWriter::new(file), quality);
    encoder.encode_image(&rgb).with_context(|| format!("writing {}", path.display()))
}
