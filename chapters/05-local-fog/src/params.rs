//! Local-fog parameters: the light the volumes scatter, and the list of volumes (up to
//! `MAX_FOG_VOLUMES`), each with its shape, transform and material. A volume's parameters are
//! named `volumes[i].field` (`--set local-fog.volumes[2].density=0.4`, or without the chapter's
//! id when no other chapter of the stack has the name); `volume_count` sets the list's length
//! (new volumes get `VolumeParams::default()`). The ranges refuse a NaN, a zero or negative size,
//! more than `MAX_FOG_VOLUMES` volumes and every other value a volume cannot have, with a
//! message, keeping the value. A volume's density texture (`density_source`: noise or a smoke
//! volume file) has its own fields; the file's path is text, set in a preset.

use fogbook_core::media::density::MAX_NOISE_OCTAVES;
use fogbook_core::media::volumes::MAX_FOG_VOLUMES;
use fogbook_core::params::{
    ChoiceParam, ParamInfo, ParamList, ParamVisitor, Parameters, item_names, visit_choice, visit_list,
};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// A volume's shape (`fogbook_core::media::volumes::SHAPE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    Box,
    /// The ellipsoid inscribed in the box (a sphere when the sizes agree).
    Ellipsoid,
    /// The elliptic cylinder inscribed in the box, along its local y axis.
    Cylinder,
}
fogbook_core::choice_enum!(Shape { Box = "box", Ellipsoid = "ellipsoid", Cylinder = "cylinder" });

/// What multiplies a volume's density inside it (`fogbook_core::media::density`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DensitySource {
    /// Nothing: the density (times the height falloff and the edge fade) is smooth.
    Constant,
    /// Scrolling periodic gradient noise in the volume's frame.
    Noise,
    /// The density field of a smoke volume file (`density_file`) stretched over the box.
    File,
}
fogbook_core::choice_enum!(DensitySource { Constant = "constant", Noise = "noise", File = "file" });

/// One volume: shape, transform (centre, size, yaw–pitch–roll) and material.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VolumeParams {
    pub shape: Shape,
    pub x_m: f32,
    pub y_m: f32,
    pub z_m: f32,
    pub size_x_m: f32,
    pub size_y_m: f32,
    pub size_z_m: f32,
    pub yaw_deg: f32,
    pub pitch_deg: f32,
    pub roll_deg: f32,
    /// Extinction σt at the volume's reference height y₀ (1/m).
    pub density: f32,
    /// Height falloff (1/m): the density falls by e every 1/falloff metres above y₀.
    pub falloff: f32,
    pub edge_fade_m: f32,
    pub albedo: [f32; 4],
    /// Emitted radiance per metre at full density (1/m).
    pub emission: [f32; 4],
    pub phase_g: f32,
    pub density_source: DensitySource,
    /// The noise's frequency (1/m): lattice cells of its first octave per metre.
    pub noise_frequency: f32,
    pub noise_octaves: u32,
    /// How far the noise swings the density: factor 1 + contrast · fbm, cut at 0.
    pub noise_contrast: f32,
    /// The noise's scroll velocity along the volume's local axes (m/s).
    pub scroll_x_mps: f32,
    pub scroll_y_mps: f32,
    pub scroll_z_mps: f32,
    /// Factor on the texture (noise or file).
    pub texture_scale: f32,
    /// The smoke volume file (chapter 7's `save`) of a `file` source: a path, relative to the
    /// working folder. Text, so set in a preset (or `set_volumes`), not on the panel.
    pub density_file: String,
}

/// Fields a volume's list editor and `--set` reach.
pub const FIELD_COUNT: usize = 24;

/// The fields of a volume, in the order `VolumeParams::visit` visits them.
const FIELDS: [&str; FIELD_COUNT] = [
    "shape",
    "x_m",
    "y_m",
    "z_m",
    "size_x_m",
    "size_y_m",
    "size_z_m",
    "yaw_deg",
    "pitch_deg",
    "roll_deg",
    "density",
    "falloff",
    "edge_fade_m",
    "albedo",
    "emission",
    "phase_g",
    "density_source",
    "noise_frequency",
    "noise_octaves",
    "noise_contrast",
    "scroll_x_mps",
    "scroll_y_mps",
    "scroll_z_mps",
    "texture_scale",
];

impl VolumeParams {
    /// Visits the volume's parameters under the names `names` (`volumes[i].field`).
    pub fn visit(&mut self, names: &[&'static str; FIELD_COUNT], v: &mut dyn ParamVisitor) {
        let n = names;
        let position = |name, help| ParamInfo::float(name, -1000.0, 1000.0).unit("m").help(help);
        let size = |name, help| ParamInfo::float(name, 0.05, 1000.0).unit("m").help(help);
        visit_choice(v, &ParamInfo::choice(n[0], Shape::OPTIONS).help("Box, ellipsoid or cylinder"), &mut self.shape);
        v.float(&position(n[1], "Centre x"), &mut self.x_m);
        v.float(&position(n[2], "Centre y (height)"), &mut self.y_m);
        v.float(&position(n[3], "Centre z"), &mut self.z_m);
        v.float(&size(n[4], "Size along the local x axis"), &mut self.size_x_m);
        v.float(&size(n[5], "Size along the local y axis"), &mut self.size_y_m);
        v.float(&size(n[6], "Size along the local z axis"), &mut self.size_z_m);
        let angle = |name, limit: f32, help| ParamInfo::float(name, -limit, limit).unit("deg").help(help);
        v.float(&angle(n[7], 180.0, "Rotation about the world's y axis"), &mut self.yaw_deg);
        v.float(&angle(n[8], 90.0, "Rotation about the yawed x axis"), &mut self.pitch_deg);
        v.float(&angle(n[9], 180.0, "Rotation about the local z axis"), &mut self.roll_deg);
        let density = ParamInfo::log_float(n[10], 0.0, 10.0).unit("1/m").help("Extinction σt at the volume's bottom");
        v.float(&density, &mut self.density);
        let falloff =
            ParamInfo::float(n[11], 0.0, 10.0).unit("1/m").help("Density falls by e every 1/falloff metres up");
        v.float(&falloff, &mut self.falloff);
        let fade =
            ParamInfo::float(n[12], 0.0, 100.0).unit("m").help("Density rises from 0 at the surface over this depth");
        v.float(&fade, &mut self.edge_fade_m);
        v.color(&ParamInfo::color(n[13], false, 1.0).help("Scattering albedo σs / σt"), &mut self.albedo);
        let emission =
            ParamInfo::color(n[14], false, 16.0).unit("1/m").help("Emitted radiance per metre at full density");
        v.color(&emission, &mut self.emission);
        v.float(&ParamInfo::float(n[15], -0.99, 0.99).help("Henyey–Greenstein asymmetry g"), &mut self.phase_g);
        self.visit_texture(&n[16..], v);
    }

    // ANCHOR: visit_texture
    /// The density texture's parameters (names `n`: source, noise, scroll, scale).
    fn visit_texture(&mut self, n: &[&'static str], v: &mut dyn ParamVisitor) {
        let source = ParamInfo::choice(n[0], DensitySource::OPTIONS)
            .help("What multiplies the density: nothing, scrolling noise, or a saved smoke file (density_file)");
        visit_choice(v, &source, &mut self.density_source);
        let frequency = ParamInfo::log_float(n[1], 0.01, 10.0).unit("1/m").help("Noise cells per metre (first octave)");
        v.float(&frequency, &mut self.noise_frequency);
        let octaves = ParamInfo::int(n[2], 1, MAX_NOISE_OCTAVES).help("Noise octaves, each twice as fine");
        v.int(&octaves, &mut self.noise_octaves);
        let contrast = ParamInfo::float(n[3], 0.0, 4.0).help("Density factor 1 + contrast · noise, cut at 0");
        v.float(&contrast, &mut self.noise_contrast);
        let scroll = |name, help| ParamInfo::float(name, -20.0, 20.0).unit("m/s").help(help);
        v.float(&scroll(n[4], "Noise scroll along the local x axis"), &mut self.scroll_x_mps);
        v.float(&scroll(n[5], "Noise scroll along the local y axis"), &mut self.scroll_y_mps);
        v.float(&scroll(n[6], "Noise scroll along the local z axis"), &mut self.scroll_z_mps);
        let scale = ParamInfo::log_float(n[7], 0.0, 100.0).help("Factor on the texture (noise or file)");
        v.float(&scale, &mut self.texture_scale);
    }
    // ANCHOR_END: visit_texture
}

/// A new volume (the viewer's "Add", `volume_count` growing the list): a 4 m box of thin grey
/// fog on the ground 20 m in front of the default camera.
impl Default for VolumeParams {
    fn default() -> Self {
        Self {
            shape: Shape::Box,
            x_m: 0.0,
            y_m: 2.0,
            z_m: -20.0,
            size_x_m: 4.0,
            size_y_m: 4.0,
            size_z_m: 4.0,
            yaw_deg: 0.0,
            pitch_deg: 0.0,
            roll_deg: 0.0,
            density: 0.2,
            falloff: 0.0,
            edge_fade_m: 0.5,
            albedo: [0.8, 0.8, 0.8, 1.0],
            emission: [0.0, 0.0, 0.0, 1.0],
            phase_g: 0.0,
            density_source: DensitySource::Constant,
            noise_frequency: 0.5,
            noise_octaves: 3,
            noise_contrast: 1.0,
            scroll_x_mps: 0.0,
            scroll_y_mps: 0.0,
            scroll_z_mps: 0.0,
            texture_scale: 1.0,
            density_file: String::new(),
        }
    }
}

/// The chapter's parameters: the light, then the volumes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LocalFogParams {
    /// Apply the volumes' fog (off: the debug views still show it, the colour passes through).
    pub local_fog: bool,
    /// Test only the volumes binned to each tile (off: every volume everywhere, for comparison).
    pub culling: bool,
    /// Factor on the sun's light (the scene's, or the sky's when it is in the stack).
    pub volume_sun_scale: f32,
    /// Factor on the ambient light, taken as isotropic radiance.
    pub volume_ambient_scale: f32,
    /// Sun shadows from the core's shadow map at each volume's scattering point.
    pub volume_scene_shadows: bool,
    /// Each volume's sun light dimmed by the other volumes between it and the sun.
    pub volume_shadows: bool,
    /// Each volume's transmittance towards the sun (its own and its casters') taken at the
    /// corners of 8×8-pixel blocks and interpolated where it is smooth (off: at every pixel);
    /// only with `sun_grid` off.
    pub block_sun: bool,
    /// Each volume's transmittance towards the sun (its own and its casters') taken once per
    /// change on a grid of `SUN_GRID`³ points over the volume and interpolated (off: at every
    /// pixel, or at the blocks' corners with `block_sun`).
    pub sun_grid: bool,
    pub volumes: Vec<VolumeParams>,
}

impl Parameters for LocalFogParams {
    fn visit(&mut self, v: &mut dyn ParamVisitor) {
        v.group("Enable");
        v.boolean(&ParamInfo::boolean("local_fog").help("Apply the local fog volumes"), &mut self.local_fog);
        let culling = ParamInfo::boolean("culling").help("Test only the volumes binned to each screen tile");
        v.boolean(&culling, &mut self.culling);
        v.group("Light");
        let sun = ParamInfo::float("volume_sun_scale", 0.0, 100.0).help("Factor on the sun's light in the volumes");
        v.float(&sun, &mut self.volume_sun_scale);
        let ambient =
            ParamInfo::float("volume_ambient_scale", 0.0, 100.0).help("Factor on the ambient light in the volumes");
        v.float(&ambient, &mut self.volume_ambient_scale);
        let shadows = ParamInfo::boolean("volume_scene_shadows").help("Shadow the sun in the volumes by the scene");
        v.boolean(&shadows, &mut self.volume_scene_shadows);
        let between = ParamInfo::boolean("volume_shadows").help("Shadow the sun in each volume by the other volumes");
        v.boolean(&between, &mut self.volume_shadows);
        let block = ParamInfo::boolean("block_sun").help(
            "Take the sun's transmittance at the corners of 8×8-pixel blocks and interpolate it (with sun_grid off)",
        );
        v.boolean(&block, &mut self.block_sun);
        let grid = ParamInfo::boolean("sun_grid")
            .help("Take the sun's transmittance on a 16³ grid over each volume, once per change, and interpolate it");
        v.boolean(&grid, &mut self.sun_grid);
        // ANCHOR: volume_count
        v.group("Volumes");
        // The length first: a visitor that sets it (`--set volume_count=8`) grows or cuts the
        // list; a list longer than the range (a preset's) fails the range check right here.
        let mut count = self.volumes.len() as u32;
        let info = ParamInfo::int("volume_count", 0, MAX_FOG_VOLUMES as u32).help("Volumes in the list");
        v.int(&info, &mut count);
        if count as usize != self.volumes.len() && count as usize <= MAX_FOG_VOLUMES {
            self.volumes.resize(count as usize, VolumeParams::default());
        }
        visit_list(v, &mut VolumeList(&mut self.volumes));
        // ANCHOR_END: volume_count
    }
}

impl Default for LocalFogParams {
    fn default() -> Self {
        Self {
            local_fog: true,
            culling: true,
            volume_sun_scale: 1.0,
            volume_ambient_scale: 1.0,
            volume_scene_shadows: true,
            volume_shadows: true,
            block_sun: false,
            sun_grid: true,
            volumes: default_volumes(),
        }
    }
}

/// The test scene's three volumes: mist in a hollow, a glowing cloud, a column of smoke.
fn default_volumes() -> Vec<VolumeParams> {
    let mist = VolumeParams {
        shape: Shape::Box,
        x_m: -6.0,
        y_m: 1.25,
        z_m: -22.0,
        size_x_m: 16.0,
        size_y_m: 2.5,
        size_z_m: 12.0,
        yaw_deg: 25.0,
        density: 0.6,
        falloff: 0.8,
        edge_fade_m: 1.0,
        albedo: [0.85, 0.9, 0.85, 1.0],
        phase_g: 0.2,
        ..VolumeParams::default()
    };
    let cloud = VolumeParams {
        shape: Shape::Ellipsoid,
        x_m: 8.0,
        y_m: 4.0,
        z_m: -30.0,
        size_x_m: 8.0,
        size_y_m: 6.0,
        size_z_m: 8.0,
        density: 0.35,
        edge_fade_m: 2.0,
        albedo: [0.9, 0.8, 1.0, 1.0],
        emission: [0.08, 0.03, 0.15, 1.0],
        phase_g: 0.5,
        ..VolumeParams::default()
    };
    let smoke = VolumeParams {
        shape: Shape::Cylinder,
        x_m: -2.0,
        y_m: 8.0,
        z_m: -60.0,
        size_x_m: 6.0,
        size_y_m: 16.0,
        size_z_m: 6.0,
        roll_deg: 10.0,
        density: 0.2,
        falloff: 0.1,
        edge_fade_m: 1.0,
        albedo: [0.5, 0.5, 0.5, 1.0],
        ..VolumeParams::default()
    };
    vec![mist, cloud, smoke]
}

// ANCHOR: volume_list
/// The volumes as a `ParamList`: `volumes[i].field` names, add, duplicate, delete.
struct VolumeList<'a>(&'a mut Vec<VolumeParams>);

fn volume_names() -> &'static [[&'static str; FIELD_COUNT]] {
    static NAMES: OnceLock<Vec<[&'static str; FIELD_COUNT]>> = OnceLock::new();
    item_names(&NAMES, "volumes", FIELDS, MAX_FOG_VOLUMES)
}

impl ParamList for VolumeList<'_> {
    fn item_label(&self) -> &'static str {
        "volume"
    }
    /// Past `MAX_FOG_VOLUMES` (a preset's list, refused by `volume_count`'s range) nothing is visited.
    fn len(&self) -> usize {
        self.0.len().min(MAX_FOG_VOLUMES)
    }
    fn max_len(&self) -> usize {
        MAX_FOG_VOLUMES
    }
    fn describe(&self, i: usize) -> String {
        let v = &self.0[i];
        let shape = Shape::OPTIONS[v.shape.index()];
        let texture = match v.density_source {
            DensitySource::Constant => String::new(),
            DensitySource::Noise => format!(", noise {:.2} /m", v.noise_frequency),
            DensitySource::File => format!(", file {}", v.density_file),
        };
        format!("{shape} at ({:.1}, {:.1}, {:.1}) m, σt {:.3} /m{texture}", v.x_m, v.y_m, v.z_m, v.density)
    }
    fn push_new(&mut self) {
        if self.0.len() < MAX_FOG_VOLUMES {
            self.0.push(VolumeParams::default());
        }
    }
    fn duplicate(&mut self, i: usize) {
        if i < self.0.len() && self.0.len() < MAX_FOG_VOLUMES {
            self.0.insert(i + 1, self.0[i].clone());
        }
    }
    fn remove(&mut self, i: usize) {
        if i < self.0.len() {
            self.0.remove(i);
        }
    }
    fn visit_item(&mut self, i: usize, v: &mut dyn ParamVisitor) {
        self.0[i].visit(&volume_names()[i], v);
    }
}
// ANCHOR_END: volume_list
