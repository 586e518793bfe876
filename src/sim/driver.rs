//! Driving the battle: stepping the clock phase by phase, replaying saved
//! orders, and the `Final` event.

use bevy::prelude::*;

use super::battle::{Battle, BattleLog};
use super::clock::{Clock, PhaseSchedule};
use super::components::*;
use super::control::Controls;
use super::orders::awaiting_orders;
use super::play::PlayState;
use super::thinking::Thinking;
use super::victory::{command_segment, refresh_leaders, score, tally};
use crate::events::{EventKind, FinalUnit, Pos};
use crate::labataille::ai::{Deliberation, DeliberationProgress};
use crate::labataille::orders::LoggedOrder;
use crate::turn::{Phase, SavePoint};
use crate::vocab::Control;

/// Runs the phase the clock points at, then advances the clock. An order
/// phase of a side a player controls begins and then waits: the window
/// gives orders through [`super::issue_order`] and ends it with [`end_phase`].
/// Returns `false` once the battle is over (the `Final` event written).
pub fn step_phase(world: &mut World) -> bool {
    let clock = *world.resource::<Clock>();
    if clock.finished {
        return false;
    }
    if !world.resource::<PlayState>().begun {
        let side_id = {
            let b = world.resource::<Battle>();
            clock.side.and_then(|s| b.scenario.sides.get(s)).map(|s| s.id.clone())
        };
        {
            let mut log = world.resource_mut::<BattleLog>();
            log.set_stamp(clock.turn, side_id.as_deref(), clock.phase);
            log.push(EventKind::PhaseStart {});
        }
        world.resource_mut::<PlayState>().begun = true;
        refresh_leaders(world);
        // Corps are first checked on `rules.first_command_turn` (house
        // default 2): the opening position is the scenario author's to set.
        // With nobody giving orders (`--ai none`) the battle is a study of
        // morale alone and runs all its turns; a played battle ends here.
        let played = world.resource::<Controls>().0.iter().any(|&c| c != Control::Idle);
        let first = world.resource::<Battle>().scenario.rules.first_command_turn;
        let broken = clock.phase == Phase::Shocks
            && clock.turn >= first
            && (command_segment(world) | super::free_space::fs_command_segment(world, played));
        if broken && played {
            // An army has broken: the battle is over.
            world.resource_mut::<PlayState>().begun = false;
            write_final(world);
            world.resource_mut::<Clock>().finished = true;
            return true;
        }
        world.run_schedule(PhaseSchedule(clock.phase));
        let mut play = world.resource_mut::<PlayState>();
        if play.replay_until == Some(SavePoint::from(clock)) {
            play.replay_until = None;
        }
    }
    if awaiting_orders(world).is_some() {
        return true;
    }
    // `hard`'s question waits for the window's answer; any other step
    // answers it here.
    if super::thinking::waits_for_window(world) {
        return true;
    }
    answer_in_place(world);
    end_phase(world);
    true
}

/// Ends the phase the clock points at and moves to the next; after the
/// last phase of the last turn, writes `Final`.
pub fn end_phase(world: &mut World) {
    let clock = *world.resource::<Clock>();
    if clock.finished {
        return;
    }
    let (turns, sides) = {
        let b = world.resource::<Battle>();
        (b.scenario.turns, b.scenario.sides.len())
    };
    {
        let mut play = world.resource_mut::<PlayState>();
        play.begun = false;
        play.undo.clear();
    }
    super::free_space::fs_close_phase(world);
    tally(world);
    match clock.next(sides, turns) {
        Some(next) => *world.resource_mut::<Clock>() = next,
        None => {
            write_final(world);
            world.resource_mut::<Clock>().finished = true;
        }
    }
}

/// Starts replaying `orders` up to the save point `until` (the orders are
/// applied at their stamps; no AI or player is asked meanwhile).
pub fn start_replay(world: &mut World, orders: Vec<LoggedOrder>, until: SavePoint) {
    let mut play = world.resource_mut::<PlayState>();
    play.replay = orders.into();
    play.replay_until = Some(until);
    play.players_only = false;
}

/// Starts a fork's replay up to `until`: only the orders of the sides a
/// player controls are replayed, at their stamps, and one that the
/// fork's history no longer allows is dropped (see [`dropped_orders`]);
/// the AI's sides decide afresh, as they would have.
pub fn start_fork_replay(world: &mut World, orders: Vec<LoggedOrder>, until: SavePoint) {
    let controls = world.resource::<Controls>().clone();
    let players: Vec<LoggedOrder> =
        orders.into_iter().filter(|o| controls.of(o.at.phase.acting_side(o.at.side)) == Control::Player).collect();
    let mut play = world.resource_mut::<PlayState>();
    play.replay = players.into();
    play.replay_until = Some(until);
    play.players_only = true;
    play.dropped.clear();
}

/// The orders a fork's replay dropped, with why, in the order met.
pub fn dropped_orders(world: &World) -> Vec<(LoggedOrder, String)> {
    world.get_resource::<PlayState>().map_or_else(Vec::new, |p| p.dropped.clone())
}

/// The saved orders a replay has not reached: after [`run_to`], orders
/// stamped for a moment the replay passed without stopping, or for one past
/// the save point, so never carried out. The first of them stops the rest,
/// since orders are replayed in the order saved.
pub fn orders_not_replayed(world: &World) -> Vec<LoggedOrder> {
    world.get_resource::<PlayState>().map_or_else(Vec::new, |p| p.replay.iter().cloned().collect())
}

/// Steps until the clock stands at `until` with its phase begun (or the
/// battle ends).
pub fn run_to(world: &mut World, until: SavePoint) {
    loop {
        let clock = *world.resource::<Clock>();
        let here = SavePoint::from(clock);
        if clock.finished || (here == until && world.resource::<PlayState>().begun) {
            return;
        }
        if awaiting_orders(world).is_some() {
            // Only reached when the save point was passed without stopping:
            // a save from another build. Stop rather than loop.
            return;
        }
        step_phase(world);
    }
}

/// Steps until the clock stands at `until` before that phase begins (or
/// the battle ends): where a game saved between two phases stood. The
/// replay is then over (no order can be stamped for a phase not yet
/// begun), so the phase at `until` asks its AI or player as usual.
pub fn run_to_boundary(world: &mut World, until: SavePoint) {
    loop {
        let clock = *world.resource::<Clock>();
        let here = SavePoint::from(clock);
        if clock.finished || (here == until && !world.resource::<PlayState>().begun) {
            break;
        }
        if awaiting_orders(world).is_some() {
            break;
        }
        step_phase(world);
    }
    let mut play = world.resource_mut::<PlayState>();
    if play.replay.is_empty() {
        play.replay_until = None;
    }
}

/// The `Final` event: every unit's state and position.
pub fn write_final(world: &mut World) {
    tally(world);
    if let Some(score) = score(world) {
        let sides = &world.resource::<Battle>().scenario.sides;
        let winner = score.winner.and_then(|w| sides.get(w)).map(|s| s.id.clone());
        let mut log = world.resource_mut::<BattleLog>();
        let turn = log.stamp.turn;
        log.set_stamp(turn, None, Phase::End);
        log.push(EventKind::GameOver {
            winner,
            decisive: score.decisive,
            points: score.points.clone(),
            detail: score.detail.clone(),
        });
    }
    let played = world.resource::<Controls>().0.iter().any(|&c| c != Control::Idle);
    if played && let Some(score) = super::free_space::fs_score(world) {
        let sides = &world.resource::<Battle>().scenario.sides;
        let winner = score.winner.and_then(|w| sides.get(w)).map(|s| s.id.clone());
        let mut log = world.resource_mut::<BattleLog>();
        let turn = log.stamp.turn;
        log.set_stamp(turn, None, Phase::End);
        log.push(EventKind::GameOver { winner, decisive: score.decisive, points: score.points, detail: score.detail });
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    let mut rows: Vec<(usize, FinalUnit)> = Vec::new();
    let mut q = world.query::<(
        &UnitIndex,
        &UnitName,
        &SideIndex,
        Option<&HexPosition>,
        Option<&MoraleState>,
        Option<&TablePosition>,
        Option<&DisorderState>,
    )>();
    for (i, name, side, hex, state, table, disorder) in q.iter(world) {
        let (state, at) = match (hex, state, table, disorder) {
            (Some(h), Some(s), _, _) => (s.0, h.0.map(Pos::from)),
            (_, _, Some(t), Some(d)) => (d.0.free_space(), Some(Pos::Cm([t.x, t.y]))),
            _ => continue,
        };
        let side = scenario.sides.get(side.0).map_or_else(String::new, |s| s.id.clone());
        rows.push((i.0, FinalUnit { id: name.id.clone(), side, state, at }));
    }
    rows.sort_by_key(|(i, _)| *i);
    let mut log = world.resource_mut::<BattleLog>();
    let turn = log.stamp.turn;
    log.set_stamp(turn, None, Phase::End);
    log.push(EventKind::Final { units: rows.into_iter().map(|(_, u)| u).collect() });
}

/// Answers the waiting question in place, if there is one
/// ([`super::Thinking`]: a step that is not the window's).
fn answer_in_place(world: &mut World) {
    let Some(q) = world.get_resource::<Thinking>().and_then(|t| t.asked().cloned()) else { return };
    let d = q.position.deliberate(&DeliberationProgress::default());
    answer(world, q.id, d);
}

/// The answer to question `id`: the phase that asked it gives its orders
/// with it, in either mode. An answer to a question no longer waiting (the
/// battle restarted, or answered in place meanwhile) is dropped. Returns
/// whether it was taken.
pub fn answer(world: &mut World, id: u64, d: Deliberation) -> bool {
    let Some(mut t) = world.get_resource_mut::<Thinking>() else { return false };
    let Some(q) = t.take_question(id) else { return false };
    t.answered(q.stamp, d);
    if world.resource::<Battle>().scenario.mode == crate::scenario::Mode::Hex {
        super::hex_phases::ai_orders(world);
    } else {
        super::free_space::fs_ai_orders(world);
    }
    true
}
