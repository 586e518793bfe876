//! The movement phase's shared facts for one side: the fields every
//! unit's move reads, the exits and what each unit does.

use std::sync::Arc;

use crate::hex::Edge;
use crate::labataille::fields::SideFields;

/// What a unit does in the movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Stands on an objective and holds it.
    Garrison,
    /// Kept back, unless an objective is threatened.
    Reserve,
    /// Goes for the objectives and the enemy.
    Attack,
    /// Makes for an exit (index into [`Plan::exits`]) and leaves by it.
    Exit(usize),
    /// Goes for the enemy and the objectives at the boldest stand-off
    /// (the planning AI's `Assault`).
    Assault,
    /// Makes for the objectives only (the planning AI's `Objective`).
    Objective,
    /// Falls back out of the enemy's reach (the planning AI's `Withdraw`).
    Withdraw,
    /// At `Normal`: goes for one enemy unit that none of the side's units
    /// stands near (index into [`Plan::hunts`]).
    Hunt(usize),
}

/// One of the side's exits the AI may use, with the goal field towards its edge.
pub(super) struct ExitRoute {
    pub(super) edge: Edge,
    pub(super) points: u32,
    pub(super) field: Vec<u32>,
}

/// The movement phase's shared facts for one side.
pub(super) struct Plan {
    /// The side's fields, shared with the engine: the side's own moves do
    /// not change them.
    pub(super) sight: Arc<SideFields>,
    /// Goal field of the attackers.
    pub(super) attack: Vec<u32>,
    /// Goal field towards the threatened objectives we hold, if any.
    pub(super) defend: Option<Vec<u32>>,
    /// Goal field towards the objectives alone (to take, or all if none
    /// is), when a unit's script asks for it.
    pub(super) objective: Option<Vec<u32>>,
    /// Cells of every objective, sorted.
    pub(super) objectives: Vec<usize>,
    /// The exits the side may leave by, best paying first.
    pub(super) exits: Vec<ExitRoute>,
    /// Whose rout lanes each hex (by cell) lies in: a unit that stands in
    /// a friend's would check for contagion when it routs (at `Normal`;
    /// empty at `Easy`).
    pub(super) lanes: Vec<Lane>,
    /// At `Normal`, by unit: a battalion in the open that enemy horse near
    /// it would charge to good effect, worked out once for the phase
    /// (`Ai::squares_needed`, in `stance.rs`); empty at `Easy`.
    pub(super) squares: Vec<bool>,
    /// At `Normal`: the goal field towards each lone enemy unit hunted
    /// (`Ai::send_hunters`, in `hunt.rs`); empty at `Easy`.
    pub(super) hunts: Vec<Vec<u32>>,
}

/// The units whose rout would pass a hex: none, one, or several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Lane {
    #[default]
    None,
    One(usize),
    Several,
}

impl Lane {
    pub(super) fn add(&mut self, unit: usize) {
        *self = match *self {
            Lane::None => Lane::One(unit),
            Lane::One(u) if u == unit => Lane::One(u),
            _ => Lane::Several,
        };
    }

    /// Whether a unit other than `unit` would rout through the hex.
    pub(super) fn others_than(self, unit: usize) -> bool {
        match self {
            Lane::None => false,
            Lane::One(u) => u != unit,
            Lane::Several => true,
        }
    }
}
