//! The clouds' shadow map (shaders/06-clouds/shadow_map.wgsl): a square of the ground around the
//! camera, `shadow_extent_km` on a side in `shadow_resolution`² texels, each holding the sun's
//! transmittance through the cloud layer from that ground point, published through the core
//! (`fogbook_core::cloud_shadow`) to the scene's and the froxel fog's sun light.
//!
//! The map is rebuilt only when what it depends on changes: the cloud parameters and the wind's
//! offset (the whole `CloudUniform` but the view), the sun's direction, the square (it follows
//! the camera in whole texels, so that it does not shimmer as the camera moves), the noise and
//! the sky's tables. A still scene builds it once; with wind and a running clock, every frame.

use crate::CloudUniform;
use crate::textures::{NoiseTextures, storage_entry};
use fogbook_core::bindings::{texture_entry, uniform_entry};
use fogbook_core::cloud_shadow::{self, CloudShadowUniform, MAP_FORMAT};
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE, Target};
use fogbook_core::shaders::compute_pipeline;
use fogbook_core::{ChapterContext, Resource};

pub const SHADER: &str = "06-clouds/shadow_map.wgsl";

/// The map's square and resolution as asked for: (extent in m, texels per side).
pub fn map_size(extent_km: f32, resolution: u32) -> (f32, u32) {
    (fogbook_core::params::finite_in(extent_km, 0.5, 200.0, 16.0) * 1000.0, resolution.clamp(8, 2048))
}

/// The uniform of a map `extent_m` on a side in `resolution`² texels, centred on the texel
/// corner nearest the camera, built along the sun `sun` (clamped to 3° of elevation).
pub fn map_uniform(
    camera: [f32; 3],
    sun: [f32; 3],
    extent_m: f32,
    resolution: u32,
    strength: f32,
) -> CloudShadowUniform {
    let texel = (extent_m / resolution as f32) as f64;
    // Snapped in f64: the camera may stand far from the origin.
    let snap = |v: f32| ((v as f64 / texel).round() * texel) as f32;
    CloudShadowUniform {
        centre_xz: [snap(camera[0]), snap(camera[2])],
        extent_m,
        enabled: 1,
        towards_sun: CloudShadowUniform::clamped_sun(sun),
        strength: fogbook_core::params::finite_in(strength, 0.0, 1.0, 1.0),
    }
}

/// Where scene point `p` looks the map up, as shaders/common/cloud_shadow.wgsl's
/// `cloud_shadow_at` does: the ground point its ray towards the sun starts from, as uv in the
/// map's square; `None` outside the square, where the lookup gives 1.
pub fn lookup_uv(map: &CloudShadowUniform, p: [f64; 3]) -> Option<[f64; 2]> {
    let l = map.towards_sun.map(f64::from);
    let ground = [p[0] - l[0] * (p[1] / l[1]), p[2] - l[2] * (p[1] / l[1])];
    let uv = [0, 1].map(|k| (ground[k] - map.centre_xz[k] as f64) / map.extent_m as f64 + 0.5);
    uv.iter().all(|c| (0.0..=1.0).contains(c)).then_some(uv)
}

pub struct ShadowMapGpu {
    build_layout: wgpu::BindGroupLayout,
    view_layout: wgpu::BindGroupLayout,
    build_pipeline: wgpu::ComputePipeline,
    view_pipeline: wgpu::ComputePipeline,
    uniform: wgpu::Buffer,
    sampler: wgpu::Sampler,
    map: Target,
    /// The core's cloud-shadow group over `uniform` and `map`.
    published: wgpu::BindGroup,
    view_group: wgpu::BindGroup,
    /// The build pass's group (the march's bindings and the map's), made on first use and again
    /// after new noise textures or a new map.
    build_group: Option<wgpu::BindGroup>,
    /// What the map in `map` was built from (`None`: build it).
    built_from: Option<(Vec<u8>, wgpu::BindGroup)>,
    /// Builds so far (for the tests: a still frame must not rebuild it).
    pub builds: u64,
}

impl ShadowMapGpu {
    pub fn new(
        device: &wgpu::Device,
        layouts: &FrameLayouts,
        module: &wgpu::ShaderModule,
        resolution: u32,
    ) -> anyhow::Result<Self> {
        let c = wgpu::ShaderStages::COMPUTE;
        let mut entries = crate::march_layout_entries();
        entries.push(uniform_entry(20, c));
        entries.push(storage_entry(21, MAP_FORMAT, wgpu::TextureViewDimension::D2));
        let build_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cloud shadow map build"),
            entries: &entries,
        });
        let view_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cloud shadow map view"),
            entries: &[texture_entry(22, c, wgpu::TextureSampleType::Float { filterable: true })],
        });
        let build_pipeline = compute_pipeline(
            device,
            module,
            "build_shadow_map",
            &[Some(&layouts.scene_inputs), None, Some(&build_layout), Some(&layouts.shared_sky)],
        )?;
        let view_pipeline = compute_pipeline(
            device,
            module,
            "cloud_shadow_view",
            &[Some(&layouts.scene_inputs), Some(&layouts.view_out), Some(&view_layout)],
        )?;
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("cloud shadow"),
            size: std::mem::size_of::<CloudShadowUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sampler = cloud_shadow::sampler(device);
        let map = Self::target(device, resolution);
        let published = cloud_shadow::bind_group(device, &layouts.cloud_shadow, &uniform, &map.view, &sampler);
        let view_group = Self::view_group(device, &view_layout, &map);
        Ok(Self {
            build_layout,
            view_layout,
            build_pipeline,
            view_pipeline,
            uniform,
            sampler,
            map,
            published,
            view_group,
            build_group: None,
            built_from: None,
            builds: 0,
        })
    }

    fn target(device: &wgpu::Device, resolution: u32) -> Target {
        use wgpu::TextureUsages as U;
        Target::new(device, "cloud shadow map", [resolution; 2], MAP_FORMAT, U::STORAGE_BINDING | U::TEXTURE_BINDING)
    }

    fn view_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, map: &Target) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cloud shadow map view"),
            layout,
            entries: &[wgpu::BindGroupEntry { binding: 22, resource: wgpu::BindingResource::TextureView(&map.view) }],
        })
    }

    /// The core's cloud-shadow group (`Chapter::lend`).
    pub fn published(&self) -> &wgpu::BindGroup {
        &self.published
    }

    /// New noise textures: the build group and the map are out of date.
    pub fn forget(&mut self) {
        self.build_group = None;
        self.built_from = None;
    }

    /// Builds the map when what it depends on has changed since the last build: `clouds`, the
    /// clouds' uniform as this frame's march has it (written to `clouds_buffer` this frame),
    /// and `shadow`, the map's square and sun.
    pub fn record(
        &mut self,
        ctx: &mut ChapterContext,
        clouds: &CloudUniform,
        clouds_buffer: &wgpu::Buffer,
        noise: &NoiseTextures,
        shadow: &CloudShadowUniform,
        resolution: u32,
    ) {
        let device = &ctx.gpu.device;
        if self.map.texture.width() != resolution {
            self.map = Self::target(device, resolution);
            self.published = cloud_shadow::bind_group(
                device,
                &ctx.frame.layouts.cloud_shadow,
                &self.uniform,
                &self.map.view,
                &self.sampler,
            );
            self.view_group = Self::view_group(device, &self.view_layout, &self.map);
            self.forget();
        }
        // ANCHOR: record
        // The view's index and the real-time mode's fields do not change the density.
        let mut density = *clouds;
        density.counts[3] = 0;
        density.realtime = [0; 4];
        density.reprojection = [0.0; 4];
        let mut key = bytemuck::bytes_of(&density).to_vec();
        key.extend_from_slice(bytemuck::bytes_of(shadow));
        let sky_tables = ctx.group(Resource::SkyTables);
        if self.built_from.as_ref().is_some_and(|(k, sky)| *k == key && sky == sky_tables) {
            return;
        }
        self.built_from = Some((key, sky_tables.clone()));
        self.builds += 1;
        // ANCHOR_END: record
        ctx.gpu.write_buffer(&self.uniform, 0, bytemuck::bytes_of(shadow));
        let build_group = self.build_group.get_or_insert_with(|| {
            let mut entries = crate::march_entries(clouds_buffer, noise);
            entries.push(wgpu::BindGroupEntry { binding: 20, resource: self.uniform.as_entire_binding() });
            entries.push(wgpu::BindGroupEntry {
                binding: 21,
                resource: wgpu::BindingResource::TextureView(&self.map.view),
            });
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("cloud shadow map build"),
                layout: &self.build_layout,
                entries: &entries,
            })
        });
        let groups = resolution.div_ceil(SCREEN_TILE);
        ctx.passes.compute("clouds: shadow map", |pass| {
            pass.set_pipeline(&self.build_pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(2, &*build_group, &[]);
            pass.set_bind_group(3, sky_tables, &[]);
            pass.dispatch_workgroups(groups, groups, 1);
        });
    }

    /// The `cloud-shadow` view into the stage's output.
    pub fn draw_view(&self, ctx: &mut ChapterContext) {
        let [w, h] = ctx.frame.size;
        ctx.passes.compute("clouds: shadow map view", |pass| {
            pass.set_pipeline(&self.view_pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, &self.view_group, &[]);
            pass.dispatch_workgroups(w.div_ceil(SCREEN_TILE), h.div_ceil(SCREEN_TILE), 1);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point up the sun's ray from a ground point looks up that ground point's texel; the
    /// camera's own ground point is the square's centre; beyond the square there is none.
    #[test]
    fn points_look_up_the_ground_point_they_project_to() {
        let sun = [0.3f32, 0.5, -0.2];
        let map = map_uniform([0.0, 2.0, 0.0], sun, 1000.0, 100, 1.0);
        let l = map.towards_sun.map(f64::from);
        let ground = [120.0, 0.0, -40.0];
        let up = [ground[0] + 300.0 * l[0], 300.0 * l[1], ground[2] + 300.0 * l[2]];
        let (a, b) = (lookup_uv(&map, ground).unwrap(), lookup_uv(&map, up).unwrap());
        assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12, "{a:?} {b:?}");
        assert_eq!(lookup_uv(&map, [0.0, 0.0, 0.0]), Some([0.5, 0.5]));
        assert_eq!(lookup_uv(&map, [501.0, 0.0, 0.0]), None);
    }
}
