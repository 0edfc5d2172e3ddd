//! `fogbook render`: one view of a chapter or a stack into a PNG or EXR file.

use crate::cli::{RenderArgs, parse_size};
use crate::state::Setup;
use anyhow::{Result, anyhow, bail};
use fogbook_core::headless::{Capture, Headless};
use fogbook_core::time::TimeControl;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    Png,
    Exr,
}

/// Checks the output path before any rendering: known extension, existing folder.
pub fn check_output(path: &Path) -> Result<OutputKind> {
    let kind = match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()) {
        Some(e) if e == "png" => OutputKind::Png,
        Some(e) if e == "exr" => OutputKind::Exr,
        _ => bail!("output {}: the file name must end in .png or .exr", path.display()),
    };
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        bail!("output {}: folder {} does not exist", path.display(), parent.display());
    }
    Ok(kind)
}

/// Renders the requested view; returns the capture (for tests) after writing the file.
pub fn run(args: &RenderArgs) -> Result<Capture> {
    let kind = check_output(&args.out)?;
    let size = parse_size(&args.size).map_err(|e| anyhow!(e))?;
    if !args.time.is_finite() || args.time < 0.0 {
        bail!("time {}: must be a finite number of seconds ≥ 0", args.time);
    }
    if args.frames == 0 || args.frames > 100_000 {
        bail!("frames {}: must be between 1 and 100000", args.frames);
    }
    let mut setup = Setup::from_args(&args.scene)?;
    let view = match &args.view {
        Some(name) => setup.stack.find_view(name).map_err(|e| anyhow!(e))?,
        None => setup.stack.views()[0].at,
    };
    let view_name = setup.stack.view_name(view);
    let mut headless = Headless::new(&setup.stack.requirements(), size)?;
    headless.prepare_stack(&mut setup.stack)?;
    let mut time = TimeControl::fixed(args.time);
    headless.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, args.frames);
    let capture = headless.capture()?;
    // What a chapter refused (a file it cannot read, a grid too large) fails the run; the
    // viewer shows it in its panel and keeps going with what it kept.
    for chapter in setup.stack.chapters() {
        if let Some(refusal) = chapter.refusal() {
            bail!("{}: {refusal}", chapter.info().id);
        }
        if let Some(note) = chapter.status() {
            eprintln!("{}: {note}", chapter.info().id);
        }
    }
    let (lo, hi, bad) = capture.raw.red_stats();
    if bad > 0 {
        bail!("the render holds {bad} non-finite pixels; not writing {}", args.out.display());
    }
    match kind {
        OutputKind::Png => fogbook_core::capture::save_png(&capture.display, &args.out)?,
        OutputKind::Exr => capture.raw.save_exr(&args.out)?,
    }
    let range = match setup.stack.view_info(view).kind {
        fogbook_core::ViewKind::Scalar { auto: true, .. } if capture.auto_range.is_some() => {
            let r = capture.auto_range.unwrap_or_default();
            format!("; legend = field range {} .. {}", r.0, r.1)
        }
        fogbook_core::ViewKind::Scalar { .. } => {
            let r = fogbook_core::renderer::Renderer::display_settings(
                setup.stack.chapter_mut(view.chapter),
                view.view,
                &setup.scene,
                true,
            )
            .range;
            format!("; legend {} .. {}", r.0, r.1)
        }
        _ => String::new(),
    };
    println!(
        "wrote {} ({}x{}, {} / {}, raw red channel {lo} .. {hi}{range}) on {}",
        args.out.display(),
        size[0],
        size[1],
        setup.stack.spec(),
        view_name,
        headless.gpu.describe()
    );
    Ok(capture)
}
