//! The frame's stages: a fixed order, physically from far to near, into which every chapter
//! registers its passes, and the table of shared resources they read and write.
//!
//! A frame runs the stages in the order of [`Stage::ALL`], whatever chapters are active:
//!
//! ```text
//! prepare → scene → atmosphere → far media → analytic fog → volumetric fog → transparent → reference → display
//! ```
//!
//! Every chapter's `update` and `light_scene` run in `Prepare` (simulations, lookup tables, the
//! scene's light); its colour pass (`render`) runs in the one stage it names in
//! [`StageIo::stage`]. Colour stages read the colour the previous stage wrote (the scene's, for the
//! first) and write the next: a chain of compute passes, no blending and no copies (see
//! `frame::chain_target`). Two chapters in the same stage run in book order (then by id).

use std::fmt::Write;

// ANCHOR: stages
/// Where a pass runs in the frame, named by its role. The order of the variants is the order of
/// the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// Lookup tables, simulations, media on grids, the scene's light.
    Prepare,
    /// The core: the sun's shadow map and the opaque test scene (HDR colour, depth, distance).
    Scene,
    /// The atmosphere behind the scene and its aerial perspective over it.
    Atmosphere,
    /// Media far away in the atmosphere (a cloud layer), composited behind the scene.
    FarMedia,
    /// Fog in closed form per pixel, along the ray to the scene.
    AnalyticFog,
    /// Fog integrated on a grid over the view and applied over everything opaque.
    VolumetricFog,
    /// Transparent surfaces (smoke, cards), which sample the fog at their own depth.
    Transparent,
    /// A reference rendered beside the stack (a path-traced ground truth): it reads the stack's
    /// finished colour and everything the stack lent, to show itself or its error against it.
    Reference,
    /// The core: tonemap or false colour, legend, dither.
    Display,
}
// ANCHOR_END: stages

impl Stage {
    pub const ALL: [Stage; 9] = [
        Stage::Prepare,
        Stage::Scene,
        Stage::Atmosphere,
        Stage::FarMedia,
        Stage::AnalyticFog,
        Stage::VolumetricFog,
        Stage::Transparent,
        Stage::Reference,
        Stage::Display,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Prepare => "prepare",
            Stage::Scene => "scene",
            Stage::Atmosphere => "atmosphere",
            Stage::FarMedia => "far media",
            Stage::AnalyticFog => "analytic fog",
            Stage::VolumetricFog => "volumetric fog",
            Stage::Transparent => "transparent",
            Stage::Reference => "reference",
            Stage::Display => "display",
        }
    }

    /// Stages that a chapter's colour pass may name (the others belong to the core).
    pub fn is_colour_stage(self) -> bool {
        !matches!(self, Stage::Prepare | Stage::Scene | Stage::Display)
    }
}

// ANCHOR: resources
/// The shared resources of a frame: who makes each, what it holds, and what a stack without its
/// maker gets instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resource {
    /// The frame uniform: camera, matrices, viewport, time, frame index (group 0, binding 0).
    Frame,
    /// sun_dir, sun_color, ambient in the frame uniform: the light the scene is lit with.
    SceneLight,
    /// Linear HDR radiance: the scene's, then each colour stage's output (group 0, binding 1 in,
    /// group 1, binding 0 out).
    Color,
    /// True camera-to-surface distance (m), r32float (group 0, binding 2).
    SceneDistance,
    /// The sun's shadow map and its matrix (group 0, bindings 3–4; `frame.sun_view_proj`).
    ShadowMap,
    /// The previous frame's view-projection, this frame's sub-pixel jitter (Halton 2,3) and
    /// whether history is valid (frame uniform).
    History,
    /// The sky's lookup tables (transmittance, scattering, irradiance) and atmosphere uniform
    /// (group 3, `shared_sky`).
    SkyTables,
    /// Auto-range buffer of scalar debug views (group 1, binding 1).
    ViewRange,
    /// The scene's point and spot lights (frame uniform, `lights::scene_lights`).
    LocalLights,
    /// What chapters publish for each other before the frame (`Chapter::publish`): the height
    /// layers and the volumetric grid's far distance in the frame uniform.
    Handover,
    /// Local fog volumes published by a chapter for stages that inject them.
    FogVolumes,
    /// A medium's optical depth towards the sun on a grid over a box, for the scene's shadow
    /// (group 2 of the scene pass, `volume_shadow`).
    VolumeShadow,
    /// The sun's transmittance through the cloud layer on a square of the ground around the
    /// camera, for the scene's and the media's sun light (group 1 of the scene pass and of the
    /// froxel lighting, `cloud_shadow`).
    CloudShadow,
    /// The fog stages' parameters and the volumetric grid's volumes, from which a transparent surface gets
    /// the fog between the camera and its own depth, T(d) and S(d) (group 2 of transparent
    /// passes, `transparent_fog`).
    TransparentFog,
    /// The media a pass samples at points (a path tracer): each medium's uniform, textures and
    /// sampler at its own bindings of group 2 (`media::point`).
    PointMedia,
}
// ANCHOR_END: resources

/// One row of the shared-resource table (chapter 0 prints it).
pub struct ResourceRow {
    pub resource: Resource,
    pub name: &'static str,
    pub made_by: &'static str,
    pub holds: &'static str,
    pub without_maker: &'static str,
}

pub const RESOURCE_TABLE: &[ResourceRow] = &[
    ResourceRow {
        resource: Resource::Frame,
        name: "frame",
        made_by: "core, before prepare",
        holds: "camera, view-projection, viewport, time, frame index, sky distance, exposure",
        without_maker: "always present",
    },
    ResourceRow {
        resource: Resource::SceneLight,
        name: "scene light",
        made_by: "core (scene settings); overwritten in prepare by an atmosphere chapter",
        holds: "sun direction and radiance, ambient sky radiance",
        without_maker: "the scene settings' constant sun and ambient",
    },
    ResourceRow {
        resource: Resource::Color,
        name: "colour",
        made_by: "core (scene), then every colour stage in order",
        holds: "linear HDR radiance, rgba16float from the scene, rgba32float after",
        without_maker: "the scene's colour",
    },
    ResourceRow {
        resource: Resource::SceneDistance,
        name: "scene distance",
        made_by: "core (scene)",
        holds: "true camera-to-surface distance (m); the sky distance where nothing was hit",
        without_maker: "always present",
    },
    ResourceRow {
        resource: Resource::ShadowMap,
        name: "shadow map",
        made_by: "core (scene)",
        holds: "the sun's depth map, 2048², and its orthographic matrix",
        without_maker: "always present",
    },
    ResourceRow {
        resource: Resource::History,
        name: "history",
        made_by: "core, before prepare",
        holds: "previous view-projection, Halton (2,3) jitter in pixels and a base-5 depth offset, history-valid flag and epoch",
        without_maker: "always present; invalid on the first frame and after a cut",
    },
    ResourceRow {
        resource: Resource::SkyTables,
        name: "sky tables",
        made_by: "an atmosphere chapter (its lookup tables), in prepare",
        holds: "transmittance, scattering, irradiance LUTs and the atmosphere (group 3)",
        without_maker: "1×1 stand-ins and a zero atmosphere: common/sky_light.wgsl uses the frame's sun and ambient",
    },
    ResourceRow {
        resource: Resource::ViewRange,
        name: "view range",
        made_by: "the stage showing an auto-ranged debug view",
        holds: "min / max of the shown field (order-preserving u32)",
        without_maker: "reset to empty every frame",
    },
    ResourceRow {
        resource: Resource::LocalLights,
        name: "local lights",
        made_by: "core (scene settings), before prepare",
        holds: "up to 8 point and spot lights: position, range, intensity, cone",
        without_maker: "always present; none unless the scene settings ask for them",
    },
    ResourceRow {
        resource: Resource::Handover,
        name: "handover",
        made_by: "a chapter with height layers and one with a volumetric grid (its far distance), in publish",
        holds: "height_layers (w = 1 when a chapter publishes them), volumetric_far_m",
        without_maker: "zero: a volumetric grid uses its own layer, height layers start at their own start distance",
    },
    // ANCHOR: resource_table
    ResourceRow {
        resource: Resource::FogVolumes,
        name: "fog volumes",
        made_by: "a chapter of local fog volumes, in publish",
        holds: "up to 32 boxes, ellipsoids and cylinders, rotated: albedo, extinction, falloff, edge fade, emission, phase g",
        without_maker: "an empty list",
    },
    ResourceRow {
        resource: Resource::VolumeShadow,
        name: "volume shadow",
        made_by: "a smoke simulation (its light volume), in prepare",
        holds: "optical depth to the sun per cell of the smoke's box, the box, a colour tint (scene group 2)",
        without_maker: "a disabled stand-in: no shadow",
    },
    ResourceRow {
        resource: Resource::CloudShadow,
        name: "cloud shadow",
        made_by: "a cloud layer (a top-down transmittance map), in prepare",
        holds: "the clouds' transmittance towards the sun from ground points around the camera (scene group 1, froxel lighting group 1)",
        without_maker: "a disabled stand-in: transmittance 1",
    },
    ResourceRow {
        resource: Resource::TransparentFog,
        name: "transparent fog",
        made_by: "the fog chapters (their parameters, the volumetric grid's volumes), before the transparent stage",
        holds: "what the fog stages do to a surface at any distance along a pixel's ray: transmittance and in-scattering, fog_at_depth in transparent_fog.wgsl (transparent group 2)",
        without_maker: "stand-ins for each missing fog: transmittance 1, in-scattering 0",
    },
    ResourceRow {
        resource: Resource::PointMedia,
        name: "point media",
        made_by: "a chapter whose medium a path tracer samples at points (a cloud layer, a simulated grid), after its stage",
        holds: "the medium's uniform, textures and sampler at its own bindings of group 2 (media::point)",
        without_maker: "stand-ins the sampling pass makes: a zero uniform (no medium) and 1-texel textures",
    },
    // ANCHOR_END: resource_table
];

/// What a chapter registers: the stage of its colour pass and the shared resources it reads
/// and writes (beyond the frame uniform, which every pass reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageIo {
    /// What the chapter does in the prepare stage (`update`, `light_scene`), in a few words;
    /// empty when nothing.
    pub prepare: &'static str,
    pub stage: Stage,
    pub reads: &'static [Resource],
    pub writes: &'static [Resource],
}

/// One pass of a frame plan: a stage and who runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedPass {
    pub stage: Stage,
    /// A chapter id, or "core".
    pub by: &'static str,
}

/// The order in which a frame runs the given chapters' passes: the chapters' prepare work,
/// the core's scene, the colour stages in stage order (book order within a stage, then by id:
/// two sections of one chapter share its number), display.
/// `chapters` holds (id, book number, registration).
pub fn frame_plan(chapters: &[(&'static str, u32, StageIo)]) -> Vec<PlannedPass> {
    let mut sorted: Vec<_> = chapters.to_vec();
    sorted.sort_by_key(|&(id, number, io)| (io.stage, number, id));
    let mut plan: Vec<PlannedPass> = sorted
        .iter()
        .filter(|(_, _, io)| !io.prepare.is_empty())
        .map(|&(by, ..)| PlannedPass { stage: Stage::Prepare, by })
        .collect();
    plan.push(PlannedPass { stage: Stage::Scene, by: "core" });
    plan.extend(sorted.iter().map(|&(by, _, io)| PlannedPass { stage: io.stage, by }));
    plan.push(PlannedPass { stage: Stage::Display, by: "core" });
    plan
}

/// Labels the passes under one stage's box in the stage diagram: the core's own passes in blue,
/// the chapters registered in it (with their prepare work) in brown.
fn stage_labels(stage: Stage, chapters: &[(&'static str, u32, StageIo)], label: &mut impl FnMut(&str, &str)) {
    match stage {
        Stage::Scene => {
            label("shadow map", "#1f4e8c");
            label("test scene", "#1f4e8c");
        }
        Stage::Display => {
            label("tonemap /", "#1f4e8c");
            label("false colour", "#1f4e8c");
        }
        Stage::Prepare => {
            for (id, _, io) in chapters.iter().filter(|c| !c.2.prepare.is_empty()) {
                label(id, "#8c4b1f");
                label(&format!("({})", io.prepare), "#8c4b1f");
            }
        }
        _ => {
            for (id, ..) in chapters.iter().filter(|c| c.2.stage == stage) {
                label(id, "#8c4b1f");
            }
        }
    }
}

/// The stage diagram for chapter 0 (SVG): the stages left to right, each chapter under the stage
/// it registers in, and the shared resources beneath.
pub fn stage_diagram_svg(chapters: &[(&'static str, u32, StageIo)]) -> String {
    let box_w = 104.0;
    let gap = 14.0;
    let left = 20.0;
    let width = left * 2.0 + Stage::ALL.len() as f64 * (box_w + gap) - gap;
    // The stages, the chapters under them, then the resource table in two columns of 18 px rows.
    let height = 216.0 + 18.0 * RESOURCE_TABLE.len().div_ceil(2) as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>
<text x="{left}" y="22" font-size="14" font-weight="bold">One frame: stages from far to near (chapters register into them)</text>
"##
    );
    for (i, stage) in Stage::ALL.iter().enumerate() {
        let x = left + i as f64 * (box_w + gap);
        let core = !stage.is_colour_stage();
        let fill = if core { "#e8eef7" } else { "#fdf2e0" };
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="40" width="{box_w}" height="40" rx="6" fill="{fill}" stroke="#555"/><text x="{}" y="64" text-anchor="middle">{}</text>"##,
            x + box_w / 2.0,
            stage.name()
        );
        if i + 1 < Stage::ALL.len() {
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="60" x2="{}" y2="60" stroke="#555" marker-end="url(#arrow)"/>"##,
                x + box_w,
                x + box_w + gap - 1.0
            );
        }
        let mut row = 0;
        let mut label = |text: &str, colour: &str| {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="middle" fill="{colour}">{text}</text>"##,
                x + box_w / 2.0,
                100.0 + 16.0 * row as f64
            );
            row += 1;
        };
        stage_labels(*stage, chapters, &mut label);
    }
    let _ = writeln!(
        s,
        r##"<text x="{left}" y="196" font-weight="bold">Shared resources (the core owns them; stages read and write them in order)</text>"##
    );
    for (i, row) in RESOURCE_TABLE.iter().enumerate() {
        let col = i % 2;
        let line = i / 2;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}">• {}: {}</text>"##,
            left + col as f64 * width / 2.0,
            216.0 + 18.0 * line as f64,
            row.name,
            row.made_by
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKY: StageIo =
        StageIo { prepare: "tables", stage: Stage::Atmosphere, reads: &[Resource::Color], writes: &[Resource::Color] };
    const FOG: StageIo =
        StageIo { prepare: "", stage: Stage::AnalyticFog, reads: &[Resource::Color], writes: &[Resource::Color] };
    const LATE: StageIo =
        StageIo { prepare: "step", stage: Stage::Transparent, reads: &[], writes: &[Resource::Color] };

    #[test]
    fn stages_are_ordered_far_to_near() {
        let mut sorted = Stage::ALL.to_vec();
        sorted.sort();
        assert_eq!(sorted, Stage::ALL.to_vec());
        assert_eq!(Stage::ALL.first(), Some(&Stage::Prepare));
        assert_eq!(Stage::ALL.last(), Some(&Stage::Display));
    }

    /// Every line of the diagram, the resource table's last row included, lies inside it.
    #[test]
    fn the_diagram_holds_every_resource() {
        let svg = stage_diagram_svg(&[("air", 3, SKY), ("fog", 2, FOG), ("late", 7, LATE)]);
        let number_after = |from: usize| -> f64 {
            let rest = &svg[from..];
            rest[..rest.find('"').unwrap_or(0)].parse().unwrap_or(f64::NAN)
        };
        let height = number_after(svg.find("height=\"").unwrap() + "height=\"".len());
        let lowest = svg.match_indices(" y=\"").map(|(i, m)| number_after(i + m.len())).fold(0.0, f64::max);
        assert_eq!(svg.matches("• ").count(), RESOURCE_TABLE.len());
        assert!(lowest + 4.0 <= height, "the last line at y = {lowest} in a diagram {height} high");
    }

    #[test]
    fn plan_does_not_depend_on_the_order_chapters_are_given_in() {
        let a = frame_plan(&[("late", 7, LATE), ("fog", 2, FOG), ("air", 3, SKY)]);
        let b = frame_plan(&[("air", 3, SKY), ("late", 7, LATE), ("fog", 2, FOG)]);
        assert_eq!(a, b);
        let colour: Vec<_> = a.iter().filter(|p| p.stage.is_colour_stage()).map(|p| p.by).collect();
        assert_eq!(colour, ["air", "fog", "late"]);
        let prepare: Vec<_> = a.iter().filter(|p| p.stage == Stage::Prepare).map(|p| p.by).collect();
        assert_eq!(prepare, ["air", "late"], "only chapters with prepare work");
    }
}
