//! Command-line interface.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fogbook",
    version,
    about = "Real-time fog, sky, clouds and smoke, one system per chapter.\n\nWith no command: opens the viewer, or, without a display, renders every chapter's figures."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List chapters, their debug views and parameters (defaults and ranges).
    List,
    /// Render one view of a chapter or a stack to a PNG (as displayed) or EXR (raw values).
    Render(RenderArgs),
    /// Time every pass (GPU timestamps; CPU submit-wait timing on software drivers) and report JSON.
    Bench(BenchArgs),
    /// Render every chapter's views, figures and plots for the book.
    Figures(FiguresArgs),
    /// Open the interactive viewer.
    View(ViewArgs),
    /// Run the smoke (chapter 7) headless and save its density, temperature, colour and projected velocity to a volume file.
    SmokeSave(SmokeSaveArgs),
    /// Bake six-way lit flipbook atlases (chapter 8) from the smoke (chapter 7), run headless.
    Bake(BakeArgs),
    /// Measure each chapter's picture against the path-traced ground truth (chapter 9) and print
    /// the error table (Markdown; JSON and images with --out).
    ErrorTable(ErrorTableArgs),
}

/// Options shared by everything that renders a chapter.
#[derive(Args, Debug, Clone, Default)]
pub struct SceneArgs {
    /// Chapter id, or several as a stack: `sky,height-fog,distance-fog` (see `list`).
    /// Default: the preset's chapters, else distance-fog.
    #[arg(long)]
    pub chapter: Option<String>,
    /// A named stack of chapters (see `list`), e.g. `atmosphere`.
    #[arg(long, conflicts_with = "chapter")]
    pub stack: Option<String>,
    /// Set a parameter: `name=value`; in a stack `chapter.name=value` where two chapters share
    /// a name; `scene.name=value` for the shared scene. Repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Load parameters, scene settings and camera from a preset file (RON) first.
    #[arg(long)]
    pub preset: Option<PathBuf>,
    /// Camera pose `x,y,z,yaw,pitch[,fov]` (metres, degrees).
    #[arg(long, allow_hyphen_values = true)]
    pub camera: Option<String>,
}

#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Debug view name (see `list`); in a stack `chapter/view`. Default: the first view, the
    /// final image.
    #[arg(long)]
    pub view: Option<String>,
    /// Image size `WIDTHxHEIGHT`.
    #[arg(long, default_value = "1280x720")]
    pub size: String,
    /// Simulation time at the first frame (s).
    #[arg(long, default_value_t = 0.0)]
    pub time: f64,
    /// Frames to render before capturing the last: each advances the clock by a fixed 1/60 s and
    /// every simulation by one step.
    #[arg(long, default_value_t = 1)]
    pub frames: u32,
    /// Output file: `.png` (as displayed) or `.exr` (raw linear values).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub scene: SceneArgs,
    /// What to time: `all` (each chapter alone), or a chapter, a chapter list or a named stack,
    /// timed as one frame. `--chapter` / `--stack`, when given, take precedence.
    #[arg(long = "chapters", default_value = "all")]
    pub chapters: String,
    /// View to time (default: each chapter's first, its final image).
    #[arg(long)]
    pub view: Option<String>,
    /// Image size `WIDTHxHEIGHT`.
    #[arg(long, default_value = "1920x1080")]
    pub size: String,
    /// Frames rendered before timing starts (clocks ramp up).
    #[arg(long, default_value_t = 60)]
    pub warmup: u32,
    /// Frames timed; the report gives medians.
    #[arg(long, default_value_t = 300)]
    pub frames: u32,
    /// Pace the frames as the viewer does: each frame's GPU times go back to the chapters, and
    /// progressive work keeps to its frame budget (chapter 9 traces a share of the pixels a
    /// frame, `frame_budget_ms`). Without it every frame is whole, as in figures and renders.
    #[arg(long)]
    pub paced: bool,
    /// Advance time this many frames first (untimed), then hold it still, as a paused viewer
    /// does: a simulated or animated medium (the smoke, the cards) is timed at one state, and
    /// the progressive trace converges instead of restarting every frame. Without it time runs
    /// through every frame.
    #[arg(long, value_name = "FRAMES")]
    pub steps: Option<u32>,
    /// Write the JSON report here as well as printing it.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct SmokeSaveArgs {
    /// Set a smoke parameter: `name=value` (see `list`). Repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Simulation steps before saving (each of `time_step_s`).
    #[arg(long, default_value_t = 60)]
    pub frames: u32,
    /// Output file (the format is in chapter 7 of the book, "Saving the smoke"; `.fbvol` by
    /// convention).
    #[arg(long)]
    pub out: PathBuf,
}

/// `fogbook bake`: every option overrides the settings file's value (or the default).
#[derive(Args, Debug, Default, Clone)]
pub struct BakeArgs {
    /// Bake settings from a RON file first (fields of `BakeSettings`; missing ones default).
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Flipbook frames (default 64).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Smoke steps between two frames (default 2).
    #[arg(long)]
    pub steps_per_frame: Option<u32>,
    /// Smoke steps before the first frame (default 60).
    #[arg(long)]
    pub warmup: Option<u32>,
    /// Cells per side of the smoke's grid (default 64; a multiple of 4, 16 to 512).
    #[arg(long)]
    pub grid: Option<u32>,
    /// Frames per row and column of the atlas, `COLSxROWS` (default 8x8).
    #[arg(long)]
    pub layout: Option<String>,
    /// Texels per frame, `N` or `WxH` (default 128).
    #[arg(long)]
    pub frame_size: Option<String>,
    /// The atlas's size `WxH` instead of --frame-size; it must divide by the layout.
    #[arg(long, conflicts_with = "frame_size")]
    pub atlas_size: Option<String>,
    /// The axis the cards are seen along: x, y or z (default z).
    #[arg(long)]
    pub view_axis: Option<String>,
    /// Channel layout: tlr-bbf (default), rtb-lbf, or eight letters like TLRA/BKFE.
    #[arg(long)]
    pub swizzle: Option<String>,
    /// Single-scattering albedo, 0 to 1 (default 1).
    #[arg(long)]
    pub albedo: Option<f32>,
    /// Bake the smoke's glow (from its temperature) into the E channel (else E holds alpha).
    #[arg(long)]
    pub emission: bool,
    /// Light the frames on the CPU from the read-back volume (the GPU bake's twin) instead of
    /// on the GPU.
    #[arg(long)]
    pub cpu: bool,
    /// Set a smoke parameter: `name=value` (see `list`). Repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Folder for the atlases and the metadata (made if missing).
    #[arg(long, default_value = "bake")]
    pub out_dir: PathBuf,
    /// File name prefix: PREFIX_a.png, PREFIX_b.png, PREFIX_a.exr, PREFIX_b.exr, PREFIX.json.
    #[arg(long, default_value = "smoke")]
    pub prefix: String,
}

/// `fogbook error-table`: the rows are in `src/commands/error_table/rows.rs`.
#[derive(Args, Debug, Clone)]
pub struct ErrorTableArgs {
    /// Only these rows (comma-separated): height-fog, froxel-fog, local-fog; every row when absent.
    #[arg(long, value_delimiter = ',')]
    pub rows: Vec<String>,
    /// Image size `WIDTHxHEIGHT`; the book's numbers are at its figures' size.
    #[arg(long, default_value = "640x360")]
    pub size: String,
    /// Paths per pixel of the ground truth, rounded up to whole frames and at least three
    /// frames' worth; the table says how many each row holds.
    #[arg(long, default_value_t = 1024)]
    pub paths: u32,
    /// Paths per pixel each frame adds, 1 to 256.
    #[arg(long, default_value_t = 32)]
    pub per_frame: u32,
    /// Folder for table.md, table.json and each row's images (made if missing).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct FiguresArgs {
    /// Folder for the images (one subfolder per chapter).
    #[arg(long, default_value = FIGURES_DIR)]
    pub out: PathBuf,
    /// Image size `WIDTHxHEIGHT` of the figures.
    #[arg(long, default_value = FIGURES_SIZE)]
    pub size: String,
    /// Only these chapters' figures (ids, comma-separated; see `list`); every chapter's and the
    /// stacks' when absent.
    #[arg(long, value_delimiter = ',')]
    pub chapter: Vec<String>,
}

pub const FIGURES_DIR: &str = "book/src/figures";
pub const FIGURES_SIZE: &str = "640x360";

impl Default for FiguresArgs {
    fn default() -> Self {
        Self { out: FIGURES_DIR.into(), size: FIGURES_SIZE.into(), chapter: Vec::new() }
    }
}

#[derive(Args, Debug, Default)]
pub struct ViewArgs {
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Debug view to start on (see `list`).
    #[arg(long)]
    pub view: Option<String>,
    /// Close the viewer after this many displayed frames (scripted runs, tests).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Show the next debug view every frame, printing each one's name (a scripted tour).
    #[arg(long)]
    pub cycle_views: bool,
}

/// The chapter the viewer and `render` open unless told otherwise.
pub const DEFAULT_CHAPTER: &str = "distance-fog";

/// Parses `WIDTHxHEIGHT`.
pub fn parse_size(text: &str) -> Result<[u32; 2], String> {
    let (w, h) =
        text.split_once(['x', 'X']).ok_or_else(|| format!("size {text:?}: expected WIDTHxHEIGHT, e.g. 1280x720"))?;
    let parse = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("size {text:?}: {s:?} is not a whole number"));
    Ok([parse(w)?, parse(h)?])
}
