//! The smoke as a medium sampled at points (shaders/07-smoke/medium.wgsl): its bindings at the
//! media layer's place for a simulated grid's field (`media::point::SIMULATED_GRID_BINDINGS`),
//! the entries over this frame's fields (the smoke's own view pass binds them there too), and
//! the loan of the same resources to a pass that samples every medium (a path tracer).

use crate::fields::Fields;
use fogbook_core::Loan;
use fogbook_core::bindings::{sampler_entry, storage_buffer_entry, texture_3d_entry};
use fogbook_core::media::point::{LentBinding, SIMULATED_GRID_BINDINGS};

/// The bindings of medium.wgsl: the parameter block (read-only storage), the fluid, the
/// velocity, the sampler.
fn medium_bindings() -> [u32; 4] {
    let first = SIMULATED_GRID_BINDINGS.start;
    std::array::from_fn(|k| first + k as u32)
}

/// The layout entries of medium.wgsl's bindings, for any pass that samples the smoke at points.
pub fn medium_layout_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    let c = wgpu::ShaderStages::COMPUTE;
    let float = wgpu::TextureSampleType::Float { filterable: true };
    let [uniform, fluid, velocity, sampler] = medium_bindings();
    vec![
        storage_buffer_entry(uniform, c, true),
        texture_3d_entry(fluid, c, float),
        texture_3d_entry(velocity, c, float),
        sampler_entry(sampler, c),
    ]
}

/// The resources of `medium_layout_entries`: the parameter block, the current (read) sides of
/// the fluid and the velocity, and the smoke's trilinear sampler.
pub fn medium_entries<'a>(
    uniform: &'a wgpu::Buffer,
    sampler: &'a wgpu::Sampler,
    f: &'a Fields,
) -> Vec<wgpu::BindGroupEntry<'a>> {
    let [u, fluid, velocity, s] = medium_bindings();
    let view = |binding, v| wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(v) };
    vec![
        wgpu::BindGroupEntry { binding: u, resource: uniform.as_entire_binding() },
        view(fluid, &f.fluid.read().view),
        view(velocity, &f.velocity.read().view),
        wgpu::BindGroupEntry { binding: s, resource: wgpu::BindingResource::Sampler(sampler) },
    ]
}

/// The same resources lent to a pass that samples the smoke at points (`Resource::PointMedia`).
pub(crate) fn point_media(uniform: &wgpu::Buffer, sampler: &wgpu::Sampler, f: &Fields) -> Loan {
    let [u, fluid, velocity, s] = medium_bindings();
    Loan::Bindings(vec![
        (u, LentBinding::Buffer(uniform.clone())),
        (fluid, LentBinding::Texture(f.fluid.read().view.clone())),
        (velocity, LentBinding::Texture(f.velocity.read().view.clone())),
        (s, LentBinding::Sampler(sampler.clone())),
    ])
}
