//! `fogbook smoke-save`: runs chapter 7's smoke headless for a number of steps and writes its
//! fields to a volume file (`fogbook_smoke::volume_file`), for chapters that render a saved
//! volume and for tools.

use crate::cli::SmokeSaveArgs;
use anyhow::{Result, anyhow, bail};
use fogbook_core::headless::Headless;
use fogbook_core::params::set_by_name;
use fogbook_core::{Chapter, Loaded};
use fogbook_smoke::Smoke;

pub fn run(args: &SmokeSaveArgs) -> Result<()> {
    if args.frames > 100_000 {
        bail!("frames {}: at most 100000", args.frames);
    }
    let parent = args.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !parent.is_dir() {
        bail!("output {}: folder {} does not exist", args.out.display(), parent.display());
    }
    let mut smoke = Loaded::new(Smoke::new());
    for assignment in &args.set {
        let (name, value) =
            assignment.split_once('=').ok_or_else(|| anyhow!("--set {assignment}: expected name=value"))?;
        set_by_name(&mut smoke.chapter.params, name.trim(), value.trim())?;
    }
    let headless = Headless::new(&smoke.chapter.requirements(), [64, 36])?;
    headless.prepare(&mut smoke)?;
    let (chapter, state) = smoke.parts()?;
    chapter.steps(state, &headless.gpu, args.frames);
    chapter.save(state, &headless.gpu, &args.out)?;
    println!(
        "wrote {} ({}³ cells, {} steps: density, temperature, colour, velocity) on {}",
        args.out.display(),
        state.fields.n,
        args.frames,
        headless.gpu.describe()
    );
    Ok(())
}
