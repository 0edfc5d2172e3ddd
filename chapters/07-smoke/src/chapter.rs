//! The `Chapter` implementation: what the framework asks of the chapter (its info, stages,
//! views, parameters and shaders), the GPU state's creation, the light volume and shadow lent to
//! the scene, and the view pass.

use crate::fields::{Fields, check_grid};
use crate::medium;
use crate::passes::{self, Pipelines};
use crate::uniform::{SmokeDisplay, SmokeUniform};
use crate::{Smoke, SmokeGpu, TEXTBOOK, VIEWS};
use anyhow::Result;
use bytemuck::Zeroable;
use fogbook_core::frame::FrameLayouts;
use fogbook_core::frame::SCREEN_TILE;
use fogbook_core::gpu::{GpuContext, Requirements};
use fogbook_core::params::DynParameters;
use fogbook_core::shaders::ShaderStore;
use fogbook_core::shaders::WgslConst;
use fogbook_core::volume_shadow::{self, VolumeShadowUniform};
use fogbook_core::{
    Book, Chapter, ChapterContext, ChapterInfo, Loan, Resource, Stage, StageIo, UpdateContext, ViewInfo,
};

impl Chapter for Smoke {
    type Gpu = SmokeGpu;

    fn info(&self) -> ChapterInfo {
        ChapterInfo {
            id: "smoke",
            number: 7,
            title: "3D smoke",
            summary: "An Eulerian smoke solver on 3D textures: advection, temperature and buoyancy, vorticity confinement, pressure projection; every field inspectable",
        }
    }

    fn requirements(&self) -> Requirements {
        // Trilinear sampling of the r32float pressure during advection.
        Requirements { features: wgpu::Features::FLOAT32_FILTERABLE, limits: None }
    }

    // ANCHOR: stage
    fn stage_io(&self) -> StageIo {
        StageIo {
            prepare: "simulation step, light volume",
            stage: Stage::Transparent,
            reads: &[Resource::Color, Resource::SceneDistance, Resource::SceneLight],
            writes: &[Resource::Color, Resource::ViewRange, Resource::VolumeShadow, Resource::PointMedia],
        }
    }
    // ANCHOR_END: stage

    fn params(&mut self) -> &mut dyn DynParameters {
        &mut self.params
    }

    fn views(&self) -> &'static [ViewInfo] {
        VIEWS
    }

    fn shader_files(&self) -> &'static [&'static str] {
        &[
            "07-smoke/obstacles.wgsl",
            "07-smoke/coarsen.wgsl",
            "07-smoke/advect.wgsl",
            "07-smoke/maccormack.wgsl",
            "07-smoke/maccormack_correct.wgsl",
            "07-smoke/curl.wgsl",
            "07-smoke/vorticity.wgsl",
            "07-smoke/divergence.wgsl",
            "07-smoke/jacobi.wgsl",
            "07-smoke/rbgs.wgsl",
            "07-smoke/restrict.wgsl",
            "07-smoke/prolong.wgsl",
            "07-smoke/mg_tail.wgsl",
            "07-smoke/store_pressure.wgsl",
            "07-smoke/project.wgsl",
            "07-smoke/light.wgsl",
            "07-smoke/view.wgsl",
        ]
    }

    fn shader_constants(&self) -> Vec<WgslConst> {
        vec![WgslConst::u32("TAIL_CELLS", crate::multigrid::TAIL_CELLS)]
    }

    fn create_gpu(&mut self, gpu: &GpuContext, layouts: &FrameLayouts, shaders: &ShaderStore) -> Result<SmokeGpu> {
        check_grid(gpu, self.params.grid_size)?;
        let with_obstacles = self.params.sphere_enabled || self.params.box_enabled;
        let pipelines = Pipelines::new(gpu, layouts, shaders, with_obstacles)?;
        let device = &gpu.device;
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("smoke params"),
            size: std::mem::size_of::<SmokeUniform>() as u64,
            // Storage too: the smoke's medium reads it so (medium.wgsl).
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("smoke trilinear"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let params_basic = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("smoke params (no mask)"),
            layout: &pipelines.params_basic_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&sampler) },
            ],
        });
        let fields = Fields::new(gpu, self.params.grid_size)?;
        let params_group = passes::params_group(gpu, &pipelines, &uniform, &sampler, &fields);
        let shadow_uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("smoke volume shadow"),
            size: std::mem::size_of::<VolumeShadowUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let shadow_sampler = volume_shadow::sampler(device);
        let state = SmokeGpu {
            pipelines,
            spare_pipelines: None,
            shaders: shaders.clone(),
            frame_layouts: layouts.clone(),
            uniform,
            params_group,
            params_basic,
            sampler,
            fields,
            shadow_uniform,
            shadow_sampler,
            shadow_bind: None,
            shadow_group: None,
        };
        self.light_for = None;
        let initial = self.uniform(state.fields.n).at_step(self.steps.wrapping_sub(1));
        gpu.write_buffer(&state.uniform, 0, bytemuck::bytes_of(&initial));
        Ok(state)
    }

    /// Hot reload keeps the simulation running: the new state takes over the old fields when
    /// they have its size.
    fn carry_over(&mut self, old: SmokeGpu, new: &mut SmokeGpu) {
        if old.fields.n == new.fields.n {
            new.fields = old.fields;
        }
    }

    fn reset(&mut self, g: &mut SmokeGpu, gpu: &GpuContext) {
        if let Ok(f) = Fields::new(gpu, g.fields.n) {
            g.fields = f;
        }
        self.steps = 0;
        self.light_for = None;
    }

    fn refusal(&self) -> Option<String> {
        self.status.clone()
    }

    fn update(&mut self, g: &mut SmokeGpu, ctx: &mut UpdateContext) {
        self.step(g, ctx.gpu, ctx.passes);
    }

    /// After prepare: the light volume as the smoke's shadow on the scene, once it is built.
    /// After the stage: the fields as this frame's view read them, for a pass that samples the
    /// smoke at points.
    fn lend(&self, g: &SmokeGpu, kind: Resource) -> Option<Loan> {
        match kind {
            Resource::VolumeShadow => g.shadow_group.clone().map(Loan::Group),
            Resource::PointMedia => Some(medium::point_media(&g.uniform, &g.sampler, &g.fields)),
            _ => None,
        }
    }

    /// Prepare, after the step and before the scene: the light volume is brought up to date
    /// (when the smoke or the sun changed) and published as the smoke's shadow on the scene.
    fn light_scene(&mut self, g: &mut SmokeGpu, ctx: &mut ChapterContext) {
        self.last_sun = ctx.scene.sun_direction().into();
        self.last_view = ctx.view;
        self.follow_grid_size(g, ctx.gpu);
        self.write_uniform(g, ctx.gpu, ctx.passes);
        // ANCHOR: light_when
        // What the light volume depends on: everything but the view settings.
        let key = SmokeUniform { display: SmokeDisplay::zeroed(), ..self.uniform(g.fields.n) };
        // Needed by the fluid view and the light volume's own views, and by the scene's shadow
        // whenever the scene shows (in a stack showing another chapter's view, `ctx.view` is 0).
        // A field view covers the scene with its panel: the light volume is saved per step.
        let needed =
            matches!(VIEWS[ctx.view.min(VIEWS.len() - 1)].name, "fluid" | "sun-transmittance" | "sky-transmittance");
        if needed && self.light_for != Some(key) {
            passes::record_light(ctx.gpu, ctx.passes, &g.pipelines, &g.params_group, &g.fields);
            self.light_for = Some(key);
        }
        // ANCHOR_END: light_when
        // ANCHOR: publish_shadow
        g.shadow_group = None;
        if self.params.cast_shadow {
            let u = self.uniform(g.fields.n);
            let shadow = VolumeShadowUniform {
                box_min: u.grid.box_min,
                box_side_m: u.grid.box_m,
                tint: u.optics.extinction_tint,
                enabled: 1,
            };
            ctx.gpu.write_buffer(&g.shadow_uniform, 0, bytemuck::bytes_of(&shadow));
            let light = &g.fields.light.texture;
            if g.shadow_bind.as_ref().is_none_or(|(bound, _)| bound != light) {
                let group = volume_shadow::bind_group(
                    &ctx.gpu.device,
                    &ctx.frame.layouts.volume_shadow,
                    &g.shadow_uniform,
                    &g.fields.light.view,
                    &g.shadow_sampler,
                );
                g.shadow_bind = Some((light.clone(), group));
            }
            g.shadow_group = g.shadow_bind.as_ref().map(|(_, group)| group.clone());
        }
        // ANCHOR_END: publish_shadow
    }

    // ANCHOR: render
    fn render(&mut self, g: &mut SmokeGpu, ctx: &mut ChapterContext) {
        // `light_scene` ran in prepare: the uniform is written and the light volume is current.
        self.last_view = ctx.view;
        self.write_uniform(g, ctx.gpu, ctx.passes);
        let textures = passes::view_textures(ctx.gpu, &g.pipelines, &g.fields);
        let params = passes::view_params_group(ctx.gpu, &g.pipelines, &g.uniform, &g.sampler, &g.fields);
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("smoke: view", |pass| {
            pass.set_pipeline(&g.pipelines.view.pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &params, &[]);
            pass.set_bind_group(3, &textures, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
    // ANCHOR_END: render

    fn book(&self) -> Book {
        Book {
            warmup_frames: Self::warmup_frames(),
            // The fields change in `update` alone; the light volume follows them when drawn.
            warmup_steps_only: true,
            test_settings: Self::test_settings(),
            test_frames: Self::test_frames(),
            snapshot_tolerance: Self::snapshot_tolerance(),
            view_settings: TEXTBOOK.to_vec(),
            figures: Self::figures(),
            #[cfg(feature = "book")]
            plots: Self::plots,
            #[cfg(not(feature = "book"))]
            plots: Vec::new,
        }
    }
}
