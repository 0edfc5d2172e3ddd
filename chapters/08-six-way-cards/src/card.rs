//! The card frame: how a view axis turns the world's grid into a card's right, up and away.
//!
//! The camera looks along `away`; the image's columns follow `right` and its rows `up` (row 0 at
//! the top). Each view is a non-mirrored view of a right-handed world (right = away × up):
//!
//! | view axis | right | up | away (the camera looks along) |
//! |---|---|---|---|
//! | `z` (default) | +x | +y | −z |
//! | `x` | −z | +y | −x |
//! | `y` (from above) | +x | −z | −y |
//!
//! The six lights are named by the side of the card they shine from, in Unity's card frame
//! (x right, y up, z away from the camera): *top* from +up, *bottom* from −up, *left* from
//! −right, *right* from +right, *front* from the camera's side (−away) and *back* from behind
//! the card (+away, a rim light).

use serde::{Deserialize, Serialize};

// ANCHOR: view_axis
/// The world axis the card is seen along.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ViewAxis {
    X,
    Y,
    #[default]
    Z,
}

/// A world axis (0 x, 1 y, 2 z) and a sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignedAxis {
    pub axis: usize,
    pub positive: bool,
}

const fn signed(axis: usize, positive: bool) -> SignedAxis {
    SignedAxis { axis, positive }
}

impl ViewAxis {
    /// The card's right, up and away directions in the world.
    pub const fn frame(self) -> [SignedAxis; 3] {
        match self {
            ViewAxis::Z => [signed(0, true), signed(1, true), signed(2, false)],
            ViewAxis::X => [signed(2, false), signed(1, true), signed(0, false)],
            ViewAxis::Y => [signed(0, true), signed(2, false), signed(1, false)],
        }
    }
    // ANCHOR_END: view_axis

    pub fn parse(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "x" => Ok(ViewAxis::X),
            "y" => Ok(ViewAxis::Y),
            "z" => Ok(ViewAxis::Z),
            _ => Err(format!("view axis {text:?}: expected x, y or z")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ViewAxis::X => "x",
            ViewAxis::Y => "y",
            ViewAxis::Z => "z",
        }
    }
}

/// The six light directions, by the side of the card the light shines from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dir {
    Top,
    Bottom,
    Left,
    Right,
    Back,
    Front,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::Top, Dir::Bottom, Dir::Left, Dir::Right, Dir::Back, Dir::Front];

    /// The card axis (0 right, 1 up, 2 away) and whether the light is on its positive side.
    pub const fn card_side(self) -> (usize, bool) {
        match self {
            Dir::Right => (0, true),
            Dir::Left => (0, false),
            Dir::Top => (1, true),
            Dir::Bottom => (1, false),
            Dir::Back => (2, true),
            Dir::Front => (2, false),
        }
    }

    /// Index of the map in `FrameMaps` (the order of `ALL`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The swizzle letter: T, B, L, R, K (bacK), F.
    pub const fn letter(self) -> char {
        match self {
            Dir::Top => 'T',
            Dir::Bottom => 'B',
            Dir::Left => 'L',
            Dir::Right => 'R',
            Dir::Back => 'K',
            Dir::Front => 'F',
        }
    }

    /// The unit vector from the card towards the light, in the world (for the metadata).
    pub fn towards_light_world(self, view: ViewAxis) -> [i32; 3] {
        let (card_axis, positive) = self.card_side();
        let world = view.frame()[card_axis];
        let mut v = [0; 3];
        v[world.axis] = if world.positive == positive { 1 } else { -1 };
        v
    }
}

/// A cubic volume of `n`³ cells, `x` fastest, then `y`, then `z` (chapter 7's layout).
#[derive(Clone, Debug)]
pub struct Volume<'a> {
    pub n: usize,
    pub values: &'a [f32],
}

// ANCHOR: to_card
/// `values` reordered into the card frame: `right` fastest, then `up`, then `away` (the camera's
/// side first), so that a view ray is a run of cells `n * n` apart.
pub fn to_card<T: Copy>(n: usize, values: &[T], view: ViewAxis) -> Vec<T> {
    let frame = view.frame();
    let coord = |a: SignedAxis, t: usize| if a.positive { t } else { n - 1 - t };
    let mut out = Vec::with_capacity(n * n * n);
    for k in 0..n {
        for up in 0..n {
            for right in 0..n {
                let mut w = [0usize; 3];
                w[frame[0].axis] = coord(frame[0], right);
                w[frame[1].axis] = coord(frame[1], up);
                w[frame[2].axis] = coord(frame[2], k);
                out.push(values[w[0] + n * (w[1] + n * w[2])]);
            }
        }
    }
    out
}
// ANCHOR_END: to_card

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_right_handed_and_not_mirrored() {
        // right = away × up, in world vectors.
        let vec = |a: SignedAxis| {
            let mut v = [0i32; 3];
            v[a.axis] = if a.positive { 1 } else { -1 };
            v
        };
        let cross = |a: [i32; 3], b: [i32; 3]| {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        };
        for view in [ViewAxis::X, ViewAxis::Y, ViewAxis::Z] {
            let [r, u, a] = view.frame().map(vec);
            assert_eq!(cross(a, u), r, "{view:?}");
        }
    }

    #[test]
    fn to_card_moves_a_marked_cell_where_the_frame_says() {
        let n = 4;
        let mut v = vec![0u32; n * n * n];
        v[1 + n * (2 + n * 3)] = 1; // x 1, y 2, z 3
        let c = to_card(n, &v, ViewAxis::Z);
        // right = x = 1, up = y = 2, away = −z: k = 3 − 3 = 0.
        assert_eq!(c.iter().position(|&x| x == 1), Some(1 + n * 2));
        let c = to_card(n, &v, ViewAxis::X);
        // right = −z: 0, up = y: 2, away = −x: 2.
        assert_eq!(c.iter().position(|&x| x == 1), Some(n * (2 + n * 2)));
    }
}
