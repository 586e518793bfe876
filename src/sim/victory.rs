//! Victory and army morale as the battle goes (hex mode): objectives,
//! exits, leaders riding to their units, corps breaking, the score and the
//! end-of-game summary, over the rules of [`crate::labataille::victory`].

use bevy::prelude::*;

use super::battle::{Battle, BattleLog, EngineState};
use super::view::board_scope;
use crate::events::EventKind;
use crate::labataille::ai::corps_broken_for_orders;
use crate::labataille::victory;
use crate::scenario::{Mode, Scenario};

/// Victory and army morale as the battle goes (hex mode): who holds each
/// objective, increments marched off by each exit, every unit's starting
/// strength, which unit each leader rides with and which corps have broken.
#[derive(Resource, Clone, Debug, Default)]
pub struct Victory {
    pub holders: Vec<Option<usize>>,
    pub exited: Vec<u32>,
    pub start_strength: Vec<u32>,
    pub attached: Vec<usize>,
    pub broken: Vec<bool>,
    /// Each corps as the mended AI counts it after the last command
    /// segment: broken, or broken and not yet mended by
    /// `rules.ai.mend_margin` (`ai::corps_broken_for_orders`).
    pub ai_broken: Vec<bool>,
    /// Events already tallied (exits).
    pub(super) seen: usize,
}

impl Victory {
    pub(super) fn new(s: &Scenario) -> Self {
        Victory {
            holders: victory::initial_holders(s),
            exited: victory::exit_tally(s),
            start_strength: s.units.iter().map(|u| u.strength).collect(),
            attached: victory::initial_attachment(s),
            broken: vec![false; s.corps.len()],
            ai_broken: vec![false; s.corps.len()],
            seen: 0,
        }
    }
}

fn is_hex(world: &World) -> bool {
    world.get_resource::<Battle>().is_some_and(|b| b.scenario.mode == Mode::Hex)
}

/// Leaders (before each phase): a leader whose unit has gone or routed
/// rides to another, and every unit's bonus is worked out for the phase.
pub(super) fn refresh_leaders(world: &mut World) {
    if !is_hex(world) || world.resource::<Battle>().scenario.leaders.is_empty() {
        return;
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    board_scope(world, |world, board| {
        let mut attached = std::mem::take(&mut world.resource_mut::<Victory>().attached);
        let before = attached.clone();
        for (leader, unit) in victory::reattach(&scenario, board, &mut attached) {
            let (Some(l), Some(u)) = (scenario.leaders.get(leader), board.units.get(unit)) else { continue };
            let mut log = world.resource_mut::<BattleLog>();
            // The ride follows from what befell the unit the leader was with.
            let left = before.get(leader).and_then(|&h| board.units.get(h));
            let because: Vec<_> = left.and_then(|h| log.last_fall(&h.id)).into_iter().collect();
            log.push_because(EventKind::LeaderJoined { leader: l.id.clone(), unit: u.id.clone() }, &because);
        }
        let radius = scenario.rules.combat.leader_radius;
        let bonus =
            (0..board.units.len()).map(|u| victory::leader_bonus(&scenario, board, &attached, u, radius)).collect();
        world.resource_mut::<Victory>().attached = attached;
        world.resource_mut::<EngineState>().0.bonus = bonus;
    });
}

/// The command segment at the start of a turn (docs/rules.md 1.6): corps that
/// have lost enough battalions break. Returns whether an army has broken,
/// which ends the battle.
pub(super) fn command_segment(world: &mut World) -> bool {
    if !is_hex(world) {
        return false;
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    board_scope(world, |world, board| {
        let status = victory::corps_status(&scenario, board);
        let ai_broken = corps_broken_for_orders(&scenario, &status, &world.resource::<Victory>().ai_broken);
        world.resource_mut::<Victory>().ai_broken = ai_broken;
        for st in status {
            let known = world.resource::<Victory>().broken.get(st.corps).copied().unwrap_or(true);
            if st.broken && !known {
                world.resource_mut::<Victory>().broken[st.corps] = true;
                let c = &scenario.corps[st.corps];
                let side = scenario.sides.get(c.side).map_or_else(String::new, |s| s.id.clone());
                let mut log = world.resource_mut::<BattleLog>();
                let because = victory::break_causes(&scenario, board, &log, st.corps);
                log.push_because(
                    EventKind::CorpsBroken { corps: c.id.clone(), army: side, gone: st.gone, routed: st.routed },
                    &because,
                );
            }
        }
        (0..scenario.sides.len()).any(|s| victory::army_broken(&scenario, board, s))
    })
    .unwrap_or(false)
}

/// After each phase: objectives change hands, exits are counted.
pub(super) fn tally(world: &mut World) {
    if !is_hex(world) {
        return;
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    world.resource_scope(|world, mut v: Mut<Victory>| {
        let events = &world.resource::<BattleLog>().events;
        victory::tally_exits(&scenario, &events[v.seen.min(events.len())..], &mut v.exited);
        v.seen = events.len();
    });
    // Objectives change hands only where units stand.
    if !scenario.objectives.is_empty() {
        board_scope(world, |world, board| {
            victory::update_holders(&scenario, board, &mut world.resource_mut::<Victory>().holders);
        });
    }
}

/// The score as it stands (hex mode).
pub fn score(world: &mut World) -> Option<victory::Score> {
    if !is_hex(world) {
        return None;
    }
    let scenario = world.resource::<Battle>().scenario.clone();
    board_scope(world, |world, board| {
        let v = world.resource::<Victory>();
        victory::score(&scenario, board, &v.holders, &v.exited, &v.start_strength)
    })
}

/// The end-of-game summary: losses, routs and cascades in hex mode;
/// flights, carry-alongs and cascades in free space.
pub fn summary(world: &mut World) -> Option<BattleSummary> {
    let scenario = world.resource::<Battle>().scenario.clone();
    if !is_hex(world) {
        let log = world.resource::<BattleLog>();
        return Some(BattleSummary::FreeSpace(crate::belle_alliance::summary::summary(&scenario, log)));
    }
    board_scope(world, |world, board| {
        BattleSummary::Hex(victory::summary(&scenario, board, world.resource::<BattleLog>()))
    })
}

/// Who holds each objective now, in scenario order: a side's index, or
/// `None` for nobody (hex or table).
pub fn holders(world: &World) -> Vec<Option<usize>> {
    if is_hex(world) {
        world.get_resource::<Victory>().map(|v| v.holders.clone()).unwrap_or_default()
    } else {
        world.get_resource::<super::free_space::FsState>().map(|f| f.holders.clone()).unwrap_or_default()
    }
}

/// A battle's summary, in the terms of its rule system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BattleSummary {
    Hex(victory::Summary),
    FreeSpace(crate::belle_alliance::summary::FlightSummary),
}

impl std::fmt::Display for BattleSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BattleSummary::Hex(s) => s.fmt(f),
            BattleSummary::FreeSpace(s) => s.fmt(f),
        }
    }
}
