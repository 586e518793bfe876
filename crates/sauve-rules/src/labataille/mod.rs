//! La Bataille (hex mode): morale, forced moves, contagion and recovery, as
//! pure functions over plain data. No Bevy here; `crate::sim` adapts it to
//! the ECS.
//!
//! - [`ai`]: the AI opponent, one phase of orders at a time;
//! - [`grid`]: the map as flat arrays (neighbours, per-arm step costs);
//! - [`fields`]: per-side distance and zone fields, built once per phase;
//! - [`rout`]: the 10-hex rout move and its priorities (rule 1.3);
//! - [`retreat`]: the disorder retreat and the far router's walk to refuge;
//! - [`rout_preview`]: where a unit would rout now and whom it would shake;
//! - [`engine`]: morale checks, cascades, shocks and the recovery segment;
//! - [`victory`]: leaders, corps and army morale, objectives, score, summary.

pub mod ai;
pub mod combat;
pub mod engine;
pub mod fields;
pub mod grid;
pub mod movement;
pub mod orders;
pub mod probe;
pub mod retreat;
pub mod rout;
pub mod rout_preview;
pub mod victory;

use crate::hex::{Dir, Edge, Offset};
use crate::scenario::{Scenario, UnitSpec};
use crate::terrain::Arm;
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

/// Plain data for one hex-mode unit, as the rules see it.
#[derive(Debug, PartialEq)]
pub struct HexUnit {
    pub id: String,
    pub side: usize,
    pub arm: Arm,
    /// `None` once it has left the board (surrendered, eliminated, or gone
    /// off the map to recover).
    pub at: Option<Offset>,
    pub morale: u8,
    pub strength: u32,
    pub state: State,
    pub readiness: Readiness,
    pub formation: Formation,
    pub facing: Dir,
    pub limbered: bool,
    /// Has not moved or fought since its side's last recovery segment.
    pub rested: bool,
}

/// Written out so that `clone_from` keeps the copy's id buffer: the odds
/// restore one copy of the board between the ways an attack can go.
impl Clone for HexUnit {
    fn clone(&self) -> Self {
        let mut out = Self { id: String::new(), ..*self };
        out.id.clone_from(&self.id);
        out
    }

    fn clone_from(&mut self, source: &Self) {
        let Self { id, side, arm, at, morale, strength, state, readiness, formation, facing, limbered, rested } = self;
        id.clone_from(&source.id);
        *side = source.side;
        *arm = source.arm;
        *at = source.at;
        *morale = source.morale;
        *strength = source.strength;
        *state = source.state;
        *readiness = source.readiness;
        *formation = source.formation;
        *facing = source.facing;
        *limbered = source.limbered;
        *rested = source.rested;
    }
}

impl HexUnit {
    pub fn from_spec(spec: &UnitSpec, rear: Edge) -> Self {
        let at = match spec.place {
            crate::scenario::Place::Hex(o) => Some(o),
            crate::scenario::Place::Table { .. } => None,
        };
        let facing = spec.facing.map(Dir::from_degrees).unwrap_or(match rear {
            Edge::South => Dir::N,
            Edge::North => Dir::S,
            // Flat-top hexes have no east/west side; face the upper diagonal.
            Edge::East => Dir::NW,
            Edge::West => Dir::NE,
        });
        Self {
            id: spec.id.clone(),
            side: spec.side,
            arm: spec.arm,
            at,
            morale: spec.morale,
            strength: spec.strength,
            state: spec.state.hex(),
            readiness: spec.readiness,
            formation: spec.formation.unwrap_or(Formation::Line),
            facing,
            limbered: spec.limbered,
            rested: true,
        }
    }

    /// A unit ready to march: good order, fresh, in column (guns
    /// limbered), morale 43 and 6 increments. Tests and benchmarks start
    /// from it and change what they are about.
    pub fn marching(id: impl Into<String>, side: usize, arm: Arm, at: Offset, facing: Dir) -> Self {
        Self {
            id: id.into(),
            side,
            arm,
            at: Some(at),
            morale: 43,
            strength: 6,
            state: State::GoodOrder,
            readiness: Readiness::Fresh,
            formation: Formation::Column,
            facing,
            limbered: arm == Arm::Artillery,
            rested: true,
        }
    }

    pub fn on_board(&self) -> bool {
        self.at.is_some()
    }
}

/// All units of a hex battle, indexed in scenario order (the stable order
/// every rule iterates in).
#[derive(Debug, PartialEq, Default)]
pub struct Board {
    pub units: Vec<HexUnit>,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Self { units: self.units.clone() }
    }

    /// Unit by unit, keeping the copy's buffers (see [`HexUnit`]'s `Clone`).
    fn clone_from(&mut self, source: &Self) {
        self.units.clone_from(&source.units);
    }
}

impl Board {
    pub fn from_scenario(s: &Scenario) -> Self {
        Self { units: s.units.iter().map(|u| HexUnit::from_spec(u, s.sides[u.side].rear)).collect() }
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }
}
