//! WGSL composition and validation.
//!
//! Every shader lives under `shaders/`. A file pulls in shared modules with comment lines of the
//! form `// #import common/frame.wgsl` (paths relative to `shaders/`); composition inlines each
//! module once, depth first, and keeps a map from composed lines back to `file:line` so errors
//! point at the file you edit. We chose this over a module system such as `wesl` because
//! hot reload composes at run time from the files on disk, the composed text stays plain WGSL
//! that naga and every driver accept, and there is no second language to learn for the book.
//!
//! Sources come from disk when a `shaders/` folder is found (`FOGBOOK_SHADER_DIR`, `./shaders`,
//! or the build-time path), otherwise from the copies embedded at build time.

use std::collections::HashSet;
use std::path::PathBuf;

include!(concat!(env!("OUT_DIR"), "/embedded_shaders.rs"));

const IMPORT_PREFIX: &str = "// #import ";

#[derive(Debug, thiserror::Error)]
pub enum ShaderError {
    #[error("shader file {0:?} not found under shaders/")]
    NotFound(String),
    #[error("import cycle through {0:?}")]
    Cycle(String),
    #[error("{0}")]
    Invalid(String),
}

/// A composed shader: the WGSL text plus where each of its lines came from.
pub struct ComposedShader {
    pub entry: String,
    pub source: String,
    origins: Vec<(String, usize)>,
}

impl ComposedShader {
    /// `file:line` of a 1-based line in the composed text.
    pub fn origin(&self, line: usize) -> String {
        match self.origins.get(line.wrapping_sub(1)) {
            Some((file, l)) => format!("{file}:{l}"),
            None => format!("{}:?", self.entry),
        }
    }

    /// Parses and validates the composed text with naga (no GPU involved).
    pub fn validate(&self) -> Result<naga::Module, ShaderError> {
        let module = naga::front::wgsl::parse_str(&self.source).map_err(|e| {
            let line = e.location(&self.source).map(|l| l.line_number as usize).unwrap_or(0);
            ShaderError::Invalid(format!("{}: {}", self.origin(line), e.emit_to_string(&self.source).trim()))
        })?;
        let mut validator =
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
        validator.validate(&module).map_err(|e| {
            let line = e.spans().next().map(|(span, _)| span.location(&self.source).line_number as usize).unwrap_or(0);
            ShaderError::Invalid(format!("{}: {}", self.origin(line), e.emit_to_string(&self.source).trim()))
        })?;
        Ok(module)
    }
}

// ANCHOR: wgsl_const
/// One WGSL `const` whose value lives in Rust: a chapter lists the constants its shaders share
/// with its Rust code (a tile size, a sample count, a debug view's index), and composition
/// writes them as a prelude of `const NAME: T = value;` lines ahead of the shader, so no WGSL
/// file holds a copy to keep in step by hand.
#[derive(Clone, Debug, PartialEq)]
pub struct WgslConst {
    pub name: String,
    /// The WGSL type: `u32`, `i32`, `f32` or `vec2<f32>`.
    pub ty: &'static str,
    /// The WGSL literal.
    pub value: String,
}

impl WgslConst {
    pub fn u32(name: impl Into<String>, value: u32) -> Self {
        Self { name: name.into(), ty: "u32", value: format!("{value}u") }
    }
    pub fn i32(name: impl Into<String>, value: i32) -> Self {
        Self { name: name.into(), ty: "i32", value: format!("{value}i") }
    }
    /// Written exactly: Rust's `Debug` form of an `f32` reads back to the same bits.
    pub fn f32(name: impl Into<String>, value: f32) -> Self {
        Self { name: name.into(), ty: "f32", value: format!("{value:?}f") }
    }
    /// A pair, each written as [`WgslConst::f32`] writes it (a table's size in texels).
    pub fn vec2_f32(name: impl Into<String>, [x, y]: [f32; 2]) -> Self {
        Self { name: name.into(), ty: "vec2<f32>", value: format!("vec2({x:?}f, {y:?}f)") }
    }
    /// The constant's WGSL line.
    pub fn line(&self) -> String {
        format!("const {}: {} = {};", self.name, self.ty, self.value)
    }
}

/// `VIEW_<NAME>` for each view, its index in the list: `fog-factor` at 3 becomes
/// `const VIEW_FOG_FACTOR: u32 = 3u;`.
pub fn view_constants(views: &[crate::ViewInfo]) -> Vec<WgslConst> {
    views.iter().enumerate().map(|(i, v)| WgslConst::u32(view_constant_name(v.name), i as u32)).collect()
}

/// `fog-factor` -> `VIEW_FOG_FACTOR`.
pub fn view_constant_name(view: &str) -> String {
    format!("VIEW_{}", view.to_uppercase().replace('-', "_"))
}
// ANCHOR_END: wgsl_const

// ANCHOR: core_constants
/// The core's constants that its own WGSL (shaders/common, shaders/core) uses. Every store
/// writes them ahead of every shader it composes, before the store's own constants, so that a
/// chapter's pass, a core pass and a test's probe all read the same values from Rust: the
/// frame's light array, the media layer's noise and volume shapes, the words of a volume bin,
/// and the sizes of the sky's tables.
pub fn core_constants() -> Vec<WgslConst> {
    use crate::media::{density, volumes};
    use crate::shared_sky::{IRRADIANCE_SIZE, TRANSMITTANCE_SIZE};
    let size = |[w, h]: [u32; 2]| [w as f32, h as f32];
    vec![
        WgslConst::f32("PI", std::f32::consts::PI),
        WgslConst::u32("MAX_LOCAL_LIGHTS", crate::lights::MAX_LOCAL_LIGHTS as u32),
        WgslConst::f32("LIGHT_RADIUS_M", crate::lights::LIGHT_RADIUS_M as f32),
        WgslConst::u32("FBM_OCTAVES", crate::noise::FBM_OCTAVES),
        WgslConst::u32("NOISE_PERIOD", density::NOISE_PERIOD),
        WgslConst::u32("NOISE_BAKE_SIDE", density::NOISE_BAKE_SIDE),
        WgslConst::u32("MAX_NOISE_OCTAVES", density::MAX_NOISE_OCTAVES),
        WgslConst::f32("FOG_SHAPE_ELLIPSOID", volumes::SHAPE_ELLIPSOID),
        WgslConst::f32("FOG_SHAPE_CYLINDER", volumes::SHAPE_CYLINDER),
        WgslConst::u32("BIN_WORDS", volumes::BIN_WORDS as u32),
        WgslConst::vec2_f32("TRANSMITTANCE_SIZE", size(TRANSMITTANCE_SIZE)),
        WgslConst::vec2_f32("IRRADIANCE_SIZE", size(IRRADIANCE_SIZE)),
    ]
}
// ANCHOR_END: core_constants

/// Where composed prelude lines come from, in error messages.
pub const PRELUDE_ORIGIN: &str = "<constants from Rust>";

/// Where shader text comes from.
#[derive(Clone, Debug)]
pub struct ShaderStore {
    /// The `shaders/` folder on disk, when there is one (hot reload watches it).
    pub disk_root: Option<PathBuf>,
    /// Written ahead of every shader this store composes, after [`core_constants`] (see
    /// [`WgslConst`]).
    pub constants: Vec<WgslConst>,
}

impl Default for ShaderStore {
    fn default() -> Self {
        Self::discover()
    }
}

impl ShaderStore {
    /// Finds `shaders/` on disk, falling back to the embedded copies.
    pub fn discover() -> Self {
        let candidates = [
            std::env::var_os("FOGBOOK_SHADER_DIR").map(PathBuf::from),
            Some(PathBuf::from("shaders")),
            Some(PathBuf::from(BUILD_SHADER_DIR)),
        ];
        let disk_root = candidates.into_iter().flatten().find(|p| p.join("common/frame.wgsl").is_file());
        Self { disk_root, constants: Vec::new() }
    }

    /// Only the copies embedded at build time (deterministic, for tests of the embedding).
    pub fn embedded() -> Self {
        Self { disk_root: None, constants: Vec::new() }
    }

    /// The files under `root` (a `shaders/` folder), with no constants but the core's.
    pub fn at(root: PathBuf) -> Self {
        Self { disk_root: Some(root), constants: Vec::new() }
    }

    /// This store, composing with `constants` ahead of every shader (after the core's) instead of
    /// its own.
    pub fn with_constants(&self, constants: Vec<WgslConst>) -> Self {
        Self { disk_root: self.disk_root.clone(), constants }
    }

    /// Raw text of one file (no composition).
    pub fn read(&self, path: &str) -> Result<String, ShaderError> {
        if let Some(root) = &self.disk_root
            && let Ok(text) = std::fs::read_to_string(root.join(path))
        {
            return Ok(text);
        }
        EMBEDDED_SHADERS
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, s)| s.to_string())
            .ok_or_else(|| ShaderError::NotFound(path.to_string()))
    }

    /// Every shader file known (embedded list; the same files exist on disk in a checkout).
    pub fn all_files() -> impl Iterator<Item = &'static str> {
        EMBEDDED_SHADERS.iter().map(|(p, _)| *p)
    }

    /// Composes `path` with its imports inlined, without validating: the core's constants, then
    /// the store's, then the file.
    pub fn compose(&self, path: &str) -> Result<ComposedShader, ShaderError> {
        let mut out = ComposedShader { entry: path.to_string(), source: String::new(), origins: Vec::new() };
        for (i, c) in core_constants().iter().chain(&self.constants).enumerate() {
            out.source.push_str(&c.line());
            out.source.push('\n');
            out.origins.push((PRELUDE_ORIGIN.to_string(), i + 1));
        }
        let mut done = HashSet::new();
        let mut stack = Vec::new();
        self.inline(path, &mut out, &mut done, &mut stack)?;
        Ok(out)
    }

    /// Composes and validates `path`; the error text names the file and line.
    pub fn load(&self, path: &str) -> Result<ComposedShader, ShaderError> {
        let composed = self.compose(path)?;
        composed.validate()?;
        Ok(composed)
    }

    // ANCHOR: inline
    fn inline(
        &self,
        path: &str,
        out: &mut ComposedShader,
        done: &mut HashSet<String>,
        stack: &mut Vec<String>,
    ) -> Result<(), ShaderError> {
        if stack.iter().any(|p| p == path) {
            return Err(ShaderError::Cycle(path.to_string()));
        }
        if !done.insert(path.to_string()) {
            return Ok(());
        }
        stack.push(path.to_string());
        let text = self.read(path)?;
        for (i, line) in text.lines().enumerate() {
            if let Some(import) = line.trim_start().strip_prefix(IMPORT_PREFIX) {
                self.inline(import.trim(), out, done, stack)?;
            } else {
                out.source.push_str(line);
                out.source.push('\n');
                out.origins.push((path.to_string(), i + 1));
            }
        }
        stack.pop();
        Ok(())
    }
    // ANCHOR_END: inline
}

// ANCHOR: checked
/// Runs `make` (which creates modules or pipelines) inside a validation error scope. A shader
/// that naga accepts can still break its pipeline (a binding that does not match the bind-group
/// layout, an entry point that is not there); wgpu reports that to the device's uncaptured-error
/// handler, which panics. Caught here, it becomes an error the viewer shows while the last good
/// pipeline keeps running.
pub fn checked<T>(device: &wgpu::Device, what: &str, make: impl FnOnce() -> T) -> anyhow::Result<T> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = make();
    // In a browser the scope resolves only through the event loop: errors go to the console.
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(error) = pollster::block_on(scope.pop()) {
        anyhow::bail!("{what}: {error}");
    }
    #[cfg(target_arch = "wasm32")]
    let _ = (scope, what);
    Ok(value)
}
// ANCHOR_END: checked

/// A compute pipeline for `entry` in `module`, with bind groups `groups` (index = group number;
/// `None` for a group the shader does not use).
pub fn compute_pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    entry: &str,
    groups: &[Option<&wgpu::BindGroupLayout>],
) -> anyhow::Result<wgpu::ComputePipeline> {
    compute_pipeline_with(device, module, entry, groups, &[])
}

/// `compute_pipeline` with values for the shader's pipeline-overridable constants (WGSL
/// `override`), by name.
pub fn compute_pipeline_with(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    entry: &str,
    groups: &[Option<&wgpu::BindGroupLayout>],
    constants: &[(&str, f64)],
) -> anyhow::Result<wgpu::ComputePipeline> {
    checked(device, &format!("pipeline {entry}"), || {
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(entry),
            bind_group_layouts: groups,
            immediate_size: 0,
        });
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: Some(&layout),
            module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions { constants, ..Default::default() },
            cache: None,
        })
    })
}

/// Creates a wgpu shader module from a validated composition.
pub fn create_module(device: &wgpu::Device, shader: &ComposedShader) -> anyhow::Result<wgpu::ShaderModule> {
    checked(device, &shader.entry, || {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&shader.entry),
            source: wgpu::ShaderSource::Wgsl(shader.source.as_str().into()),
        })
    })
}
