use clap::Parser;
use fogbook::cli::{Cli, Command, FiguresArgs, ViewArgs};
use fogbook::{commands, software_driver, viewer};
use std::process::ExitCode;

/// Mesa's drivers print "error: XDG_RUNTIME_DIR is invalid or not set" (twice) when it is unset,
/// as on a server or in a container, although nothing is wrong. A private one keeps output to
/// real errors.
fn ensure_runtime_dir() {
    if !cfg!(target_os = "linux") || std::env::var_os("XDG_RUNTIME_DIR").is_some() {
        return;
    }
    let user = std::env::var("USER").unwrap_or_else(|_| "user".into());
    let dir = std::env::temp_dir().join(format!("fogbook-runtime-{user}"));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
    }
    // SAFETY: called first thing in `main`, before any other thread exists.
    unsafe { std::env::set_var("XDG_RUNTIME_DIR", &dir) };
}

fn main() -> ExitCode {
    ensure_runtime_dir();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    // A fresh machine without a GPU driver: install Mesa's software one when this process can
    // (root and apt-get), as the test runner does. Otherwise the adapter error says how.
    let needs_gpu = !matches!(cli.command, Some(Command::List));
    if needs_gpu
        && !software_driver::vulkan_present()
        && software_driver::can_install()
        && let Err(e) = software_driver::ensure_vulkan()
    {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Some(Command::List) => {
            print!("{}", commands::list::text());
            Ok(())
        }
        Some(Command::Render(args)) => commands::render::run(&args).map(|_| ()),
        Some(Command::Bench(args)) => commands::bench::run(&args).map(|_| ()),
        Some(Command::Figures(args)) => figures(&args),
        Some(Command::View(args)) => viewer::run(args),
        Some(Command::SmokeSave(args)) => commands::smoke_save::run(&args),
        Some(Command::Bake(args)) => commands::bake::run(&args).map(|report| println!("{report}")),
        Some(Command::ErrorTable(args)) => commands::error_table::run(&args).map(|_| ()),
        None if viewer::display_available() => viewer::run(ViewArgs::default()),
        None => {
            println!("No display found: rendering every chapter's figures instead.");
            figures(&FiguresArgs::default())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn figures(args: &FiguresArgs) -> anyhow::Result<()> {
    let dir = commands::figures::run(args)?;
    println!("figures written to {}", dir.display());
    Ok(())
}
