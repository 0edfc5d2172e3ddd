//! Watches `shaders/` on disk and reports when any WGSL file changes.

use notify_debouncer_full::notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub struct ShaderWatcher {
    changed: Arc<AtomicBool>,
    _debouncer: Box<dyn std::any::Any>,
}

impl ShaderWatcher {
    /// Starts watching `root` recursively; `None` (with a log line) if the OS refuses.
    pub fn new(root: &Path) -> Option<Self> {
        let changed = Arc::new(AtomicBool::new(false));
        let flag = changed.clone();
        let mut debouncer = new_debouncer(Duration::from_millis(150), None, move |res: DebounceEventResult| {
            if let Ok(events) = res {
                // Only changes count: reading a shader (as every reload does) is an access event
                // too, and would otherwise start the next reload, and so on for ever.
                let wgsl = events
                    .iter()
                    .filter(|e| !e.kind.is_access())
                    .any(|e| e.paths.iter().any(|p| p.extension().is_some_and(|x| x == "wgsl")));
                if wgsl {
                    flag.store(true, Ordering::Release);
                }
            }
        })
        .map_err(|e| log::warn!("shader hot reload unavailable: {e}"))
        .ok()?;
        debouncer
            .watch(root, RecursiveMode::Recursive)
            .map_err(|e| log::warn!("cannot watch {}: {e}", root.display()))
            .ok()?;
        Some(Self { changed, _debouncer: Box::new(debouncer) })
    }

    /// True once after any WGSL file changed.
    pub fn take_changed(&self) -> bool {
        self.changed.swap(false, Ordering::AcqRel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Reading shaders (every reload does) must not count as a change, or each reload would
    /// start the next; writing one must.
    #[test]
    fn reads_are_not_changes_but_writes_are() {
        let dir = std::env::temp_dir().join(format!("fogbook-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.wgsl");
        std::fs::write(&file, "fn f() {}\n").unwrap();
        let Some(watcher) = ShaderWatcher::new(&dir) else {
            eprintln!("no file watching on this system; nothing to test");
            return;
        };
        for _ in 0..5 {
            let _ = std::fs::read_to_string(&file).unwrap();
        }
        std::thread::sleep(Duration::from_millis(600));
        assert!(!watcher.take_changed(), "reading a shader was taken for a change");
        std::fs::write(&file, "fn g() {}\n").unwrap();
        let start = Instant::now();
        while !watcher.take_changed() {
            assert!(start.elapsed() < Duration::from_secs(5), "a write was never reported");
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
