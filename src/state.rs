//! What a user sets before rendering: a chapter, its parameters, the scene settings and the
//! camera. Shared by the CLI commands and the viewer so both accept the same input.

use crate::cli::SceneArgs;
use crate::registry;
use anyhow::{Result, anyhow};
use fogbook_core::Chapter;
use fogbook_core::camera::CameraPose;
use fogbook_core::params::{set_by_name, split_assignment};
use fogbook_core::preset;
use fogbook_core::scene_settings::SceneSettings;
use std::path::Path;

pub struct Setup {
    pub chapter: Box<dyn Chapter>,
    pub scene: SceneSettings,
    pub camera: CameraPose,
}

/// The prefix that routes `--set` to the shared scene settings.
pub const SCENE_PREFIX: &str = "scene.";

impl Setup {
    pub fn new(chapter_id: &str) -> Result<Self> {
        let chapter = registry::find(chapter_id).map_err(|e| anyhow!(e))?;
        Ok(Self { chapter, scene: SceneSettings::default(), camera: CameraPose::default() })
    }

    /// Builds the state from CLI options: preset first, then `--set`, then `--camera`.
    pub fn from_args(args: &SceneArgs) -> Result<Self> {
        let mut s = Self::new(&args.chapter)?;
        s.apply(args.preset.as_deref(), &args.set, args.camera.as_deref())?;
        Ok(s)
    }

    pub fn apply(&mut self, preset_path: Option<&Path>, sets: &[String], camera: Option<&str>) -> Result<()> {
        if let Some(p) = preset_path {
            let id = self.chapter.info().id;
            preset::load(p, id, &mut self.camera, &mut self.scene, self.chapter.params())?;
        }
        for s in sets {
            self.set(s)?;
        }
        if let Some(c) = camera {
            self.camera = CameraPose::parse(c).map_err(|e| anyhow!(e))?;
        }
        Ok(())
    }

    /// Applies one `name=value` (or `scene.name=value`).
    pub fn set(&mut self, assignment: &str) -> Result<()> {
        let (name, value) = split_assignment(assignment)?;
        match name.strip_prefix(SCENE_PREFIX) {
            Some(scene_name) => set_by_name(&mut self.scene, scene_name, value)?,
            None => set_by_name(self.chapter.params(), name, value)?,
        }
        Ok(())
    }
}
