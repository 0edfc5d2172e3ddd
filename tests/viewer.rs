//! The interactive viewer, driven by a script: it opens a real window (on a private Xvfb server
//! when no display is set), shows every view of a chapter one frame each, and closes. Checks
//! that the window, surface, egui and every view work together, and that no shader fails.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A private X server for the test, killed on drop.
struct Xvfb {
    child: Child,
    display: String,
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts Xvfb on a display number it picks itself (`-displayfd`), so that tests running at
/// the same time, or a stale lock of an earlier run, never collide.
fn start_xvfb() -> Xvfb {
    use std::io::BufRead;
    let mut child = Command::new("Xvfb")
        // A small screen: the viewer opens at nine tenths of it (a software driver draws every
        // view of the tour at the window's size).
        .args(["-displayfd", "1", "-screen", "0", "800x450x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot start Xvfb ({e}): `cargo xtask test` installs it; or `sudo apt-get install -y xvfb`")
        });
    // Xvfb writes the display number once it accepts connections.
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    // Usually well under a second; a machine busy building and testing has taken over 20 s.
    let line = rx.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| panic!("Xvfb did not come up in 120 s"));
    let number: u32 = line.trim().parse().unwrap_or_else(|_| panic!("Xvfb said {line:?}, not a display number"));
    Xvfb { child, display: format!(":{number}") }
}

/// Runs the viewer with `args`; returns its standard output.
/// Runs the viewer; returns what it printed (standard output, then standard error).
fn run_viewer(display: &str, args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fogbook"))
        .arg("view")
        .args(args)
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(status.success(), "viewer {args:?} failed: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            return format!("{stdout}{stderr}");
        }
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!("viewer {args:?} did not finish in 300 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_viewer_shows_every_view_of_every_chapter() {
    let own = std::env::var_os("DISPLAY").is_none().then(start_xvfb);
    let display = own.as_ref().map(|x| x.display.clone()).unwrap_or_else(|| std::env::var("DISPLAY").unwrap());
    for chapter in fogbook::registry::chapters() {
        let id = chapter.info().id;
        let views: Vec<&str> = chapter.views().iter().map(|v| v.name).collect();
        let frames = views.len().to_string();
        let mut args = vec!["--chapter", id, "--frames", &frames, "--cycle-views"];
        // A simulation at its test grid, so a software driver keeps up.
        for setting in chapter.book().test_settings {
            args.extend(["--set", setting]);
        }
        let stdout = run_viewer(&display, &args);
        assert!(!stdout.contains("shader error"), "{stdout}");
        for view in &views {
            assert!(stdout.contains(&format!("showed {id} / {view}\n")), "{id}: view {view} never shown:\n{stdout}");
        }
    }
}

/// A stack in the viewer: every view it offers (`final`, then `chapter/view`) is shown.
#[test]
fn the_viewer_shows_every_view_of_a_stack() {
    let own = std::env::var_os("DISPLAY").is_none().then(start_xvfb);
    let display = own.as_ref().map(|x| x.display.clone()).unwrap_or_else(|| std::env::var("DISPLAY").unwrap());
    let stack = fogbook::registry::stack("atmosphere").unwrap();
    let views: Vec<String> = stack.views().into_iter().map(|v| v.name).collect();
    let frames = views.len().to_string();
    let args = ["--stack", "atmosphere", "--frames", &frames, "--cycle-views", "--set", "lut_resolution=quarter"];
    let stdout = run_viewer(&display, &args);
    assert!(!stdout.contains("shader error"), "{stdout}");
    for view in &views {
        assert!(stdout.contains(&format!("showed sky,height-fog / {view}\n")), "view {view} never shown:\n{stdout}");
    }
    // The start says what it prepares, chapter by chapter, before the first frame.
    for line in
        ["preparing 1 of 2: 3 Physically based sky", "preparing 2 of 2: 2 Height fog", "sky,height-fog ready in"]
    {
        assert!(stdout.contains(line), "no {line:?} on the terminal:\n{stdout}");
    }
}
