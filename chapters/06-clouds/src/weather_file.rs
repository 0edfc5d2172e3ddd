//! A weather map from a PNG file instead of the generated one: red = coverage, green = cloud
//! type (0 stratus, ½ stratocumulus, 1 cumulus), blue = density, each 0..255 for 0..1; alpha is
//! ignored. The image is resampled (triangle filter) to the weather texture's size, so any size
//! works; a non-square image is stretched to the square tile. A file that cannot be read or
//! decoded leaves the map in use as it is and says why.

use fogbook_core::gpu::GpuContext;
use std::path::Path;

/// The weather map read from `path` as rgba8 texels, `size`² of them, rows from the top.
pub fn load(path: &Path, size: u32) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read weather map {}: {e}", path.display()))?;
    let image = image::load_from_memory(&bytes)
        .map_err(|e| anyhow::anyhow!("{} is not a readable image: {e}", path.display()))?
        .to_rgba8();
    let image = if image.dimensions() == (size, size) {
        image
    } else {
        image::imageops::resize(&image, size, size, image::imageops::FilterType::Triangle)
    };
    Ok(image.into_raw())
}

/// Writes `texels` (from `load`) into the weather texture's level 0.
pub fn upload(gpu: &GpuContext, texture: &wgpu::Texture, texels: &[u8]) {
    let size = texture.size();
    gpu.queue.write_texture(
        texture.as_image_copy(),
        texels,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * size.width), rows_per_image: None },
        wgpu::Extent3d { width: size.width, height: size.height, depth_or_array_layers: 1 },
    );
}
