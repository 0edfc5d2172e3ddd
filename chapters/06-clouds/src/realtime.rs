//! The real-time mode (shaders/06-clouds/realtime.wgsl): each frame one pixel of every 4×4 block
//! is ray-marched, in a 4×4 Bayer order so that 16 frames cover each block, into
//! quarter-resolution textures; a second pass rebuilds the full-resolution clouds from them and
//! from last frame's result, reprojected (Schneider & Vos 2015). The history is a pair of
//! `HistoryTargets` (the core's), for the clouds' light and transmittance and for the scene's
//! distance, the cloud's distance, the age and the reason per pixel.

use crate::textures::{NoiseTextures, storage_entry};
use crate::{CloudUniform, march_entries, march_layout_entries};
use fogbook_core::bindings::texture_entry;
use fogbook_core::frame::{FrameLayouts, SCREEN_TILE, Target};
use fogbook_core::history::HistoryTargets;
use fogbook_core::shaders::compute_pipeline;
use fogbook_core::{ChapterContext, Resource};

pub const SHADER: &str = "06-clouds/realtime.wgsl";
/// Side of the block of pixels one fresh sample stands for.
pub const BLOCK: u32 = 4;
/// Light (rgb) and transmittance (a) of the clouds.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Quarter resolution: cloud distance, scene end; full resolution: scene end, cloud distance,
/// age (frames), reason.
pub const AUX_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

// ANCHOR: bayer
/// The 4×4 Bayer matrix: frame k of every 16 marches the pixel of each block whose entry is k.
/// Consecutive frames land far apart in the block, so that any 4 frames spread over it.
pub const BAYER4: [[u32; 4]; 4] = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]];

/// The pixel (x, y) of each block that real-time frame `frame` marches.
pub fn block_offset(frame: u64) -> [u32; 2] {
    let k = (frame % 16) as u32;
    for (y, row) in BAYER4.iter().enumerate() {
        if let Some(x) = row.iter().position(|&v| v == k) {
            return [x as u32, y as u32];
        }
    }
    unreachable!("the Bayer matrix holds 0..16")
}
// ANCHOR_END: bayer

pub struct RealtimeGpu {
    march_layout: wgpu::BindGroupLayout,
    resolve_layout: wgpu::BindGroupLayout,
    march_pipeline: wgpu::ComputePipeline,
    resolve_pipeline: wgpu::ComputePipeline,
    quarter_color: Target,
    quarter_aux: Target,
    color: HistoryTargets,
    aux: HistoryTargets,
    /// Real-time frames drawn (the Bayer index), and whether the last call drew one: the
    /// history is last frame's only then.
    pub frames: u64,
    pub drew_last_call: bool,
    /// The wind's offset of the last real-time frame (m, along x and z).
    last_wind: Option<[f64; 2]>,
    /// The march pass's bind group and the reconstruction's for each way round of the history
    /// pair, made on first use and again after a resize or new noise textures.
    groups: Option<Groups>,
}

struct Groups {
    march: wgpu::BindGroup,
    resolve: [wgpu::BindGroup; 2],
}

fn quarter_size(size: [u32; 2]) -> [u32; 2] {
    [size[0].div_ceil(BLOCK), size[1].div_ceil(BLOCK)]
}

fn targets(device: &wgpu::Device, size: [u32; 2]) -> (Target, Target) {
    use wgpu::TextureUsages as U;
    let usage = U::STORAGE_BINDING | U::TEXTURE_BINDING | U::COPY_SRC;
    let q = quarter_size(size);
    (
        Target::new(device, "clouds quarter colour", q, COLOR_FORMAT, usage),
        Target::new(device, "clouds quarter aux", q, AUX_FORMAT, usage),
    )
}

fn storage(binding: u32, format: wgpu::TextureFormat) -> wgpu::BindGroupLayoutEntry {
    storage_entry(binding, format, wgpu::TextureViewDimension::D2)
}

impl RealtimeGpu {
    pub fn new(device: &wgpu::Device, layouts: &FrameLayouts, module: &wgpu::ShaderModule) -> anyhow::Result<Self> {
        let c = wgpu::ShaderStages::COMPUTE;
        let unfilterable = wgpu::TextureSampleType::Float { filterable: false };
        let mut march = march_layout_entries();
        march.extend([storage(5, COLOR_FORMAT), storage(6, AUX_FORMAT)]);
        let mut resolve = march_layout_entries();
        resolve.extend((7..11).map(|b| texture_entry(b, c, unfilterable)));
        resolve.extend([storage(11, COLOR_FORMAT), storage(12, AUX_FORMAT)]);
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })
        };
        let march_layout = layout("clouds real-time march", &march);
        let resolve_layout = layout("clouds reconstruction", &resolve);
        let sky = Some(&layouts.shared_sky);
        let inputs = Some(&layouts.scene_inputs);
        let march_pipeline =
            compute_pipeline(device, module, "clouds_march_quarter", &[inputs, None, Some(&march_layout), sky])?;
        let resolve_pipeline = compute_pipeline(
            device,
            module,
            "clouds_reconstruct",
            &[inputs, Some(&layouts.view_out), Some(&resolve_layout), sky],
        )?;
        let size = [1, 1];
        let (quarter_color, quarter_aux) = targets(device, size);
        Ok(Self {
            march_layout,
            resolve_layout,
            march_pipeline,
            resolve_pipeline,
            quarter_color,
            quarter_aux,
            color: HistoryTargets::new(device, "clouds history", COLOR_FORMAT, size),
            aux: HistoryTargets::new(device, "clouds history aux", AUX_FORMAT, size),
            frames: 0,
            drew_last_call: false,
            last_wind: None,
            groups: None,
        })
    }

    /// Follows the frame's size; false when the history had to be made anew.
    fn follow(&mut self, device: &wgpu::Device, size: [u32; 2]) -> bool {
        let resized = self.color.follow(device, size) | self.aux.follow(device, size);
        if resized {
            (self.quarter_color, self.quarter_aux) = targets(device, size);
            self.groups = None;
        }
        !resized
    }

    /// The noise textures were made anew: the bind groups must be too.
    pub fn forget_groups(&mut self) {
        self.groups = None;
    }

    fn make_groups(&self, device: &wgpu::Device, clouds_uniform: &wgpu::Buffer, noise: &NoiseTextures) -> Groups {
        let tex = |binding, view| wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(view) };
        let group = |label, layout, entries: &[wgpu::BindGroupEntry]| {
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries })
        };
        let mut march = march_entries(clouds_uniform, noise);
        march.extend([tex(5, &self.quarter_color.view), tex(6, &self.quarter_aux.view)]);
        // Way round 0: read the pair's first textures, write the second; way round 1 the other.
        let resolve = |read: usize| {
            let (c, a) = (self.color.pair(), self.aux.pair());
            let mut entries = march_entries(clouds_uniform, noise);
            entries.extend([
                tex(7, &self.quarter_color.view),
                tex(8, &self.quarter_aux.view),
                tex(9, &c[read].view),
                tex(10, &a[read].view),
                tex(11, &c[1 - read].view),
                tex(12, &a[1 - read].view),
            ]);
            group("clouds reconstruction", &self.resolve_layout, &entries)
        };
        Groups { march: group("clouds real-time march", &self.march_layout, &march), resolve: [resolve(0), resolve(1)] }
    }

    /// Full-resolution history textures as last drawn: (light + transmittance, aux), for tests.
    pub fn history(&self) -> (&Target, &Target) {
        (self.color.previous(), self.aux.previous())
    }

    // ANCHOR: record
    /// Records the quarter-resolution march and the reconstruction of one frame.
    pub fn record(
        &mut self,
        ctx: &mut ChapterContext,
        uniform: &mut CloudUniform,
        clouds_uniform: &wgpu::Buffer,
        noise: &NoiseTextures,
        wind: [f64; 2],
        reproject: bool,
    ) {
        let device = &ctx.gpu.device;
        let size = ctx.frame.size;
        let kept = self.follow(device, size);
        // The history is last frame's only if the core says nothing invalidated it and the last
        // call drew a real-time frame into it.
        let history = kept && self.drew_last_call && ctx.uniform.history_valid == 1;
        let step = match (history, self.last_wind) {
            (true, Some(last)) => [(wind[0] - last[0]) as f32, (wind[1] - last[1]) as f32],
            _ => [0.0; 2],
        };
        let [x, y] = block_offset(self.frames);
        uniform.realtime = [x, y, history as u32, reproject as u32];
        (uniform.reprojection[0], uniform.reprojection[1]) = (step[0], step[1]);
        ctx.passes.write_buffer(clouds_uniform, 0, bytemuck::bytes_of(uniform));
        if self.groups.is_none() {
            self.groups = Some(self.make_groups(device, clouds_uniform, noise));
        }
        let groups = self.groups.as_ref().expect("made above");
        let (march_group, resolve_group) = (&groups.march, &groups.resolve[self.color.previous_index()]);
        let q = quarter_size(size);
        let sky = ctx.group(Resource::SkyTables);
        ctx.passes.compute("clouds: march 1/16", |pass| {
            pass.set_pipeline(&self.march_pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(2, march_group, &[]);
            pass.set_bind_group(3, sky, &[]);
            pass.dispatch_workgroups(q[0].div_ceil(SCREEN_TILE), q[1].div_ceil(SCREEN_TILE), 1);
        });
        ctx.passes.compute("clouds: reconstruction", |pass| {
            pass.set_pipeline(&self.resolve_pipeline);
            pass.set_bind_group(0, ctx.inputs, &[]);
            pass.set_bind_group(1, ctx.output, &[]);
            pass.set_bind_group(2, resolve_group, &[]);
            pass.set_bind_group(3, sky, &[]);
            pass.dispatch_workgroups(size[0].div_ceil(SCREEN_TILE), size[1].div_ceil(SCREEN_TILE), 1);
        });
        self.color.swap();
        self.aux.swap();
        self.frames += 1;
        self.drew_last_call = true;
        self.last_wind = Some(wind);
    }
    // ANCHOR_END: record
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 16 consecutive frames mark every pixel of the block once, from any starting frame, and
    /// each 4 frames from a multiple of 4 fall in the block's four 2×2 quarters.
    #[test]
    fn the_bayer_order_covers_the_block_in_16_frames() {
        for start in [0u64, 5, 1000] {
            let mut seen = [[false; 4]; 4];
            for f in start..start + 16 {
                let [x, y] = block_offset(f);
                assert!(!seen[y as usize][x as usize], "frame {f} repeats ({x}, {y})");
                seen[y as usize][x as usize] = true;
            }
        }
        for k in (0..16).step_by(4) {
            let mut quarters: Vec<u32> = (k..k + 4).map(block_offset).map(|[x, y]| x / 2 + 2 * (y / 2)).collect();
            quarters.sort();
            assert_eq!(quarters, [0, 1, 2, 3], "frames {k}..{}", k + 4);
        }
    }
}
