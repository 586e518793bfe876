//! The battle's resources: the scenario with its map arrays, the dice, the
//! hex engine's caches and the event log.

use std::sync::Arc;

use bevy::prelude::*;

use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::engine::Engine;
use crate::labataille::grid::Grid;
use crate::scenario::Scenario;

/// The battle's event log as a resource of the world: the rules' own
/// [`EventLog`], which dereferences to it wherever a rule writes or a reader
/// reads.
#[derive(Resource, Clone, Debug, Default, Deref, DerefMut)]
pub struct BattleLog(pub EventLog);

/// The scenario and its map arrays.
#[derive(Resource)]
pub struct Battle {
    pub scenario: Arc<Scenario>,
    pub grid: Grid,
}

#[derive(Resource)]
pub struct DiceBox(pub Dice);

#[derive(Resource)]
pub struct EngineState(pub Engine);
