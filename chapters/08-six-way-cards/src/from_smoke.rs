//! A bake from chapter 7's smoke: runs the simulation and bakes one set of maps per flipbook
//! frame, on the GPU straight from the smoke's texture (or, `Lighting::Cpu`, from the density
//! read back and lit by `light::bake_frame`). `fogbook bake` writes the result to files; the
//! chapter's runtime bakes its own flipbook the same way when it starts.

use crate::card::to_card;
use crate::flipbook::{Flipbook, assemble};
use crate::gpu::{GlowRamp, GpuBaker};
use crate::light::{FrameMaps, Medium, bake_frame};
use crate::settings::BakeSettings;
use anyhow::{Result, anyhow, bail};
use fogbook_core::frame::FrameLayouts;
use fogbook_core::gpu::GpuContext;
use fogbook_core::params::set_by_name;
use fogbook_core::shaders::ShaderStore;
use fogbook_core::{DynChapter, Loaded};
use fogbook_smoke::fields::{FieldId, check_grid};
use fogbook_smoke::params::SmokeParams;
use fogbook_smoke::{Smoke, SmokeGpu};

/// Where the frames are lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lighting {
    /// `gpu::GpuBaker`, from the smoke's texture (the default).
    Gpu,
    /// `light::bake_frame` on the density read back (the GPU bake's twin).
    Cpu,
}

/// The frames of a bake, and what they were baked from.
pub struct SmokeBake {
    pub frames: Vec<FrameMaps>,
    /// The smoke's parameters as they were run (after `smoke_settings`).
    pub smoke: SmokeParams,
    pub medium: Medium,
    /// Where asked for (`bake_keeping_sources`), each frame's density as the bake read it, in the
    /// card frame, and its glow where the bake has emission; empty otherwise.
    pub density: Vec<Vec<f32>>,
    pub glow: Vec<Vec<f32>>,
    /// Seconds spent stepping the smoke and lighting the frames.
    pub simulate_s: f64,
    pub light_s: f64,
}

impl SmokeBake {
    /// The frames cropped and packed as the settings ask.
    pub fn flipbook(&self, settings: &BakeSettings) -> Result<Flipbook> {
        let layout = settings.layout().map_err(|e| anyhow!(e))?;
        let swizzle = settings.swizzle().map_err(|e| anyhow!(e))?;
        let book = assemble(&self.frames, layout, &swizzle, settings.emission);
        if book.atlases.iter().flatten().any(|v| !v.is_finite()) {
            bail!("the bake produced a value that is not finite");
        }
        Ok(book)
    }
}

/// Wall-clock seconds for the report, where the platform has a clock (a browser's
/// `std::time::Instant` panics: there it reads 0).
struct Stopwatch(#[cfg(not(target_arch = "wasm32"))] std::time::Instant);

impl Stopwatch {
    fn start() -> Self {
        Self(
            #[cfg(not(target_arch = "wasm32"))]
            std::time::Instant::now(),
        )
    }

    fn seconds(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.0.elapsed().as_secs_f64();
        #[cfg(target_arch = "wasm32")]
        0.0
    }
}

/// The glow ramp of chapter 7 (`view.wgsl`'s `glow`): t = (T − T₀)/(T₁ − T₀) in 0..1.
fn glow_ramp(excess_k: f32, p: &SmokeParams) -> f32 {
    let span = p.emission_full_k - p.emission_start_k;
    if span.abs() < 1e-6 {
        return if p.ambient_temperature_k + excess_k >= p.emission_full_k { 1.0 } else { 0.0 };
    }
    ((p.ambient_temperature_k + excess_k - p.emission_start_k) / span).clamp(0.0, 1.0)
}

// ANCHOR: cpu_path
/// The CPU bake of the current frame: the density (and temperature) read back, reordered into
/// the card frame and lit by `light::bake_frame`, the GPU bake's twin.
fn bake_on_cpu(
    state: &SmokeGpu,
    gpu: &GpuContext,
    s: &BakeSettings,
    p: &SmokeParams,
    medium: Medium,
) -> Result<FrameMaps> {
    let n = s.grid as usize;
    let fluid = state.download(gpu, FieldId::Fluid)?;
    let density: Vec<f32> = fluid.chunks_exact(4).map(|c| c[3]).collect();
    let glow = if s.emission {
        let t = state.download(gpu, FieldId::Temperature)?;
        Some(t.iter().map(|&k| if k.is_finite() { glow_ramp(k, p) } else { 0.0 }).collect::<Vec<f32>>())
    } else {
        None
    };
    let glow_card = glow.map(|g| to_card(n, &g, s.view_axis));
    Ok(bake_frame(n, &to_card(n, &density, s.view_axis), glow_card.as_deref(), medium))
}
// ANCHOR_END: cpu_path

/// The source frames of a bake: the density (and glow, with emission) read back in the card
/// frame, what a path tracer traces the cards with (`source`).
fn source_frame(state: &SmokeGpu, gpu: &GpuContext, s: &BakeSettings, p: &SmokeParams) -> Result<(Vec<f32>, Vec<f32>)> {
    let n = s.grid as usize;
    let fluid = state.download(gpu, FieldId::Fluid)?;
    let density: Vec<f32> = fluid.chunks_exact(4).map(|c| if c[3].is_finite() { c[3] } else { 0.0 }).collect();
    let glow = if s.emission {
        let t = state.download(gpu, FieldId::Temperature)?;
        let g: Vec<f32> = t.iter().map(|&k| if k.is_finite() { glow_ramp(k, p) } else { 0.0 }).collect();
        to_card(n, &g, s.view_axis)
    } else {
        Vec::new()
    };
    Ok((to_card(n, &density, s.view_axis), glow))
}

/// Runs chapter 7's smoke with `smoke_settings` (`name=value`; the grid comes from `s.grid`)
/// for the warm-up, then bakes `s.frames` frames `s.steps_per_frame` steps apart. `progress`
/// hears of each frame baked.
pub fn bake_from_smoke(
    gpu: &GpuContext,
    layouts: &FrameLayouts,
    shaders: &ShaderStore,
    s: &BakeSettings,
    smoke_settings: &[String],
    lighting: Lighting,
    progress: &mut dyn FnMut(u32),
) -> Result<SmokeBake> {
    bake_keeping_sources(gpu, layouts, shaders, s, smoke_settings, lighting, false, progress)
}

// ANCHOR: bake_from_smoke
/// `bake_from_smoke`, and with `keep_sources` each frame's density (and glow) kept as well.
#[allow(clippy::too_many_arguments)]
pub fn bake_keeping_sources(
    gpu: &GpuContext,
    layouts: &FrameLayouts,
    shaders: &ShaderStore,
    s: &BakeSettings,
    smoke_settings: &[String],
    lighting: Lighting,
    keep_sources: bool,
    progress: &mut dyn FnMut(u32),
) -> Result<SmokeBake> {
    s.layout().map_err(|e| anyhow!(e))?;
    s.swizzle().map_err(|e| anyhow!(e))?;
    let mut smoke = Loaded::new(Smoke::new());
    set_by_name(&mut smoke.chapter.params, "grid_size", &s.grid.to_string()).map_err(|e| anyhow!("grid: {e}"))?;
    for assignment in smoke_settings {
        let (name, value) =
            assignment.split_once('=').ok_or_else(|| anyhow!("smoke setting {assignment}: expected name=value"))?;
        if name.trim() == "grid_size" {
            bail!("smoke setting grid_size: set the bake's grid instead");
        }
        set_by_name(&mut smoke.chapter.params, name.trim(), value.trim())?;
    }
    check_grid(gpu, s.grid)?;
    smoke.create_gpu(gpu, layouts, shaders)?;
    let (chapter, state) = smoke.parts()?;
    let p = chapter.params.clone();
    let medium = Medium { extinction: p.extinction, cell_m: p.box_size_m / s.grid as f32, albedo: s.albedo };

    let (mut simulate_s, mut light_s) = (0.0, 0.0);
    let t = Stopwatch::start();
    chapter.steps(state, gpu, s.warmup_steps);
    simulate_s += t.seconds();
    let baker = GpuBaker::new(gpu, shaders, s.grid)?;
    let mut frames: Vec<FrameMaps> = Vec::with_capacity(s.frames as usize);
    let (mut density, mut glow) = (Vec::new(), Vec::new());
    for f in 0..s.frames {
        let t = Stopwatch::start();
        if f > 0 {
            chapter.steps(state, gpu, s.steps_per_frame);
        }
        simulate_s += t.seconds();
        let t = Stopwatch::start();
        let maps = match lighting {
            Lighting::Cpu => bake_on_cpu(state, gpu, s, &p, medium)?,
            Lighting::Gpu => {
                let ramp = GlowRamp {
                    ambient_k: p.ambient_temperature_k,
                    start_k: p.emission_start_k,
                    full_k: p.emission_full_k,
                };
                let (fluid, velocity) =
                    (&state.fields.current(FieldId::Fluid).view, &state.fields.current(FieldId::Velocity).view);
                baker.bake(gpu, fluid, velocity, s.view_axis, medium, s.emission.then_some(ramp))?
            }
        };
        light_s += t.seconds();
        let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
        if !(maps.lit.iter().all(|m| finite(m)) && finite(&maps.alpha) && finite(&maps.emission)) {
            bail!(
                "frame {f}: the smoke's density or temperature is not finite (the simulation blew up; try a smaller time_step_s)"
            );
        }
        frames.push(maps);
        if keep_sources {
            let (rho, g) = source_frame(state, gpu, s, &p)?;
            density.push(rho);
            if s.emission {
                glow.push(g);
            }
        }
        progress(f + 1);
    }
    Ok(SmokeBake { frames, smoke: p, medium, density, glow, simulate_s, light_s })
}
// ANCHOR_END: bake_from_smoke
