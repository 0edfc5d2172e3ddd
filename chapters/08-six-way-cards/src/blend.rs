//! The runtime's six-way blend, as an f64 CPU reference of what `cards_common.wgsl` computes: the
//! weights of the six maps for a light direction, and the relit value.
//!
//! The light direction **l** is a unit vector from the card towards the light, in the card frame
//! (x right, y up, z away from the camera, the frame of `card`). Each axis has two maps; the
//! sign of **l**'s component picks one (a mask, a step function), and the component's square
//! weights it (Unity's six-way lit output). The squares of a unit vector's components sum to one,
//! so six equal maps shade the same from every direction. Weighting by the component itself
//! (`weights_linear`) sums to |l_x| + |l_y| + |l_z|, up to √3 for a diagonal light, unless it is
//! divided by that sum (`weights_linear_normalised`).

use crate::card::Dir;

/// The side of the card a light along card axis `axis` with component `c` shines from.
fn side(axis: usize, c: f64) -> Dir {
    match (axis, c > 0.0) {
        (0, true) => Dir::Right,
        (0, false) => Dir::Left,
        (1, true) => Dir::Top,
        (1, false) => Dir::Bottom,
        (_, true) => Dir::Back,
        (_, false) => Dir::Front,
    }
}

// ANCHOR: weights
/// The six maps' weights (in `Dir::ALL`'s order) for the unit light direction `l`:
/// mask × component², the mask selecting the map on the side the component points to.
pub fn weights(l: [f64; 3]) -> [f64; 6] {
    let mut w = [0.0; 6];
    for (axis, c) in l.into_iter().enumerate() {
        w[side(axis, c).index()] += c * c;
    }
    w
}

/// The lit value of the six maps `maps` (in `Dir::ALL`'s order) under the light `l`.
pub fn relight(maps: [f64; 6], l: [f64; 3]) -> f64 {
    weights(l).iter().zip(maps).map(|(w, m)| w * m).sum()
}
// ANCHOR_END: weights

/// The linear variant: mask × |component|, without normalisation (brightens diagonal light).
pub fn weights_linear(l: [f64; 3]) -> [f64; 6] {
    let mut w = [0.0; 6];
    for (axis, c) in l.into_iter().enumerate() {
        w[side(axis, c).index()] += c.abs();
    }
    w
}

/// The linear variant divided by its sum |l_x| + |l_y| + |l_z|, so that the weights sum to one.
pub fn weights_linear_normalised(l: [f64; 3]) -> [f64; 6] {
    let w = weights_linear(l);
    let sum: f64 = w.iter().sum();
    if sum > 0.0 { w.map(|x| x / sum) } else { w }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit directions spread over the sphere (a Fibonacci lattice) and the six axes.
    fn directions() -> Vec<[f64; 3]> {
        let count = 200;
        let mut out: Vec<[f64; 3]> = (0..count)
            .map(|i| {
                let z = 1.0 - (2.0 * i as f64 + 1.0) / count as f64;
                let r = (1.0 - z * z).sqrt();
                let phi = i as f64 * std::f64::consts::PI * (3.0 - 5f64.sqrt());
                [r * phi.cos(), r * phi.sin(), z]
            })
            .collect();
        out.extend([
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
        ]);
        out
    }

    // ANCHOR: blend_tests
    #[test]
    fn six_equal_maps_shade_the_same_from_every_direction() {
        for l in directions() {
            let lit = relight([0.37; 6], l);
            assert!((lit - 0.37).abs() < 1e-12, "{l:?}: {lit}");
            assert!((weights(l).iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(weights(l).iter().all(|&w| w >= 0.0));
        }
    }

    #[test]
    fn a_light_along_an_axis_selects_exactly_its_map() {
        let maps = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
        let cases = [
            ([0.0, 1.0, 0.0], Dir::Top),
            ([0.0, -1.0, 0.0], Dir::Bottom),
            ([-1.0, 0.0, 0.0], Dir::Left),
            ([1.0, 0.0, 0.0], Dir::Right),
            ([0.0, 0.0, 1.0], Dir::Back),
            ([0.0, 0.0, -1.0], Dir::Front),
        ];
        for (l, d) in cases {
            let w = weights(l);
            for e in Dir::ALL {
                assert_eq!(w[e.index()], if e == d { 1.0 } else { 0.0 }, "{l:?} → {e:?}");
            }
            assert_eq!(relight(maps, l), maps[d.index()]);
        }
    }

    #[test]
    fn the_linear_weights_brighten_diagonal_light_unless_normalised() {
        let d = 1.0 / 3f64.sqrt();
        let diagonal = [d, d, -d];
        let sum = |w: [f64; 6]| w.iter().sum::<f64>();
        assert!((sum(weights_linear(diagonal)) - 3f64.sqrt()).abs() < 1e-12);
        assert!((sum(weights_linear_normalised(diagonal)) - 1.0).abs() < 1e-12);
        assert!((sum(weights(diagonal)) - 1.0).abs() < 1e-12);
        // Along an axis all three agree.
        assert_eq!(weights_linear([0.0, 0.0, -1.0]), weights([0.0, 0.0, -1.0]));
    }
    // ANCHOR_END: blend_tests
}
