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
                let wgsl = events.iter().any(|e| e.paths.iter().any(|p| p.extension().is_some_and(|x| x == "wgsl")));
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
