//! Terrain types, hexside features and the arms that pay for them.

use serde::{Deserialize, Serialize};

/// What a hex (or a free-space cell) is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Terrain {
    Clear,
    Woods,
    Town,
    Village,
    Garden,
    Marsh,
    River,
    Bridge,
    Road,
}

impl Terrain {
    pub const ALL: [Terrain; 9] = [
        Terrain::Clear,
        Terrain::Woods,
        Terrain::Town,
        Terrain::Village,
        Terrain::Garden,
        Terrain::Marsh,
        Terrain::River,
        Terrain::Bridge,
        Terrain::Road,
    ];

    /// The character the default legend of docs/scenario-format.md uses for this terrain.
    pub fn default_char(self) -> char {
        match self {
            Terrain::Clear => '.',
            Terrain::Woods => 'w',
            Terrain::Town => 't',
            Terrain::Village => 'v',
            Terrain::Garden => 'g',
            Terrain::Marsh => 'm',
            Terrain::River => '~',
            Terrain::Bridge => '=',
            Terrain::Road => 'r',
        }
    }

    /// The default legend's reading of a map character.
    pub fn from_default_char(ch: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.default_char() == ch)
    }

    /// Woods/forest or built-up (town, village): where a router prefers to end
    /// its move (La Bataille rout priority 7) and where a far router heads
    /// (Morale Recovery Segment).
    pub fn is_refuge(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Town | Terrain::Village)
    }

    /// Terrain in which recovered units take general order rather than column
    /// (docs/rules.md 1.5: formation according to terrain).
    pub fn is_close(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Town | Terrain::Village | Terrain::Garden)
    }

    /// Roads and bridges carry road movement from one to the next.
    pub fn carries_road(self) -> bool {
        matches!(self, Terrain::Road | Terrain::Bridge)
    }
}

/// A feature drawn on the edge between two hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HexsideKind {
    Stream,
    Slope,
}

impl HexsideKind {
    pub const ALL: [HexsideKind; 2] = [HexsideKind::Stream, HexsideKind::Slope];

    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The three arms of the period, each with its own movement costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

impl Arm {
    pub const ALL: [Arm; 3] = [Arm::Infantry, Arm::Cavalry, Arm::Artillery];

    pub fn index(self) -> usize {
        self as usize
    }
}
