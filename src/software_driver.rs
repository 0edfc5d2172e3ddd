//! Mesa's software Vulkan driver (lavapipe) on a machine without a GPU driver.
//!
//! Both quick-start commands start here: the app (`cargo run --release`) and the test runner
//! (`cargo xtask test`, which includes this file by path). Without a Vulkan loader and driver,
//! each installs lavapipe when it can (root and apt-get) and otherwise prints the one-line
//! install command. Standard library only, so that the test runner builds in seconds.

use std::path::Path;
use std::process::Command;

/// Mesa's software Vulkan driver and the Vulkan loader.
pub const DRIVER_PACKAGES: &[&str] = &["mesa-vulkan-drivers", "libvulkan1"];

/// The install command for `packages`, as a user types it.
pub fn install_command(packages: &[&str]) -> String {
    format!("sudo apt-get install -y --no-install-recommends {}", packages.join(" "))
}

/// A Vulkan loader and at least one installable client driver (ICD) are on the machine.
pub fn vulkan_present() -> bool {
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

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0\n")).unwrap_or(false)
}

fn has_apt() -> bool {
    Command::new("apt-get").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// This process can install packages: Linux, root, and apt-get.
pub fn can_install() -> bool {
    cfg!(target_os = "linux") && is_root() && has_apt()
}

/// Installs `packages` with apt-get when running as root; otherwise says how, and fails.
/// `why` completes "installing ...": what the packages are for.
pub fn apt_install(packages: &[&str], why: &str) -> Result<(), String> {
    if !can_install() {
        return Err(format!("{why} is missing. Install it with:\n    {}", install_command(packages)));
    }
    eprintln!("installing {why} with apt-get: {}", packages.join(" "));
    let run = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    let install: Vec<&str> =
        ["install", "-y", "-qq", "--no-install-recommends"].iter().chain(packages).copied().collect();
    if run(&["update", "-qq"]) && run(&install) {
        Ok(())
    } else {
        Err(format!("installing {why} failed; try:\n    {}", install_command(packages)))
    }
}

/// Makes sure a Vulkan driver exists: nothing to do when one does (a GPU's or lavapipe);
/// otherwise installs lavapipe as root with apt-get, or returns the command to run.
pub fn ensure_vulkan() -> Result<(), String> {
    if !cfg!(target_os = "linux") || vulkan_present() {
        return Ok(());
    }
    apt_install(DRIVER_PACKAGES, "a Vulkan driver (Mesa's software renderer, lavapipe)")?;
    if vulkan_present() {
        Ok(())
    } else {
        Err(format!("no Vulkan driver after installing; try:\n    {}", install_command(DRIVER_PACKAGES)))
    }
}
