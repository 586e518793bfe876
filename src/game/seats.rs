//! Who sits at the window: the scenario's player against the AI, both sides
//! at one window (hot-seat), or nobody (the AI plays both sides and the
//! window watches). The seats themselves and the control each gives a side
//! are the simulation's ([`crate::sim::Seats`]); the window keeps its choice,
//! and how well the computer plays ([`ChosenLevel`]).

use bevy::prelude::*;

pub use crate::sim::Seats;
use crate::sim::{self, AiLevels};
use crate::vocab::AiLevel;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Seats>().init_resource::<ChosenLevel>();
}

/// How well the computer plays at this window, as its menu chose: one
/// level for every side it plays, or (`None`) each side's scenario level.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChosenLevel(pub Option<AiLevel>);

/// Gives the controls of `seats`, and the AI levels chosen, to the battle
/// in `world` (after a reset, or when the player switches seats or levels).
pub fn seat(world: &mut World, seats: Seats) {
    let Some(s) = world.get_resource::<sim::Battle>().map(|b| b.scenario.clone()) else { return };
    world.insert_resource(seats.controls(&s));
    let levels = match world.get_resource::<ChosenLevel>().and_then(|c| c.0) {
        Some(l) => AiLevels(vec![l; s.sides.len()]),
        None => AiLevels::of(&s),
    };
    world.insert_resource(levels);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testing::parse;
    use crate::sim::Simulation;

    #[test]
    fn the_level_chosen_at_the_window_plays_every_side_and_none_leaves_the_scenarios() {
        let text = include_str!("../../scenarios/cascade.ron").replace("control: Ai", "control: Ai, level: Easy");
        let mut sim = Simulation::new(parse(&text, "cascade.ron"), 1, Vec::new(), Seats::Watch);
        let w = sim.app.world_mut();
        let levels = |w: &World| w.resource::<AiLevels>().0.clone();
        assert_eq!(levels(w), vec![AiLevel::Normal, AiLevel::Easy], "each side's scenario level");
        w.insert_resource(ChosenLevel(Some(AiLevel::Normal)));
        seat(w, Seats::Watch);
        assert_eq!(levels(w), vec![AiLevel::Normal; 2]);
        w.insert_resource(ChosenLevel(Some(AiLevel::Easy)));
        seat(w, Seats::Player);
        assert_eq!(levels(w), vec![AiLevel::Easy; 2]);
        w.insert_resource(ChosenLevel(None));
        seat(w, Seats::Watch);
        assert_eq!(levels(w), vec![AiLevel::Normal, AiLevel::Easy]);
    }
}
