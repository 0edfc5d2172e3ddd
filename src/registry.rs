//! Every chapter the app hosts, in book order. Adding a chapter means adding one line here.

use fogbook_core::Chapter;
use fogbook_core::gpu::Requirements;

// ANCHOR: registry
pub fn chapters() -> Vec<Box<dyn Chapter>> {
    vec![
        Box::new(fogbook_distance_fog::DistanceFog::new()),
        Box::new(fogbook_height_fog::HeightFog::new()),
        Box::new(fogbook_sky::Sky::new()),
        Box::new(fogbook_smoke::Smoke::new()),
    ]
}
// ANCHOR_END: registry

/// What a device must offer to run every chapter (for commands that host them all).
pub fn requirements() -> Requirements {
    chapters().iter().fold(Requirements::default(), |mut acc, c| {
        let r = c.requirements();
        acc.features |= r.features;
        if r.limits.is_some() {
            acc.limits = r.limits;
        }
        acc
    })
}

/// The chapter with CLI name `id`; the error lists the valid names.
pub fn find(id: &str) -> Result<Box<dyn Chapter>, String> {
    let mut all = chapters();
    let ids: Vec<_> = all.iter().map(|c| c.info().id).collect();
    match ids.iter().position(|c| *c == id) {
        Some(i) => Ok(all.swap_remove(i)),
        None => Err(format!("unknown chapter {id:?} (chapters: {})", ids.join(", "))),
    }
}
