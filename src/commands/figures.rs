//! `fogbook figures`: every chapter's views, extra figures and plots, for the book.

use crate::cli::{FiguresArgs, parse_size};
use crate::registry;
use crate::state::Setup;
use anyhow::{Context, Result, anyhow};
use fogbook_core::capture::save_png;
use fogbook_core::headless::Headless;
use fogbook_core::stage::stage_diagram_svg;
use fogbook_core::time::TimeControl;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// One image to render.
struct Job {
    /// Folder under the figures folder: the chapter's id, or `stacks`.
    dir: &'static str,
    /// The chapters to render: an id, a list, or a named stack.
    spec: String,
    frames: u32,
    file: String,
    view: String,
    settings: Vec<String>,
    camera: Option<String>,
    /// Shown from the previous job's frame with its own settings, so many steps on
    /// (`Figure::continues`).
    continues: Option<u32>,
}

impl Job {
    /// Both jobs show the same frame, perhaps through different views.
    fn same_frame_as(&self, other: &Job) -> bool {
        (self.dir, &self.spec, self.frames, &self.settings, &self.camera)
            == (other.dir, &other.spec, other.frames, &other.settings, &other.camera)
    }
}

fn jobs() -> Vec<Job> {
    let mut jobs = Vec::new();
    for chapter in registry::chapters() {
        let id = chapter.info().id;
        let book = chapter.book();
        let frames = book.warmup_frames;
        for v in chapter.views() {
            jobs.push(Job {
                dir: id,
                spec: id.into(),
                frames,
                file: format!("view-{}.png", v.name),
                view: v.name.into(),
                settings: book.view_settings.iter().map(|s| s.to_string()).collect(),
                camera: None,
                continues: None,
            });
        }
        for f in book.figures {
            let spec = std::iter::once(id).chain(f.with.iter().copied()).collect::<Vec<_>>().join(",");
            jobs.push(Job {
                dir: id,
                spec,
                frames,
                file: format!("{}.png", f.name),
                view: f.view.into(),
                settings: f.settings.iter().map(|s| s.to_string()).collect(),
                camera: f.camera.map(String::from),
                continues: f.continues,
            });
        }
    }
    // Every named stack's final image.
    for (name, ids, _) in registry::STACKS {
        let frames =
            ids.iter().filter_map(|id| registry::find(id).ok()).map(|c| c.book().warmup_frames).max().unwrap_or(1);
        jobs.push(Job {
            dir: "stacks",
            spec: name.to_string(),
            frames,
            file: format!("{name}.png"),
            view: "final".into(),
            settings: vec![],
            camera: None,
            continues: None,
        });
    }
    jobs
}

pub fn run(args: &FiguresArgs) -> Result<PathBuf> {
    let size = parse_size(&args.size).map_err(|e| anyhow!(e))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    // Plots need no GPU: write them first.
    write_plots(&args.out)?;
    for id in &args.chapter {
        registry::find(id).map_err(|e| anyhow!(e))?;
    }
    let wanted = |dir: &str| args.chapter.is_empty() || args.chapter.iter().any(|c| c == dir);
    let jobs: Vec<Job> = jobs().into_iter().filter(|j| wanted(j.dir)).collect();
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut headless = Headless::new(&registry::requirements(), size)?;
    let mut current: Option<Setup> = None;
    let mut current_spec = String::new();
    // Chapters of earlier stacks that the current one leaves out, kept for later stacks.
    let mut parked: Vec<Box<dyn fogbook_core::DynChapter>> = Vec::new();
    let mut previous: Option<&Job> = None;
    for job in &jobs {
        bar.set_message(format!("{}/{}", job.dir, job.file));
        let started = std::time::Instant::now();
        let log_time = |job: &Job| log::info!("{}/{}: {:.2} s", job.dir, job.file, started.elapsed().as_secs_f64());
        // Another view of the frame just rendered (same chapters, settings and camera), or a
        // figure that continues from it with settings that change only how it is shown: render
        // it once more with time paused, so simulations are not run again for every view.
        let continues = job.continues.filter(|_| previous.is_some_and(|prev| prev.spec == job.spec));
        if let (Some(prev), Some(setup)) = (previous, current.as_mut())
            && (prev.same_frame_as(job) || continues.is_some())
        {
            render_again(&mut headless, setup, job, continues)?;
        } else {
            // Every figure starts from the defaults. Chapters keep their GPU state from one figure
            // to the next, across stacks too (with parameters and simulations reset), so that
            // precomputed data that does not depend on the changed settings (the sky's LUTs) is
            // computed once rather than for every figure and stack.
            if current_spec != job.spec {
                switch_stack(&mut headless, &mut current, &mut parked, &job.spec)?;
                current_spec = job.spec.clone();
            }
            let setup = current.as_mut().expect("a stack was set up above");
            render_from_defaults(&mut headless, setup, job)?;
        }
        let capture = headless.capture()?;
        log_range(job, &capture);
        save_png(&capture.display, &args.out.join(job.dir).join(&job.file))?;
        previous = Some(job);
        log_time(job);
        bar.inc(1);
    }
    bar.finish_with_message("done");
    if wanted("six-way-cards") {
        bake_figure(&args.out)?;
    }
    Ok(args.out.clone())
}

/// Writes every chapter's plots and the stage diagram, creating the figure folders.
fn write_plots(out: &std::path::Path) -> Result<()> {
    for chapter in registry::chapters() {
        let dir = out.join(chapter.info().id);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, svg) in (chapter.book().plots)() {
            let path = dir.join(format!("{name}.svg"));
            std::fs::write(&path, svg).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    for dir in ["core", "stacks"] {
        std::fs::create_dir_all(out.join(dir)).with_context(|| format!("creating {dir}"))?;
    }
    let stages = out.join("core/stages.svg");
    std::fs::write(&stages, stage_diagram()).with_context(|| format!("writing {}", stages.display()))?;
    Ok(())
}

/// Renders the frame just rendered once more for `job` with time paused: another view, or, when it
/// `continues`, the job's own settings applied and that many steps run on.
fn render_again(headless: &mut Headless, setup: &mut Setup, job: &Job, continues: Option<u32>) -> Result<()> {
    if continues.is_some() {
        for chapter in setup.stack.chapters_mut() {
            chapter.params().reset();
        }
        setup.scene = Default::default();
        setup.camera = Default::default();
        setup.apply(None, &job.settings, job.camera.as_deref())?;
    }
    let view = setup.stack.find_view(&job.view).map_err(|e| anyhow!(e))?;
    match continues {
        Some(steps) if steps > 0 => {
            let mut time = TimeControl::fixed(0.0);
            headless.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, steps);
        }
        _ => {
            headless.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
        }
    }
    Ok(())
}

/// Sets up the stack `spec` names: a new one the first time, then the current one restacked,
/// taking chapters from `parked` (or preparing new ones) and parking those it leaves out.
fn switch_stack(
    headless: &mut Headless,
    current: &mut Option<Setup>,
    parked: &mut Vec<Box<dyn fogbook_core::DynChapter>>,
    spec: &str,
) -> Result<()> {
    match current.as_mut() {
        None => {
            let mut setup = Setup::new(spec)?;
            headless.prepare_stack(&mut setup.stack)?;
            *current = Some(setup);
        }
        Some(setup) => {
            let ids = registry::stack(spec).map_err(|e| anyhow!(e))?.ids();
            parked.extend(setup.stack.take_all_but(&ids));
            let mut fresh = Vec::new();
            for id in ids.iter().filter(|id| setup.stack.position(id).is_none()) {
                match parked.iter().position(|c| c.info().id == *id) {
                    Some(i) => fresh.push(parked.swap_remove(i)),
                    None => {
                        let mut chapter = registry::find(id).map_err(|e| anyhow!(e))?;
                        headless.prepare(chapter.as_mut())?;
                        fresh.push(chapter);
                    }
                }
            }
            setup.stack.restack(&ids, fresh).map_err(|e| anyhow!(e))?;
        }
    }
    Ok(())
}

/// Resets every chapter, the scene and the camera, applies the job's settings and runs its
/// warm-up frames.
fn render_from_defaults(headless: &mut Headless, setup: &mut Setup, job: &Job) -> Result<()> {
    for chapter in setup.stack.chapters_mut() {
        chapter.params().reset();
        chapter.reset(&headless.gpu);
    }
    setup.scene = Default::default();
    setup.camera = Default::default();
    setup.apply(None, &job.settings, job.camera.as_deref())?;
    let view = setup.stack.find_view(&job.view).map_err(|e| anyhow!(e))?;
    let mut time = TimeControl::fixed(0.0);
    headless.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, job.frames);
    Ok(())
}

/// Chapter 8's figure: a small flipbook baked from the default smoke made denser (extinction 4),
/// 16 frames of a 32³ grid in 4 × 4 frames of 64², its two atlases as PNG (7 s on a software
/// driver).
fn bake_figure(out: &std::path::Path) -> Result<()> {
    let args = crate::cli::BakeArgs {
        frames: Some(16),
        steps_per_frame: Some(4),
        warmup: Some(90),
        grid: Some(32),
        layout: Some("4x4".into()),
        frame_size: Some("64".into()),
        out_dir: out.join("six-way"),
        prefix: "plume".into(),
        set: vec!["extinction=4".into()],
        ..Default::default()
    };
    let report = crate::commands::bake::run(&args)?;
    log::info!("six-way/plume: {:.2} s", report.total_s);
    // The book shows the PNGs; the EXRs and the metadata are for readers who bake their own.
    for f in report.files.iter().filter(|f| f.extension().is_some_and(|e| e == "exr")) {
        let _ = std::fs::remove_file(f);
    }
    Ok(())
}

/// The range an auto-ranged view was drawn over: the numbers on its legend, which the book quotes.
fn log_range(job: &Job, capture: &fogbook_core::headless::Capture) {
    if let Some((lo, hi)) = capture.auto_range {
        log::info!("{}/{}: view range {lo:.6} to {hi:.6}", job.dir, job.file);
    }
}

/// The stage diagram with every chapter the app hosts registered in it.
pub fn stage_diagram() -> String {
    let all = fogbook_core::Stack::new(registry::chapters()).expect("the registry lists each chapter once");
    stage_diagram_svg(&all.registrations())
}
