//! `cargo xtask test`: the one command that runs every test on a fresh machine.
//!
//! 1. Looks for a Vulkan driver and, without a display, for Xvfb (the viewer's test opens a
//!    window). Without them, installs Mesa's software driver (lavapipe) and Xvfb when it can
//!    (root and apt-get), or prints the one-line install command and stops.
//! 2. Checks that the core and every chapter still build for the browser
//!    (`wasm32-unknown-unknown`), adding that target with rustup when it is missing.
//! 3. Checks the formatting (`cargo fmt --all --check`) and runs clippy over every target with
//!    warnings as errors (`cargo clippy --release --workspace --all-targets -- -D warnings`; the
//!    lints in the workspace's `[workspace.lints]`), adding rustup's `rustfmt` and `clippy`
//!    components when they are missing.
//! 4. Runs `cargo test --release --workspace --tests --bench chapters` (sharing the app's release
//!    build): unit tests, GPU and snapshot tests, naga
//!    validation, book checks, and every criterion bench once in test mode.
//!
//! `cargo xtask book` builds the book and checks every page in a browser (see `book.rs`).
//! `cargo xtask measure [NAME…]` prints the book's measurements (`examples/measure`).

use std::process::{Command, ExitCode};

mod book;

// The same driver check and install as the app's (`cargo run --release`), shared by path so that
// this runner keeps building in seconds without the app's dependencies.
#[allow(dead_code)]
#[path = "../../src/software_driver.rs"]
mod software_driver;

/// The viewer's test opens a window on a private X server when there is no display.
fn xvfb_present() -> bool {
    std::env::var_os("DISPLAY").is_some()
        || std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("Xvfb").is_file()))
}

/// What the tests need: a Vulkan driver (lavapipe without a GPU) and, without a display, Xvfb.
fn ensure_test_dependencies() -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let mut missing: Vec<&str> = Vec::new();
    if !software_driver::vulkan_present() {
        missing.extend(software_driver::DRIVER_PACKAGES);
    }
    if !xvfb_present() {
        missing.push("xvfb");
    }
    if missing.is_empty() {
        return Ok(());
    }
    software_driver::apt_install(&missing, "what the tests need (Mesa's software Vulkan driver, lavapipe; Xvfb)")?;
    if software_driver::vulkan_present() && xvfb_present() {
        Ok(())
    } else {
        Err(format!("still missing after installing; try:\n    {}", software_driver::install_command(&missing)))
    }
}

/// The crates that must keep building for the browser: the core and every chapter.
const BROWSER_CRATES: &[&str] = &[
    "fogbook-core",
    "fogbook-distance-fog",
    "fogbook-height-fog",
    "fogbook-sky",
    "fogbook-froxel-fog",
    "fogbook-local-fog",
    "fogbook-clouds",
    "fogbook-smoke",
    "fogbook-smoke-2d",
    "fogbook-six-way",
];
const BROWSER_TARGET: &str = "wasm32-unknown-unknown";

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// `cargo check --release` of the browser crates for wasm32. Without rustup (a distribution's Rust) the
/// target cannot be added: the check is skipped with a note.
fn check_browser_build() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == BROWSER_TARGET));
    match installed {
        Err(_) => {
            eprintln!("xtask: no rustup, so the {BROWSER_TARGET} check is skipped");
            return Ok(());
        }
        Ok(false) => {
            eprintln!("xtask: adding the {BROWSER_TARGET} target (rustup) for the browser build check");
            let ok = Command::new("rustup").args(["target", "add", BROWSER_TARGET]).status().is_ok_and(|s| s.success());
            if !ok {
                return Err(format!("`rustup target add {BROWSER_TARGET}` failed"));
            }
        }
        Ok(true) => {}
    }
    let mut cmd = cargo();
    // `--release`: the build scripts and proc macros run on this machine are then the ones the
    // release build (the app's, the tests') already compiled; the dev profile would compile all
    // of them once more (minutes on two cores).
    cmd.args(["check", "--release", "--target", BROWSER_TARGET]);
    for krate in BROWSER_CRATES {
        cmd.args(["-p", krate]);
    }
    match cmd.status() {
        Ok(s) if s.success() => {
            println!("xtask: the core and every chapter build for {BROWSER_TARGET}");
            Ok(())
        }
        _ => Err(format!("the core or a chapter no longer builds for {BROWSER_TARGET}")),
    }
}

/// Adds rustup component `name` when it is missing (a distribution's Rust without rustup keeps
/// whatever it has).
fn ensure_component(name: &str) -> Result<(), String> {
    let Ok(out) = Command::new("rustup").args(["component", "list", "--installed"]).output() else {
        return Ok(());
    };
    if String::from_utf8_lossy(&out.stdout).lines().any(|l| l.starts_with(name)) {
        return Ok(());
    }
    eprintln!("xtask: adding rustup's {name} component");
    let ok = Command::new("rustup").args(["component", "add", name]).status().is_ok_and(|s| s.success());
    if ok { Ok(()) } else { Err(format!("`rustup component add {name}` failed")) }
}

/// `cargo fmt --all --check`, then clippy over every target with warnings as errors. `--release`
/// reuses the release build's build scripts and proc macros, as the browser check does.
fn check_style() -> Result<(), String> {
    ensure_component("rustfmt")?;
    ensure_component("clippy")?;
    let fmt = cargo().args(["fmt", "--all", "--check"]).status();
    if !fmt.is_ok_and(|s| s.success()) {
        return Err("the code is not formatted: run `cargo fmt --all`".into());
    }
    let clippy = cargo().args(["clippy", "--release", "--workspace", "--all-targets", "--", "-D", "warnings"]).status();
    if !clippy.is_ok_and(|s| s.success()) {
        return Err("clippy found warnings (above)".into());
    }
    println!("xtask: formatted, and clippy is clean");
    Ok(())
}

/// `cargo xtask measure [NAME…]`: the book's measurements, the numbers a page quotes that no
/// test checks (`examples/measure`); with no name, the list.
fn measure(names: &[String]) -> ExitCode {
    let status = cargo().args(["run", "--release", "--quiet", "--example", "measure", "--"]).args(names).status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: could not run cargo: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => {}
        Some("book") => return book::main(&args[1..]),
        Some("measure") => return measure(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask test [extra cargo test arguments]\n       cargo xtask book [--figures]\n       cargo xtask measure [NAME…]"
            );
            return ExitCode::from(2);
        }
    }
    if let Err(e) = ensure_test_dependencies() {
        eprintln!("xtask: {e}");
        return ExitCode::FAILURE;
    }
    let mut cmd = cargo();
    // `--release`: the app's build (`cargo run --release`) and the tests share every dependency.
    // `--tests` rather than `--all-targets`: it leaves out the targets marked `test = false` (the
    // app's library and binary, and this runner, which have no unit tests), each of which
    // `--all-targets` would compile once more in test mode.
    cmd.args(["test", "--release", "--workspace", "--tests", "--bench", "chapters", "--no-fail-fast"]).args(&args[1..]);
    // A private runtime dir silences a harmless warning that Mesa prints per device.
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let dir = std::env::temp_dir().join(format!("fogbook-xdg-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        }
        cmd.env("XDG_RUNTIME_DIR", dir);
    }
    // The browser check first, so that the test summary is what the run ends with; a broken
    // browser build still fails the run.
    let browser = check_browser_build();
    if let Err(e) = &browser {
        eprintln!("xtask: {e}");
    }
    let style = check_style();
    if let Err(e) = &style {
        eprintln!("xtask: {e}");
    }
    let (tests_passed, totals) = match run_and_count(&mut cmd) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xtask: cannot run cargo: {e}");
            return ExitCode::FAILURE;
        }
    };
    // One closing line over every test binary (cargo prints one summary per binary, the last
    // often of a crate without tests).
    println!("tests: {} passed, {} failed, {} ignored", totals.passed, totals.failed, totals.ignored);
    if tests_passed && browser.is_ok() && style.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

#[derive(Default)]
struct Totals {
    passed: u64,
    failed: u64,
    ignored: u64,
}

/// Runs `cmd`, passing its output through, and adds up its `test result:` lines.
fn run_and_count(cmd: &mut Command) -> std::io::Result<(bool, Totals)> {
    use std::io::{BufRead, Write};
    let mut child = cmd.stdout(std::process::Stdio::piped()).spawn()?;
    let mut totals = Totals::default();
    let stdout = child.stdout.take().expect("piped stdout");
    let mut out = std::io::stdout().lock();
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line?;
        let _ = writeln!(out, "{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            let count = |word: &str| {
                rest.split(';')
                    .find_map(|part| {
                        part.trim().trim_start_matches("ok. ").trim_start_matches("FAILED. ").strip_suffix(word)
                    })
                    .and_then(|n| n.trim().parse::<u64>().ok())
                    .unwrap_or(0)
            };
            totals.passed += count(" passed");
            totals.failed += count(" failed");
            totals.ignored += count(" ignored");
        }
    }
    drop(out);
    Ok((child.wait()?.success(), totals))
}
