//! What the player sees before committing an order: the selected unit's
//! movement range and movement points left, the march to the hex under the
//! pointer, and the odds of a volley, melee or charge at the enemy there (a
//! distant charge's approach too). Worked out again only when what they
//! depend on changed.

use bevy::prelude::*;

use super::decide::unit_views;
use super::words::{attack_odds_text, fire_odds_text, move_text};
use crate::game::input::MapPointer;
use crate::game::turn::{CacheKey, PlayerTurn};
use crate::sim;
use crate::turn::Phase;

/// Works out the range, path and odds of the player's turn again, as a
/// system. Exclusive: the simulation is asked in the same world.
pub(super) fn refresh_preview(world: &mut World) {
    if super::table::table_mode(world) {
        // A table's odds and march preview are `table::table_pointer`'s.
        return;
    }
    let mut turn = std::mem::take(world.resource_mut::<PlayerTurn>().bypass_change_detection());
    let before = turn.key.clone();
    refresh(world, &mut turn);
    let changed = turn.key != before;
    let mut r = world.resource_mut::<PlayerTurn>();
    *r.bypass_change_detection() = turn;
    if changed {
        r.set_changed();
    }
}

/// Works out the range, path and odds again when what they depend on
/// changed.
pub fn refresh(world: &mut World, turn: &mut PlayerTurn) {
    let pointer = world.resource::<MapPointer>();
    let key = CacheKey {
        awaiting: turn.awaiting,
        reviewing: turn.reviewing,
        selected: pointer.selected,
        group: turn.group.clone(),
        hex: pointer.hex,
        events: world.resource::<sim::BattleLog>().events.len(),
    };
    if turn.key.as_ref() == Some(&key) {
        return;
    }
    let reach_key = turn.key.as_ref().map(|k| (k.awaiting, k.reviewing, k.selected, k.events));
    let same_reach = reach_key == Some((key.awaiting, key.reviewing, key.selected, key.events));
    turn.key = Some(key.clone());
    turn.preview = None;
    turn.odds = None;
    let Some((phase, side)) = key.awaiting.filter(|_| !key.reviewing) else {
        turn.reach = None;
        turn.mp_left = None;
        return;
    };
    let units = unit_views(world);
    let own = |i: usize| units.get(i).is_some_and(|u| u.side == side && u.at.is_some());
    if !same_reach {
        turn.reach = match key.selected {
            Some(i) if phase == Phase::Movement && own(i) => Some((i, sim::movement_range(world, i))),
            _ => None,
        };
        turn.mp_left = turn.reach.as_ref().map(|(i, _)| (*i, sim::mp_left(world, *i)));
    }
    let Some(hex) = key.hex else { return };
    if let Some((_, reach)) = &turn.reach
        && hex != reach.start
        && let Some(cost) = reach.cost_to(hex)
    {
        let grid = &world.resource::<sim::Battle>().grid;
        turn.preview = reach.path_to(grid, hex);
        turn.odds = Some(move_text(hex, cost));
        return;
    }
    let Some(target) = units.iter().find(|u| u.at == Some(hex) && u.side != side) else { return };
    if turn.group.is_empty() {
        return;
    }
    let name = target.name.clone();
    turn.odds = Some(match phase {
        Phase::DefensiveFire | Phase::OffensiveFire => match sim::fire_odds(world, &turn.group, target.index) {
            Ok(o) => fire_odds_text(&o, &name),
            Err(e) => format!("Cannot fire at {name}: {e}"),
        },
        Phase::Melee => match sim::attack_odds(world, &turn.group, target.index) {
            Ok(o) => attack_odds_text(&o, &name, false, &|u| unit_name(&units, u)),
            Err(e) => format!("Cannot attack {name}: {e}"),
        },
        Phase::Charge => {
            let from = units.get(turn.group[0]).and_then(|u| u.at);
            // The approach the charge would ride, drawn like a march, and
            // its odds at the hex of contact.
            match sim::charge_odds(world, turn.group[0], target.index) {
                Ok((path, o)) => {
                    let d = from.zip(target.at).map_or(0, |(a, b)| a.distance(b));
                    let mut text = attack_odds_text(&o, &name, true, &|u| unit_name(&units, u));
                    if path.len() > 1 {
                        text = text.replacen(
                            &format!("Charge {name} "),
                            &format!("Charge {name} ({d} hexes off; odds at contact) "),
                            1,
                        );
                        turn.preview = Some(path);
                    }
                    text
                }
                Err(e) => format!("Cannot charge {name}: {e}"),
            }
        }
        Phase::Movement | Phase::Shocks | Phase::MoraleRecovery | Phase::End => return,
    });
}

/// A unit's name as the player reads it.
fn unit_name(units: &[super::decide::UnitView], u: usize) -> String {
    units.iter().find(|v| v.index == u).map_or_else(|| format!("unit {u}"), |v| v.name.clone())
}
