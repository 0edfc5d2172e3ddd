//! The faster pressure solvers on the GPU: red–black Gauss–Seidel with over-relaxation (SOR),
//! and geometric multigrid V(2,2) cycles with red–black Gauss–Seidel smoothing, cell-centred
//! averaging restriction and trilinear prolongation (Briggs, Henson and McCormick 2000;
//! Trottenberg, Oosterlee and Schüller 2001; for fluids, McAdams, Sifakis and Teran 2010).
//! Both work in place on the fields' current pressure buffer, so the last step's pressure stays
//! the warm start, as with Jacobi. The CPU twin, in f64, is `reference::poisson`.

use crate::fields::Fields;
use crate::params::{PressureSolver, SmokeParams, TopBoundary};
use crate::passes::{Slot, buf, layout, obstacle_constants};
use crate::reference::poisson::{COARSE_SWEEPS, level_sizes};
use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use fogbook_core::gpu::GpuContext;
use fogbook_core::grid_solver::Kernel;
use fogbook_core::shaders::{ShaderStore, create_module};
use fogbook_core::timing::PassRecorder;

/// Mirrors `struct Level` in shaders/07-smoke/poisson.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct LevelUniform {
    pub n: u32,
    pub coarse_n: u32,
    pub h: f32,
    pub omega: f32,
    pub open_top: u32,
    /// Index of the level's first cell in its q, f and mask: 0 in its own buffers, past the
    /// earlier levels in the workgroup memory of the V-cycle's tail (mg_tail.wgsl).
    pub offset: u32,
    /// The same for the next coarser level.
    pub coarse_offset: u32,
    pub pad: u32,
}

/// The most levels the tail of a V-cycle can have (8³ down to 2³ is three).
pub const TAIL_LEVELS_MAX: usize = 8;

/// The V-cycle's tail starts at the first coarse level of at most this many cells a side.
pub const TAIL_LEVEL_MAX: u32 = 8;

/// Cells of all the tail's levels together, at most (`TAIL_CELLS` in mg_tail.wgsl).
pub const TAIL_CELLS: u32 = 8 * 8 * 8 + 4 * 4 * 4 + 2 * 2 * 2;

/// Mirrors `struct Tail` in shaders/07-smoke/mg_tail.wgsl: the small levels of a V-cycle, done
/// in one dispatch.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct TailUniform {
    pub count: u32,
    pub pre_sweeps: u32,
    pub post_sweeps: u32,
    pub coarse_sweeps: u32,
    pub levels: [LevelUniform; TAIL_LEVELS_MAX],
}

/// What one step's pressure solve does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solve {
    pub solver: PressureSolver,
    /// Sweeps of Jacobi or red–black Gauss–Seidel.
    pub sweeps: u32,
    /// V-cycles of multigrid.
    pub cycles: u32,
    /// Smoothing sweeps of a V-cycle before and after its coarse-grid correction.
    pub pre_sweeps: u32,
    pub post_sweeps: u32,
    /// Over-relaxation of the red–black solver (the multigrid smoother always uses 1).
    pub omega: f32,
    /// Cell size of the finest grid (m).
    pub h: f32,
    pub open_top: bool,
    /// An obstacle is enabled: the sweeps treat solid cells as walls.
    pub solids: bool,
}

impl Solve {
    pub fn new(p: &SmokeParams, n: u32) -> Self {
        Self {
            solver: p.pressure_solver,
            sweeps: p.pressure_iterations,
            cycles: p.multigrid_cycles,
            pre_sweeps: p.multigrid_pre_sweeps.clamp(1, 4),
            post_sweeps: p.multigrid_post_sweeps.min(4),
            // Gauss–Seidel diverges for ω outside (0, 2): keep within the parameter's range.
            omega: if p.sor_omega.is_finite() { p.sor_omega.clamp(0.5, 1.99) } else { 1.0 },
            h: p.box_size_m / n as f32,
            open_top: p.top_boundary == TopBoundary::Open,
            solids: p.sphere_enabled || p.box_enabled,
        }
    }
}

/// The solvers' pipelines: the two colours of a Gauss–Seidel sweep, restriction, prolongation.
pub struct Kernels {
    pub red: Kernel,
    pub black: Kernel,
    /// The V-cycle's small levels, all in one workgroup (mg_tail.wgsl).
    pub tail: Kernel,
    pub restrict: Kernel,
    pub prolong: Kernel,
    /// The solid mask of the next coarser level (coarsen.wgsl).
    pub coarsen: Kernel,
    /// Group 2 of every solver pass: the level's solid mask (poisson.wgsl).
    pub mask_layout: wgpu::BindGroupLayout,
}

impl Kernels {
    pub fn new(gpu: &GpuContext, shaders: &ShaderStore, with_obstacles: bool) -> Result<Self> {
        let device = &gpu.device;
        let constants = obstacle_constants(with_obstacles);
        let (read, read_write) = (Slot::Buffer { read_only: true }, Slot::Buffer { read_only: false });
        let mask_layout = layout(device, "smoke solver mask", &[read]);
        let make = |file: &str, entries: &[&str], slots: &[Slot]| -> Result<Vec<Kernel>> {
            let module = create_module(device, &shaders.load(&format!("07-smoke/{file}"))?)?;
            let textures = layout(device, file, slots);
            entries
                .iter()
                .map(|entry| Kernel::new(device, &module, entry, None, &mask_layout, textures.clone(), &constants))
                .collect()
        };
        // Every solver pass binds a parameter block, f and q at 0–2, then its own.
        let level_slots = |own: &[Slot]| [&[Slot::Uniform, read, read_write][..], own].concat();
        let mut rbgs = make("rbgs.wgsl", &["rbgs_red", "rbgs_black"], &level_slots(&[]))?;
        let black = rbgs.pop().unwrap();
        let red = rbgs.pop().unwrap();
        let one = |file: &str, entry: &str, own: &[Slot]| -> Result<Kernel> {
            Ok(make(file, &[entry], &level_slots(own))?.pop().unwrap())
        };
        let restrict = one("restrict.wgsl", "restrict_residual", &[read_write, read_write])?;
        let prolong = one("prolong.wgsl", "prolong", &[read])?;
        let coarsen = one("coarsen.wgsl", "coarsen_mask", &[read_write])?;
        let tail = one("mg_tail.wgsl", "v_cycle_tail", &[])?;
        Ok(Self { red, black, tail, restrict, prolong, coarsen, mask_layout })
    }
}

/// The coarse grids of one field size and the parameter blocks of every level.
pub struct Hierarchy {
    /// Cells per side, finest first (`reference::poisson::level_sizes`).
    pub sizes: Vec<u32>,
    /// The first level of the V-cycle's tail (`tail_start`), if there is one. Its f, q and mask
    /// have buffers like the levels above it; the levels below it live only in the tail's
    /// workgroup memory.
    pub tail: Option<usize>,
    /// Right-hand side and correction of levels 1, 2, … down to the tail's first (level 0 is the
    /// fields' divergence and pressure).
    pub coarse: Vec<(wgpu::Buffer, wgpu::Buffer)>,
    /// Their solid masks (level 0's is the fields' `solid_linear`).
    pub coarse_solid: Vec<wgpu::Buffer>,
    /// One parameter block per level with buffers, one for the tail, one for the red–black solver.
    pub levels: Vec<wgpu::Buffer>,
    pub tail_uniform: wgpu::Buffer,
    pub sor_level: wgpu::Buffer,
}

/// Bytes of the coarse grids for a fine grid of n³ (three f32 per cell — right-hand side,
/// correction, solid mask: about 12/7 of a byte per fine cell).
pub fn memory_bytes(n: u32) -> u64 {
    level_sizes(n as usize).iter().skip(1).map(|&m| 12 * (m as u64).pow(3)).sum()
}

/// The first level of the V-cycle's tail: the first coarse level (not the finest, whose buffers
/// are the fields') of at most `TAIL_LEVEL_MAX` cells a side.
pub fn tail_start(sizes: &[u32]) -> Option<usize> {
    (1..sizes.len()).find(|&l| sizes[l] <= TAIL_LEVEL_MAX)
}

impl Hierarchy {
    pub fn new(gpu: &GpuContext, n: u32) -> Self {
        let sizes: Vec<u32> = level_sizes(n as usize).into_iter().map(|m| m as u32).collect();
        let tail = tail_start(&sizes);
        let with_buffers = tail.map_or(sizes.len(), |t| t + 1);
        let buffer = |label: String, m: u32| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&label),
                size: 4 * (m as u64).pow(3),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        };
        let coarse = (1..with_buffers)
            .map(|l| (buffer(format!("smoke mg rhs L{l}"), sizes[l]), buffer(format!("smoke mg q L{l}"), sizes[l])))
            .collect();
        let coarse_solid = (1..with_buffers).map(|l| buffer(format!("smoke mg solid L{l}"), sizes[l])).collect();
        let uniform = |label: String, size: usize| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&label),
                size: size as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let level_size = std::mem::size_of::<LevelUniform>();
        let levels = (0..with_buffers).map(|l| uniform(format!("smoke mg level L{l}"), level_size)).collect();
        Self {
            tail,
            coarse,
            coarse_solid,
            levels,
            tail_uniform: uniform("smoke mg tail".into(), std::mem::size_of::<TailUniform>()),
            sor_level: uniform("smoke rbgs level".into(), level_size),
            sizes,
        }
    }

    /// Level l's parameter block, for its own buffers.
    fn level(&self, l: usize, solve: &Solve, omega: f32) -> LevelUniform {
        LevelUniform {
            n: self.sizes[l],
            coarse_n: self.sizes.get(l + 1).copied().unwrap_or(0),
            h: solve.h * (1u32 << l) as f32,
            omega,
            open_top: solve.open_top as u32,
            offset: 0,
            coarse_offset: 0,
            pad: 0,
        }
    }

    /// The tail's parameter block, from level `first` on: the levels one after the other in
    /// workgroup memory.
    fn tail_block(&self, first: usize, solve: &Solve) -> TailUniform {
        let count = self.sizes.len() - first;
        let cells: Vec<u32> = self.sizes[first..].iter().map(|m| m.pow(3)).collect();
        assert!(count <= TAIL_LEVELS_MAX && cells.iter().sum::<u32>() <= TAIL_CELLS, "a V-cycle tail of {cells:?}");
        let offset = |i: usize| cells[..i].iter().sum::<u32>();
        let mut levels = [LevelUniform::zeroed(); TAIL_LEVELS_MAX];
        for (i, level) in levels.iter_mut().enumerate().take(count) {
            *level =
                LevelUniform { offset: offset(i), coarse_offset: offset(i + 1), ..self.level(first + i, solve, 1.0) };
        }
        TailUniform {
            count: count as u32,
            pre_sweeps: solve.pre_sweeps,
            post_sweeps: solve.post_sweeps,
            coarse_sweeps: COARSE_SWEEPS as u32,
            levels,
        }
    }
}

/// One dispatch of a solver pass.
struct Op<'a> {
    label: String,
    pass: &'a Kernel,
    /// The level's solid mask (group 2).
    mask: &'a wgpu::BindGroup,
    group: &'a wgpu::BindGroup,
    groups: [u32; 3],
}

/// Records the dispatches, one compute pass per run of equal labels (each dispatch sees the
/// previous one's writes).
fn emit(passes: &mut PassRecorder, ops: &[Op]) {
    let mut start = 0;
    while start < ops.len() {
        let end = start + ops[start..].iter().take_while(|o| o.label == ops[start].label).count();
        passes.compute(&ops[start].label, |p| {
            for op in &ops[start..end] {
                p.set_pipeline(&op.pass.pipeline);
                p.set_bind_group(2, op.mask, &[]);
                p.set_bind_group(3, op.group, &[]);
                let [x, y, z] = op.groups;
                p.dispatch_workgroups(x, y, z);
            }
        });
        start = end;
    }
}

/// Workgroups of a pass over (x, n, n) threads with the solvers' 64 × 4 × 1 workgroup.
fn groups(x: u32, n: u32) -> [u32; 3] {
    [x.div_ceil(64), n.div_ceil(4), n]
}

/// The two passes of one red–black sweep on a grid of n³.
fn sweep<'a>(
    k: &'a Kernels,
    mask: &'a wgpu::BindGroup,
    group: &'a wgpu::BindGroup,
    n: u32,
    label: [String; 2],
) -> [Op<'a>; 2] {
    let [red, black] = label;
    let g = groups(n.div_ceil(2), n);
    [
        Op { label: red, pass: &k.red, mask, group, groups: g },
        Op { label: black, pass: &k.black, mask, group, groups: g },
    ]
}

/// The group-2 bind group of a solid-mask buffer.
fn mask_group(gpu: &GpuContext, k: &Kernels, mask: &wgpu::Buffer) -> wgpu::BindGroup {
    gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("smoke solver mask"),
        layout: &k.mask_layout,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: mask.as_entire_binding() }],
    })
}

// ANCHOR: record_rbgs
/// `solve.sweeps` red–black Gauss–Seidel sweeps with ω = `solve.omega` on the fields' pressure,
/// in place. The first sweep's two colours are timed passes of their own ("smoke: pressure rbgs
/// red" and "… black"), the remaining sweeps one pass.
pub fn record_rbgs(gpu: &GpuContext, passes: &mut PassRecorder, k: &Kernels, f: &Fields, solve: &Solve) {
    let h = &f.multigrid;
    passes.write_buffer(&h.sor_level, 0, bytemuck::bytes_of(&h.level(0, solve, solve.omega)));
    let group = k.red.bind(&gpu.device, &[buf(&h.sor_level), buf(&f.divergence_linear), buf(f.pressure.read())]);
    let mask = mask_group(gpu, k, &f.solid_linear);
    let ops: Vec<Op> = (0..solve.sweeps)
        .flat_map(|i| {
            let label = |colour: &str| match i {
                0 => format!("smoke: pressure rbgs {colour}"),
                _ => format!("smoke: pressure rbgs sweeps 2–{}", solve.sweeps),
            };
            sweep(k, &mask, &group, f.n, [label("red"), label("black")])
        })
        .collect();
    emit(passes, &ops);
}
// ANCHOR_END: record_rbgs

/// Levels at least this large get timed passes of their own in the first V-cycle; the coarser
/// rest of the cycle is one pass ("smoke: mg levels Lk–Lc").
pub const TIMED_LEVEL_MIN: u32 = 32;

/// Bind groups of one level: smoothing, restriction into the next level, prolongation from it.
struct LevelGroups {
    smooth: wgpu::BindGroup,
    restrict: Option<wgpu::BindGroup>,
    prolong: Option<wgpu::BindGroup>,
}

/// `solve.cycles` multigrid V(ν₁,ν₂) cycles on the fields' pressure, in place (warm-started from
/// its current values). Pass labels: "smoke: mg smooth L0 (pre)", "smoke: mg restrict L1",
/// "smoke: mg prolong L1", … for the first cycle, the levels below 32³ together as
/// "smoke: mg levels Lk–Lc" (from 8³ on one dispatch, mg_tail.wgsl), and the later cycles as
/// one pass.
pub fn record_multigrid(gpu: &GpuContext, passes: &mut PassRecorder, k: &Kernels, f: &Fields, solve: &Solve) {
    let d = &gpu.device;
    let h = &f.multigrid;
    let count = h.sizes.len();
    for (l, buffer) in h.levels.iter().enumerate() {
        passes.write_buffer(buffer, 0, bytemuck::bytes_of(&h.level(l, solve, 1.0)));
    }
    if let Some(first) = h.tail {
        passes.write_buffer(&h.tail_uniform, 0, bytemuck::bytes_of(&h.tail_block(first, solve)));
    }
    // Right-hand side, q and solid mask of the levels with buffers.
    let rhs = |l: usize| if l == 0 { &f.divergence_linear } else { &h.coarse[l - 1].0 };
    let q = |l: usize| if l == 0 { f.pressure.read() } else { &h.coarse[l - 1].1 };
    let solid = |l: usize| if l == 0 { &f.solid_linear } else { &h.coarse_solid[l - 1] };
    let level_res = |l: usize| [buf(&h.levels[l]), buf(rhs(l)), buf(q(l))];
    let masks: Vec<wgpu::BindGroup> = (0..h.levels.len()).map(|l| mask_group(gpu, k, solid(l))).collect();
    // Levels smoothed by passes of their own, and the coarsest of them (solved by sweeps when
    // there is no tail).
    let own = h.tail.unwrap_or(count);
    let coarsest = own.min(count - 1);
    // The masks of the levels with buffers; the tail coarsens its own.
    let coarsen_groups: Vec<wgpu::BindGroup> = (0..h.levels.len() - 1)
        .map(|l| k.coarsen.bind(d, &[level_res(l).as_slice(), &[buf(solid(l + 1))]].concat()))
        .collect();
    let groups_of: Vec<LevelGroups> = (0..own)
        .map(|l| {
            let coarser = l + 1 < count;
            LevelGroups {
                smooth: k.red.bind(d, &level_res(l)),
                restrict: coarser.then(|| {
                    k.restrict.bind(d, &[level_res(l).as_slice(), &[buf(rhs(l + 1)), buf(q(l + 1))]].concat())
                }),
                prolong: coarser.then(|| k.prolong.bind(d, &[level_res(l).as_slice(), &[buf(q(l + 1))]].concat())),
            }
        })
        .collect();
    let tail_group = h.tail.map(|t| k.tail.bind(d, &[buf(&h.tail_uniform), buf(rhs(t)), buf(q(t))]));
    let timed_tail = h.sizes.iter().position(|&m| m < TIMED_LEVEL_MIN).unwrap_or(count - 1).max(1);
    let tail_label = format!("smoke: mg levels L{timed_tail}–L{}", count - 1);
    let mut ops = Vec::new();
    // The coarse levels' solid masks, from the finest down (once per solve: the obstacles move
    // between steps, not within one). Without obstacles no pass reads them.
    if solve.cycles > 0 && solve.solids {
        for (l, group) in coarsen_groups.iter().enumerate() {
            let nc = h.sizes[l + 1];
            let label = "smoke: mg coarsen solid mask".to_string();
            ops.push(Op { label, pass: &k.coarsen, mask: &masks[l], group, groups: groups(nc, nc) });
        }
    }
    // ANCHOR: record_multigrid
    for cycle in 0..solve.cycles {
        // The label of an op that belongs to level l.
        let label = |l: usize, what: String| match (cycle, l >= timed_tail) {
            (0, false) => format!("smoke: mg {what}"),
            (0, true) => tail_label.clone(),
            _ => format!("smoke: mg V-cycles 2–{}", solve.cycles),
        };
        // One smoothing of level l: two passes a sweep.
        let smooth = |l: usize, sweeps: usize, name: String| -> Vec<Op> {
            let (mask, group) = (&masks[l], &groups_of[l].smooth);
            (0..sweeps).flat_map(|_| sweep(k, mask, group, h.sizes[l], [name.clone(), name.clone()])).collect()
        };
        for (l, g) in groups_of.iter().enumerate().take(coarsest) {
            ops.extend(smooth(l, solve.pre_sweeps as usize, label(l, format!("smooth L{l} (pre)"))));
            let nc = h.sizes[l + 1];
            let group = g.restrict.as_ref().unwrap();
            let name = label(l + 1, format!("restrict L{}", l + 1));
            ops.push(Op { label: name, pass: &k.restrict, mask: &masks[l], group, groups: groups(nc, nc) });
        }
        match (&tail_group, h.tail) {
            (Some(group), Some(t)) => {
                let name = label(t, format!("levels L{t}–L{}", count - 1));
                ops.push(Op { label: name, pass: &k.tail, mask: &masks[t], group, groups: [1, 1, 1] });
            }
            _ => ops.extend(smooth(coarsest, COARSE_SWEEPS, label(coarsest, format!("coarse solve L{coarsest}")))),
        }
        for l in (0..coarsest).rev() {
            let g = &groups_of[l];
            // One thread per coarse cell, for its children (prolong.wgsl).
            let nc = h.sizes[l + 1];
            let name = label(l + 1, format!("prolong L{}", l + 1));
            let group = g.prolong.as_ref().unwrap();
            ops.push(Op { label: name, pass: &k.prolong, mask: &masks[l], group, groups: groups(nc, nc) });
            ops.extend(smooth(l, solve.post_sweeps as usize, label(l, format!("smooth L{l} (post)"))));
        }
    }
    emit(passes, &ops);
    // ANCHOR_END: record_multigrid
}
