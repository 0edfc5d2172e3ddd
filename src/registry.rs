//! Every chapter the app hosts, in book order, and the named stacks. Adding a chapter means
//! adding one line here (and its id to the stacks it belongs in).

use fogbook_core::gpu::Requirements;
use fogbook_core::stack::union_requirements;
use fogbook_core::{DynChapter, Loaded, Stack};

// ANCHOR: registry
pub fn chapters() -> Vec<Box<dyn DynChapter>> {
    vec![
        Box::new(Loaded::new(fogbook_distance_fog::DistanceFog::new())),
        Box::new(Loaded::new(fogbook_height_fog::HeightFog::new())),
        Box::new(Loaded::new(fogbook_sky::Sky::new())),
        Box::new(Loaded::new(fogbook_froxel_fog::FroxelFog::new())),
        Box::new(Loaded::new(fogbook_local_fog::LocalFog::new())),
        Box::new(Loaded::new(fogbook_clouds::Clouds::new())),
        Box::new(Loaded::new(fogbook_smoke_2d::Smoke2d::new())),
        Box::new(Loaded::new(fogbook_smoke::Smoke::new())),
        Box::new(Loaded::new(fogbook_six_way::SixWayCards::new())),
        Box::new(Loaded::new(fogbook_ground_truth::GroundTruth::new())),
    ]
}
// ANCHOR_END: registry

// ANCHOR: standalone
/// Chapters that draw a picture of their own over the whole image instead of into the test
/// scene (chapter 7's 2D warm-up draws its square of cells). They render alone; the
/// `everything` stack names every other chapter.
pub const STANDALONE: &[&str] = &["smoke-2d"];

/// Whether chapter `id` draws into the shared 3D scene (see `STANDALONE`).
pub fn draws_into_scene(id: &str) -> bool {
    !STANDALONE.contains(&id)
}

/// Chapters that render beside a stack rather than as part of it: a reference (chapter 9's
/// ground truth) is added to any stack to measure it, and no named stack holds it.
pub const REFERENCES: &[&str] = &["ground-truth"];

/// Whether chapter `id` is one of the `everything` stack: it draws into the scene and is no
/// reference.
pub fn in_everything(id: &str) -> bool {
    draws_into_scene(id) && !REFERENCES.contains(&id)
}
// ANCHOR_END: standalone

// ANCHOR: stacks
/// Named stacks: (name, chapters, what it shows).
pub const STACKS: &[(&str, &[&str], &str)] = &[
    (
        "atmosphere",
        &["sky", "height-fog"],
        "the sky lights the scene and gives the background; height fog in its light",
    ),
    ("smoke-in-sky", &["sky", "height-fog", "smoke"], "the atmosphere with the smoke drawn over it"),
    (
        "everything",
        &["distance-fog", "height-fog", "sky", "clouds", "froxel-fog", "local-fog", "smoke", "six-way-cards"],
        "every chapter that draws into the scene, at once (a reference, chapter 9, renders beside it)",
    ),
];
// ANCHOR_END: stacks

// ANCHOR: viewer_presets
/// Settings the viewer opens a chapter with, to show it at its best (the chapters' defaults,
/// which `render`, the figures and the snapshots use, stay as they are). Chapter 1's default
/// linear 0–100 m white fog washes the scene out; an exponential blue-grey haze shows depth.
pub fn viewer_preset(id: &str) -> &'static [&'static str] {
    match id {
        "distance-fog" => &["falloff=exponential", "density=0.008", "color=0.62,0.7,0.82,1"],
        _ => &[],
    }
}
// ANCHOR_END: viewer_presets

/// Applies `viewer_preset` to a chapter's parameters.
pub fn apply_viewer_preset(chapter: &mut dyn DynChapter) -> Result<(), String> {
    let id = chapter.info().id;
    for assignment in viewer_preset(id) {
        let (name, value) = fogbook_core::params::split_assignment(assignment).map_err(|e| e.to_string())?;
        fogbook_core::params::set_by_name(chapter.params(), name, value).map_err(|e| format!("{id}: {e}"))?;
    }
    Ok(())
}

/// What a device must offer to run every chapter (for commands that host them all).
pub fn requirements() -> Requirements {
    union_requirements(chapters().iter().map(|c| c.requirements()))
}

/// The chapter with CLI name `id`; the error lists the valid names.
pub fn find(id: &str) -> Result<Box<dyn DynChapter>, String> {
    let mut all = chapters();
    let ids: Vec<_> = all.iter().map(|c| c.info().id).collect();
    match ids.iter().position(|c| *c == id) {
        Some(i) => Ok(all.swap_remove(i)),
        None => Err(format!("unknown chapter {id:?} (chapters: {})", ids.join(", "))),
    }
}

/// The chapters of a named stack.
pub fn named_stack(name: &str) -> Result<&'static [&'static str], String> {
    STACKS.iter().find(|(n, ..)| *n == name).map(|(_, ids, _)| *ids).ok_or_else(|| {
        let names: Vec<_> = STACKS.iter().map(|(n, ..)| *n).collect();
        format!("unknown stack {name:?} (stacks: {})", names.join(", "))
    })
}

// ANCHOR: stack
/// A stack from a chapter list (`sky,height-fog`), one chapter id, or a named stack's name.
pub fn stack(spec: &str) -> Result<Stack, String> {
    if let Ok(ids) = named_stack(spec) {
        return stack(&ids.join(","));
    }
    let mut chapters = Vec::new();
    for id in spec.split(',') {
        let id = id.trim();
        if id.is_empty() {
            return Err(format!("chapter list {spec:?} has an empty entry"));
        }
        chapters.push(find(id)?);
    }
    Stack::new(chapters)
}
// ANCHOR_END: stack
