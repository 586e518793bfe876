//! The free-space (Belle Alliance) systems: shocks with the flights,
//! carry-alongs and retreats they cause, and reorganisation.

use bevy::ecs::system::SystemChangeTick;
use bevy::prelude::*;

use super::battle::{Battle, BattleLog, DiceBox};
use super::clock::Clock;
use super::view::{FsQuery, TableView};

/// Free-space shocks of this turn, in file order; their flights, carry-alongs
/// and retreats are resolved at the end of the phase (Belle Alliance 2.5).
pub(super) fn fs_shocks_system(
    mut q: FsQuery,
    ticks: SystemChangeTick,
    mut view: ResMut<TableView>,
    battle: Res<Battle>,
    clock: Res<Clock>,
    mut dice: ResMut<DiceBox>,
    mut log: ResMut<BattleLog>,
) {
    let shocks: Vec<_> = battle.scenario.shocks.iter().filter(|s| s.turn == clock.turn).cloned().collect();
    if shocks.is_empty() {
        return;
    }
    let turn = clock.turn;
    view.with_table(&mut q, ticks, &battle, &mut dice.0, &mut log, |ctx, engine, table, dice, log| {
        for s in &shocks {
            engine.apply_shock(ctx, table, log, s, turn);
        }
        engine.resolve(ctx, table, dice, log, turn);
    });
}

/// The phasing side's announcement phase (the `Charge` slot): reorganisation
/// of its FU units (Belle Alliance 2.4).
pub(super) fn fs_announcement_system(
    mut q: FsQuery,
    ticks: SystemChangeTick,
    mut view: ResMut<TableView>,
    battle: Res<Battle>,
    clock: Res<Clock>,
    mut dice: ResMut<DiceBox>,
    mut log: ResMut<BattleLog>,
) {
    let Some(side) = clock.side else { return };
    let turn = clock.turn;
    view.with_table(&mut q, ticks, &battle, &mut dice.0, &mut log, |ctx, engine, table, dice, log| {
        engine.reorganisation_segment(ctx, table, dice, log, turn, side);
    });
}
