//! Chapter 1 — distance fog: linear, exponential, exponential squared and atmospheric falloffs
//! of the true camera distance, Koschmieder visibility, and a sun glow masked by the shadow map.

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
use fogbook_core::{Book, Chapter, ChapterContext, ChapterInfo, Figure, Loan, Resource, Stage, StageIo, ViewInfo};
pub use params::{DistanceFogParams, Falloff};
use reference::ResolvedFog;
use wgpu::util::DeviceExt;

pub const SHADER: &str = "01-distance-fog/distance_fog.wgsl";

// ANCHOR: views
pub const VIEWS: &[ViewInfo] = &[
    ViewInfo::color("final", "The scene with fog"),
    ViewInfo::color("scene", "The scene without fog"),
    ViewInfo::scalar("distance", "True camera-to-surface distance d", 0.0, 200.0, "m"),
    ViewInfo::fraction("fog-factor", "Fog factor a·f (atmospheric: mean extinction)"),
    ViewInfo::fraction("extinction-r", "Extinction a·ext, red channel"),
    ViewInfo::fraction("extinction-g", "Extinction a·ext, green channel"),
    ViewInfo::fraction("extinction-b", "Extinction a·ext, blue channel"),
    ViewInfo::fraction("inscattering-r", "Inscattering a·ins, red channel"),
    ViewInfo::fraction("inscattering-g", "Inscattering a·ins, green channel"),
    ViewInfo::fraction("inscattering-b", "Inscattering a·ins, blue channel"),
    ViewInfo::color("fog-color", "Fog colour including the sun glow"),
    ViewInfo::color("glow", "Sun glow added to the fog colour (after shadow masking)"),
    ViewInfo::fraction("glow-shadow", "Share of the fog along the ray that the sun reaches"),
];
// ANCHOR_END: views

/// Mirrors `struct FogParams` in the shader.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct FogUniform {
    pub color: [f32; 4],
    pub extinction: [f32; 4],
    pub inscattering: [f32; 4],
    pub glow_color: [f32; 4],
    pub shape: [f32; 4],
    /// Distance past which 99% of the fog lies (m); the shadow march stops there.
    pub march_end_m: f32,
    /// `Falloff` as an index (0 linear, 1 exponential, 2 exponential², 3 atmospheric).
    pub falloff: u32,
    /// 1: the glow is masked by the shadow map.
    pub glow_shadowed: u32,
    pub glow_shadow_steps: u32,
    /// The debug view.
    pub view: u32,
    pub _pad: [u32; 3],
}

impl FogUniform {
    pub fn new(p: &DistanceFogParams, view: usize) -> Self {
        let fog = ResolvedFog::new(p);
        let c3 = |c: [f64; 3]| [c[0] as f32, c[1] as f32, c[2] as f32, 0.0];
        Self {
            color: p.color,
            extinction: c3(fog.extinction),
            inscattering: c3(fog.inscattering),
            glow_color: p.glow_color,
            shape: [fog.start as f32, fog.end as f32, fog.density as f32, p.glow_exponent],
            march_end_m: fog.march_limit() as f32,
            falloff: p.falloff as u32,
            glow_shadowed: p.glow_shadowed as u32,
            glow_shadow_steps: p.glow_shadow_steps.clamp(1, 64),
            view: view as u32,
            _pad: [0; 3],
        }
    }
}

pub struct Gpu {
    pipeline: wgpu::ComputePipeline,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

#[derive(Default)]
pub struct DistanceFog {
    pub params: DistanceFogParams,
}

impl DistanceFog {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Chapter for DistanceFog {
    type Gpu = Gpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "distance-fog",
            number: 1,
            title: "Distance fog",
            summary: "Linear, exponential, exponential² and atmospheric fog of the true camera distance, with a shadowed sun glow",
        }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "",
            stage: Stage::AnalyticFog,
            reads: &[Resource::Color, Resource::SceneDistance, Resource::ShadowMap, Resource::SceneLight],
            writes: &[Resource::Color, Resource::TransparentFog],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn view_range(&mut self, view: usize) -> Option<(f32, f32)> {
        // Distance: show the range where the fog changes.
        (VIEWS[view].name == "distance")
            .then(|| (0.0, (ResolvedFog::new(&self.params).march_limit() as f32).clamp(1.0, 1.0e5)))
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[SHADER]
    }

    /// Transparent surfaces get this fog at their own depth (`fogbook_core::transparent_fog`).
    fn lend(&self, gpu: &Gpu, kind: Resource) -> Option<Loan> {
        (kind == Resource::TransparentFog).then(|| Loan::FogPart(FogPart::ByDistance { uniform: gpu.uniform.clone() }))
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> anyhow::Result<Gpu> {
        let device = &gpu.device;
        let module = create_module(device, &shaders.load(SHADER)?)?;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("distance fog"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::COMPUTE)],
        });
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("distance fog"),
            contents: bytemuck::bytes_of(&FogUniform::new(&self.params, 0)),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("distance fog"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }],
        });
        let groups = [Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&layout)];
        let pipeline = compute_pipeline(device, &module, "main", &groups)?;
        Ok(Gpu { pipeline, uniform, bind_group })
    }

    // ANCHOR: render
    fn render(&mut self, gpu: &mut Gpu, ctx: &mut ChapterContext) {
        let uniform = FogUniform::new(&self.params, ctx.view);
        ctx.gpu.write_buffer(&gpu.uniform, 0, bytemuck::bytes_of(&uniform));
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("distance fog", |pass| {
            pass.set_pipeline(&gpu.pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &gpu.bind_group, &[]);
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
impl DistanceFog {
    // ANCHOR: figures
    fn figures() -> Vec<Figure> {
        let fig = |name, view, settings: &[&'static str]| Figure::new(name, view, settings, None);
        vec![
            fig("falloff-linear", "final", &["falloff=linear"]),
            fig("falloff-exponential", "final", &["falloff=exponential"]),
            fig("falloff-exponential-squared", "final", &["falloff=exponential-squared"]),
            fig("falloff-atmospheric", "final", &["falloff=atmospheric"]),
            fig("glow-unshadowed", "final", &["falloff=exponential", "density=0.01", "glow_shadowed=false"]),
            fig("glow-shadowed", "final", &["falloff=exponential", "density=0.01", "glow_shadowed=true"]),
            // The glow term alone shows the mask: the tower's shadow volume cuts a dark wedge.
            fig("glow-term-unshadowed", "glow", &["falloff=exponential", "density=0.01", "glow_shadowed=false"]),
            fig("glow-term-shadowed", "glow", &["falloff=exponential", "density=0.01", "glow_shadowed=true"]),
            fig("visibility-50m", "final", &["falloff=exponential", "use_visibility=true", "visibility_m=50"]),
            fig(
                "visibility-colors",
                "final",
                &[
                    "falloff=atmospheric",
                    "use_visibility=true",
                    "visibility_m=120",
                    "extinction_color=0.15,0.3,0.8,1",
                    "inscattering_color=0.75,0.8,0.9,1",
                ],
            ),
        ]
    }
    // ANCHOR_END: figures

    #[cfg(feature = "book")]
    fn plots() -> Vec<(&'static str, String)> {
        let curve = |label: &str, color, f: &dyn Fn(f64) -> f64| Series {
            label: label.to_string(),
            color,
            points: (0..=200).map(|i| (i as f64, f(i as f64))).collect(),
        };
        let falloffs = line_chart(
            "Fog factor against distance (defaults)",
            "distance d (m)",
            "fog factor f",
            (0.0, 200.0),
            (0.0, 1.0),
            &[
                curve("linear 0→100 m", "#1f77b4", &|d| reference::linear(d, 0.0, 100.0)),
                curve("exponential ρ=0.02", "#d62728", &|d| reference::exponential(d, 0.02)),
                curve("exponential² ρ=0.02", "#2ca02c", &|d| reference::exponential_squared(d, 0.02)),
            ],
        );
        let b = DistanceFogParams::default().extinction;
        let atmospheric = line_chart(
            "Atmospheric extinction per channel (defaults)",
            "distance d (m)",
            "extinction 1 − e^(−d·β)",
            (0.0, 200.0),
            (0.0, 1.0),
            &[
                curve(&format!("red β={}", b[0]), "#d62728", &|d| reference::exponential(d, b[0] as f64)),
                curve(&format!("green β={}", b[1]), "#2ca02c", &|d| reference::exponential(d, b[1] as f64)),
                curve(&format!("blue β={}", b[2]), "#1f77b4", &|d| reference::exponential(d, b[2] as f64)),
            ],
        );
        vec![("falloff-curves", falloffs), ("atmospheric-channels", atmospheric)]
    }
}
