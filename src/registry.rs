//! Every chapter the app hosts, in book order. Adding a chapter means adding one line here.

use fogbook_core::Chapter;

// ANCHOR: registry
pub fn chapters() -> Vec<Box<dyn Chapter>> {
    vec![
        Box::new(fogbook_distance_fog::DistanceFog::new()),
        Box::new(fogbook_height_fog::HeightFog::new()),
        Box::new(fogbook_smoke::Smoke::new()),
    ]
}
// ANCHOR_END: registry

/// The chapter with CLI name `id`; the error lists the valid names.
pub fn find(id: &str) -> Result<Box<dyn Chapter>, String> {
    let mut all = chapters();
    let ids: Vec<_> = all.iter().map(|c| c.info().id).collect();
    match ids.iter().position(|c| *c == id) {
        Some(i) => Ok(all.swap_remove(i)),
        None => Err(format!("unknown chapter {id:?} (chapters: {})", ids.join(", "))),
    }
}
