//! Carrying out an order: the simulation judges it, and the player reads
//! what it did in the battle log's own sentences, or why it was refused.

use bevy::prelude::*;

use crate::game::shown::ScenarioNames;
use crate::game::turn::Notice;
use crate::labataille::orders::Order;
use crate::sim;

/// Lines of a long result told in the banner; the rest is in the log.
const LINES: usize = 6;

/// Carries out an order and says how it went: the battle log's sentences
/// for what it did, or the simulation's reason for refusing it.
pub fn give(world: &mut World, order: &Order) -> Notice {
    let before = world.resource::<sim::BattleLog>().events.len();
    match sim::issue_order(world, order) {
        Ok(()) => {
            let scenario = world.resource::<sim::Battle>().scenario.clone();
            let names = ScenarioNames(&scenario);
            let log = world.resource::<sim::BattleLog>();
            let said: Vec<String> = log.events[before.min(log.events.len())..]
                .iter()
                .filter_map(|e| crate::sentences::sentence(e, &names))
                .map(|(_, text)| text)
                .collect();
            let undo = if order.rolls_dice() { "" } else { "  (U: undo)" };
            let more = said.len().saturating_sub(LINES);
            let mut said: Vec<String> = said.into_iter().take(LINES).collect();
            if more > 0 {
                said.push(format!("and {more} more in the battle log"));
            }
            let text = if said.is_empty() { "Done.".to_owned() } else { said.join(".\n") + "." };
            Notice::said(format!("{text}{undo}"))
        }
        Err(e) => Notice::error(e.to_string()),
    }
}
