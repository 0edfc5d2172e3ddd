use clap::Parser;
use fogbook::cli::{Cli, Command, FiguresArgs, ViewArgs};
use fogbook::{commands, viewer};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::List) => {
            print!("{}", commands::list::text());
            Ok(())
        }
        Some(Command::Render(args)) => commands::render::run(&args).map(|_| ()),
        Some(Command::Bench(args)) => commands::bench::run(&args).map(|_| ()),
        Some(Command::Figures(args)) => figures(&args),
        Some(Command::View(args)) => viewer::run(args),
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
