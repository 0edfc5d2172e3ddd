//! Shared resources lent between the chapters of a stack, keyed by their kind ([`Resource`]).
//!
//! A chapter that makes a shared resource on the GPU lends it (`Chapter::lend`): the core asks
//! each chapter for every kind of [`LENT_ON_GPU`] at that kind's time — after the chapter's
//! prepare, or after its own stage — and keeps the latest loan of each kind for the passes that
//! follow. A chapter that uses one looks it up through its context (`ChapterContext::group`,
//! `ChapterContext::media`), which gives the loan or, where no chapter before it lent one, the
//! kind's stand-in. Data for the whole frame (the handover, the fog volumes) is lent before any
//! GPU work through `Chapter::publish`. [`Lending`] notes every loan and look-up, so what each
//! chapter reads and writes is observed, and `tests/stack.rs` holds it to what the chapter
//! declares (`StageIo`).
//!
//! A new shared resource costs one kind (a `Resource` with its row in `RESOURCE_TABLE`), one slot
//! here (its entry in `LENT_ON_GPU` and its stand-in in `FrameResources::stand_in`).

use crate::frame::FrameResources;
use crate::media::point::LentBinding;
use crate::stage::Resource;
use crate::transparent_fog::FogPart;
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

/// When the core asks a chapter for a kind it may lend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LendTime {
    /// After the chapter's prepare (`light_scene`), before the scene is drawn.
    AfterPrepare,
    /// After the chapter's colour stage (`render`).
    AfterStage,
}

// ANCHOR: lent_on_gpu
/// The kinds a chapter may lend on the GPU, and when each is asked for.
pub const LENT_ON_GPU: [(Resource, LendTime); 6] = [
    (Resource::SceneLight, LendTime::AfterPrepare),
    (Resource::SkyTables, LendTime::AfterPrepare),
    (Resource::CloudShadow, LendTime::AfterPrepare),
    (Resource::VolumeShadow, LendTime::AfterPrepare),
    (Resource::TransparentFog, LendTime::AfterStage),
    (Resource::PointMedia, LendTime::AfterStage),
];
// ANCHOR_END: lent_on_gpu

/// The kinds a chapter lends before the frame, through `Chapter::publish`.
pub const PUBLISHED: [Resource; 2] = [Resource::Handover, Resource::FogVolumes];

// ANCHOR: loan
/// What a chapter lends its stack of one kind.
#[derive(Clone, Debug)]
pub enum Loan {
    /// A bind group made with the kind's layout in `FrameLayouts` (the sky's tables, a shadow).
    Group(wgpu::BindGroup),
    /// One fog's part of the fog-at-depth group, which the core assembles (`transparent_fog`).
    FogPart(FogPart),
    /// A buffer holding a `frame::SceneLight`, which the core copies into the frame uniform.
    SceneLight(wgpu::Buffer),
    /// A medium's resources by their binding in group 2 of a pass that samples media at points
    /// (`media::point`), which that pass assembles with its own.
    Bindings(Vec<(u32, LentBinding)>),
}
// ANCHOR_END: loan

/// What one chapter lent and looked up in a frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    pub lent: BTreeSet<Resource>,
    pub looked_up: BTreeSet<Resource>,
    /// Kinds it looked up while a stand-in stood for them although a chapter of the stack lends
    /// them later in the frame: a read before its maker.
    pub before_maker: BTreeSet<Resource>,
}

/// One frame's loans, and what each chapter of the stack lent and looked up.
pub struct Lending<'f> {
    device: &'f wgpu::Device,
    frame: &'f FrameResources,
    groups: BTreeMap<Resource, wgpu::BindGroup>,
    fog_parts: Vec<FogPart>,
    /// The point media's resources by binding (`Loan::Bindings`; a later loan of a binding wins).
    point_media: BTreeMap<u32, LentBinding>,
    /// The fog-at-depth group of the parts so far, made at its first look-up after a change.
    fog_group: OnceCell<wgpu::BindGroup>,
    /// Per chapter of the stack (index in stage order).
    observed: RefCell<Vec<Observed>>,
    /// The kinds some chapter of the stack lends this frame (from its declarations), to tell a
    /// stand-in that stands for nobody from one read before its maker.
    made_in_stack: BTreeSet<Resource>,
}

impl<'f> Lending<'f> {
    /// An empty lending for a stack of `chapters` chapters, `made_in_stack` the kinds they declare
    /// they write.
    pub fn new(
        device: &'f wgpu::Device,
        frame: &'f FrameResources,
        chapters: usize,
        made_in_stack: BTreeSet<Resource>,
    ) -> Self {
        Self {
            device,
            frame,
            groups: BTreeMap::new(),
            fog_parts: Vec::new(),
            point_media: BTreeMap::new(),
            fog_group: OnceCell::new(),
            observed: RefCell::new(vec![Observed::default(); chapters]),
            made_in_stack,
        }
    }

    /// Keeps `loan` of `kind` from chapter `by` for the passes that follow; a scene light is
    /// copied into the frame uniform at once, in order with the passes recorded so far.
    pub fn take(&mut self, by: usize, kind: Resource, loan: Loan, encoder: &mut wgpu::CommandEncoder) {
        self.observed.borrow_mut()[by].lent.insert(kind);
        match loan {
            Loan::Group(group) => {
                self.groups.insert(kind, group);
            }
            Loan::FogPart(part) => {
                self.fog_parts.push(part);
                self.fog_group = OnceCell::new();
            }
            Loan::SceneLight(buffer) => self.frame.copy_scene_light(encoder, &buffer),
            Loan::Bindings(bindings) => self.point_media.extend(bindings),
        }
    }

    /// Notes that chapter `by` wrote `kind` before the frame (`Chapter::publish`).
    pub fn note_published(&mut self, by: usize, kind: Resource) {
        self.observed.borrow_mut()[by].lent.insert(kind);
    }

    /// The bind group of `kind` as lent so far, or its stand-in; `by` is the chapter looking it
    /// up (`None`: the core).
    pub fn group(&self, kind: Resource, by: Option<usize>) -> &wgpu::BindGroup {
        let lent = match kind {
            Resource::TransparentFog if !self.fog_parts.is_empty() => Some(self.fog_group.get_or_init(|| {
                crate::transparent_fog::bind_group(
                    self.device,
                    &self.frame.layouts.transparent_fog,
                    &self.frame.transparent_fog_stand_ins,
                    &self.fog_parts,
                )
            })),
            _ => self.groups.get(&kind),
        };
        self.note_look_up(kind, by, lent.is_some());
        lent.unwrap_or_else(|| self.frame.stand_in(kind))
    }

    /// The fogs' parts lent so far (`Loan::FogPart`), for a pass that binds them its own way
    /// (a path tracer's media); `by` is the chapter looking them up.
    pub fn fog_parts(&self, by: Option<usize>) -> &[FogPart] {
        self.note_look_up(Resource::TransparentFog, by, !self.fog_parts.is_empty());
        &self.fog_parts
    }

    /// The point media's resources lent so far, by binding (`Loan::Bindings`); `by` is the
    /// chapter looking them up.
    pub fn point_media(&self, by: Option<usize>) -> &BTreeMap<u32, LentBinding> {
        self.note_look_up(Resource::PointMedia, by, !self.point_media.is_empty());
        &self.point_media
    }

    /// Notes a look-up of `kind` by chapter `by`, served by a loan or by the stand-in.
    pub fn note_look_up(&self, kind: Resource, by: Option<usize>, served_by_loan: bool) {
        let Some(by) = by else { return };
        let mut observed = self.observed.borrow_mut();
        observed[by].looked_up.insert(kind);
        if !served_by_loan && self.made_in_stack.contains(&kind) && !observed[by].lent.contains(&kind) {
            observed[by].before_maker.insert(kind);
        }
    }

    /// What each chapter lent and looked up this frame, in stage order.
    pub fn into_observed(self) -> Vec<Observed> {
        self.observed.into_inner()
    }
}
