//! Building the battle in a world: one entity per unit, the resources, and
//! the phase schedules with their systems.

use std::sync::Arc;

use bevy::app::App;
use bevy::ecs::schedule::Schedule;
use bevy::prelude::*;

use super::battle::{Battle, BattleLog, DiceBox, EngineState};
use super::clock::{Clock, Origin, PhaseSchedule};
use super::components::*;
use super::control::{AiLevels, Seats};
use super::free_space::{FsState, fs_order_phase_system, fs_shocks_system};
use super::hex_phases::{free_space_mode, hex_mode, order_phase_system, recovery_system, shocks_system};
use super::play::PlayState;
use super::victory::Victory;
use super::view::{BoardView, TableView};
use crate::belle_alliance::FsUnit;
use crate::dice::Dice;
use crate::labataille::engine::Engine;
use crate::labataille::grid::Grid;
use crate::labataille::{Board, HexUnit};
use crate::scenario::{Place, Scenario};
use crate::turn::Phase;

/// Spawns one entity per unit with its components.
pub fn spawn_units(world: &mut World, scenario: &Scenario) {
    for (i, u) in scenario.units.iter().enumerate() {
        let hex = HexUnit::from_spec(u, scenario.sides[u.side].rear);
        let mut e = world.spawn((
            UnitIndex(i),
            UnitName { id: u.id.clone(), name: u.name.clone() },
            SideIndex(u.side),
            ArmOf(u.arm),
            Strength(u.strength),
            CavalryReadiness(u.readiness),
            FormationOf(hex.formation),
            Facing(hex.facing),
            Limbered(u.limbered),
            Rested(true),
        ));
        match u.place {
            Place::Hex(at) => {
                e.insert((HexPosition(Some(at)), MoraleValue(u.morale), MoraleState(hex.state)));
            }
            Place::Table { x, y } => {
                let fs = FsUnit::from_spec(u, scenario.sides[u.side].rear);
                e.insert((
                    TablePosition { x, y, facing: fs.facing },
                    Valour(u.valour),
                    DisorderState(u.state),
                    HorseArtillery(u.horse),
                    AbandonedGuns(None),
                    ShakenIn(fs.shaken_in),
                ));
            }
        }
    }
}

/// Adds the battle's resources, phase schedules and systems to an app.
pub fn install(app: &mut App, scenario: Arc<Scenario>, seed: u64, dice: Vec<u32>, seats: Seats) {
    install_schedules(app);
    reset(app.world_mut(), scenario, seed, dice, seats);
}

/// Adds the phase schedules and their systems, without a battle: the game
/// window does this once and then [`reset`]s for every scenario it opens.
pub fn install_schedules(app: &mut App) {
    for phase in [Phase::Shocks].into_iter().chain(Phase::SIDE_PHASES) {
        app.add_schedule(Schedule::new(PhaseSchedule(phase)));
    }
    app.add_systems(PhaseSchedule(Phase::Shocks), shocks_system.run_if(hex_mode));
    app.add_systems(PhaseSchedule(Phase::MoraleRecovery), recovery_system.run_if(hex_mode));
    for phase in [Phase::Charge, Phase::Movement, Phase::DefensiveFire, Phase::OffensiveFire, Phase::Melee] {
        app.add_systems(PhaseSchedule(phase), order_phase_system.run_if(hex_mode));
    }
    app.add_systems(PhaseSchedule(Phase::Shocks), fs_shocks_system.run_if(free_space_mode));
    for phase in [Phase::Charge, Phase::Movement, Phase::DefensiveFire, Phase::OffensiveFire, Phase::Melee] {
        app.add_systems(PhaseSchedule(phase), fs_order_phase_system.run_if(free_space_mode));
    }
}

/// (Re)starts a battle in `world`: removes any units of a previous one, then
/// inserts the resources and spawns the units of `scenario`.
pub fn reset(world: &mut World, scenario: Arc<Scenario>, seed: u64, dice: Vec<u32>, seats: Seats) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<UnitIndex>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    // The terrain's arrays (and the rout planner's bounds, worked out on
    // the first rout) depend on the map and rules alone: a battle on the
    // same ground keeps them (forecasts and batches reset thousands of
    // times).
    let same_ground = world.get_resource::<Battle>().is_some_and(|b| {
        Arc::ptr_eq(&b.scenario, &scenario) || (b.scenario.map == scenario.map && b.scenario.rules == scenario.rules)
    });
    let grid = match world.remove_resource::<Battle>() {
        Some(b) if same_ground => b.grid,
        _ => Grid::new(&scenario.map, &scenario.rules),
    };
    let board = Board::from_scenario(&scenario);
    let engine = Engine::new(&grid, &board);
    world.insert_resource(Battle { scenario: scenario.clone(), grid });
    let dice_script = dice.clone();
    world.insert_resource(DiceBox(Dice::new(seed, dice)));
    world.insert_resource(EngineState(engine));
    world.insert_resource(BoardView::default());
    world.insert_resource(TableView::default());
    world.insert_resource(BattleLog::default());
    let mut play = PlayState::new(&scenario);
    play.activity.exits = scenario.exits.iter().map(|e| (e.side, e.edge)).collect();
    world.insert_resource(play);
    world.insert_resource(Victory::new(&scenario));
    world.insert_resource(FsState::new(&scenario));
    world.insert_resource(seats.controls(&scenario));
    world.insert_resource(AiLevels::of(&scenario));
    world.insert_resource(Origin { seed, dice: dice_script });
    world.insert_resource(Clock { turn: 1, side: None, phase: Phase::Shocks, finished: false });
    // A question of the battle before is no longer asked (its answer,
    // coming back later, is dropped).
    if let Some(mut t) = world.get_resource_mut::<super::thinking::Thinking>() {
        t.forget();
    }
    spawn_units(world, &scenario);
}
