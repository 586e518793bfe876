//! The rout planner's scratch space, kept between moves, and the window
//! around a move's start that its states live in.

use crate::hex::{Edge, Offset};
use crate::labataille::rout::keys::{EndKey, ExitKey};
use crate::labataille::rout::query::Near;
use crate::labataille::rout::walks::{Out, Walks};

/// Reusable scratch space for rout moves (no allocation per move once warm).
#[derive(Clone, Debug, Default)]
pub struct RoutPlanner {
    pub(super) radius: i32,
    pub(super) side: i32,
    pub(super) layer: usize,
    /// Per (hexes moved, window hex): the two cheapest walks there (see
    /// [`Walks`]). Unreached until a step reaches it; the states a move
    /// reached are unset when the next one starts, so no stamp is needed.
    pub(super) walk: Vec<Walks>,
    /// Per window hex: its outgoing steps (see [`Out`]), valid when its
    /// stamp is this move's generation.
    pub(super) outs: Vec<Out>,
    pub(super) out_stamp: Vec<u32>,
    pub(super) generation: u32,
    /// Per window hex: its padded grid index less the window corner's
    /// (fixed for a window size and grid width, `win_pw`), and its column
    /// and row in the window; so a state needs no more than its window hex,
    /// and finding its place needs no division.
    pub(super) win_off: Vec<i32>,
    pub(super) win_pw: i32,
    pub(super) win_cr: Vec<(u16, u16)>,
    /// Per layer (hexes moved), the states reached, in the order first
    /// reached (which sets the tie-breaks), in rows of `layer + 1` slots:
    /// one spare, so that a step may write its state unconditionally and
    /// count it only if new. `count` says how many of each row are set.
    pub(super) nodes: Vec<u16>,
    pub(super) count: Vec<usize>,
    pub(super) ends: Vec<(EndKey, u16)>,
    /// Off-map steps found: key, hexes moved before the step, window hex,
    /// edge crossed.
    pub(super) exits: Vec<(ExitKey, u16, u16, Edge)>,
    pub(super) near: Vec<Near>,
    /// Per window hex: on the path being built (simplicity tests).
    pub(super) on: Vec<bool>,
    /// The greedy move of the last plan (padded cells), if it found one.
    pub(super) greedy: Vec<usize>,
    /// Run the whole programme, dropping no walks (tests compare the two).
    pub(super) exhaustive: bool,
    /// States visited by the exact search in the last move (for tests and
    /// benchmarks); 0 when the cheapest walk was already a simple path.
    pub searched: usize,
    /// Hexes the programme took further in the last move (for tests and
    /// benchmarks: the cut shows here).
    pub expanded: usize,
}

impl RoutPlanner {
    pub fn new() -> Self {
        Self::default()
    }

    pub(super) fn prepare(&mut self, radius: i32) {
        if radius != self.radius || self.walk.is_empty() {
            self.radius = radius;
            self.side = 2 * radius + 1;
            self.layer = (self.side * self.side) as usize;
            let layers = radius as usize + 1;
            self.walk = vec![Walks::default(); layers * self.layer];
            self.outs = vec![Out::default(); self.layer];
            self.win_cr =
                (0..self.side * self.side).map(|l| ((l % self.side) as u16, (l / self.side) as u16)).collect();
            self.win_pw = 0;
            self.out_stamp = vec![0; self.layer];
            self.generation = 0;
            self.nodes = vec![0; layers * (self.layer + 1)];
            self.count = vec![0; layers];
            self.on = vec![false; self.layer];
        } else {
            self.unset_walks();
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.out_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    /// Unsets the states the last programme reached, for the next one.
    /// The hexes' outgoing steps stay worked out: they depend on the move,
    /// not on the cut, so a second programme of the same move reuses them.
    pub(super) fn unset_walks(&mut self) {
        for (j, &n) in self.count.iter().enumerate() {
            for &l in &self.nodes[j * (self.layer + 1)..][..n] {
                self.walk[j * self.layer + l as usize] = Walks::default();
            }
        }
        self.count.iter_mut().for_each(|n| *n = 0);
    }

    #[inline]
    pub(super) fn local(&self, start: Offset, o: Offset) -> Option<u16> {
        let (dc, dr) = (o.c - start.c + self.radius, o.r - start.r + self.radius);
        (dc >= 0 && dr >= 0 && dc < self.side && dr < self.side).then(|| (dr * self.side + dc) as u16)
    }

    #[inline]
    pub(super) fn global(&self, start: Offset, l: u16) -> Offset {
        let (dc, dr) = self.win_cr[l as usize];
        Offset::new(start.c + dc as i32 - self.radius, start.r + dr as i32 - self.radius)
    }
}
