//! Fog volumes published into the froxels, and overlapping volumes' shared phase g.

use crate::common::*;
use crate::{CAMERA, SIZE};
use fogbook_froxel_fog::reference::Slices;

fogbook_core::parameters! {
    pub struct NoParams {
        "None" {
            unused: bool = false,
                boolean().help("Nothing"),
        }
    }
}

/// A stand-in for chapter 5: publishes fixed fog volumes and draws nothing.
struct PublishesVolumes(Vec<fogbook_core::media::volumes::FogVolume>, NoParams);

impl fogbook_core::Chapter for PublishesVolumes {
    type Gpu = ();
    fn info(&self) -> fogbook_core::ChapterInfo {
        fogbook_core::ChapterInfo { id: "test-volumes", number: 5, title: "test volumes", summary: "" }
    }
    fn stage_io(&self) -> fogbook_core::StageIo {
        fogbook_core::StageIo { prepare: "", stage: fogbook_core::Stage::Transparent, reads: &[], writes: &[] }
    }
    fn params(&mut self) -> &mut dyn fogbook_core::DynParameters {
        &mut self.1
    }
    fn views(&self) -> &'static [fogbook_core::ViewInfo] {
        const VIEWS: &[fogbook_core::ViewInfo] = &[fogbook_core::ViewInfo::color("final", "unused")];
        VIEWS
    }
    fn shader_files(&self) -> &'static [&'static str] {
        &[]
    }
    fn create_gpu(
        &mut self,
        _: &fogbook_core::gpu::GpuContext,
        _: &fogbook_core::frame::FrameLayouts,
        _: &fogbook_core::shaders::ShaderStore,
    ) -> anyhow::Result<()> {
        Ok(())
    }
    fn publish(&mut self, out: &mut fogbook_core::Publish) {
        out.media().volumes.extend_from_slice(&self.0);
    }
    fn render(&mut self, _: &mut (), _: &mut fogbook_core::ChapterContext) {}
}

/// The injection hook chapter 5 uses: a chapter of the stack publishes a box and an ellipsoid
/// (`Chapter::publish`), and the media pass adds them to the froxels, each as its mean over the
/// froxel's slice along the column's ray. The density-slice and emission-slice views against the
/// f64 mean of each volume at every froxel (edge fade and height falloff included), 1e-4
/// relative.
#[test]
fn published_fog_volumes_are_injected_into_the_froxels() {
    use fogbook_core::media::volumes::{FogVolume, SHAPE_BOX, SHAPE_ELLIPSOID};
    use fogbook_core::{Loaded, Stack};
    use fogbook_froxel_fog::FroxelFog;
    use fogbook_local_fog::reference::{optical_depth, quadrature_optical_depth};
    let volumes = vec![
        FogVolume {
            centre: [-4.0, 3.0, -30.0, SHAPE_BOX],
            half_size: [5.0, 3.0, 4.0, 1.5],
            albedo_density: [0.9, 0.5, 0.2, 0.2],
            emission_falloff: [0.0, 0.0, 0.0, 0.3],
            ..FogVolume::AXIS_ALIGNED
        },
        FogVolume {
            centre: [6.0, 2.0, -32.0, SHAPE_ELLIPSOID],
            half_size: [4.0, 2.5, 6.0, 2.0],
            albedo_density: [1.0, 1.0, 1.0, 0.05],
            emission_falloff: [0.02, 0.01, 0.005, 0.0],
            ..FogVolume::AXIS_ALIGNED
        },
    ];
    let slice = 19; // 29.6–35.3 m at N = 32, n = 1 m, f = 300 m: through both volumes
    let slices = Slices::new(1.0, 300.0, 32);
    let eye = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap().eye().as_dvec3();
    let mut h = headless(SIZE);
    let mut hits = 0;
    for (view_name, emission) in [("density-slice", false), ("emission-slice", true)] {
        let mut fog = FroxelFog::new();
        (fog.params.grid_width, fog.params.grid_height, fog.params.grid_depth) = (64, 36, 32);
        (fog.params.constant_density, fog.params.layer_density, fog.params.slice) = (0.0, 0.0, slice);
        let chapters: Vec<Box<dyn fogbook_core::DynChapter>> = vec![
            Box::new(Loaded::new(fog)),
            Box::new(Loaded::new(PublishesVolumes(volumes.clone(), NoParams::default()))),
        ];
        let mut stack = Stack::new(chapters).unwrap();
        h.prepare_stack(&mut stack).unwrap();
        let view = stack.find_view(&format!("froxel-fog/{view_name}")).unwrap();
        let camera = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap();
        let scene = fogbook_core::scene_settings::SceneSettings::default();
        h.run(&mut stack, &camera, &scene, &mut fogbook_core::time::TimeControl::fixed(0.0), view, 1);
        let img = h.capture().unwrap().raw;
        // ANCHOR: injection_test
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                let (fx, fy) = ((2 * x + 1) * 64 / (2 * SIZE[0]), (2 * y + 1) * 36 / (2 * SIZE[1]));
                let (_, col) = pose_ray(CAMERA, [64, 36], fx, fy);
                let (a, b) = (slices.begin(slice), slices.end(slice));
                let want: f64 = volumes
                    .iter()
                    .map(|v| {
                        // The volume's mean weight over the slice along the column's ray, as
                        // media.wgsl takes it: clipped to the crossing, 8 midpoint steps inside
                        // with an edge fade, the closed form without.
                        let rho = v.albedo_density[3] as f64;
                        let depth = if v.half_size[3] > 0.0 {
                            quadrature_optical_depth(v, eye, col, a, b, 8)
                        } else {
                            optical_depth(v, eye, col, a, b)
                        };
                        let w = depth / rho / (b - a);
                        if emission {
                            // The view shows the luminance of the emission.
                            let e = v.emission_falloff;
                            w * (0.2126 * e[0] as f64 + 0.7152 * e[1] as f64 + 0.0722 * e[2] as f64)
                        } else {
                            w * v.albedo_density[3] as f64
                        }
                    })
                    .sum();
                let got = img.pixel(x, y)[0] as f64;
                // Emission is stored in half floats: 1e-3 relative.
                let tolerance = if emission { 1e-3 } else { 1e-4 };
                assert!((got - want).abs() <= tolerance * want + 1e-6, "{view_name} ({x},{y}): GPU {got}, CPU {want}");
                hits += (want > 0.0) as usize;
            }
        }
    }
    eprintln!("fog volumes: {hits} pixels inside a volume");
    assert!(hits > 500, "the volumes cover part of the slice: {hits} pixels");
    // ANCHOR_END: injection_test
}

/// Where volumes overlap in a froxel, the froxel scatters the sun with one phase function whose g
/// is their scattering-weighted mean ḡ = Σ σs_i g_i / Σ σs_i (and their own transmittances
/// towards the sun averaged with the same weights). Two overlapping boxes, σs 0.3 /m with g 0.6
/// and 0.1 /m with g −0.3 (ḡ = 0.375), sunlit only, at froxels both cover whole:
///  (1) the froxel's g: the in-scattering S over S with both g = 0 is 4π p_HG(g, cos θ), which
///      the sun's radiance and transmittance cancel from; g from that ratio against ḡ;
///  (2) S itself in f64: one thin box of the same shape with g = 0 gives L_sun there (its
///      transmittance towards the sun in f64), and S must be
///      Σ σs_i · L_sun · p_HG(ḡ, cos θ) · Σ σs_i T_i / Σ σs_i, T_i each box's own in f64.
#[test]
fn overlapping_volumes_share_the_scattering_weighted_phase_g() {
    use fogbook_core::media::volumes::{FogVolume, SHAPE_BOX};
    use fogbook_core::{Loaded, Stack};
    use fogbook_froxel_fog::FroxelFog;
    use fogbook_froxel_fog::reference::henyey_greenstein;
    use fogbook_local_fog::reference::{chord, sun_transmittance};
    let make = |rho: f32, g: f32, centre: [f32; 3], half: [f32; 2]| FogVolume {
        centre: [centre[0], centre[1], centre[2], SHAPE_BOX],
        half_size: [half[0], 6.0, half[1], 0.0],
        albedo_density: [1.0, 1.0, 1.0, rho],
        axis_x: [1.0, 0.0, 0.0, g],
        ..FogVolume::AXIS_ALIGNED
    };
    let pair = |g: [f32; 2]| {
        vec![make(0.3, g[0], [0.0, 2.0, -32.0], [10.0, 8.0]), make(0.1, g[1], [1.0, 2.0, -31.0], [8.0, 7.5])]
    };
    let g_mean = (0.3 * 0.6 + 0.1 * -0.3) / 0.4;
    let (grid, slice) = ([64u32, 36], 19); // 29.6–35.3 m
    let slices = Slices::new(1.0, 300.0, 32);
    let camera = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap();
    let eye = camera.eye().as_dvec3();
    let scene = fogbook_core::scene_settings::SceneSettings::default();
    let sun = scene.sun_direction().as_dvec3();
    let mut h = headless(SIZE);
    let mut slice_view = |volumes: Vec<FogVolume>| {
        let mut fog = FroxelFog::new();
        (fog.params.grid_width, fog.params.grid_height, fog.params.grid_depth) = (grid[0], grid[1], 32);
        (fog.params.constant_density, fog.params.layer_density, fog.params.slice) = (0.0, 0.0, slice);
        (fog.params.ambient_scale, fog.params.volume_shadows, fog.params.phase_g) = (0.0, false, 0.0);
        let chapters: Vec<Box<dyn fogbook_core::DynChapter>> =
            vec![Box::new(Loaded::new(fog)), Box::new(Loaded::new(PublishesVolumes(volumes, NoParams::default())))];
        let mut stack = Stack::new(chapters).unwrap();
        h.prepare_stack(&mut stack).unwrap();
        let view = stack.find_view("froxel-fog/inscattering-slice").unwrap();
        h.run(&mut stack, &camera, &scene, &mut fogbook_core::time::TimeControl::fixed(0.0), view, 1);
        h.capture().unwrap().raw
    };
    let mixed = slice_view(pair([0.6, -0.3]));
    let isotropic = slice_view(pair([0.0, 0.0]));
    let thin = make(1e-3, 0.0, [0.0, 2.0, -32.0], [10.0, 8.0]);
    let probe = slice_view(vec![thin]);
    let (a, b) = (slices.begin(slice), slices.end(slice));
    let (mut worst_g, mut worst_s, mut froxels) = (0.0f64, 0.0f64, 0);
    let mut seen = std::collections::HashSet::new();
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (fx, fy) = ((2 * x + 1) * grid[0] / (2 * SIZE[0]), (2 * y + 1) * grid[1] / (2 * SIZE[1]));
            let (_, col) = pose_ray(CAMERA, grid, fx, fy);
            let covers = |v: &FogVolume| chord(v, eye, col).is_some_and(|(ta, tb)| ta < a - 1e-3 && tb > b + 1e-3);
            if !pair([0.0, 0.0]).iter().all(covers) || !seen.insert((fx, fy)) {
                continue;
            }
            froxels += 1;
            // ANCHOR: phase_mean_test
            let cos = col.dot(sun);
            let [s_mixed, s_iso, s_probe] = [&mixed, &isotropic, &probe].map(|img| img.pixel(x, y)[0] as f64);
            // (1) The froxel's g, from the ratio: 4π p_HG(g, cos) is monotonic in g on [−0.3, 0.6]
            // for these rays (checked below); bisection.
            let ratio = s_mixed / s_iso;
            let f = |g: f64| 4.0 * std::f64::consts::PI * henyey_greenstein(g, cos) - ratio;
            let (mut lo, mut hi) = (-0.3, 0.6);
            assert!(f(lo) * f(hi) < 0.0, "({fx},{fy}): ratio {ratio} outside the range of g ∈ [−0.3, 0.6] (cos {cos})");
            for _ in 0..60 {
                let m = 0.5 * (lo + hi);
                if f(lo) * f(m) <= 0.0 { hi = m } else { lo = m }
            }
            worst_g = worst_g.max((0.5 * (lo + hi) - g_mean).abs());
            // (2) S in f64, L_sun from the thin box (lit at the same point: the slice's middle).
            let q = eye + col * 0.5 * (a + b);
            let l_sun = s_probe * 4.0 * std::f64::consts::PI / (1e-3 * sun_transmittance(&thin, q, sun));
            let volumes = pair([0.6, -0.3]);
            let t_mean =
                volumes.iter().map(|v| v.albedo_density[3] as f64 * sun_transmittance(v, q, sun)).sum::<f64>() / 0.4;
            let want = 0.4 * l_sun * henyey_greenstein(g_mean, cos) * t_mean;
            worst_s = worst_s.max((s_mixed - want).abs() / want);
        }
    }
    eprintln!("phase g: {froxels} froxels; froxel g − ḡ up to {worst_g:.1e}; S against f64 up to {worst_s:.1e}");
    assert!(froxels > 100, "too few froxels inside both boxes: {froxels}");
    // g is stored in f16 (2⁻¹¹ relative); S: f32, and the f16 storage of the light and the probe.
    assert!(worst_g < 1e-3, "the froxel's g is {worst_g} from the scattering-weighted mean");
    assert!(worst_s < 3e-3, "the in-scattering is {worst_s} from the f64 value");
}
// ANCHOR_END: phase_mean_test
