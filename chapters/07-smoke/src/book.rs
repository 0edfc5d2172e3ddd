//! What the tests and the book do with the chapter: the settings the figures start from
//! (textbook, fire, obstacle, shadow), their cameras, and the figures themselves.

use crate::Smoke;
#[cfg(feature = "book")]
use crate::plots;
use fogbook_core::Figure;
use fogbook_core::views::SnapshotTolerance;

// ANCHOR: textbook
/// The textbook solver the chapter's page starts from, and its figures of each view: a laminar
/// plume in a closed box, advected semi-Lagrangian, projected by 40 Jacobi sweeps, with the
/// density-only buoyancy. The defaults are the production settings (see "Smoke that looks like
/// smoke" in the book).
pub const TEXTBOOK: &[&str] = &[
    "advection=semi-lagrangian",
    "pressure_solver=jacobi",
    "top_boundary=closed",
    "turbulence=0",
    "vorticity=0.35",
    "injection_rate=12",
    "extinction=1.5",
];
// ANCHOR_END: textbook

// ANCHOR: fire
/// Settings of the fire-like figures: a hot emitter (1700 K) with heat lift, heavy dark soot
/// (−α = −0.5 m/s²), Newtonian cooling at 1/s and the glow on; a long step so that 12 steps
/// (the tests' count) show a flame.
pub const FIRE: &[&str] = &[
    "time_step_s=0.1",
    "injection_radius=0.15",
    "injection_color=0.15,0.13,0.12",
    "emitter_temperature_k=1700",
    "heat_lift=0.02",
    "buoyancy=-0.5",
    "cooling_rate=1",
    "emission=3",
];
// ANCHOR_END: fire

/// The obstacle figures: a sphere a fifth of the box wide, above the emitter.
pub const OBSTACLE: &[&str] = &["sphere_enabled=true", "sphere_y=0.4", "sphere_radius=0.1"];

/// A camera 16 m in front of the box, at half its height.
pub const FIRE_CAMERA: &str = "0,5,-12,0,0";

/// A camera 8 m in front of the emitter, looking slightly up the plume.
pub const CLOSE_CAMERA: &str = "0,3,-20,0,5";

/// A sun behind the box and to the left, so that the plume's shadow falls towards the camera,
/// which looks down on it from the front right; denser smoke that lets red through more than blue
/// (a brown smoke and a warm shadow), and steps of 1/20 s, so that the
/// tests' 12 steps already make a plume with a shadow.
pub const SHADOW_SUN: &[&str] = &[
    "scene.sun_azimuth_deg=30",
    "scene.sun_elevation_deg=25",
    "extinction_color=0.6,0.8,1",
    "injection_rate=12",
    "time_step_s=0.05",
];
pub const SHADOW_CAMERA: &str = "10,9,-12,32,-25";

/// What the tests and the book do with this chapter (`Chapter::book`); none of it runs in the
/// viewer.
impl Smoke {
    pub(crate) fn warmup_frames() -> u32 {
        60
    }

    pub(crate) fn test_settings() -> Vec<&'static str> {
        vec!["grid_size=32"]
    }

    /// After 60 steps the plume on an H200 no longer matches lavapipe's pixel for pixel (its
    /// trilinear filtering uses 8-bit weights and the differences grow); 12 steps stay close.
    pub(crate) fn test_frames() -> u32 {
        12
    }

    /// A simulation's images drift between GPUs: after 12 steps at 32³ an H200 differs from
    /// lavapipe by more than 2/255 on up to 7.5% of the residual view's pixels and by up to
    /// 27/255 on 2% of the divergence view's. These allow 3% beyond 8/255. Parameter changes of
    /// 10–20% mostly stay below even that, so the numeric tests in tests/smoke/ carry the
    /// correctness of the solver; these images guard against broken passes and views.
    pub(crate) fn snapshot_tolerance() -> SnapshotTolerance {
        SnapshotTolerance::pixels(8, 0.03)
    }

    // ANCHOR: figures
    /// The predicted and measured Jacobi convergence, the stencil diagram and the rotating blob
    /// after one turn with both advection schemes (see `plots.rs`).
    #[cfg(feature = "book")]
    pub(crate) fn plots() -> Vec<(&'static str, String)> {
        plots::all()
    }

    pub(crate) fn figures() -> Vec<Figure> {
        // The figures of the textbook sections start from the textbook settings, as the views do.
        let textbook = |extra: &[&'static str]| [TEXTBOOK, extra].concat();
        let fig = |name, view, settings: &[&'static str]| Figure::new(name, view, &textbook(settings), None);
        let close = |name, view, settings: &[&'static str]| Figure::new(name, view, settings, Some(CLOSE_CAMERA));
        vec![
            // How a field is shown (a projection, a slice) leaves the state alone: these two
            // show the views' plume.
            fig("velocity-max-projection", "velocity", &["field_display=max-projection"]).continuing(),
            fig("vorticity-side-slice", "vorticity", &["slice_axis=x"]).continuing(),
            // The views' plume, one more step solved with 200 sweeps instead of 40.
            fig("residual-200-sweeps", "residual", &["pressure_iterations=200"]).continuing_for(1),
            fig("divergence-no-solve", "divergence", &["pressure_iterations=0"]),
            // One V-cycle a step: what is left shows the smoother's and the transfers' work (a
            // broken smoother changes it everywhere).
            fig("residual-multigrid", "residual", &["pressure_solver=multigrid", "multigrid_cycles=1"]),
            // The fluid view after 12 steps barely shows the limiter (see the book's Tests); the
            // density slice does: without it, undershoots below 0 move the view's whole range.
            fig("fluid-maccormack", "fluid", &["advection=maccormack"]),
            fig("density-maccormack", "density", &["advection=maccormack"]),
            // Fire-like smoke: dark soot lifted by heat, glowing where it is hot, seen from 16 m.
            Figure::new("fluid-fire", "fluid", &textbook(FIRE), Some(FIRE_CAMERA)),
            Figure::new(
                "temperature-fire",
                "temperature",
                &textbook(&[FIRE, &["field_display=max-projection"]].concat()),
                None,
            )
            .continuing(),
            // The defaults, the production settings, beside the textbook plume of the views, and
            // the light volume's two transmittances: one simulation for the four (the field views
            // ignore the camera), and one more for the same plume lit by single isotropic
            // scattering without ambient light.
            close("fluid-default", "fluid", &[]),
            close("density-default", "density", &[]),
            close("sun-transmittance", "sun-transmittance", &[]),
            close("sky-transmittance", "sky-transmittance", &[]),
            close("fluid-single-scattering", "fluid", &["scattering_octaves=1", "phase_g=0", "ambient_intensity=0"])
                .continuing(),
            // The shadow on the ground with the sun behind the box (the camera looks down on the
            // ground between).
            Figure::new("fluid-shadow", "fluid", SHADOW_SUN, Some(SHADOW_CAMERA)),
            // Smoke flowing round a sphere above the emitter (see the book's Obstacles).
            fig("fluid-obstacle", "fluid", OBSTACLE),
            fig("velocity-obstacle", "velocity", OBSTACLE),
        ]
    }
    // ANCHOR_END: figures
}
