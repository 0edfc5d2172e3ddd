//! The runtime's parameters: the flipbook it bakes for itself, the six-way lighting, the artist
//! controls, the fog cards and the particle emitter.

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

/// How the six maps are weighted by the light direction's components in the card frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weighting {
    /// mask × component²: the weights sum to one for a unit light (Unity's six-way lit output).
    Squared,
    /// mask × |component|: sums to |l_x| + |l_y| + |l_z|, up to √3 for a diagonal light.
    Linear,
    /// The linear weights divided by their sum.
    LinearNormalised,
}

fogbook_core::choice_enum!(Weighting {
    Squared = "squared",
    Linear = "linear",
    LinearNormalised = "linear-normalised",
});

/// How a card moves from one flipbook frame to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameBlend {
    /// The nearest earlier frame: steps at the flipbook's rate.
    None,
    /// A cross-fade of the two frames around the time, premultiplied.
    CrossFade,
}

fogbook_core::choice_enum!(FrameBlend {
    None = "none",
    CrossFade = "cross-fade",
});

/// How the cards reach the transparent layer; both give the same image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Renderer {
    /// Tile splatting in compute: the cards binned into 16×16-pixel tiles, each tile's pixels
    /// composited front to back, stopping where they are opaque (`splat.wgsl`).
    Compute,
    /// Quads rasterised back to front with the "over" blend (`cards.wgsl`).
    Fragment,
}

fogbook_core::choice_enum!(Renderer {
    Compute = "compute",
    Fragment = "fragment",
});

/// The channel layout the chapter bakes with (the runtime decodes any through its table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Packing {
    TlrBbf,
    RtbLbf,
}

fogbook_core::choice_enum!(Packing {
    TlrBbf = "tlr-bbf",
    RtbLbf = "rtb-lbf",
});

impl Packing {
    pub fn name(self) -> &'static str {
        match self {
            Packing::TlrBbf => "tlr-bbf",
            Packing::RtbLbf => "rtb-lbf",
        }
    }
}

// ANCHOR: params
fogbook_core::parameters! {
    pub struct CardParams {
        "Flipbook (baked from chapter 7's smoke at start)" {
            /// Cells per side of the smoke's grid the flipbook is baked from.
            bake_grid: u32 = 48,
                int(16, 128).help("Cells per side of the smoke the flipbook is baked from (multiple of 4)"),
            /// Flipbook frames; the atlas is the smallest square layout that holds them.
            bake_frames: u32 = 32,
                int(1, 128).help("Flipbook frames (a square layout that holds them)"),
            /// Texels per side of a frame.
            bake_frame_size: u32 = 96,
                int(8, 256).unit("texels").help("Texels per side of one flipbook frame"),
            /// Smoke steps before the first frame, and between two frames.
            bake_warmup_steps: u32 = 60,
                int(0, 2000).help("Smoke steps before the first frame"),
            bake_steps_per_frame: u32 = 2,
                int(1, 100).help("Smoke steps between two flipbook frames"),
            /// Bake the glow of a hot emitter into the E channel.
            bake_emission: bool = false,
                boolean().help("Bake a hot emitter's glow as emission (E channel)"),
            /// The atlases' channel layout.
            packing: Packing = Packing::TlrBbf,
                choice(Packing::OPTIONS).help("Channel layout of the two atlases (the runtime reads any)"),
        }
        "Six-way lighting" {
            weighting: Weighting = Weighting::Squared,
                choice(Weighting::OPTIONS).help("How the six maps are weighted by the light direction"),
            /// Unity's absorption: a colour the smoke tints the light towards where it is thick.
            absorption_color: [f32; 4] = [0.85, 0.8, 0.75, 1.0],
                color(false, 1.0).help("Colour of the light deep in the smoke (white: none)"),
            absorption_range: f32 = 1.0,
                float(0.05, 1.0).help("Lit values above this keep their colour; below it they tint"),
            /// Scales the sky's light from six directions.
            ambient_scale: f32 = 1.0,
                float(0.0, 4.0).help("Scale of the sky's and ground's light"),
            /// Emission: the E channel × this radiance (scene units).
            emission_color: [f32; 4] = [4.0, 1.6, 0.4, 1.0],
                color(false, 64.0).help("Radiance of full emission (where the bake has an E channel)"),
            /// Whether the cards are shadowed by the scene's shadow map.
            scene_shadow: bool = true,
                boolean().help("Shadow the cards by the scene's shadow map"),
            /// Fog the cards at their own depth by the stack's fogs.
            fogged: bool = true,
                boolean().help("Apply the stack's fog between the eye and each card"),
        }
        "Renderer" {
            /// Compute tile splatting or fragment quads; the same image, at different costs.
            renderer: Renderer = Renderer::Compute,
                choice(Renderer::OPTIONS).help("Tile splatting in compute, or quads blended back to front"),
        }
        "Artist controls" {
            /// Scales the optical depth behind alpha: α' = 1 − (1 − α)^scale.
            density_scale: f32 = 1.0,
                float(0.0, 8.0).help("Optical-depth scale: α' = 1 − (1 − α)^scale"),
            /// Fades alpha over this fraction of the card's half-size near its border.
            edge_softness: f32 = 0.15,
                float(0.0, 1.0).help("Fade near the card's border (fraction of its half-size)"),
            /// Flipbook frames per second at speed 1.
            frames_per_s: f32 = 12.0,
                float(0.0, 120.0).unit("frames/s").help("Flipbook rate"),
            /// Each card's speed is scaled by 1 ± this, at random.
            speed_variation: f32 = 0.3,
                float(0.0, 1.0).help("Random speed spread per card (fraction)"),
            /// Each card starts at a random frame.
            random_start: bool = true,
                boolean().help("Start each card at a random frame"),
            frame_blend: FrameBlend = FrameBlend::CrossFade,
                choice(FrameBlend::OPTIONS).help("Step between frames or cross-fade them"),
            /// Soft particles: alpha fades over this distance in front of the scene.
            depth_fade_m: f32 = 1.0,
                float(0.0, 50.0).unit("m").help("Soft particles: fade over this distance in front of the scene"),
            /// Alpha is zero this close to the eye and fades in over `camera_fade_m`.
            camera_near_m: f32 = 0.5,
                float(0.0, 50.0).unit("m").help("Distance from the eye where cards start to show"),
            camera_fade_m: f32 = 2.0,
                float(0.0, 50.0).unit("m").help("Distance over which cards fade in beyond the near distance"),
        }
        "Fog cards" {
            fog_cards: u32 = 200,
                int(0, 4096).help("Large cards laid over the ground"),
            /// The rectangle of ground the cards are scattered over: its centre and half-sizes (m).
            fog_card_centre_x_m: f32 = 0.0,
                float(-1000.0, 1000.0).unit("m").help("Centre of the cards' area, x"),
            fog_card_centre_z_m: f32 = -90.0,
                float(-1000.0, 1000.0).unit("m").help("Centre of the cards' area, z"),
            fog_card_half_width_m: f32 = 70.0,
                float(0.0, 1000.0).unit("m").help("Half the area's width (x)"),
            fog_card_half_depth_m: f32 = 80.0,
                float(0.0, 1000.0).unit("m").help("Half the area's depth (z)"),
            fog_card_size_m: f32 = 14.0,
                float(0.1, 200.0).unit("m").help("Side of a fog card"),
            fog_card_opacity: f32 = 0.5,
                float(0.0, 1.0).help("Opacity of the fog cards"),
            fog_card_speed: f32 = 0.25,
                float(0.0, 4.0).help("Fog cards' flipbook speed (× the rate)"),
        }
        "Particle emitter" {
            particles: bool = true,
                boolean().help("Emit particles near the camera"),
            /// Where the particles are born (m).
            emitter_x_m: f32 = 5.0,
                float(-1000.0, 1000.0).unit("m").help("Emitter position, x"),
            emitter_y_m: f32 = 0.2,
                float(-100.0, 1000.0).unit("m").help("Emitter position, y"),
            emitter_z_m: f32 = -14.0,
                float(-1000.0, 1000.0).unit("m").help("Emitter position, z"),
            emitter_radius_m: f32 = 1.5,
                float(0.0, 50.0).unit("m").help("Radius of the disc particles are born in"),
            spawn_rate: f32 = 200.0,
                float(0.0, 2000.0).unit("1/s").help("Particles born per second"),
            lifetime_s: f32 = 10.0,
                float(0.1, 60.0).unit("s").help("Particle lifetime"),
            max_particles: u32 = 2000,
                int(0, 16384).help("Particles alive at most (the oldest make room)"),
            /// Mean velocity at birth, and the random spread around it (m/s).
            velocity_x_m_s: f32 = 0.3,
                float(-50.0, 50.0).unit("m/s").help("Mean velocity at birth, x"),
            velocity_y_m_s: f32 = 1.0,
                float(-50.0, 50.0).unit("m/s").help("Mean velocity at birth, y"),
            velocity_z_m_s: f32 = 0.0,
                float(-50.0, 50.0).unit("m/s").help("Mean velocity at birth, z"),
            velocity_spread_m_s: f32 = 0.4,
                float(0.0, 20.0).unit("m/s").help("Random velocity spread"),
            size_start_m: f32 = 0.8,
                float(0.01, 50.0).unit("m").help("Particle size at birth"),
            size_end_m: f32 = 3.5,
                float(0.01, 50.0).unit("m").help("Particle size at the end of its life"),
            /// Simulate a whole lifetime at start and after a reset, so the emitter is full.
            prewarm: bool = true,
                boolean().help("Start with a full emitter (simulate one lifetime at once)"),
        }
    }
}
// ANCHOR_END: params
