//! The validated scenario: what the rules read, every reference resolved
//! to an index and every number in range.

use crate::hex::{Edge, Offset};
use crate::map::TerrainMap;
use crate::rules::Rules;
use crate::terrain::Arm;
use crate::vocab::State;
use crate::vocab::{AiLevel, Control, Formation, Mode, Readiness};

#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    pub id: String,
    pub name: String,
    pub rear: Edge,
    pub control: Control,
    /// AI aggression, 0.0..=1.0; [`DEFAULT_AGGRESSION`] when the file is silent.
    pub aggression: f32,
    /// How well the AI plays this side ([`AiLevel::Normal`] when the file
    /// is silent).
    pub level: AiLevel,
}

/// The AI's aggression when a side gives none: neither holding back nor
/// reckless.
pub const DEFAULT_AGGRESSION: f32 = 0.5;

/// A victory-point hex (hex mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    pub at: Offset,
    pub points: u32,
    pub name: String,
    /// Side holding it at the start, if any.
    pub held_by: Option<usize>,
}

/// Points per increment that `side` takes off the map across `edge` while
/// not routing (hex mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Exit {
    pub side: usize,
    pub edge: Edge,
    pub points: u32,
}

/// A corps: the battalions whose routs and losses break it (docs/rules.md 1.6).
#[derive(Clone, Debug, PartialEq)]
pub struct Corps {
    pub id: String,
    pub name: String,
    pub side: usize,
    /// Unit indices, in scenario order.
    pub units: Vec<usize>,
    /// Broken once this many of its units are routed or gone.
    pub breaks_at: u32,
    /// Made up by the loader from the side's units that no corps lists.
    pub implicit: bool,
}

/// A leader riding with a unit (hex mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Leader {
    pub id: String,
    pub name: String,
    pub side: usize,
    /// Unit index of the leader's host at the start.
    pub with: usize,
    /// Added to the morale checks of friends near the host.
    pub bonus: i32,
}

/// Where a unit stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    Hex(Offset),
    /// Centre of the footprint, cm from the table's top-left corner.
    Table {
        x: f32,
        y: f32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub side: usize,
    pub arm: Arm,
    pub place: Place,
    /// Hex mode: the d66 morale value.
    pub morale: u8,
    /// Free-space mode: valour, -5..=5.
    pub valour: i32,
    /// Hex mode: strength increments; free space: figures.
    pub strength: u32,
    pub state: State,
    pub movement: Option<f32>,
    pub formation: Option<Formation>,
    pub readiness: Readiness,
    /// Degrees clockwise from north.
    pub facing: Option<f32>,
    pub limbered: bool,
    /// Horse artillery (free space).
    pub horse: bool,
}

/// A staff figure on a free-space table.
#[derive(Clone, Debug, PartialEq)]
pub struct Staff {
    pub side: usize,
    pub x: f32,
    pub y: f32,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Shock {
    pub turn: u32,
    pub unit: usize,
    pub to: State,
    pub cause: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub mode: Mode,
    pub turns: u32,
    pub seed: u64,
    pub sides: Vec<Side>,
    pub map: TerrainMap,
    /// Free-space mode: side of a terrain cell in cm.
    pub cell_cm: f32,
    pub units: Vec<UnitSpec>,
    pub shocks: Vec<Shock>,
    /// Free-space staff figures.
    pub staff: Vec<Staff>,
    pub objectives: Vec<Objective>,
    pub exits: Vec<Exit>,
    /// Every corps: those the file lists, then one implicit corps per side
    /// for its units that no corps lists (hex mode), so each hex unit is in
    /// exactly one corps.
    pub corps: Vec<Corps>,
    pub leaders: Vec<Leader>,
    pub rules: Rules,
}

impl Scenario {
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// The side's corps, explicit and implicit, with their indices in
    /// [`Scenario::corps`].
    pub fn corps_of_side(&self, side: usize) -> impl Iterator<Item = (usize, &Corps)> {
        self.corps.iter().enumerate().filter(move |(_, c)| c.side == side)
    }

    /// Index of the corps a unit belongs to (always `Some` in hex mode).
    pub fn corps_of_unit(&self, unit: usize) -> Option<usize> {
        self.corps.iter().position(|c| c.units.contains(&unit))
    }

    /// Table size in cm (free-space mode).
    pub fn table_cm(&self) -> (f32, f32) {
        (self.map.width as f32 * self.cell_cm, self.map.height as f32 * self.cell_cm)
    }
}
