//! `fogbook bake`: chapter 8's six-way flipbook baker. Runs chapter 7's smoke headless and bakes
//! each frame's six lit maps, alpha and emission (`fogbook_six_way::from_smoke`), then writes the
//! cropped and packed atlases as PNG (8-bit) and EXR (f32) with a JSON metadata file.

use crate::cli::{BakeArgs, parse_size};
use anyhow::{Context, Result, anyhow, bail};
use fogbook_core::Chapter;
use fogbook_core::headless::Headless;
use fogbook_core::shaders::ShaderStore;
use fogbook_six_way::card::ViewAxis;
use fogbook_six_way::from_smoke::{Lighting, bake_from_smoke};
use fogbook_six_way::metadata::{BakeFacts, Metadata};
use fogbook_six_way::{BakeSettings, atlas};
use fogbook_smoke::Smoke;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a bake wrote, and how long it took.
#[derive(Debug)]
pub struct BakeReport {
    pub files: Vec<PathBuf>,
    pub settings: BakeSettings,
    pub atlas_size: [u32; 2],
    /// Seconds: the whole command, the smoke's steps, the lighting of the frames (with --cpu the
    /// read-back of the volume too).
    pub total_s: f64,
    pub simulate_s: f64,
    pub light_s: f64,
    pub adapter: String,
}

impl fmt::Display for BakeReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let s = &self.settings;
        writeln!(
            f,
            "baked {} frames of a {}³ smoke into {}x{} atlases ({}x{} frames) in {:.2} s \
             (smoke {:.2} s, lighting {:.2} s) on {}",
            s.frames,
            s.grid,
            self.atlas_size[0],
            self.atlas_size[1],
            s.layout[0],
            s.layout[1],
            self.total_s,
            self.simulate_s,
            self.light_s,
            self.adapter
        )?;
        let names: Vec<String> = self.files.iter().map(|p| p.display().to_string()).collect();
        write!(f, "wrote {}", names.join(", "))
    }
}

fn pair(text: &str, what: &str) -> Result<[u32; 2]> {
    if let Ok(n) = text.trim().parse::<u32>() {
        return Ok([n, n]);
    }
    parse_size(text).map_err(|e| anyhow!("{what}: {e}"))
}

// ANCHOR: settings
/// The settings file (or the defaults), then every option given on the command line.
pub fn settings(args: &BakeArgs) -> Result<BakeSettings> {
    let mut s = match &args.settings {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("settings {}", path.display()))?;
            ron::from_str(&text).map_err(|e| anyhow!("settings {}: {e}", path.display()))?
        }
        None => BakeSettings::default(),
    };
    if let Some(v) = args.frames {
        s.frames = v;
    }
    if let Some(v) = args.steps_per_frame {
        s.steps_per_frame = v;
    }
    if let Some(v) = args.warmup {
        s.warmup_steps = v;
    }
    if let Some(v) = args.grid {
        s.grid = v;
    }
    if let Some(v) = &args.layout {
        s.layout = parse_size(v).map_err(|e| anyhow!("layout: {e}"))?;
    }
    if let Some(v) = &args.frame_size {
        s.frame_size = pair(v, "frame size")?;
        s.atlas_size = None;
    }
    if let Some(v) = &args.atlas_size {
        s.atlas_size = Some(parse_size(v).map_err(|e| anyhow!("atlas size: {e}"))?);
    }
    if let Some(v) = &args.view_axis {
        s.view_axis = ViewAxis::parse(v).map_err(|e| anyhow!(e))?;
    }
    if let Some(v) = &args.swizzle {
        s.swizzle = v.clone();
    }
    if let Some(v) = args.albedo {
        s.albedo = v;
    }
    s.emission |= args.emission;
    Ok(s)
}
// ANCHOR_END: settings

/// The command's arguments for a bake of `s` into `out_dir` (the viewer's bake button, which
/// writes what the chapter baked for itself).
pub fn args_for(s: &BakeSettings, out_dir: PathBuf, prefix: &str) -> BakeArgs {
    BakeArgs {
        frames: Some(s.frames),
        steps_per_frame: Some(s.steps_per_frame),
        warmup: Some(s.warmup_steps),
        grid: Some(s.grid),
        layout: Some(format!("{}x{}", s.layout[0], s.layout[1])),
        frame_size: Some(format!("{}x{}", s.frame_size[0], s.frame_size[1])),
        view_axis: Some(s.view_axis.name().into()),
        swizzle: Some(s.swizzle.clone()),
        albedo: Some(s.albedo),
        emission: s.emission,
        out_dir,
        prefix: prefix.into(),
        ..Default::default()
    }
}

/// Makes the output folder and checks that a file can be written there, before any baking.
fn prepare_output(dir: &Path, prefix: &str) -> Result<()> {
    if prefix.is_empty() || prefix.contains(['/', '\\']) {
        bail!("prefix {prefix:?}: expected a plain file name part, e.g. smoke");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("output folder {} cannot be made", dir.display()))?;
    let probe = dir.join(format!(".{prefix}.write-test"));
    std::fs::write(&probe, b"").with_context(|| format!("output folder {} is not writable", dir.display()))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

pub fn run(args: &BakeArgs) -> Result<BakeReport> {
    let start = Instant::now();
    let s = settings(args)?;
    let layout = s.layout().map_err(|e| anyhow!(e))?;
    let swizzle = s.swizzle().map_err(|e| anyhow!(e))?;
    prepare_output(&args.out_dir, &args.prefix)?;

    let headless = Headless::new(&Smoke::new().requirements(), [64, 36])?;
    let bar = indicatif::ProgressBar::new(s.frames as u64).with_message("baking");
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} {bar:40} frame {pos}/{len} ({elapsed}, {eta} left)")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let lighting = if args.cpu { Lighting::Cpu } else { Lighting::Gpu };
    let layouts = &headless.renderer.frame.layouts;
    let baked = bake_from_smoke(&headless.gpu, layouts, &ShaderStore::discover(), &s, &args.set, lighting, &mut |f| {
        bar.set_position(f as u64)
    })?;
    bar.finish_and_clear();
    let t = Instant::now();
    let book = baked.flipbook(&s).context("nothing was written")?;
    let light_s = baked.light_s + t.elapsed().as_secs_f64();
    let p = &baked.smoke;
    let [w, h] = layout.size();
    let dir = &args.out_dir;
    let name = |suffix: &str| format!("{}{suffix}", args.prefix);
    let files = [[name("_a.png"), name("_a.exr")], [name("_b.png"), name("_b.exr")]];
    let mut written = Vec::new();
    for (atlas, [png, exr]) in book.atlases.iter().zip(&files) {
        let png_path = dir.join(png);
        image::RgbaImage::from_raw(w, h, atlas::to_rgba8(atlas))
            .ok_or_else(|| anyhow!("atlas {w}x{h}: wrong buffer size"))?
            .save(&png_path)
            .with_context(|| format!("writing {}", png_path.display()))?;
        let exr_path = dir.join(exr);
        image::Rgba32FImage::from_raw(w, h, atlas.clone())
            .ok_or_else(|| anyhow!("atlas {w}x{h}: wrong buffer size"))?
            .save(&exr_path)
            .with_context(|| format!("writing {}", exr_path.display()))?;
        written.extend([png_path, exr_path]);
    }
    let facts = BakeFacts {
        files,
        layout,
        swizzle: &swizzle,
        crop: book.crop,
        cell_m: p.box_size_m as f64 / s.grid as f64,
        extinction: p.extinction,
        time_step_s: p.time_step_s as f64,
    };
    let json = serde_json::to_string_pretty(&Metadata::new(&s, facts))?;
    let meta_path = dir.join(name(".json"));
    std::fs::write(&meta_path, json + "\n").with_context(|| format!("writing {}", meta_path.display()))?;
    written.push(meta_path);
    Ok(BakeReport {
        files: written,
        settings: s,
        atlas_size: [w, h],
        total_s: start.elapsed().as_secs_f64(),
        simulate_s: baked.simulate_s,
        light_s,
        adapter: headless.gpu.describe(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fogbook_six_way::baked::BakeKey;
    use fogbook_six_way::params::{CardParams, Packing};

    /// The viewer's bake button writes exactly the flipbook the chapter draws: its settings survive
    /// the trip through the command's arguments.
    #[test]
    fn the_viewer_button_bakes_the_chapters_settings() {
        for p in [
            CardParams::default(),
            CardParams { bake_frames: 7, bake_grid: 24, packing: Packing::RtbLbf, ..Default::default() },
        ] {
            let s = BakeKey::new(&p).0;
            assert_eq!(settings(&args_for(&s, PathBuf::from("x"), "y")).unwrap(), s);
        }
    }
}
