//! Per-frame GPU resources owned by the core: the frame uniform, the scene's render targets,
//! the sun's shadow map, the colour chain's two targets (the view target the display shows, and
//! a second one stacks ping-pong through), and the bind groups every chapter reads (group 0:
//! scene inputs) and writes (group 1: colour or debug-view output).

use crate::bindings::{comparison_sampler_entry, storage_buffer_entry, texture_entry, uniform_entry};
use crate::camera::CameraPose;
use crate::gpu::GpuContext;
use crate::lights::{LocalLight, MAX_LOCAL_LIGHTS, frame_lights};
use crate::scene_geometry::sun_view_proj;
use crate::scene_settings::SceneSettings;
use bytemuck::{Pod, Zeroable};

pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const DISTANCE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const VIEW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;
pub const SHADOW_MAP_SIZE: u32 = 2048;
/// Full-screen compute passes run in SCREEN_TILE × SCREEN_TILE workgroups (their WGSL says
/// `@workgroup_size(8, 8, 1)`; tests/contracts.rs holds the two together).
pub const SCREEN_TILE: u32 = 8;
/// Largest render size accepted (per side); the device limit applies too.
pub const MAX_RENDER_SIDE: u32 = 8192;

/// Mirrors `struct Frame` in `shaders/common/frame.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct FrameUniform {
    pub view_proj: [[f32; 4]; 4],
    pub inv_view_proj: [[f32; 4]; 4],
    pub sun_view_proj: [[f32; 4]; 4],
    pub camera_pos: [f32; 4],
    pub sun_dir: [f32; 4],
    pub sun_color: [f32; 4],
    pub ambient: [f32; 4],
    pub viewport: [f32; 4],
    pub time_s: f32,
    pub frame_index: u32,
    pub sky_distance_m: f32,
    pub exposure_ev: f32,
    pub cam_forward: [f32; 4],
    pub cam_right: [f32; 4],
    pub cam_up: [f32; 4],
    /// Last frame's `view_proj` (this frame's where history is invalid).
    pub prev_view_proj: [[f32; 4]; 4],
    /// This frame's sub-pixel offset in pixels, Halton (2, 3) − ½, for stages that jitter their
    /// own samples; the scene's projection is never jittered.
    pub jitter_px: [f32; 2],
    /// 1 when last frame's results may be reprojected into this one, else 0.
    pub history_valid: u32,
    /// Counts history invalidations (resize, reload, camera cut, parameter change).
    pub history_epoch: u32,
    /// Handover (`Publish::handover`): where a volumetric grid over the view ends, so that
    /// analytic fog takes over there (m); 0 without one.
    pub volumetric_far_m: f32,
    /// Local lights in `lights` (the first `light_count` are live).
    pub light_count: u32,
    /// This frame's depth offset (−½..½), Halton base 5 at the jitter's index (`jitter_depth`).
    pub jitter_depth: f32,
    pub _pad: u32,
    /// Handover (`Publish::handover`): the global medium's two exponential height layers
    /// (density 1/m, falloff 1/m, height m; w: 1 when a chapter of the stack publishes them), for
    /// chapters whose media must agree with it.
    pub height_layers: [[f32; 4]; 2],
    /// The scene's point and spot lights (`lights::scene_lights`).
    pub lights: [LocalLight; MAX_LOCAL_LIGHTS],
}

// ANCHOR: scene_light
/// The light the scene is lit with: `sun_dir`, `sun_color` and `ambient` of the frame uniform,
/// which follow each other there in this order. A chapter that lights the scene itself lends a
/// buffer holding one (`lend::Loan::SceneLight`), and the core copies it over them
/// (`FrameResources::copy_scene_light`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct SceneLight {
    /// Towards the sun (unit); w: the sun's illuminance (lux).
    pub sun_dir: [f32; 4],
    pub sun_color: [f32; 4],
    pub ambient: [f32; 4],
}
// ANCHOR_END: scene_light

/// Where the scene light lies in the frame uniform; the three fields follow each other there.
pub const SCENE_LIGHT_OFFSET: u64 = std::mem::offset_of!(FrameUniform, sun_dir) as u64;
const _: () = assert!(
    std::mem::offset_of!(FrameUniform, sun_color) == std::mem::offset_of!(FrameUniform, sun_dir) + 16
        && std::mem::offset_of!(FrameUniform, ambient) == std::mem::offset_of!(FrameUniform, sun_dir) + 32
);

impl FrameUniform {
    pub fn new(camera: &CameraPose, scene: &SceneSettings, size: [u32; 2], time_s: f64, frame: u64) -> Self {
        let (w, h) = (size[0] as f32, size[1] as f32);
        let view_proj = camera.projection(w / h) * camera.view();
        let sun = scene.sun_direction();
        // Built in f64 so the ray basis is good to the last f32 digit.
        let forward = camera.forward().as_dvec3();
        let right = forward.cross(glam::DVec3::Y).normalize_or(glam::DVec3::X);
        let up = right.cross(forward);
        let tan_half = (0.5 * (camera.fov_y_deg as f64).to_radians()).tan();
        let aspect = w as f64 / h as f64;
        let (lights, light_count) = frame_lights(scene, time_s);
        let v4 = |v: glam::DVec3| [v.x as f32, v.y as f32, v.z as f32, 0.0];
        Self {
            view_proj: view_proj.to_cols_array_2d(),
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            sun_view_proj: sun_view_proj(sun).to_cols_array_2d(),
            camera_pos: [camera.position[0], camera.position[1], camera.position[2], 0.0],
            sun_dir: [sun.x, sun.y, sun.z, scene.sun_illuminance],
            sun_color: [scene.sun_color[0], scene.sun_color[1], scene.sun_color[2], 0.0],
            ambient: [scene.ambient[0], scene.ambient[1], scene.ambient[2], 0.0],
            viewport: [w, h, 1.0 / w, 1.0 / h],
            time_s: time_s as f32,
            frame_index: frame as u32,
            sky_distance_m: scene.sky_distance_m,
            exposure_ev: scene.exposure_ev,
            cam_forward: v4(forward),
            cam_right: v4(right * tan_half * aspect),
            cam_up: v4(up * tan_half),
            prev_view_proj: view_proj.to_cols_array_2d(),
            jitter_px: [0.0; 2],
            history_valid: 0,
            history_epoch: 0,
            volumetric_far_m: 0.0,
            light_count,
            jitter_depth: 0.0,
            _pad: 0,
            height_layers: [[0.0; 4]; 2],
            lights,
        }
    }
}

/// Bind group layouts chapters build their pipelines against.
#[derive(Clone)]
pub struct FrameLayouts {
    /// Group 0: frame uniform, scene colour, scene distance, shadow map, comparison sampler.
    pub scene_inputs: wgpu::BindGroupLayout,
    /// Group 1: the view target as a write-only rgba32float storage texture, and the range
    /// buffer of auto-ranged views.
    pub view_out: wgpu::BindGroupLayout,
    /// Group 3 (`shared_sky::SKY_GROUP`): the sky's lookup tables, or stand-ins.
    pub shared_sky: wgpu::BindGroupLayout,
    /// Group 2 of the scene pass (`volume_shadow::VOLUME_SHADOW_GROUP`): a medium's shadow.
    pub volume_shadow: wgpu::BindGroupLayout,
    /// Group 1 of the scene pass and the froxel lighting (`cloud_shadow::CLOUD_SHADOW_GROUP`):
    /// the clouds' shadow map.
    pub cloud_shadow: wgpu::BindGroupLayout,
    /// Group 2 of transparent passes (`transparent_fog::TRANSPARENT_FOG_GROUP`): the fog
    /// chapters' parameters and volumes, for the fog at any depth.
    pub transparent_fog: wgpu::BindGroupLayout,
}

impl FrameLayouts {
    fn new(device: &wgpu::Device) -> Self {
        let vis = wgpu::ShaderStages::COMPUTE | wgpu::ShaderStages::FRAGMENT;
        let unfilterable = wgpu::TextureSampleType::Float { filterable: false };
        // The vertex stage too: a transparent pass may fog its vertices (`transparent_fog`).
        let inputs = vis | wgpu::ShaderStages::VERTEX;
        let scene_inputs = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene inputs"),
            entries: &[
                uniform_entry(0, inputs),
                texture_entry(1, inputs, unfilterable),
                texture_entry(2, inputs, unfilterable),
                texture_entry(3, inputs, wgpu::TextureSampleType::Depth),
                comparison_sampler_entry(4, inputs),
            ],
        });
        let view_out = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("view out"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: vis,
                    ty: wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: VIEW_FORMAT,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
                storage_buffer_entry(1, vis, false),
            ],
        });
        Self {
            scene_inputs,
            view_out,
            shared_sky: crate::shared_sky::layout(device),
            volume_shadow: crate::volume_shadow::layout(device),
            cloud_shadow: crate::cloud_shadow::layout(device),
            transparent_fog: crate::transparent_fog::layout(device),
        }
    }
}

/// A texture with its default view.
pub struct Target {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
}

impl Target {
    pub fn new(
        device: &wgpu::Device,
        label: &str,
        size: [u32; 2],
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
    ) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Self { texture, view }
    }

    pub fn bytes(&self) -> u64 {
        let s = self.texture.size();
        let block = self.texture.format().block_copy_size(Some(wgpu::TextureAspect::All)).unwrap_or(4);
        s.width as u64 * s.height as u64 * s.depth_or_array_layers as u64 * block as u64
    }
}

/// Everything the core allocates per frame size, plus the size-independent shadow map.
pub struct FrameResources {
    pub size: [u32; 2],
    pub layouts: FrameLayouts,
    pub uniform: wgpu::Buffer,
    pub hdr: Target,
    pub distance: Target,
    pub depth: Target,
    /// What the display shows: the last colour stage's output (or its debug view).
    pub view: Target,
    /// The colour chain's second target: stages of a stack alternate between the two.
    pub view_b: Target,
    pub shadow_map: Target,
    pub shadow_sampler: wgpu::Sampler,
    /// [min, max] of an auto-ranged view as order-preserving u32s (shaders/common/range.wgsl).
    pub view_range: wgpu::Buffer,
    /// Group 0 reading the scene's colour (what the first colour stage reads).
    pub scene_inputs: wgpu::BindGroup,
    /// Group 1 writing `view`.
    pub view_out: wgpu::BindGroup,
    /// The rest of the colour chain: group 0 reading `view` / `view_b`, group 1 writing `view_b`.
    chain: ChainGroups,
    /// The shared-sky group bound when no chapter of the stack publishes the sky's tables.
    pub sky_stand_in: wgpu::BindGroup,
    /// The volume-shadow group bound when no chapter of the stack publishes one.
    pub volume_shadow_stand_in: wgpu::BindGroup,
    /// The cloud-shadow group bound when no chapter of the stack publishes one.
    pub cloud_shadow_stand_in: wgpu::BindGroup,
    /// What the transparent-fog group holds for a fog chapter missing from the stack.
    pub transparent_fog_stand_ins: crate::transparent_fog::StandIns,
    /// The transparent-fog group of a stack without fog, bound before the transparent stage too.
    pub transparent_fog_stand_in: wgpu::BindGroup,
}

struct ChainGroups {
    inputs_from: [wgpu::BindGroup; 2],
    view_b_out: wgpu::BindGroup,
}

// ANCHOR: color_chain
/// Which colour target a colour stage writes: 0 (`view`) or 1 (`view_b`). Counted back from the
/// last stage, which always writes `view`, so the display and captures never need to know how
/// many stages ran; each stage reads what the one before it wrote (the first reads the scene).
pub fn chain_target(stage: usize, stages: usize) -> usize {
    (stages - 1 - stage) % 2
}
// ANCHOR_END: color_chain

/// Checks a render size against our cap and the device's.
pub fn check_size(gpu: &GpuContext, size: [u32; 2]) -> Result<(), String> {
    let max = MAX_RENDER_SIDE.min(gpu.device.limits().max_texture_dimension_2d);
    if size[0] == 0 || size[1] == 0 {
        return Err(format!("size {}x{} has a zero side", size[0], size[1]));
    }
    if size[0] > max || size[1] > max {
        return Err(format!("size {}x{} exceeds the largest supported side, {max}", size[0], size[1]));
    }
    Ok(())
}

impl FrameResources {
    pub fn new(gpu: &GpuContext, size: [u32; 2]) -> Self {
        let device = &gpu.device;
        let layouts = FrameLayouts::new(device);
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            // COPY_SRC: the sky copies the scene light into it; tests read it back.
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let shadow_map = Target::new(
            device,
            "shadow map",
            [SHADOW_MAP_SIZE; 2],
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let shadow_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow comparison"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let view_range = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("view range"),
            size: 8,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let sky_stand_in = crate::shared_sky::stand_in(device, &layouts.shared_sky);
        let volume_shadow_stand_in = crate::volume_shadow::stand_in(device, &layouts.volume_shadow);
        let cloud_shadow_stand_in = crate::cloud_shadow::stand_in(device, &layouts.cloud_shadow);
        let transparent_fog_stand_ins = crate::transparent_fog::StandIns::new(device);
        let transparent_fog_stand_in =
            crate::transparent_fog::bind_group(device, &layouts.transparent_fog, &transparent_fog_stand_ins, &[]);
        let (hdr, distance, depth, view, view_b) = Self::targets(device, size);
        let (scene_inputs, view_out, chain) = Self::bind_groups(
            device,
            &layouts,
            &uniform,
            [&hdr, &view, &view_b],
            &distance,
            &shadow_map,
            &shadow_sampler,
            &view_range,
        );
        Self {
            size,
            layouts,
            uniform,
            hdr,
            distance,
            depth,
            view,
            view_b,
            shadow_map,
            shadow_sampler,
            view_range,
            scene_inputs,
            view_out,
            chain,
            sky_stand_in,
            volume_shadow_stand_in,
            cloud_shadow_stand_in,
            transparent_fog_stand_ins,
            transparent_fog_stand_in,
        }
    }

    /// The (inputs, output) bind groups of colour stage `stage` of `stages` (see
    /// [`chain_target`]).
    pub fn chain_groups(&self, stage: usize, stages: usize) -> (&wgpu::BindGroup, &wgpu::BindGroup) {
        let output = match chain_target(stage, stages) {
            0 => &self.view_out,
            _ => &self.chain.view_b_out,
        };
        let input = match stage {
            0 => &self.scene_inputs,
            _ => &self.chain.inputs_from[chain_target(stage - 1, stages)],
        };
        (input, output)
    }

    fn targets(device: &wgpu::Device, size: [u32; 2]) -> (Target, Target, Target, Target, Target) {
        use wgpu::TextureUsages as U;
        let attach = U::RENDER_ATTACHMENT | U::TEXTURE_BINDING | U::COPY_SRC;
        // COPY_DST: tests write known values (a NaN) into the view target.
        let chain = U::STORAGE_BINDING | U::TEXTURE_BINDING | U::COPY_SRC | U::COPY_DST;
        (
            Target::new(device, "scene hdr", size, HDR_FORMAT, attach),
            Target::new(device, "scene distance", size, DISTANCE_FORMAT, attach),
            // Sampleable, for later stages that want the hardware depth (e.g. reprojection).
            Target::new(device, "scene depth", size, DEPTH_FORMAT, U::RENDER_ATTACHMENT | U::TEXTURE_BINDING),
            Target::new(device, "view target", size, VIEW_FORMAT, chain),
            Target::new(device, "colour chain b", size, VIEW_FORMAT, chain),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn bind_groups(
        device: &wgpu::Device,
        layouts: &FrameLayouts,
        uniform: &wgpu::Buffer,
        colours: [&Target; 3],
        distance: &Target,
        shadow: &Target,
        sampler: &wgpu::Sampler,
        view_range: &wgpu::Buffer,
    ) -> (wgpu::BindGroup, wgpu::BindGroup, ChainGroups) {
        let inputs = |label: &str, colour: &Target| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout: &layouts.scene_inputs,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&colour.view) },
                    wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(&distance.view) },
                    wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&shadow.view) },
                    wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::Sampler(sampler) },
                ],
            })
        };
        let out = |label: &str, target: &Target| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout: &layouts.view_out,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&target.view) },
                    wgpu::BindGroupEntry { binding: 1, resource: view_range.as_entire_binding() },
                ],
            })
        };
        let [hdr, view, view_b] = colours;
        let chain = ChainGroups {
            inputs_from: [inputs("inputs from view", view), inputs("inputs from colour chain b", view_b)],
            view_b_out: out("colour chain b out", view_b),
        };
        (inputs("scene inputs", hdr), out("view out", view), chain)
    }

    pub fn resize(&mut self, gpu: &GpuContext, size: [u32; 2]) {
        if size == self.size {
            return;
        }
        let device = &gpu.device;
        (self.hdr, self.distance, self.depth, self.view, self.view_b) = Self::targets(device, size);
        (self.scene_inputs, self.view_out, self.chain) = Self::bind_groups(
            device,
            &self.layouts,
            &self.uniform,
            [&self.hdr, &self.view, &self.view_b],
            &self.distance,
            &self.shadow_map,
            &self.shadow_sampler,
            &self.view_range,
        );
        self.size = size;
    }

    pub fn write_uniform(&self, gpu: &GpuContext, uniform: &FrameUniform) {
        gpu.write_buffer(&self.uniform, 0, bytemuck::bytes_of(uniform));
    }

    /// Copies a lent scene light (a buffer holding a `SceneLight`) over the frame uniform's.
    pub fn copy_scene_light(&self, encoder: &mut wgpu::CommandEncoder, from: &wgpu::Buffer) {
        let bytes = std::mem::size_of::<SceneLight>() as u64;
        encoder.copy_buffer_to_buffer(from, 0, &self.uniform, SCENE_LIGHT_OFFSET, bytes);
    }

    /// The group bound for `kind` where no chapter of the stack lends one (see `lend`).
    pub fn stand_in(&self, kind: crate::stage::Resource) -> &wgpu::BindGroup {
        use crate::stage::Resource;
        match kind {
            Resource::SkyTables => &self.sky_stand_in,
            Resource::CloudShadow => &self.cloud_shadow_stand_in,
            Resource::VolumeShadow => &self.volume_shadow_stand_in,
            Resource::TransparentFog => &self.transparent_fog_stand_in,
            other => panic!("{other:?} is not lent as a bind group"),
        }
    }

    /// The frame uniform as the GPU holds it after the last frame (with what stages wrote into
    /// it, e.g. the sky's scene light): for tests.
    pub fn read_uniform(&self, gpu: &GpuContext) -> anyhow::Result<FrameUniform> {
        let bytes = crate::capture::read_buffer(gpu, &self.uniform)?;
        Ok(bytemuck::pod_read_unaligned(&bytes[..std::mem::size_of::<FrameUniform>()]))
    }

    /// Empties the auto range (min slot all ones, max slot zero) before the chapter runs.
    pub fn reset_view_range(&self, gpu: &GpuContext) {
        gpu.write_buffer(&self.view_range, 0, bytemuck::cast_slice(&[u32::MAX, 0u32]));
    }

    /// GPU memory held by these resources (bytes).
    pub fn bytes(&self) -> u64 {
        [&self.hdr, &self.distance, &self.depth, &self.view, &self.view_b, &self.shadow_map]
            .iter()
            .map(|t| t.bytes())
            .sum::<u64>()
            + self.uniform.size()
    }
}
