//! `cargo xtask test`: the one command that runs every test on a fresh machine.
//!
//! 1. Looks for a Vulkan driver and, without a display, for Xvfb (the viewer's test opens a
//!    window). Without them, installs Mesa's software driver (lavapipe) and Xvfb when it can
//!    (root and apt-get), or prints the one-line install command and stops.
//! 2. Runs `cargo test --workspace --all-targets`: unit tests, GPU and snapshot tests, naga
//!    validation, book checks, and every criterion bench once in test mode.

use std::path::Path;
use std::process::{Command, ExitCode};

const INSTALL: &str = "apt-get install -y --no-install-recommends mesa-vulkan-drivers libvulkan1 xvfb";

fn vulkan_present() -> bool {
    let loader = [
        "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
        "/usr/lib/aarch64-linux-gnu/libvulkan.so.1",
        "/usr/lib/libvulkan.so.1",
        "/usr/lib64/libvulkan.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    let icd_dirs = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"];
    let icd = icd_dirs.iter().any(|d| std::fs::read_dir(d).map(|mut e| e.next().is_some()).unwrap_or(false))
        || std::env::var_os("VK_DRIVER_FILES").is_some()
        || std::env::var_os("VK_ICD_FILENAMES").is_some();
    loader && icd
}

/// The viewer's test opens a window on a private X server when there is no display.
fn xvfb_present() -> bool {
    std::env::var_os("DISPLAY").is_some()
        || std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("Xvfb").is_file()))
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false)
}

fn ensure_vulkan() -> Result<(), String> {
    if !cfg!(target_os = "linux") || (vulkan_present() && xvfb_present()) {
        return Ok(());
    }
    let has_apt = Command::new("apt-get").arg("--version").output().is_ok();
    if !(is_root() && has_apt) {
        return Err(format!(
            "no Vulkan driver or no Xvfb found. Install Mesa's software driver and Xvfb with:\n    sudo {INSTALL}"
        ));
    }
    eprintln!("xtask: installing what the tests need: Mesa's software Vulkan driver (lavapipe) and Xvfb");
    let run = |args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    if !(run("apt-get update -qq") && run(&format!("{INSTALL} -qq"))) || !vulkan_present() || !xvfb_present() {
        return Err(format!("installing lavapipe failed; try:\n    sudo {INSTALL}"));
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => {}
        _ => {
            eprintln!("usage: cargo xtask test [extra cargo test arguments]");
            return ExitCode::from(2);
        }
    }
    if let Err(e) = ensure_vulkan() {
        eprintln!("xtask: {e}");
        return ExitCode::FAILURE;
    }
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(["test", "--workspace", "--all-targets", "--no-fail-fast"]).args(&args[1..]);
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
    match cmd.status() {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: cannot run cargo: {e}");
            ExitCode::FAILURE
        }
    }
}
