//! The fog at any depth (`fogbook_core::transparent_fog`, `common/transparent_fog.wgsl`): what a
//! transparent surface at distance d gets, T(d) and S(d), must be what the stack's fog stages do
//! to an opaque surface at that distance. A probe chapter in the transparent stage reads the
//! scene's own colour c (before any fog) and distance D at each pixel and writes c · T(D) + S(D);
//! the stack without the probe must have drawn the same image through its fog stages.

mod common;

use common::headless;
use fogbook::state::Setup;
use fogbook_core::capture::FloatImage;
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE};
use fogbook_core::gpu::GpuContext;
use fogbook_core::headless::Headless;
use fogbook_core::params::{DynParameters, ParamVisitor, Parameters};
use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
use fogbook_core::time::TimeControl;
use fogbook_core::{Chapter, ChapterContext, ChapterInfo, Loaded, Resource, Stage, StageIo, ViewInfo};

const SIZE: [u32; 2] = [64, 36];
/// Largest |probe − stack| / (1 + |stack|) per channel: the two compose the same f32 terms in a
/// different order (T₁T₂T₃ first, then the colour), a few ulps apart.
const TOLERANCE: f32 = 1e-4;

/// The probe's entry point, appended to the composed `common/transparent_fog.wgsl`.
const PROBE: &str = "
@compute @workgroup_size(8, 8, 1)
fn probe(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(view_out);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let pixel = vec2<i32>(id.xy);
    let uv = (vec2<f32>(id.xy) + 0.5) * frame.viewport.zw;
    let fog = fog_at_depth(uv, view_ray_dir(frame, vec2<f32>(id.xy)), textureLoad(scene_distance, pixel, 0).r);
    write_color(id.xy, textureLoad(scene_color, pixel, 0).rgb * fog.transmittance + fog.inscattering);
}
";

#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
struct NoParams;

impl Parameters for NoParams {
    fn visit(&mut self, _v: &mut dyn ParamVisitor) {}
}

/// A transparent-stage chapter that fogs the scene's opaque colour at the scene's distance.
#[derive(Default)]
struct FogAtDepthProbe {
    params: NoParams,
}

impl Chapter for FogAtDepthProbe {
    type Gpu = wgpu::ComputePipeline;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "fog-at-depth-probe",
            number: 8,
            title: "Fog at depth probe",
            summary: "The scene's colour fogged through the transparent-fog group",
        }
    }

    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "",
            stage: Stage::Transparent,
            reads: &[Resource::SceneDistance, Resource::TransparentFog, Resource::SkyTables],
            writes: &[Resource::Color],
        }
    }

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        const VIEWS: &[ViewInfo] = &[ViewInfo::color("final", "c · T(D) + S(D)")];
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[]
    }

    fn create_gpu(
        &mut self,
        gpu: &GpuContext,
        layouts: &FrameLayouts,
        shaders: &ShaderStore,
    ) -> anyhow::Result<wgpu::ComputePipeline> {
        let mut composed = shaders.compose("common/transparent_fog.wgsl")?;
        composed.source.push_str(PROBE);
        composed.validate()?;
        let module = create_module(&gpu.device, &composed)?;
        let groups = [
            Some(&layouts.scene_inputs),
            Some(&layouts.view_out),
            Some(&layouts.transparent_fog),
            Some(&layouts.shared_sky),
        ];
        compute_pipeline(&gpu.device, &module, "probe", &groups)
    }

    fn render(&mut self, pipeline: &mut wgpu::ComputePipeline, ctx: &mut ChapterContext) {
        let [w, h] = ctx.frame.size;
        let (fog, sky) = (ctx.group(Resource::TransparentFog), ctx.group(Resource::SkyTables));
        ctx.passes.compute("fog at depth probe", |pass| {
            pass.set_pipeline(pipeline);
            // The scene's own colour, before any fog (not the previous stage's).
            pass.set_bind_group(0, &ctx.frame.scene_inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, fog, &[]);
            pass.set_bind_group(3, sky, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
}

/// `spec` with `sets`, and the probe added as its last stage when `probe`; with `probe` and an
/// empty `spec`, the probe alone.
fn setup(spec: &str, sets: &[&str], probe: bool) -> Setup {
    let mut setup = Setup::new(if spec.is_empty() { "distance-fog" } else { spec }).unwrap();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    setup.apply(None, &sets, None).unwrap();
    if probe {
        let keep = if spec.is_empty() { Vec::new() } else { setup.stack.ids() };
        setup.stack.restack(&keep, vec![Box::new(Loaded::new(FogAtDepthProbe::default()))]).unwrap();
    }
    setup
}

/// The colour `view` of `setup` shows, after one frame.
fn render(h: &mut Headless, mut setup: Setup, view: &str) -> FloatImage {
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view(view).unwrap();
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
    FloatImage::read(&h.gpu, &h.renderer.frame.view.texture).unwrap()
}

/// The scene's colour before any fog, as a fog chapter's `scene` view shows it.
fn scene(h: &mut Headless) -> FloatImage {
    render(h, setup("distance-fog", &[], false), "scene")
}

/// Largest |a − b| / (1 + |b|) over every channel of every pixel.
fn relative_difference(a: &FloatImage, b: &FloatImage) -> f32 {
    assert_eq!(a.rgba.len(), b.rgba.len());
    a.rgba.iter().zip(&b.rgba).fold(0.0f32, |worst, (x, y)| {
        assert!(x.is_finite(), "{x} where {y} was expected");
        worst.max((x - y).abs() / (1.0 + y.abs()))
    })
}

/// Each fog chapter alone and stacked: c · T(D) + S(D) from the transparent-fog group is the
/// image the fog stages drew, and there is fog enough in each for a missing or wrong part (the
/// height fog's, the froxel grid's, its continuation beyond the grid) to show. The froxel grid
/// ends at 100 m, so that the height fog (stacked) or the closed form (alone) covers the rest.
#[test]
fn the_fog_at_a_surface_depth_is_what_the_fog_stages_drew() {
    let mut h = headless(SIZE);
    let clear = scene(&mut h);
    let froxel: &[&str] = &["grid_width=64", "grid_height=36", "grid_depth=32", "fog_distance_m=100"];
    let height: &[&str] = &["fog_density=0.05", "height_falloff=0.3"];
    let distance: &[&str] = &["falloff=atmospheric", "color=1,0.9,0.8,0.7"];
    let cases: [(&str, Vec<&str>); 5] = [
        ("distance-fog", distance.to_vec()),
        ("height-fog", height.to_vec()),
        ("froxel-fog", [froxel, &["layer_density=0.05"]].concat()),
        ("height-fog,froxel-fog", [height, froxel].concat()),
        ("distance-fog,height-fog,froxel-fog", [distance, height, froxel].concat()),
    ];
    for (spec, sets) in &cases {
        let fogged = render(&mut h, setup(spec, sets, false), "final");
        let probed = render(&mut h, setup(spec, sets, true), "final");
        let (error, fog) = (relative_difference(&probed, &fogged), relative_difference(&clear, &fogged));
        eprintln!("{spec}: probe vs the fog stages {error:.2e} (the fog itself: {fog:.2})");
        assert!(fog > 0.1, "{spec}: too little fog ({fog}) for the comparison to mean anything");
        assert!(error <= TOLERANCE, "{spec}: the fog at the surface's depth differs from the stages' by {error}");
    }
}

/// Without a fog chapter the group is the stand-in: T = 1, S = 0, the scene's colour unchanged.
#[test]
fn without_fog_the_stand_in_changes_nothing() {
    let mut h = headless(SIZE);
    let clear = scene(&mut h);
    let probed = render(&mut h, setup("", &[], true), "final");
    assert_eq!(probed.rgba, clear.rgba);
}

/// The group's layout is visible to vertex, fragment and compute shaders, and so is everything
/// `fog_at_depth` reads (the scene inputs, the shared sky): a card may be fogged per vertex or per
/// fragment. A render pipeline that calls it in both stages is accepted.
#[test]
fn the_fog_at_depth_is_available_to_vertex_and_fragment_shaders() {
    let h = headless(SIZE);
    let device = &h.gpu.device;
    let mut composed = ShaderStore::discover().compose("common/transparent_fog.wgsl").unwrap();
    composed.source.push_str(
        "
struct Card {
    @builtin(position) position: vec4<f32>,
    @location(0) fog: vec4<f32>,
}

@vertex
fn card_vertex(@builtin(vertex_index) i: u32) -> Card {
    let fog = fog_at_depth(vec2(0.5), frame.cam_forward.xyz, 20.0 + f32(i));
    return Card(vec4(0.0, 0.0, 0.5, 1.0), vec4(fog.inscattering, fog.transmittance.g));
}

@fragment
fn card_fragment(card: Card) -> @location(0) vec4<f32> {
    let fog = fog_at_depth(card.position.xy * frame.viewport.zw, frame.cam_forward.xyz, 30.0);
    return card.fog + vec4(fog.inscattering * fog.transmittance, 1.0);
}
",
    );
    composed.validate().unwrap();
    let module = create_module(device, &composed).unwrap();
    let layouts = &h.renderer.frame.layouts;
    let groups = [
        Some(&layouts.scene_inputs),
        Some(&layouts.view_out),
        Some(&layouts.transparent_fog),
        Some(&layouts.shared_sky),
    ];
    fogbook_core::shaders::checked(device, "card pipeline", || {
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("card"),
            bind_group_layouts: &groups,
            immediate_size: 0,
        });
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("card"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("card_vertex"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("card_fragment"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::TextureFormat::Rgba16Float.into())],
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        })
    })
    .unwrap();
}
