//! Presets: a stack's chapters and parameters, the scene settings and the camera in one RON
//! file.
//!
//! ```text
//! (
//!     chapter: "CHAPTER",
//!     camera: (position: (0.0, 2.0, 0.0), yaw_deg: 0.0, pitch_deg: -2.0, fov_y_deg: 60.0),
//!     scene: (sun_elevation_deg: 10.0),
//!     params: (falloff: "exponential", density: 0.02),
//! )
//! ```
//! (`CHAPTER` a chapter's id.) For a stack, `chapter` lists its chapters as `--chapter` does and
//! `params` holds each chapter's by id: `chapter: "one,two", params: { "one": (...), "two": (...) }`.
//! Every section but `chapter` is optional; missing parameters keep their defaults.
//! Loading checks everything (syntax, names, ranges) before changing anything.

use crate::camera::CameraPose;
use crate::params::DynParameters;
use crate::scene_settings::SceneSettings;
use crate::stack::Stack;
use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetFile {
    chapter: String,
    #[serde(default)]
    camera: Option<CameraPose>,
    #[serde(default)]
    scene: Option<Box<ron::value::RawValue>>,
    #[serde(default)]
    params: Option<Box<ron::value::RawValue>>,
}

fn options() -> ron::Options {
    // Implicit `Some`: `camera: (...)` and `camera: Some((...))` both read as given.
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

fn parse(text: &str) -> Result<PresetFile> {
    options().from_str(text).map_err(|e| anyhow!("cannot parse: {e}"))
}

/// The chapter list a preset file is for (as `--chapter` takes it), to build its stack.
pub fn chapters_of(path: &Path) -> Result<String> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading preset {}", path.display()))?;
    Ok(parse(&text).with_context(|| format!("preset {}", path.display()))?.chapter)
}

/// Writes a preset file.
pub fn save(path: &Path, stack: &mut Stack, camera: &CameraPose, scene: &SceneSettings) -> Result<()> {
    let pretty = ron::ser::PrettyConfig::default();
    let camera = ron::ser::to_string_pretty(camera, pretty.clone())?;
    let scene = ron::ser::to_string_pretty(scene, pretty)?;
    let params = if stack.is_single() {
        stack.chapter_mut(0).params().to_ron()
    } else {
        let mut s = String::from("{\n");
        for c in stack.chapters_mut() {
            let id = c.info().id;
            s.push_str(&format!("    {id:?}: {},\n", c.params().to_ron().replace('\n', "\n    ")));
        }
        s.push('}');
        s
    };
    let text = format!(
        "(\n    chapter: {:?},\n    camera: {},\n    scene: {},\n    params: {},\n)\n",
        stack.spec(),
        indent(&camera),
        indent(&scene),
        indent(&params)
    );
    std::fs::write(path, text).with_context(|| format!("writing preset {}", path.display()))
}

fn indent(text: &str) -> String {
    text.replace('\n', "\n    ")
}

/// Loads a preset into the given state. Either everything is applied or nothing is.
pub fn load(path: &Path, stack: &mut Stack, camera: &mut CameraPose, scene: &mut SceneSettings) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading preset {}", path.display()))?;
    apply(&text, stack, camera, scene).with_context(|| format!("preset {}", path.display()))
}

/// The ids of a chapter list, sorted, for comparing two lists whatever their order.
fn id_set(spec: &str) -> Vec<String> {
    let mut ids: Vec<String> = spec.split(',').map(|s| s.trim().to_string()).collect();
    ids.sort();
    ids
}

/// As `load`, from the file's text.
pub fn apply(text: &str, stack: &mut Stack, camera: &mut CameraPose, scene: &mut SceneSettings) -> Result<()> {
    let file = parse(text)?;
    if id_set(&file.chapter) != id_set(&stack.spec()) {
        bail!("is for chapter {:?}, not {:?}", file.chapter, stack.spec());
    }
    let new_camera = match file.camera {
        Some(c) => {
            c.validate().map_err(|e| anyhow!(e))?;
            c
        }
        None => *camera,
    };
    let mut new_scene = scene.clone();
    if let Some(v) = file.scene {
        DynParameters::load_ron(&mut new_scene, v.get_ron()).map_err(|e| anyhow!("scene: {e}"))?;
    }
    // Parameters go last: they are the only part that can still fail, and they apply atomically.
    if let Some(v) = file.params {
        load_params(stack, v.get_ron())?;
    }
    *camera = new_camera;
    *scene = new_scene;
    Ok(())
}

/// One chapter's parameters, or a stack's by id; all or none.
fn load_params(stack: &mut Stack, text: &str) -> Result<()> {
    if stack.is_single() {
        return stack.chapter_mut(0).params().load_ron(text).map_err(|e| anyhow!("params: {e}"));
    }
    let by_id: BTreeMap<String, Box<ron::value::RawValue>> =
        options().from_str(text).map_err(|e| anyhow!("params: expected {{ \"chapter\": (...), ... }}: {e}"))?;
    if let Some(id) = by_id.keys().find(|id| stack.position(id).is_none()) {
        bail!("params: {id:?} is not a chapter of the stack ({})", stack.spec());
    }
    let before: Vec<String> = stack.chapters_mut().iter_mut().map(|c| c.params().to_ron()).collect();
    for (id, value) in &by_id {
        let Some(i) = stack.position(id) else { continue };
        if let Err(e) = stack.chapter_mut(i).params().load_ron(value.get_ron()) {
            for (c, old) in stack.chapters_mut().iter_mut().zip(&before) {
                let _ = c.params().load_ron(old);
            }
            bail!("params of {id}: {e}");
        }
    }
    Ok(())
}
