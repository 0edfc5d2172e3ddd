//! A bounding-volume hierarchy over axis-aligned boxes, built on the CPU and flattened into an
//! array the GPU walks with a small stack (`shaders/08-six-way-cards/medium.wgsl`): one box per
//! leaf, each inner node split at the median of its boxes' centres along the axis where they
//! spread most, so that the tree is balanced and its depth is ⌈log₂ n⌉. The nodes are in
//! depth-first order: an inner node's first child follows it, its second is at `link`. After the
//! linear BVH of Pharr, Jakob & Humphreys, "Physically Based Rendering", 4th ed. (2023), §7.3.
//! The point query here is the GPU walk's twin, for the tests.

use bytemuck::{Pod, Zeroable};

/// The deepest tree the GPU walk's stack holds (`CARD_STACK` in medium.wgsl): a median split of
/// n boxes is ⌈log₂ n⌉ deep, so this is room for 2³¹ boxes.
pub const MAX_DEPTH: usize = 32;

/// An axis-aligned box (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub lo: [f32; 3],
    pub hi: [f32; 3],
}

impl Aabb {
    const EMPTY: Self = Self { lo: [f32::MAX; 3], hi: [f32::MIN; 3] };

    fn union(self, o: Self) -> Self {
        Self {
            lo: std::array::from_fn(|a| self.lo[a].min(o.lo[a])),
            hi: std::array::from_fn(|a| self.hi[a].max(o.hi[a])),
        }
    }

    fn centre(&self, axis: usize) -> f32 {
        0.5 * (self.lo[axis] + self.hi[axis])
    }

    pub fn contains(&self, p: [f32; 3]) -> bool {
        (0..3).all(|a| p[a] >= self.lo[a] && p[a] <= self.hi[a])
    }
}

// ANCHOR: node
/// One node as the GPU reads it (`CardNode`, 32 bytes): its box; a leaf (`leaf` = 1) holds the
/// box `link`, an inner node (`leaf` = 0) has its first child next and its second at `link`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct BvhNode {
    pub lo: [f32; 3],
    pub link: u32,
    pub hi: [f32; 3],
    pub leaf: u32,
}
// ANCHOR_END: node

impl BvhNode {
    fn aabb(&self) -> Aabb {
        Aabb { lo: self.lo, hi: self.hi }
    }
}

/// The flattened tree over `boxes` (none for none); boxes with a NaN corner are left out.
pub fn build(boxes: &[Aabb]) -> Vec<BvhNode> {
    let finite = |b: &Aabb| b.lo.iter().chain(&b.hi).all(|v| !v.is_nan());
    let mut items: Vec<u32> = (0..boxes.len() as u32).filter(|&i| finite(&boxes[i as usize])).collect();
    let mut nodes = Vec::with_capacity(2 * items.len());
    if !items.is_empty() {
        split(boxes, &mut items, &mut nodes);
    }
    nodes
}

// ANCHOR: split
/// Appends the subtree over `items` to `nodes` (depth first).
fn split(boxes: &[Aabb], items: &mut [u32], nodes: &mut Vec<BvhNode>) {
    let bounds = items.iter().fold(Aabb::EMPTY, |b, &i| b.union(boxes[i as usize]));
    let at = nodes.len();
    nodes.push(BvhNode { lo: bounds.lo, link: items[0], hi: bounds.hi, leaf: 1 });
    if items.len() == 1 {
        return;
    }
    // The axis along which the centres spread most, split at their median.
    let spread = |a: usize| {
        let (lo, hi) = items.iter().fold((f32::MAX, f32::MIN), |(lo, hi), &i| {
            let c = boxes[i as usize].centre(a);
            (lo.min(c), hi.max(c))
        });
        hi - lo
    };
    let axis = (0..3).max_by(|&a, &b| spread(a).total_cmp(&spread(b))).unwrap_or(0);
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |&a, &b| {
        boxes[a as usize].centre(axis).total_cmp(&boxes[b as usize].centre(axis))
    });
    let (first, second) = items.split_at_mut(mid);
    split(boxes, first, nodes);
    let link = nodes.len() as u32;
    split(boxes, second, nodes);
    nodes[at].leaf = 0;
    nodes[at].link = link;
}
// ANCHOR_END: split

/// The tree's depth (a leaf alone: 1).
pub fn depth(nodes: &[BvhNode]) -> usize {
    fn below(nodes: &[BvhNode], i: usize) -> usize {
        let n = nodes[i];
        if n.leaf != 0 { 1 } else { 1 + below(nodes, i + 1).max(below(nodes, n.link as usize)) }
    }
    if nodes.is_empty() { 0 } else { below(nodes, 0) }
}

/// The leaves whose box passes `hit`, walked as the GPU walks them (a stack of second children).
fn walk(nodes: &[BvhNode], hit: impl Fn(&Aabb) -> bool) -> Vec<u32> {
    let mut found = Vec::new();
    let mut stack = Vec::with_capacity(MAX_DEPTH);
    let mut i = 0usize;
    while !nodes.is_empty() {
        let n = nodes[i];
        if hit(&n.aabb()) {
            if n.leaf != 0 {
                found.push(n.link);
            } else {
                stack.push(n.link as usize);
                i += 1;
                continue;
            }
        }
        match stack.pop() {
            Some(next) => i = next,
            None => break,
        }
    }
    found
}

/// The boxes holding `p`.
pub fn point_query(nodes: &[BvhNode], p: [f32; 3]) -> Vec<u32> {
    walk(nodes, |b| b.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*), uniform in [0, 1).
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32) / (1u64 << 24) as f32
        }
    }

    fn random_box(r: &mut Random) -> Aabb {
        let c = [0, 1, 2].map(|_| 100.0 * r.next() - 50.0);
        let h = [0, 1, 2].map(|_| 0.5 + 20.0 * r.next());
        Aabb { lo: std::array::from_fn(|a| c[a] - h[a]), hi: std::array::from_fn(|a| c[a] + h[a]) }
    }

    fn sorted(mut v: Vec<u32>) -> Vec<u32> {
        v.sort_unstable();
        v
    }

    #[test]
    fn the_point_query_finds_what_brute_force_finds() {
        let mut r = Random(0x0123_4567_89ab_cdef);
        for count in [1usize, 2, 3, 7, 64, 1000] {
            let boxes: Vec<Aabb> = (0..count).map(|_| random_box(&mut r)).collect();
            let nodes = build(&boxes);
            assert_eq!(nodes.len(), 2 * count - 1);
            assert_eq!(depth(&nodes), (count as f64).log2().ceil() as usize + 1, "{count} boxes");
            let mut hits = 0;
            for _ in 0..500 {
                let p = [0, 1, 2].map(|_| 110.0 * r.next() - 55.0);
                let want: Vec<u32> = (0..count as u32).filter(|&i| boxes[i as usize].contains(p)).collect();
                hits += want.len();
                assert_eq!(sorted(point_query(&nodes, p)), want, "{count} boxes, point {p:?}");
            }
            assert!(count < 64 || hits > 100, "{count} boxes: only {hits} points inside any");
        }
    }

    #[test]
    fn every_node_bounds_its_children_and_nan_boxes_are_left_out() {
        let mut r = Random(7);
        let mut boxes: Vec<Aabb> = (0..100).map(|_| random_box(&mut r)).collect();
        boxes[17].lo[1] = f32::NAN;
        let nodes = build(&boxes);
        assert_eq!(nodes.len(), 2 * 99 - 1);
        let inside =
            |outer: &BvhNode, inner: &BvhNode| (0..3).all(|a| outer.lo[a] <= inner.lo[a] && outer.hi[a] >= inner.hi[a]);
        for (i, n) in nodes.iter().enumerate() {
            if n.leaf == 0 {
                assert!(inside(n, &nodes[i + 1]) && inside(n, &nodes[n.link as usize]), "node {i}");
            } else {
                assert_ne!(n.link, 17);
            }
        }
        assert!(build(&[]).is_empty() && point_query(&[], [0.0; 3]).is_empty());
    }
}
