//! The free-space (Belle Alliance) systems: shocks with the flights,
//! carry-alongs and retreats they cause, and reorganisation.

use bevy::ecs::system::{SystemChangeTick, SystemParam};
use bevy::prelude::*;

use super::battle::{Battle, BattleLog, DiceBox};
use super::clock::Clock;
use super::view::{FsQuery, TableView};
use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::{FsCtx, Table};
use crate::dice::Dice;
use crate::events::EventLog;

/// Everything a free-space segment needs: the units, the table view, the
/// battle, its dice and log.
#[derive(SystemParam)]
pub(super) struct Segment<'w, 's> {
    q: FsQuery<'w, 's>,
    ticks: SystemChangeTick,
    view: ResMut<'w, TableView>,
    battle: Res<'w, Battle>,
    dice: ResMut<'w, DiceBox>,
    log: ResMut<'w, BattleLog>,
}

impl Segment<'_, '_> {
    /// Runs `rule` on the table brought up to date, then writes back.
    fn run(&mut self, rule: impl FnOnce(&FsCtx, &mut FsEngine, &mut Table, &mut Dice, &mut EventLog)) {
        let Segment { q, ticks, view, battle, dice, log } = self;
        view.with_table(q, *ticks, battle, &mut dice.0, log, rule);
    }
}

/// Free-space shocks of this turn, in file order; their flights, carry-alongs
/// and retreats are resolved at the end of the phase (Belle Alliance 2.5).
pub(super) fn fs_shocks_system(mut segment: Segment, clock: Res<Clock>) {
    let turn = clock.turn;
    let shocks: Vec<_> = segment.battle.scenario.shocks.iter().filter(|s| s.turn == turn).cloned().collect();
    if shocks.is_empty() {
        return;
    }
    segment.run(|ctx, engine, table, dice, log| {
        for s in &shocks {
            engine.apply_shock(ctx, table, log, s, turn);
        }
        engine.resolve(ctx, table, dice, log, turn);
    });
}

/// The phasing side's announcement phase (the `Charge` slot): reorganisation
/// of its FU units (Belle Alliance 2.4).
pub(super) fn fs_announcement_system(mut segment: Segment, clock: Res<Clock>) {
    let Some(side) = clock.side else { return };
    let turn = clock.turn;
    segment.run(|ctx, engine, table, dice, log| engine.reorganisation_segment(ctx, table, dice, log, turn, side));
}
