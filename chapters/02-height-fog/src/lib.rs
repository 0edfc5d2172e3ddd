//! Chapter 2 — analytic exponential height fog: two exponential layers integrated in closed form
//! along each view ray, with start and cutoff distances, a maximum opacity and sun inscattering.
//! It runs in the height-fog stage, after the distance-fog stage: "height fog over distance fog"
//! is a stack of chapters 1 and 2.

pub mod params;
pub mod reference;

use bytemuck::{Pod, Zeroable};
use fogbook_core::bindings::uniform_entry;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::frame::SCREEN_TILE;
use fogbook_core::gpu::GpuContext;
use fogbook_core::params::DynParameters;
#[cfg(feature = "book")]
use fogbook_core::plot::{Series, line_chart};
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::transparent_fog::FogPart;
use fogbook_core::{
    Book, Chapter, ChapterContext, ChapterInfo, Figure, Loan, Publish, Resource, Stage, StageIo, ViewInfo,
};
pub use params::HeightFogParams;
use reference::{HeightFogModel, Layer};
use wgpu::util::DeviceExt;

pub const SHADER: &str = "02-height-fog/height_fog.wgsl";

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "The scene (or the stages before) with height fog"),
    ViewInfo::scalar("optical-depth", "Optical depth τ along the ray, both layers", 1e-3, 10.0, "").log_scale(),
    ViewInfo::fraction("transmittance", "Transmittance e^(−τ)"),
    ViewInfo::fraction("fog-amount", "Fog amount min(1 − e^(−τ), max opacity)"),
    ViewInfo::scalar("density", "Fog density ρ(h) at the shaded point", 1e-5, 0.1, "1/m").log_scale(),
    ViewInfo::scalar("layer-1", "Optical depth of layer 1", 1e-3, 10.0, "").log_scale(),
    ViewInfo::scalar("layer-2", "Optical depth of layer 2", 1e-3, 10.0, "").log_scale(),
    ViewInfo::color("directional", "Sun inscattering added to the fog"),
    ViewInfo::color("masks", "Red: nearer than the start distance; green: beyond the cutoff"),
    ViewInfo::color(
        "density-profile",
        "ρ(h) from −2 to 60 m: layer 1 red, layer 2 blue, their sum white, eye height yellow, ground grey",
    ),
];
// ANCHOR_END: views

/// Mirrors `struct HeightFogParams` in the shader.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct HeightFogUniform {
    pub layer1: [f32; 4],
    pub layer2: [f32; 4],
    pub distances: [f32; 4],
    pub inscattering: [f32; 4],
    pub directional: [f32; 4],
    pub plot: [f32; 4],
    pub view: u32,
    pub height_fog_on: u32,
    /// 1: the fog colour is the frame's ambient light × `inscattering` (the sky's, in a stack
    /// with the sky).
    pub use_sky_color: u32,
    pub _pad0: u32,
}

/// Height range shown by the density-profile view (m).
pub const PROFILE_RANGE_M: (f32, f32) = (-2.0, 60.0);

impl HeightFogUniform {
    // ANCHOR: uniform_new
    pub fn new(p: &HeightFogParams, view: usize) -> Self {
        let model = model(p);
        let largest = (0..=140)
            .map(|i| {
                let h = PROFILE_RANGE_M.0 as f64 + (PROFILE_RANGE_M.1 - PROFILE_RANGE_M.0) as f64 * i as f64 / 140.0;
                model.layers[0].density_at(h) + model.layers[1].density_at(h)
            })
            .fold(0.0f64, f64::max);
        let c = p.directional_color;
        Self {
            layer1: [p.fog_density, p.height_falloff, p.fog_height_m, 0.0],
            layer2: [p.second_fog_density, p.second_height_falloff, p.second_fog_height_m, 0.0],
            distances: [p.start_distance_m, p.cutoff_distance_m, p.directional_start_m, p.max_opacity],
            inscattering: p.inscattering_color,
            directional: [c[0], c[1], c[2], p.directional_exponent],
            plot: [PROFILE_RANGE_M.0, PROFILE_RANGE_M.1, largest as f32, 0.0],
            view: view as u32,
            height_fog_on: p.height_fog as u32,
            use_sky_color: p.use_sky_color as u32,
            _pad0: 0,
        }
    }
    // ANCHOR_END: uniform_new
}

/// The f64 model of the same parameters.
pub fn model(p: &HeightFogParams) -> HeightFogModel {
    let layer = |density: f32, falloff: f32, height: f32| Layer {
        density: density as f64,
        falloff: falloff as f64,
        height: height as f64,
    };
    HeightFogModel {
        layers: [
            layer(p.fog_density, p.height_falloff, p.fog_height_m),
            layer(p.second_fog_density, p.second_height_falloff, p.second_fog_height_m),
        ],
        start: p.start_distance_m as f64,
        cutoff: p.cutoff_distance_m as f64,
        max_opacity: p.max_opacity as f64,
    }
}

pub struct Gpu {
    pipeline: wgpu::ComputePipeline,
    height_uniform: wgpu::Buffer,
    height_group: wgpu::BindGroup,
}

#[derive(Default)]
pub struct HeightFog {
    pub params: HeightFogParams,
}

impl HeightFog {
    pub fn new() -> Self {
        Self::default()
    }
}

fn uniform_group(
    device: &wgpu::Device,
    label: &str,
    contents: &[u8],
) -> (wgpu::Buffer, wgpu::BindGroupLayout, wgpu::BindGroup) {
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[uniform_entry(0, wgpu::ShaderStages::COMPUTE)],
    });
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() }],
    });
    (buffer, layout, group)
}

impl Chapter for HeightFog {
    type Gpu = Gpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "height-fog",
            number: 2,
            title: "Height fog",
            summary: "Two exponential height-fog layers integrated in closed form along each ray, with sun inscattering; composes with distance fog",
        }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "",
            stage: Stage::AnalyticFog,
            reads: &[Resource::Color, Resource::SceneDistance, Resource::SceneLight, Resource::Handover],
            writes: &[Resource::Color, Resource::Handover, Resource::TransparentFog],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    // ANCHOR: publish
    /// Chapter 4's froxel media take their height layers from here, so that the two fogs are
    /// one medium (density 0 when this chapter is switched off).
    fn publish(&mut self, out: &mut Publish) {
        let on = if self.params.height_fog { 1.0 } else { 0.0 };
        let p = &self.params;
        *out.handover().height_layers = [
            [p.fog_density * on, p.height_falloff, p.fog_height_m, 1.0],
            [p.second_fog_density * on, p.second_height_falloff, p.second_fog_height_m, 1.0],
        ];
    }
    // ANCHOR_END: publish

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[SHADER]
    }

    /// Transparent surfaces get this fog at their own depth (`fogbook_core::transparent_fog`).
    fn lend(&self, gpu: &Gpu, kind: Resource) -> Option<Loan> {
        let uniform = gpu.height_uniform.clone();
        (kind == Resource::TransparentFog).then(|| Loan::FogPart(FogPart::HeightLayers { uniform }))
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> anyhow::Result<Gpu> {
        let device = &gpu.device;
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let (height_uniform, height_layout, height_group) =
            uniform_group(device, "height fog", bytemuck::bytes_of(&HeightFogUniform::new(&self.params, 0)));
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&height_layout)];
        let pipeline = compute_pipeline(device, &module, "height_fog", &groups)?;
        Ok(Gpu { pipeline, height_uniform, height_group })
    }

    // ANCHOR: render
    fn render(&mut self, gpu: &mut Gpu, ctx: &mut ChapterContext) {
        let uniform = HeightFogUniform::new(&self.params, ctx.view);
        ctx.gpu.write_buffer(&gpu.height_uniform, 0, bytemuck::bytes_of(&uniform));
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("height fog", |pass| {
            pass.set_pipeline(&gpu.pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &gpu.height_group, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
    // ANCHOR_END: render

    fn book(&self) -> Book {
        // Nothing carries over from one frame to the next.
        Book {
            figures: Self::figures(),
            #[cfg(feature = "book")]
            plots: Self::plots,
            warmup_steps_only: true,
            ..Default::default()
        }
    }
}

/// What the tests and the book do with this chapter (`Chapter::book`); none of it runs in the
/// viewer.
impl HeightFog {
    // ANCHOR: figures
    fn figures() -> Vec<Figure> {
        let fig = |name, view, settings: &[&'static str], camera| Figure::new(name, view, settings, camera);
        vec![
            fig(
                "two-layers",
                "final",
                &["second_fog_density=0.004", "second_height_falloff=0.05", "second_fog_height_m=20"],
                None,
            ),
            fig("from-above", "final", &["fog_height_m=-2"], Some("0,40,60,0,-25,60")),
            fig("from-above-optical-depth", "optical-depth", &["fog_height_m=-2"], Some("0,40,60,0,-25,60")),
            // A stack: chapter 1's fog (grey, linear to 400 m) in its stage, this one's after it.
            fig(
                "with-distance-fog",
                "final",
                &["distance-fog.color=0.9,0.9,0.9,1", "distance-fog.end_m=400", "fog_density=0.01"],
                None,
            )
            .with(&["distance-fog"]),
            fig("start-and-cutoff", "masks", &["start_distance_m=20", "cutoff_distance_m=150"], None),
            fig("falloff-zero", "final", &["height_falloff=0"], None),
        ]
    }
    // ANCHOR_END: figures

    #[cfg(feature = "book")]
    fn plots() -> Vec<(&'static str, String)> {
        // σt(h) for a few falloffs b, and fog against distance for horizontal rays at eye height 2 m.
        let falloffs = [(0.05, "#1f77b4"), (0.2, "#d62728"), (1.0, "#2ca02c")];
        let density = line_chart(
            "Density against height (δ = 0.02 /m at h₀ = 0)",
            "height h (m)",
            "σt(h) (1/m)",
            (-5.0, 40.0),
            (0.0, 0.05),
            &falloffs
                .iter()
                .map(|&(k, color)| Series {
                    label: format!("falloff b = {k} /m"),
                    color,
                    points: (0..=180)
                        .map(|i| {
                            let h = -5.0 + i as f64 * 0.25;
                            (h, Layer { density: 0.02, falloff: k, height: 0.0 }.density_at(h))
                        })
                        .collect(),
                })
                .collect::<Vec<_>>(),
        );
        let fog = line_chart(
            "Fog amount against distance, horizontal ray at 2 m",
            "distance (m)",
            "1 − e^(−τ)",
            (0.0, 300.0),
            (0.0, 1.0),
            &falloffs
                .iter()
                .map(|&(k, color)| {
                    let m = HeightFogModel {
                        layers: [
                            Layer { density: 0.02, falloff: k, height: 0.0 },
                            Layer { density: 0.0, falloff: 0.0, height: 0.0 },
                        ],
                        start: 0.0,
                        cutoff: 1e9,
                        max_opacity: 1.0,
                    };
                    Series {
                        label: format!("falloff b = {k} /m"),
                        color,
                        points: (0..=150).map(|i| (i as f64 * 2.0, m.fog_amount(2.0, 0.0, i as f64 * 2.0))).collect(),
                    }
                })
                .collect::<Vec<_>>(),
        );
        vec![("density-profile", density), ("fog-vs-distance", fog)]
    }
}
