//! fogbook's shared core — the book's chapter 0.
//!
//! Every chapter is a crate implementing [`chapter::Chapter`] on top of this: a GPU context that
//! renders into a window or offscreen ([`gpu`], [`headless`]), the shared test scene with a
//! shadowed sun ([`scene`]), the frame's targets and bind groups ([`frame`], built with
//! [`bindings`]) and the resources
//! stages share ([`shared_sky`], [`cloud_shadow`], [`volume_shadow`], [`transparent_fog`]) and
//! how chapters lend them to each other ([`lend`]), the media chapters publish for each other
//! ([`media`]), the frame's stages and stacks of chapters ([`stage`], [`stack`]), history and
//! jitter ([`history`]),
//! camera and time control ([`camera`], [`time`]), described parameters with UI, CLI and presets
//! ([`params`], [`preset`]), debug views with false colour ([`views`], [`display`]), per-pass
//! timing ([`timing`]), captures ([`capture`]) and WGSL composition with hot reload ([`shaders`],
//! [`hot_reload`]), and what the grid fluid solvers share ([`grid_solver`], [`pingpong`]).

pub mod auto_range;
pub mod bindings;
pub mod camera;
pub mod capture;
pub mod chapter;
pub mod cloud_shadow;
pub mod display;
pub mod frame;
pub mod gpu;
pub mod grid_solver;
pub mod headless;
pub mod history;
#[cfg(not(target_arch = "wasm32"))]
pub mod hot_reload;
pub mod lend;
pub mod lights;
pub mod media;
pub mod noise;
pub mod params;
pub mod pingpong;
#[cfg(feature = "book")]
pub mod plot;
pub mod preset;
pub mod renderer;
pub mod scene;
pub mod scene_geometry;
pub mod scene_settings;
pub mod shaders;
pub mod shadow_group;
pub mod shared_sky;
pub mod stack;
pub mod stage;
pub mod time;
pub mod timing;
pub mod transparent_fog;
pub mod ui;
pub mod views;
pub mod volume_file;
pub mod volume_shadow;

pub use chapter::{
    Book, Chapter, ChapterContext, ChapterInfo, DynChapter, Figure, Handover, Loaded, Publish, StackMedia,
    UpdateContext,
};
pub use lend::Loan;
pub use params::{ChoiceParam, DynParameters, ParamInfo, ParamVisitor, Parameters};
pub use stack::{Stack, StackView};
pub use stage::{Resource, Stage, StageIo};
pub use views::{ViewInfo, ViewKind};
