//! The scenario file as authors write it (docs/scenario-format.md), read by
//! serde: every field, its defaults, and no rules checked yet. Unknown
//! fields are errors everywhere.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::hex::{Dir, Edge};
use crate::rules::Rules;
use crate::terrain::{Arm, HexsideKind, Terrain};
use crate::vocab::State;
use crate::vocab::{AiLevel, Control, Formation, Mode, Readiness};

/// The only scenario format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scenario", deny_unknown_fields)]
pub struct ScenarioFile {
    pub format: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default = "default_turns")]
    pub turns: u32,
    #[serde(default)]
    pub seed: u64,
    pub sides: Vec<SideFile>,
    #[serde(default)]
    pub map: MapFile,
    #[serde(default)]
    pub units: Vec<UnitFile>,
    #[serde(default)]
    pub shocks: Vec<ShockFile>,
    /// Free-space mode: commanders and orderlies on the table (2.4).
    #[serde(default)]
    pub staff: Vec<StaffFile>,
    /// Hex mode: victory-point hexes.
    #[serde(default)]
    pub objectives: Vec<ObjectiveFile>,
    /// Hex mode: map edges a side scores for leaving by in order.
    #[serde(default)]
    pub exits: Vec<ExitFile>,
    /// Hex mode: the corps whose breaking decides army morale (docs/rules.md 1.6).
    #[serde(default)]
    pub corps: Vec<CorpsFile>,
    /// Hex mode: leaders riding with a unit.
    #[serde(default)]
    pub leaders: Vec<LeaderFile>,
    #[serde(default)]
    pub rules: Rules,
}

/// A victory-point hex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveFile {
    pub at: (i64, i64),
    #[serde(default = "default_points")]
    pub points: i64,
    #[serde(default)]
    pub name: Option<String>,
    /// The side holding it when the battle opens.
    #[serde(default)]
    pub held_by: Option<String>,
}

/// A map edge worth points to one side for each increment it takes off the
/// map there without routing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExitFile {
    pub side: String,
    pub edge: Edge,
    #[serde(default = "default_points")]
    pub points: i64,
}

fn default_points() -> i64 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsFile {
    pub id: String,
    pub side: String,
    #[serde(default)]
    pub name: Option<String>,
    pub units: Vec<String>,
    /// Default: half its units, rounded up.
    #[serde(default)]
    pub breaks_at: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderFile {
    pub id: String,
    pub side: String,
    /// The unit the leader rides with.
    pub with: String,
    #[serde(default = "default_points")]
    pub bonus: i64,
    #[serde(default)]
    pub name: Option<String>,
}

/// A staff figure (commander or orderly) standing on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaffFile {
    pub side: String,
    pub pos: (f32, f32),
    #[serde(default)]
    pub name: Option<String>,
}

fn default_turns() -> u32 {
    12
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideFile {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub rear: Option<Edge>,
    #[serde(default)]
    pub control: Control,
    /// How readily the AI attacks, 0.0 (holds) to 1.0 (presses on).
    #[serde(default)]
    pub aggression: Option<f32>,
    /// How well the AI plays this side when it does (`Easy`, `Normal`);
    /// `Normal` when the file is silent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(default)]
    pub rows: Vec<String>,
    #[serde(default)]
    pub legend: BTreeMap<char, Terrain>,
    /// Hexside features: streams and slopes on the edge of a hex.
    #[serde(default)]
    pub hexsides: Vec<HexsideFile>,
    /// Free-space mode: the side of one square terrain cell, in cm.
    #[serde(default)]
    pub cell_cm: Option<f32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideFile {
    pub at: (i32, i32),
    pub side: Dir,
    pub kind: HexsideKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFile {
    pub id: String,
    pub side: String,
    pub arm: Arm,
    #[serde(default)]
    pub at: Option<(i64, i64)>,
    #[serde(default)]
    pub pos: Option<(f32, f32)>,
    #[serde(default)]
    pub morale: Option<i64>,
    #[serde(default)]
    pub valour: Option<i64>,
    #[serde(default)]
    pub strength: Option<i64>,
    #[serde(default)]
    pub figures: Option<i64>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub state: Option<State>,
    #[serde(default)]
    pub movement: Option<f32>,
    #[serde(default)]
    pub formation: Option<Formation>,
    #[serde(default)]
    pub readiness: Option<Readiness>,
    #[serde(default)]
    pub facing: Option<FacingFile>,
    #[serde(default)]
    pub limbered: Option<bool>,
    /// Free-space artillery: horse artillery (flees at the horse rate when
    /// limbered).
    #[serde(default)]
    pub horse: Option<bool>,
}

/// A unit's `facing` as written: degrees clockwise from north, or in hex
/// mode the name of a hexside (`NE`), which is what a hex unit faces anyway.
/// Untagged, so that `facing: 30.0`, `facing: 30`, `facing: NE` and
/// `facing: "NE"` all read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FacingFile {
    Degrees(f32),
    Hexside(Dir),
}

/// What serde says when a `facing` is neither a number nor a hexside name,
/// and what the author is told instead.
pub(super) const FACING_MISMATCH: &str = "data did not match any variant of untagged enum FacingFile";
pub(super) const FACING_EXPECTED: &str =
    "facing must be degrees clockwise from north or a hexside name: N, NE, SE, S, SW, NW";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShockFile {
    pub turn: u32,
    pub unit: String,
    pub to: State,
    #[serde(default)]
    pub cause: Option<String>,
}
