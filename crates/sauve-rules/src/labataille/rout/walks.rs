//! The dynamic programme's states: per (hexes moved, window hex) the two
//! cheapest walks there, each packed with the hex it came from, and each
//! window hex's outgoing steps.

use crate::labataille::rout::keys::FROM;

/// No walk: all bits set, so its hex bits name no window hex.
pub(super) const NONE: u64 = u64::MAX;
/// No window hex (the start's parent).
pub(super) const NO_HEX: u16 = u16::MAX;

#[inline(always)]
pub(super) fn cost_of(walk: u64) -> u64 {
    walk & !FROM
}

#[inline(always)]
pub(super) fn from_of(walk: u64) -> u16 {
    (walk & FROM) as u16
}

/// The two cheapest walks of exactly k legal steps from the start to a
/// hex that arrive from different hexes, and where each came from. A walk
/// never steps straight back to the hex it just left (it may come back
/// later), so no simple path to the hex is cheaper than `cost`, and none
/// that continues to hex `v` is cheaper than [`Walks::avoiding`]`(v)`:
/// its last step did not come from `v`, which it has not yet visited.
/// Both are packed with the hex they came from (see [`FROM`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Walks {
    pub(super) best: u64,
    pub(super) also: u64,
}

impl Default for Walks {
    /// No walk: `NONE`, whose hex bits name no window hex.
    fn default() -> Self {
        Self { best: NONE, also: NONE }
    }
}

impl Walks {
    /// The cheapest walk here whose last step did not come from `v`, and
    /// the hex it came from.
    #[inline(always)]
    pub(super) fn avoiding(&self, v: u16) -> u64 {
        if from_of(self.best) == v { self.also } else { self.best }
    }

    /// Whether a packed walk would be kept (it beats the second). Equal
    /// costs go to the lower window hex, so which walks are kept depends
    /// neither on the order hexes are taken in nor on which other walks the
    /// bound dropped.
    #[inline(always)]
    pub(super) fn takes(&self, walk: u64) -> bool {
        walk < self.also
    }

    /// Offers a packed walk (each hex offers once per layer).
    #[inline(always)]
    pub(super) fn offer(&mut self, walk: u64) {
        if walk < self.best {
            (self.also, self.best) = (self.best, walk);
        } else if walk < self.also {
            self.also = walk;
        }
    }
}

/// A window hex's outgoing steps, worked out once per move however many
/// layers it appears in: per side, the step key and the window hex across;
/// and bit masks of the legal sides and of the sides off the map.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Out {
    /// Eight slots for six sides, so that a side read off a bit mask of
    /// eight bits needs no bounds check.
    pub(super) key: [u64; 8],
    pub(super) to: [u16; 8],
    pub(super) legal: u8,
    pub(super) exits: u8,
}
