//! Presets: a chapter's parameters, the scene settings and the camera in one RON file.
//!
//! ```text
//! (
//!     chapter: "distance-fog",
//!     camera: (position: (0.0, 2.0, 0.0), yaw_deg: 0.0, pitch_deg: -2.0, fov_y_deg: 60.0),
//!     scene: (sun_elevation_deg: 10.0),
//!     params: (falloff: "exponential", density: 0.02),
//! )
//! ```
//! Every section but `chapter` is optional; missing parameters keep their defaults.
//! Loading checks everything (syntax, names, ranges) before changing anything.

use crate::camera::CameraPose;
use crate::params::DynParameters;
use crate::scene_settings::SceneSettings;
use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;
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

/// Writes a preset file.
pub fn save(
    path: &Path,
    chapter_id: &str,
    camera: &CameraPose,
    scene: &SceneSettings,
    params: &dyn DynParameters,
) -> Result<()> {
    let pretty = ron::ser::PrettyConfig::default();
    let camera = ron::ser::to_string_pretty(camera, pretty.clone())?;
    let scene = ron::ser::to_string_pretty(scene, pretty)?;
    let text = format!(
        "(\n    chapter: {chapter_id:?},\n    camera: {},\n    scene: {},\n    params: {},\n)\n",
        indent(&camera),
        indent(&scene),
        indent(&params.to_ron())
    );
    std::fs::write(path, text).with_context(|| format!("writing preset {}", path.display()))
}

fn indent(text: &str) -> String {
    text.replace('\n', "\n    ")
}

/// Loads a preset into the given state. Either everything is applied or nothing is.
pub fn load(
    path: &Path,
    chapter_id: &str,
    camera: &mut CameraPose,
    scene: &mut SceneSettings,
    params: &mut dyn DynParameters,
) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading preset {}", path.display()))?;
    apply(&text, chapter_id, camera, scene, params).with_context(|| format!("preset {}", path.display()))
}

/// As `load`, from the file's text.
pub fn apply(
    text: &str,
    chapter_id: &str,
    camera: &mut CameraPose,
    scene: &mut SceneSettings,
    params: &mut dyn DynParameters,
) -> Result<()> {
    // Implicit `Some`: `camera: (...)` and `camera: Some((...))` both read as given.
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let file: PresetFile = options.from_str(text).map_err(|e| anyhow!("cannot parse: {e}"))?;
    if file.chapter != chapter_id {
        bail!("is for chapter {:?}, not {chapter_id:?}", file.chapter);
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
        params.load_ron(v.get_ron()).map_err(|e| anyhow!("params: {e}"))?;
    }
    *camera = new_camera;
    *scene = new_scene;
    Ok(())
}
