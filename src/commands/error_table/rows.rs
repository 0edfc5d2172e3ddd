//! The error table's rows: one entry per approximation measured against the ground truth. A new
//! row is one more entry; the tracer must trace its medium (chapter 9, "What is not traced yet").

// ANCHOR: row
/// One row: a stack, its settings and camera, and what removes its medium (for the mask of the
/// pixels where the medium matters).
#[derive(Debug)]
pub struct Row {
    /// The row's name (`--rows`).
    pub name: &'static str,
    /// The chapter whose approximation is measured.
    pub chapter: &'static str,
    /// The approximation, in words.
    pub approximation: &'static str,
    /// The stack's chapters; `ground-truth` is appended.
    pub stack: &'static [&'static str],
    /// `--set` settings of the picture measured (with the stack's prefixes where needed).
    pub settings: &'static [&'static str],
    /// Settings applied on top that remove the medium, from the stack and the tracer alike.
    pub without_medium: &'static [&'static str],
    /// Camera `x,y,z,yaw,pitch[,fov]`; `None`: the default camera.
    pub camera: Option<&'static str>,
}
// ANCHOR_END: row

/// Each chapter's own picture as its page first shows it: its defaults from the default camera
/// (the `view-final` figure), the distance fog in its exponential mode, which has a medium. The
/// local fog's volume 0 is turned 25° about y, as in the book.
// ANCHOR: rows
pub const ROWS: &[Row] = &[
    Row {
        name: "distance-fog",
        chapter: "distance-fog",
        approximation: "fog of the eye's distance: a constant colour and a glow, the sun undimmed",
        stack: &["distance-fog"],
        settings: &["falloff=exponential"],
        without_medium: &["density=0"],
        camera: None,
    },
    Row {
        name: "height-fog",
        chapter: "height-fog",
        approximation: "two exponential layers in closed form; in-scattering a constant colour \
                        plus a sun lobe, unshadowed",
        stack: &["height-fog"],
        settings: &[],
        without_medium: &["fog_density=0", "second_fog_density=0"],
        camera: None,
    },
    Row {
        name: "froxel-fog",
        chapter: "froxel-fog",
        approximation: "single scattering in a 160×90×64 froxel grid; the sun through the \
                        scene's shadow map, not the fog",
        stack: &["froxel-fog"],
        settings: &[],
        without_medium: &["constant_density=0", "layer_density=0"],
        camera: None,
    },
    Row {
        name: "local-fog",
        chapter: "local-fog",
        approximation: "three volumes in closed form per pixel; single scattering, the sun's \
                        transmittance on a 16³ grid per volume",
        stack: &["local-fog"],
        settings: &[],
        without_medium: &["volume_count=0"],
        camera: None,
    },
    // ANCHOR_END: rows
    // ANCHOR: more_rows
    cloud_row("clouds-1", "single scattering (one octave) along a 64-step march, a 6-sample light march", &CLOUDS_1),
    cloud_row("clouds-2", "two octaves of Wrenninge's multiple-scattering approximation", &CLOUDS_2),
    cloud_row("clouds-3", "three octaves of Wrenninge's multiple-scattering approximation (the default)", &CLOUDS_3),
    // ANCHOR: sky_rows
    Row {
        name: "sky",
        chapter: "sky",
        approximation: "Bruneton's precomputed tables (4 orders, 32×128×32×8), aerial perspective from them",
        stack: &["sky"],
        settings: &["ground-truth.sky=medium"],
        without_medium: &["rayleigh_scattering=0,0,0,1", "mie_scattering=0", "mie_absorption=0", "ozone=false"],
        camera: None,
    },
    Row {
        name: "sky-aerial",
        chapter: "sky",
        approximation: "the same, over 12 km of the planet's ground seen from 3 km up",
        stack: &["sky"],
        settings: &["ground-truth.sky=medium"],
        without_medium: &["rayleigh_scattering=0,0,0,1", "mie_scattering=0", "mie_absorption=0", "ozone=false"],
        camera: Some("0,3000,0,0,-15,60"),
    },
    // ANCHOR_END: sky_rows
    Row {
        name: "smoke",
        chapter: "smoke",
        approximation: "a 96-step march; the sun from a light volume with 3 octaves, the sky as a constant",
        stack: &["smoke"],
        settings: &[],
        without_medium: &["extinction=0"],
        camera: None,
    },
    // ANCHOR: card_rows
    card_row("six-way-axis", "six-way cards lit by a sun along the cards' up axis: the top map alone", &CARDS_AXIS),
    card_row(
        "six-way-diagonal",
        "six-way cards lit by a sun on the diagonal (left, top, front): three maps blended",
        &CARDS_DIAGONAL,
    ),
    // ANCHOR_END: card_rows
];

/// The clouds over the test scene at 1, 2 and 3 octaves, unjittered, every pixel marched every
/// frame.
const CLOUDS_1: [&str; 3] = ["octaves=1", "jitter=false", "mode=reference"];
const CLOUDS_2: [&str; 3] = ["octaves=2", "jitter=false", "mode=reference"];
const CLOUDS_3: [&str; 3] = ["octaves=3", "jitter=false", "mode=reference"];

const fn cloud_row(name: &'static str, approximation: &'static str, settings: &'static [&'static str]) -> Row {
    Row {
        name,
        chapter: "clouds",
        approximation,
        stack: &["clouds"],
        settings,
        without_medium: &["clouds=false"],
        camera: None,
    }
}
// ANCHOR_END: more_rows

/// Five fog cards 7.5 to 12.5 m wide about 30 m ahead, no particles, the flipbook stopped on
/// each card's first frame; the artist controls that no medium has (the absorption colour, the
/// edge fade, the soft-particle fade) off and the opacity 1, so that what is measured is the
/// six-way bake against the smoke it was baked from. The sun overhead, then on the cards'
/// diagonal (35.26° up, 135°: from the left, the top and the eye's side in equal parts).
const CARDS: [&str; 14] = [
    "fog_cards=5",
    "particles=false",
    "fog_card_centre_x_m=0",
    "fog_card_centre_z_m=-30",
    "fog_card_half_width_m=8",
    "fog_card_half_depth_m=3",
    "fog_card_size_m=10",
    "fog_card_opacity=1",
    "frames_per_s=0",
    "frame_blend=none",
    "absorption_color=1,1,1,1",
    "edge_softness=0",
    "depth_fade_m=0",
    "random_start=false",
];
const CARDS_AXIS: [&str; 16] = concat_settings(&CARDS, ["scene.sun_elevation_deg=90", "scene.sun_azimuth_deg=0"]);
const CARDS_DIAGONAL: [&str; 16] =
    concat_settings(&CARDS, ["scene.sun_elevation_deg=35.26", "scene.sun_azimuth_deg=135"]);

/// `base` and then `more`, as one list of settings.
const fn concat_settings<const N: usize, const M: usize>(
    base: &[&'static str; N],
    more: [&'static str; 2],
) -> [&'static str; M] {
    let mut out = [""; M];
    let mut i = 0;
    while i < N {
        out[i] = base[i];
        i += 1;
    }
    out[N] = more[0];
    out[N + 1] = more[1];
    out
}

const fn card_row(name: &'static str, approximation: &'static str, settings: &'static [&'static str]) -> Row {
    Row {
        name,
        chapter: "six-way-cards",
        approximation,
        stack: &["six-way-cards"],
        settings,
        without_medium: &["fog_cards=0"],
        camera: Some("0,4,0,0,2,40"),
    }
}
impl Row {
    /// The stack with the tracer beside it.
    pub fn spec(&self) -> String {
        self.stack.iter().copied().chain(["ground-truth"]).collect::<Vec<_>>().join(",")
    }

    /// How the tracer saw the sky in this row: the atmosphere traced, chapter 3's tables as the
    /// environment, or the test scene's constant sky where the stack has no sky.
    pub fn sky_mode(&self) -> &'static str {
        if !self.stack.contains(&"sky") {
            "scene sky"
        } else if self.settings.contains(&"ground-truth.sky=medium") {
            "atmosphere traced"
        } else {
            "sky's tables"
        }
    }
}

/// The rows `names` asks for, in its order (every row where it is empty); an error names the
/// known rows.
pub fn select(names: &[String]) -> Result<Vec<&'static Row>, String> {
    if names.is_empty() {
        return Ok(ROWS.iter().collect());
    }
    let known = || ROWS.iter().map(|r| r.name).collect::<Vec<_>>().join(", ");
    let mut picked: Vec<&'static Row> = Vec::new();
    for name in names {
        let name = name.trim();
        let row =
            ROWS.iter().find(|r| r.name == name).ok_or_else(|| format!("unknown row {name:?} (rows: {})", known()))?;
        if picked.iter().any(|r| r.name == name) {
            return Err(format!("row {name:?} is listed twice"));
        }
        picked.push(row);
    }
    Ok(picked)
}
