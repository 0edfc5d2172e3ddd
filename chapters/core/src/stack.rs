//! A stack: several chapters rendered in one frame, each in its stage (see [`crate::stage`]).
//!
//! A single chapter is a stack of one, and renders exactly what it rendered alone. A stack's
//! views are named `chapter/view`; `final` is the whole frame. Choosing `chapter/view` shows
//! the frame as that chapter's stage leaves it, with that view: the stages after it are
//! skipped. A single chapter's views keep their bare names.

use crate::chapter::DynChapter;
use crate::gpu::Requirements;
use crate::params::{ParamError, collect, set_by_name};
use crate::stage::{PlannedPass, StageIo, frame_plan};
use crate::timing::PassTimes;
use crate::views::ViewInfo;

/// A chosen view: a chapter of the stack (index in stage order) and one of its views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StackView {
    pub chapter: usize,
    pub view: usize,
}

/// One entry of a stack's view list.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedView {
    pub name: String,
    pub at: StackView,
    pub info: ViewInfo,
}

pub struct Stack {
    /// In stage order (book order within a stage, then by id).
    chapters: Vec<Box<dyn DynChapter>>,
}

impl Stack {
    /// Orders the chapters by stage; refuses an empty list and repeated chapters.
    pub fn new(mut chapters: Vec<Box<dyn DynChapter>>) -> Result<Self, String> {
        if chapters.is_empty() {
            return Err("a stack needs at least one chapter".into());
        }
        let mut ids: Vec<&str> = chapters.iter().map(|c| c.info().id).collect();
        ids.sort();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("chapter {:?} is listed twice", w[0]));
        }
        chapters.sort_by_key(|c| (c.stage_io().stage, c.info().number, c.info().id));
        Ok(Self { chapters })
    }

    // ANCHOR: restack
    /// Keeps the chapters named in `keep` (with their GPU state and simulations), adds `fresh`
    /// ones, and puts them in stage order. A set that would be empty or name a chapter twice is
    /// refused and nothing changes.
    pub fn restack(&mut self, keep: &[&str], fresh: Vec<Box<dyn DynChapter>>) -> Result<(), String> {
        let mut ids: Vec<&str> = self.ids().into_iter().filter(|id| keep.contains(id)).collect();
        ids.extend(fresh.iter().map(|c| c.info().id));
        if ids.is_empty() {
            return Err("a stack needs at least one chapter".into());
        }
        ids.sort();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("chapter {:?} is listed twice", w[0]));
        }
        self.chapters.retain(|c| keep.contains(&c.info().id));
        self.chapters.extend(fresh);
        self.chapters.sort_by_key(|c| (c.stage_io().stage, c.info().number, c.info().id));
        Ok(())
    }
    // ANCHOR_END: restack

    /// Takes the chapters not named in `keep` out of the stack, GPU state and all, so that a
    /// caller can put them back later (`restack` with them as `fresh`) without recreating them.
    /// Call `restack` next: the stack may be left empty.
    pub fn take_all_but(&mut self, keep: &[&str]) -> Vec<Box<dyn DynChapter>> {
        let (kept, taken) = std::mem::take(&mut self.chapters).into_iter().partition(|c| keep.contains(&c.info().id));
        self.chapters = kept;
        taken
    }

    pub fn len(&self) -> usize {
        self.chapters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chapters.is_empty()
    }

    pub fn is_single(&self) -> bool {
        self.chapters.len() == 1
    }

    pub fn chapters(&self) -> &[Box<dyn DynChapter>] {
        &self.chapters
    }

    pub fn chapters_mut(&mut self) -> &mut [Box<dyn DynChapter>] {
        &mut self.chapters
    }

    pub fn chapter_mut(&mut self, index: usize) -> &mut dyn DynChapter {
        self.chapters[index].as_mut()
    }

    /// The chapters' ids in stage order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.chapters.iter().map(|c| c.info().id).collect()
    }

    /// The ids joined by commas: what `--chapter` and presets take.
    pub fn spec(&self) -> String {
        self.ids().join(",")
    }

    pub fn position(&self, id: &str) -> Option<usize> {
        self.chapters.iter().position(|c| c.info().id == id)
    }

    /// The union of every chapter's device requirements.
    pub fn requirements(&self) -> Requirements {
        union_requirements(self.chapters.iter().map(|c| c.requirements()))
    }

    /// The frame's passes in order (for the book's diagram and the stage-order test).
    pub fn plan(&self) -> Vec<PlannedPass> {
        frame_plan(&self.registrations())
    }

    pub fn registrations(&self) -> Vec<(&'static str, u32, StageIo)> {
        self.chapters.iter().map(|c| (c.info().id, c.info().number, c.stage_io())).collect()
    }

    // ANCHOR: views
    /// Every view on offer: a single chapter's by their own names; a stack's `final` (the
    /// whole frame) and then `chapter/view` for each chapter (the last chapter's own final is
    /// the stack's `final`).
    pub fn views(&self) -> Vec<NamedView> {
        if let [only] = self.chapters.as_slice() {
            return only
                .views()
                .iter()
                .enumerate()
                .map(|(view, info)| NamedView {
                    name: info.name.into(),
                    at: StackView { chapter: 0, view },
                    info: *info,
                })
                .collect();
        }
        let last = self.chapters.len() - 1;
        let mut out = vec![NamedView {
            name: "final".into(),
            at: StackView { chapter: last, view: 0 },
            info: ViewInfo {
                name: "final",
                description: "Every stage of the stack, in order",
                ..self.chapters[last].views()[0]
            },
        }];
        for (chapter, c) in self.chapters.iter().enumerate() {
            for (view, info) in c.views().iter().enumerate() {
                if chapter == last && view == 0 {
                    continue;
                }
                out.push(NamedView {
                    name: format!("{}/{}", c.info().id, info.name),
                    at: StackView { chapter, view },
                    info: *info,
                });
            }
        }
        out
    }
    // ANCHOR_END: views

    /// Finds a view by name: as listed by [`Stack::views`], and `chapter/view` for a single
    /// chapter too. The error lists the valid names.
    pub fn find_view(&self, name: &str) -> Result<StackView, String> {
        let views = self.views();
        if let Some(v) = views.iter().find(|v| v.name == name) {
            return Ok(v.at);
        }
        if let Some((id, view)) = name.split_once('/')
            && let Some(chapter) = self.position(id)
            && let Some(v) = self.chapters[chapter].views().iter().position(|v| v.name == view)
        {
            return Ok(StackView { chapter, view: v });
        }
        let names: Vec<_> = views.iter().map(|v| v.name.as_str()).collect();
        Err(format!("unknown view {name:?} (views: {})", names.join(", ")))
    }

    /// The name [`Stack::views`] gives `at`.
    pub fn view_name(&self, at: StackView) -> String {
        self.views().into_iter().find(|v| v.at == at).map(|v| v.name).unwrap_or_default()
    }

    pub fn view_info(&self, at: StackView) -> ViewInfo {
        self.chapters[at.chapter].views()[at.view]
    }

    /// The next (or previous) view in the list, wrapping around.
    pub fn cycle_view(&self, at: StackView, delta: isize) -> StackView {
        let views = self.views();
        let i = views.iter().position(|v| v.at == at).unwrap_or(0) as isize;
        views[(i + delta).rem_euclid(views.len() as isize) as usize].at
    }

    // ANCHOR: set
    /// Sets one parameter: `chapter.name` for a named chapter of the stack, or a bare `name`
    /// that exactly one chapter of the stack has.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some((id, rest)) = name.split_once('.')
            && let Some(i) = self.position(id)
        {
            return set_by_name(self.chapters[i].params(), rest, value).map_err(|e| e.to_string());
        }
        let owners: Vec<usize> = (0..self.chapters.len())
            .filter(|&i| collect(self.chapters[i].params()).iter().any(|(p, _)| p.name == name))
            .collect();
        match owners.as_slice() {
            [i] => set_by_name(self.chapters[*i].params(), name, value).map_err(|e| e.to_string()),
            [] if self.is_single() => {
                set_by_name(self.chapters[0].params(), name, value).map_err(|e: ParamError| e.to_string())
            }
            [] => Err(format!("no chapter of the stack ({}) has a parameter {name:?}", self.spec())),
            many => {
                let ids: Vec<_> = many.iter().map(|&i| format!("{}.{name}", self.chapters[i].info().id)).collect();
                Err(format!("parameter {name:?} belongs to several chapters; say which: {}", ids.join(" or ")))
            }
        }
    }
    // ANCHOR_END: set

    /// Hands an earlier frame's pass times to every chapter (`Chapter::pass_times`), where they
    /// come from GPU timestamps: CPU submit-and-wait times would count the CPU as well.
    pub fn pass_times(&mut self, times: &PassTimes) {
        if times.source == PassTimes::GPU_TIMESTAMPS {
            self.chapters.iter_mut().for_each(|c| c.pass_times(times));
        }
    }

    /// Every chapter's parameters as RON, with the ids (what history compares frame to frame).
    pub fn settings_key(&mut self) -> String {
        let mut s = String::new();
        for c in &mut self.chapters {
            s.push_str(c.info().id);
            s.push(':');
            s.push_str(&c.params().to_ron());
            s.push('\n');
        }
        s
    }
}

/// The union of several device requirements: every feature, and the larger of each limit.
pub fn union_requirements(all: impl IntoIterator<Item = Requirements>) -> Requirements {
    all.into_iter().fold(Requirements::default(), |mut acc, r| {
        acc.features |= r.features;
        acc.limits = match (acc.limits.take(), r.limits) {
            (Some(a), Some(b)) => Some(max_limits(&a, &b)),
            (a, b) => a.or(b),
        };
        acc
    })
}

/// The larger of each limit (the smaller of alignment limits, where smaller is stricter...
/// wgpu's `Limits` has helpers for neither, so the ones chapters raise are merged by hand).
fn max_limits(a: &wgpu::Limits, b: &wgpu::Limits) -> wgpu::Limits {
    let mut out = a.clone();
    out.max_texture_dimension_3d = a.max_texture_dimension_3d.max(b.max_texture_dimension_3d);
    out.max_texture_dimension_2d = a.max_texture_dimension_2d.max(b.max_texture_dimension_2d);
    out.max_storage_buffer_binding_size = a.max_storage_buffer_binding_size.max(b.max_storage_buffer_binding_size);
    out.max_buffer_size = a.max_buffer_size.max(b.max_buffer_size);
    out.max_storage_textures_per_shader_stage =
        a.max_storage_textures_per_shader_stage.max(b.max_storage_textures_per_shader_stage);
    out.max_sampled_textures_per_shader_stage =
        a.max_sampled_textures_per_shader_stage.max(b.max_sampled_textures_per_shader_stage);
    out.max_storage_buffers_per_shader_stage =
        a.max_storage_buffers_per_shader_stage.max(b.max_storage_buffers_per_shader_stage);
    out.max_bind_groups = a.max_bind_groups.max(b.max_bind_groups);
    out.max_compute_workgroup_storage_size =
        a.max_compute_workgroup_storage_size.max(b.max_compute_workgroup_storage_size);
    out.max_compute_invocations_per_workgroup =
        a.max_compute_invocations_per_workgroup.max(b.max_compute_invocations_per_workgroup);
    out
}
