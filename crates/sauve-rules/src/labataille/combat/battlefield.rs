//! What every fight reads and how it fails: the battle's fixed data, the
//! dice's chances, the error for a fight that breaks a rule, and a failed
//! combat morale check.

use crate::events::{Cause, EventLog, Seq};
use crate::labataille::Board;
use crate::labataille::engine::{Ctx, Engine, Forced};
use crate::map::TerrainMap;
use crate::rules::combat::Tables;
use crate::vocab::State;

/// The battle's fixed data beside the engine's context: the terrain (for
/// cover and hexsides), the parsed tables and each unit's own allowance.
pub struct Battlefield<'a> {
    pub ctx: &'a Ctx<'a>,
    pub map: &'a TerrainMap,
    pub tables: &'a Tables,
    /// The scenario's `movement` per unit (None: the arm's allowance).
    pub movement: &'a [Option<f32>],
}

/// Chance of each total of two dice.
pub fn two_d6_chance(total: i32) -> f32 {
    if (2..=12).contains(&total) { (6 - (total - 7).abs()) as f32 / 36.0 } else { 0.0 }
}

/// Why a fire, melee or charge cannot be made: the unit and the rule it
/// would break. (The orders module turns it into its own `OrderError`.)
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("unit '{unit}': {why}")]
pub struct CombatError {
    pub unit: String,
    pub why: String,
}

/// A fight refused: `unit` would break the rule `why` says.
pub(super) fn illegal(board: &Board, unit: usize, why: impl Into<String>) -> CombatError {
    CombatError { unit: board.units[unit].id.clone(), why: why.into() }
}

/// A failed check caused by combat: good order goes to disorder and retreats
/// (cavalry routs, rule 1.2); disorder goes to rout. `by`: the failed
/// check, or the combat result that forced it.
pub(super) fn combat_failure(
    engine: &mut Engine,
    board: &mut Board,
    log: &mut EventLog,
    unit: usize,
    cause: Cause,
    by: &[Seq],
) {
    match board.units[unit].state {
        State::GoodOrder => engine.fail(board, log, unit, cause, by),
        State::Disordered => {
            let changed = engine.set_state(board, log, unit, State::Routed, cause, by);
            engine.push(unit, Forced::Rout, changed);
        }
        _ => {}
    }
}
