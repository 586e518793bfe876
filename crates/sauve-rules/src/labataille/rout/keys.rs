//! How a rout move's choices are ordered: each step's, walk's, end's and
//! exit's preferences packed into one integer, so that integer order is
//! the preferences' order and a comparison is one instruction.

use crate::rules::{MAX_ROUT_HEXES, RoutRefuge};

/// Order of end hexes: the rank of preferences 1-4 (see [`Rank`]) in the
/// top half, then half hexes from the own rear edge and closeness to the
/// enemy (5); packed into one integer so that a comparison is cheap.
pub(super) type EndKey = u128;
/// Order of off-map exits: not across the own rear edge, then path cost;
/// packed like [`EndKey`] (the rear flag above the cost).
pub(super) type ExitKey = u128;

/// A walk is kept as one integer: its path cost, with the window hex it
/// came from in the low bits (the window of the rules' longest rout move,
/// [`MAX_ROUT_HEXES`]). Comparing two such integers orders walks by cost,
/// then by that hex, with one instruction.
const FROM_BITS: u32 = 14;
pub(super) const FROM: u64 = (1 << FROM_BITS) - 1;
/// Where each part of a step key sits, in the preferences' order from the
/// top: terrain (hundredths of an MP, 32 bits), friends (up to 255 hexes),
/// zones (up to 255 hexes).
pub(super) const ZONES_AT: u32 = FROM_BITS;
pub(super) const FRIENDS_AT: u32 = ZONES_AT + 8;
pub(super) const TERRAIN_AT: u32 = FRIENDS_AT + 8;
// Every window hex fits below `FROM` (which names none), a whole move's
// terrain, friends and zones fit their places, and a rank fits below the
// `Destination` refuge flag.
const _: () = {
    let side = 2 * MAX_ROUT_HEXES as u64 + 1;
    assert!(side * side < FROM);
    assert!(MAX_ROUT_HEXES < 1 << (FRIENDS_AT - ZONES_AT));
    assert!(MAX_ROUT_HEXES < 1 << (TERRAIN_AT - FRIENDS_AT));
    assert!(((MAX_ROUT_HEXES as u64) * (u16::MAX as u64)) < 1 << 32);
    assert!(TERRAIN_AT + 32 <= 63);
    assert!(TERRAIN_AT + 32 - FRIENDS_AT + 9 <= DESTINATION_AT);
};

/// How preferences 1-4 rank a path, as one integer below 2^50: its cost
/// (terrain, friends, zones, packed as by [`RoutQuery::step_key`]) with
/// the end's refuge flag put in its place, above the cost for
/// `Destination`, between friends and zones for `TieBreak`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rank(pub(super) RoutRefuge);

/// Where the refuge flag sits in a rank, by rule.
const DESTINATION_AT: u32 = 49;
const TIE_BREAK_AT: u32 = 8;

impl Rank {
    #[inline(always)]
    pub(super) fn of(self, cost: u64, refuge: bool) -> u64 {
        let (route, zones) = (cost >> FRIENDS_AT, (cost >> ZONES_AT) & 0xFF);
        let open = !refuge as u64;
        let flag = match self.0 {
            RoutRefuge::Destination => open << DESTINATION_AT,
            RoutRefuge::TieBreak => open << TIE_BREAK_AT,
        };
        flag | (route << 9) | zones
    }

    /// Whether a rank is that of a path ending in a refuge.
    #[inline(always)]
    pub(super) fn refuge(self, rank: u64) -> bool {
        let at = match self.0 {
            RoutRefuge::Destination => DESTINATION_AT,
            RoutRefuge::TieBreak => TIE_BREAK_AT,
        };
        rank >> at & 1 == 0
    }
}
