//! Who sits at the window: the scenario's player against the AI, both sides
//! at one window (hot-seat), or nobody (the AI plays both sides and the
//! window watches); and the controls each choice gives the battle's sides.

use bevy::prelude::*;

use crate::scenario::{Control, Mode, Scenario};
use crate::sim::{self, Controls, SideControl};

/// Who gives the orders at this window.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seats {
    /// The scenario's `Player` sides at the window, its `Ai` sides to the
    /// computer.
    #[default]
    Player,
    /// Every side at the window, in turn (hot-seat).
    HotSeat,
    /// The computer plays every side; the window only watches.
    Watch,
}

impl Seats {
    pub const ALL: [Seats; 3] = [Seats::Player, Seats::HotSeat, Seats::Watch];

    pub fn next(self) -> Seats {
        match self {
            Seats::Player => Seats::HotSeat,
            Seats::HotSeat => Seats::Watch,
            Seats::Watch => Seats::Player,
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Seats::Player => "you against the AI",
            Seats::HotSeat => "hot-seat: both sides at this window",
            Seats::Watch => "watch: the AI plays both sides",
        }
    }

    /// Control of each side. Orders exist in hex mode only: a free-space
    /// battle is always watched.
    pub fn controls(self, s: &Scenario) -> Controls {
        Controls(
            s.sides
                .iter()
                .map(|side| match (s.mode, self) {
                    (Mode::FreeSpace, _) | (_, Seats::Watch) => SideControl::Ai,
                    (_, Seats::HotSeat) => SideControl::Human,
                    (_, Seats::Player) if side.control == Control::Player => SideControl::Human,
                    _ => SideControl::Ai,
                })
                .collect(),
        )
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Seats>();
}

/// Gives the controls of `seats` to the battle in `world` (after a reset,
/// or when the player switches seats).
pub fn seat(world: &mut World, seats: Seats) {
    let Some(s) = world.get_resource::<sim::Battle>().map(|b| b.scenario.clone()) else { return };
    world.insert_resource(seats.controls(&s));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cascade() -> std::sync::Arc<Scenario> {
        match crate::scenario::parse_bytes(include_str!("../../scenarios/cascade.ron").as_bytes(), "cascade.ron") {
            Ok(s) => std::sync::Arc::new(s),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn seats_follow_the_scenario_hotseat_and_watch() {
        let s = cascade();
        let h = SideControl::Human;
        let a = SideControl::Ai;
        assert_eq!(Seats::Player.controls(&s).0, vec![h, a], "French are the player in the cascade");
        assert_eq!(Seats::HotSeat.controls(&s).0, vec![h, h]);
        assert_eq!(Seats::Watch.controls(&s).0, vec![a, a]);
        assert_eq!(Seats::Watch.next().next().next(), Seats::Watch);
    }
}
