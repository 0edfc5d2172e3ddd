//! The density grids the volumes' files name: read with the core's smoke volume file loader
//! (chapter 7's format), each file once, at most `MAX_DENSITY_TEXTURES` of them, each no larger
//! than the device's 3D textures. `resolve` builds the new set without touching the one in use,
//! so that a bad file changes nothing.

use fogbook_core::media::density::{DensityTexture, MAX_DENSITY_TEXTURES};
use std::path::Path;
use std::sync::Arc;

/// The grids in use, by path, in slot order.
pub type LoadedFiles = Vec<(String, Arc<DensityTexture>)>;

// ANCHOR: resolve
/// The grids for `files` (the volumes' distinct paths, `LocalFogParams::density_files`): those
/// already in `loaded` are kept, the others read. One message for the first thing wrong: too
/// many files, an empty path, a file the loader refuses (missing, wrong magic, truncated, no
/// density, a NaN), or a grid larger than `device_side` or `MAX_DENSITY_TEXTURE_SIDE` per side.
pub fn resolve(files: &[String], loaded: &LoadedFiles, device_side: u32) -> Result<LoadedFiles, String> {
    if files.len() > MAX_DENSITY_TEXTURES {
        return Err(format!(
            "{} density files: at most {MAX_DENSITY_TEXTURES} textures are supported ({})",
            files.len(),
            files.join(", ")
        ));
    }
    files
        .iter()
        .map(|path| {
            if let Some((_, t)) = loaded.iter().find(|(p, _)| p == path) {
                return Ok((path.clone(), t.clone()));
            }
            if path.is_empty() {
                return Err("a volume's density source is a file, but its density_file is empty".to_string());
            }
            let grid = DensityTexture::load(Path::new(path)).map_err(|e| format!("density file {e:#}"))?;
            grid.check(device_side).map_err(|e| format!("density file {e:#}"))?;
            Ok((path.clone(), Arc::new(grid)))
        })
        .collect()
}
// ANCHOR_END: resolve
