//! Which map goes in which channel of the two atlases.
//!
//! A swizzle is written as eight letters, four per atlas (R, G, B, A), the atlases separated by
//! a slash. The letters: **T** top, **B** bottom, **L** left, **R** right, **K** back (bac*k*,
//! lit from behind the card), **F** front, **A** alpha, **E** emission (alpha when the bake has
//! no emission), **0** zero.
//!
//! | name | atlas A (RGBA) | atlas B (RGBA) | used by |
//! |---|---|---|---|
//! | `tlr-bbf` (default) | `TLRA` | `BKFE` | said to be EmberGen's TLR/BBF export (unverified; see the book) |
//! | `rtb-lbf` | `RTKA` | `LBFE` | Unity's six-way lit output (+x, +y, +z / −x, −y, −z in its card frame) |
//!
//! Any other eight letters are accepted as they are, e.g. `--swizzle RLTA/BKFE` for the
//! RLT/BBF textures of O3DE's six-way tutorial.

use crate::card::Dir;

/// What one channel of an atlas holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Map(Dir),
    Alpha,
    Emission,
    Zero,
}

impl Channel {
    fn parse(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            'A' => Channel::Alpha,
            'E' => Channel::Emission,
            '0' => Channel::Zero,
            other => Channel::Map(Dir::ALL.into_iter().find(|d| d.letter() == other)?),
        })
    }

    fn letter(self) -> char {
        match self {
            Channel::Map(d) => d.letter(),
            Channel::Alpha => 'A',
            Channel::Emission => 'E',
            Channel::Zero => '0',
        }
    }
}

// ANCHOR: table
/// The named swizzles: name, atlas A, atlas B.
pub const NAMED: [(&str, &str, &str); 2] = [("tlr-bbf", "TLRA", "BKFE"), ("rtb-lbf", "RTKA", "LBFE")];
// ANCHOR_END: table

/// The channels of atlas A and atlas B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swizzle {
    pub atlases: [[Channel; 4]; 2],
}

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::parse("tlr-bbf").expect("the default swizzle parses")
    }
}

impl Swizzle {
    /// A name from `NAMED` or eight letters `XXXX/XXXX`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let letters = match NAMED.iter().find(|(name, ..)| name.eq_ignore_ascii_case(text)) {
            Some((_, a, b)) => format!("{a}/{b}"),
            None => text.to_string(),
        };
        let bad = || {
            format!(
                "swizzle {text:?}: expected tlr-bbf, rtb-lbf or eight letters like TLRA/BKFE \
                 (T top, B bottom, L left, R right, K back, F front, A alpha, E emission, 0 zero)"
            )
        };
        let (a, b) = letters.split_once('/').ok_or_else(bad)?;
        let atlas = |s: &str| -> Result<[Channel; 4], String> {
            let chars: Vec<char> = s.chars().collect();
            if chars.len() != 4 {
                return Err(bad());
            }
            let mut out = [Channel::Zero; 4];
            for (o, c) in out.iter_mut().zip(chars) {
                *o = Channel::parse(c).ok_or_else(bad)?;
            }
            Ok(out)
        };
        Ok(Swizzle { atlases: [atlas(a)?, atlas(b)?] })
    }

    /// The eight letters, `TLRA/BKFE`.
    pub fn letters(&self) -> String {
        let atlas = |a: &[Channel; 4]| a.iter().map(|c| c.letter()).collect::<String>();
        format!("{}/{}", atlas(&self.atlases[0]), atlas(&self.atlases[1]))
    }

    /// The name of a named swizzle with these channels.
    pub fn name(&self) -> Option<&'static str> {
        let letters = self.letters();
        NAMED.iter().find(|(_, a, b)| format!("{a}/{b}") == letters).map(|(name, ..)| *name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_and_lettered_swizzles_round_trip() {
        let s = Swizzle::parse("tlr-bbf").unwrap();
        assert_eq!(
            s.atlases[0],
            [Channel::Map(Dir::Top), Channel::Map(Dir::Left), Channel::Map(Dir::Right), Channel::Alpha]
        );
        assert_eq!(s.atlases[1][1], Channel::Map(Dir::Back));
        assert_eq!(s.letters(), "TLRA/BKFE");
        assert_eq!(Swizzle::parse("RTKA/LBFE").unwrap().name(), Some("rtb-lbf"));
        assert_eq!(Swizzle::parse("lrta/bfke").unwrap().letters(), "LRTA/BFKE");
        for bad in ["", "TLR/BKFE", "TLRA", "TLRX/BKFE", "TLRAA/BKF"] {
            assert!(Swizzle::parse(bad).is_err(), "{bad}");
        }
    }
}
