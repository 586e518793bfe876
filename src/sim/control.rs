//! Who gives each side's orders: the seats of a game (who sits where, as
//! the window's menu or the command line's `--ai` chooses), and the
//! control of each side they give.

use bevy::prelude::*;

use crate::scenario::Scenario;
use crate::vocab::{AiLevel, Control};

/// Who gives the orders in a game.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seats {
    /// Each side as its scenario says (`control: Player` at the window,
    /// `Ai` to the computer, `Idle` to nobody).
    #[default]
    Player,
    /// Every side at the window, in turn (hot-seat).
    HotSeat,
    /// The computer plays every side (`--ai both`); a window only watches.
    Watch,
    /// Nobody gives orders (`--ai none`): only shocks, forced moves and the
    /// morale segments happen.
    Nobody,
    /// The computer plays this side (`--ai SIDE`); nobody the others.
    AiOnly(usize),
}

impl Seats {
    /// The seats the window's menu offers, in the order P cycles them.
    pub const ALL: [Seats; 3] = [Seats::Player, Seats::HotSeat, Seats::Watch];

    /// The next of the window's seats.
    pub fn next(self) -> Seats {
        match self {
            Seats::Player => Seats::HotSeat,
            Seats::HotSeat => Seats::Watch,
            Seats::Watch | Seats::Nobody | Seats::AiOnly(_) => Seats::Player,
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Seats::Player => "you against the AI",
            Seats::HotSeat => "hot-seat: both sides at this window",
            Seats::Watch => "watch: the AI plays both sides",
            Seats::Nobody => "nobody gives orders",
            Seats::AiOnly(_) => "the AI plays one side, nobody the other",
        }
    }

    /// Control of each side of `s`, in either mode.
    pub fn controls(self, s: &Scenario) -> Controls {
        Controls(
            s.sides
                .iter()
                .enumerate()
                .map(|(i, side)| match self {
                    Seats::Nobody => Control::Idle,
                    Seats::AiOnly(k) => {
                        if k == i {
                            Control::Ai
                        } else {
                            Control::Idle
                        }
                    }
                    Seats::Watch => Control::Ai,
                    Seats::HotSeat => Control::Player,
                    Seats::Player => side.control,
                })
                .collect(),
        )
    }
}

/// How well the AI plays each side it controls, in scenario order: the
/// scenario's `level`s, or what the command line's `--ai SIDE=LEVEL`, the
/// window's seats menu or a save says.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct AiLevels(pub Vec<AiLevel>);

impl AiLevels {
    /// The levels the scenario's sides name.
    pub fn of(s: &Scenario) -> Self {
        Self(s.sides.iter().map(|side| side.level).collect())
    }

    pub fn of_side(&self, side: usize) -> AiLevel {
        self.0.get(side).copied().unwrap_or_default()
    }
}

/// Control of each side, in scenario order.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Controls(pub Vec<Control>);

impl Controls {
    pub fn of(&self, side: usize) -> Control {
        self.0.get(side).copied().unwrap_or(Control::Idle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(file: &str, text: &str) -> Scenario {
        crate::scenario::parse(text, file).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn seats_give_each_side_its_control() {
        let s = scenario("cascade.ron", include_str!("../../scenarios/cascade.ron"));
        let (p, a, i) = (Control::Player, Control::Ai, Control::Idle);
        assert_eq!(Seats::Player.controls(&s).0, vec![p, a], "French are the player in the cascade");
        assert_eq!(Seats::HotSeat.controls(&s).0, vec![p, p]);
        assert_eq!(Seats::Watch.controls(&s).0, vec![a, a]);
        assert_eq!(Seats::Nobody.controls(&s).0, vec![i, i]);
        assert_eq!(Seats::AiOnly(1).controls(&s).0, vec![i, a]);
        assert_eq!(Seats::Watch.next().next().next(), Seats::Watch);
        assert_eq!(Seats::Nobody.next(), Seats::Player);
    }

    #[test]
    fn players_sit_at_a_free_space_table_too() {
        let s = scenario("ligny-1815.ron", include_str!("../../scenarios/ligny-1815.ron"));
        let (p, a, i) = (Control::Player, Control::Ai, Control::Idle);
        assert_eq!(Seats::Player.controls(&s).0, vec![a, p], "the French are the player at Ligny");
        assert_eq!(Seats::HotSeat.controls(&s).0, vec![p, p]);
        assert_eq!(Seats::Watch.controls(&s).0, vec![a, a]);
        assert_eq!(Seats::Nobody.controls(&s).0, vec![i, i]);
        assert_eq!(Seats::AiOnly(0).controls(&s).0, vec![a, i]);
    }
}
