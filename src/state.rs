//! What a user sets before rendering: a stack of chapters (one or more), their parameters, the
//! scene settings and the camera. Shared by the CLI commands and the viewer so both accept the
//! same input.

use crate::cli::{DEFAULT_CHAPTER, SceneArgs};
use crate::registry;
use anyhow::{Result, anyhow, bail};
use fogbook_core::Stack;
use fogbook_core::camera::CameraPose;
use fogbook_core::params::{set_by_name, split_assignment};
use fogbook_core::preset;
use fogbook_core::scene_settings::SceneSettings;
use std::path::Path;

pub struct Setup {
    pub stack: Stack,
    pub scene: SceneSettings,
    pub camera: CameraPose,
}

/// The prefix that routes `--set` to the shared scene settings.
pub const SCENE_PREFIX: &str = "scene.";

impl Setup {
    /// `spec`: a chapter id, a comma-separated list of them, or a named stack.
    pub fn new(spec: &str) -> Result<Self> {
        let stack = registry::stack(spec).map_err(|e| anyhow!(e))?;
        Ok(Self { stack, scene: SceneSettings::default(), camera: CameraPose::default() })
    }

    /// Which chapters the options ask for: `--chapter`, `--stack`, else the preset's, else the
    /// default chapter.
    pub fn spec_from_args(args: &SceneArgs) -> Result<String> {
        Ok(match (&args.chapter, &args.stack, &args.preset) {
            (Some(_), Some(_), _) => bail!("give --chapter or --stack, not both"),
            (Some(c), None, _) => c.clone(),
            (None, Some(s), _) => {
                registry::named_stack(s).map_err(|e| anyhow!(e))?;
                s.clone()
            }
            (None, None, Some(p)) => preset::chapters_of(p)?,
            (None, None, None) => DEFAULT_CHAPTER.to_string(),
        })
    }

    /// Builds the state from CLI options: preset first, then `--set`, then `--camera`.
    pub fn from_args(args: &SceneArgs) -> Result<Self> {
        let mut s = Self::new(&Self::spec_from_args(args)?)?;
        s.apply(args.preset.as_deref(), &args.set, args.camera.as_deref())?;
        Ok(s)
    }

    pub fn apply(&mut self, preset_path: Option<&Path>, sets: &[String], camera: Option<&str>) -> Result<()> {
        if let Some(p) = preset_path {
            preset::load(p, &mut self.stack, &mut self.camera, &mut self.scene)?;
        }
        for s in sets {
            self.set(s)?;
        }
        if let Some(c) = camera {
            self.camera = CameraPose::parse(c).map_err(|e| anyhow!(e))?;
        }
        Ok(())
    }

    /// Applies one `name=value`, `chapter.name=value` or `scene.name=value`.
    pub fn set(&mut self, assignment: &str) -> Result<()> {
        let (name, value) = split_assignment(assignment)?;
        match name.strip_prefix(SCENE_PREFIX) {
            Some(scene_name) => set_by_name(&mut self.scene, scene_name, value)?,
            None => self.stack.set(name, value).map_err(|e| anyhow!(e))?,
        }
        Ok(())
    }
}
