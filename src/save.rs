//! Saves of a running game: the battle in the world captured as a save, and
//! a save played back into the world. The save data itself, its file
//! format and atomic writes are the rules crate's (`sauve_rules::save`),
//! re-exported here.

use std::sync::Arc;

use bevy::prelude::World;

pub use sauve_rules::save::*;

use crate::scenario::{self, Problem};
use crate::sim::{self, AiLevels, Battle, BattleLog, Clock, Controls, Origin, PlayState, SavePoint, Seats};

/// The game in `world` as a save. `scenario_text` is the file it was opened
/// from (the world keeps only the parsed scenario).
pub fn capture(world: &World, scenario_text: &str) -> Option<SaveGame> {
    let battle = world.get_resource::<Battle>()?;
    let origin = world.get_resource::<Origin>()?;
    let clock = *world.get_resource::<Clock>()?;
    Some(SaveGame {
        format: SAVE_FORMAT,
        name: battle.scenario.name.clone(),
        scenario: scenario_text.to_owned(),
        turns: battle.scenario.turns,
        seed: origin.seed,
        dice: origin.dice.clone(),
        controls: world.get_resource::<Controls>()?.0.clone(),
        levels: world.get_resource::<AiLevels>()?.0.clone(),
        at: SavePoint::from(clock),
        begun: clock.finished || world.get_resource::<PlayState>()?.begun(),
        orders: world.get_resource::<PlayState>()?.book.clone(),
    })
}

/// The first saved order that the replay in `world` could not carry out
/// (after [`restore`]), as a problem placed at that order in `text`, the
/// save's own text: its turn, phase, unit and why. `None` when every order
/// was carried out.
pub fn failed_order(world: &World, save: &SaveGame, text: &str) -> Option<Problem> {
    let sides = world.get_resource::<Battle>().map(|b| b.scenario.sides.clone()).unwrap_or_default();
    let side_name = |s: usize| sides.get(s).map_or_else(|| format!("side {s}"), |s| format!("side '{}'", s.id));
    let unit_list = |units: &[&str]| match units {
        [one] => format!("unit '{one}'"),
        many => format!("units {}", many.iter().map(|u| format!("'{u}'")).collect::<Vec<_>>().join(", ")),
    };
    let log = world.get_resource::<BattleLog>()?;
    let errors: Vec<_> = log
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            crate::events::EventKind::ReplayError { order, error, index, units } => {
                Some((e, order, error, *index, units))
            }
            _ => None,
        })
        .collect();
    let left = sim::orders_not_replayed(world);
    let (index, message) = if let Some(&(e, order, error, index, units)) = errors.first() {
        let units: Vec<&str> = units.iter().map(String::as_str).collect();
        let side = e.side.as_deref().map_or_else(String::new, |s| format!(" of side '{s}'"));
        let more = errors.len() - 1 + left.len();
        let more = if more > 0 { format!("; {more} more saved orders failed after it") } else { String::new() };
        (
            index,
            format!(
                "turn {}, {} phase{side}: the order to {} could not be carried out: {error} ({order}){more}",
                e.turn,
                e.phase.name(),
                unit_list(&units)
            ),
        )
    } else {
        let first = left.first()?;
        let index = save.orders.len().saturating_sub(left.len());
        let more = if left.len() > 1 { format!("; {} more after it", left.len() - 1) } else { String::new() };
        (
            index,
            format!(
                "turn {}, {:?} phase of {}: the order to {} was never carried out: the replay never stopped at that \
                 moment (orders out of turn order, or after the save point){more}",
                first.at.turn,
                first.at.phase,
                side_name(first.at.side),
                unit_list(&first.order.units())
            ),
        )
    };
    let subject = format!("orders[{index}]");
    let mut problems = vec![Problem { path: Some(subject.clone()), ..Problem::new(subject, message) }];
    scenario::locate(&mut problems, text);
    problems.pop()
}

/// Puts the saved game into `world` (replacing any battle there) and plays
/// its orders again up to the moment it was saved.
pub fn restore(world: &mut World, save: &SaveGame, scenario: Arc<scenario::Scenario>) {
    sim::reset(world, scenario, save.seed, save.dice.clone(), Seats::Nobody);
    world.insert_resource(Controls(save.controls.clone()));
    sim::start_replay(world, save.orders.clone(), save.at);
    if save.begun {
        sim::run_to(world, save.at);
    } else {
        sim::run_to_boundary(world, save.at);
    }
}
