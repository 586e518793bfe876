//! The words both rule systems and their files share: the mode of a
//! battle, who controls a side, a unit's morale state, formation and
//! cavalry readiness as a scenario names them. Plain enums with no rules in
//! them, so that the rules block, the map and the scenario can all use them
//! without using each other.

use serde::{Deserialize, Serialize};

/// Which rule system a battle is played by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Mode {
    /// La Bataille on a hex map.
    #[default]
    Hex,
    /// Belle Alliance on a table in centimetres.
    FreeSpace,
}

/// Who gives one side's orders: the scenario's `control`, and what a game
/// gives each side (see the window's seats and the command line's `--ai`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Control {
    /// A player at the window; its order phases wait for them. (Saves
    /// written before this type was one called it `Human`.)
    #[serde(alias = "Human")]
    Player,
    /// The computer decides.
    #[default]
    Ai,
    /// Nobody: only forced moves and the morale segments happen.
    Idle,
}

/// A unit's morale state as a file may give it. Hex mode uses the first
/// three, free-space mode the last four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StateName {
    GoodOrder,
    Disordered,
    Routed,
    Order,
    LU,
    U,
    FU,
}

impl StateName {
    /// Whether this is a hex-mode (La Bataille) state.
    pub fn is_hex(self) -> bool {
        matches!(self, StateName::GoodOrder | StateName::Disordered | StateName::Routed)
    }
}

/// A unit's formation (RULES.md 1.7, 2.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formation {
    Line,
    Column,
    Square,
    GeneralOrder,
    Skirmish,
    /// Belle Alliance flight formation (as wide as deep, front all round).
    Flight,
}

impl Formation {
    /// Whether a scenario of `mode` may give a unit this formation.
    pub fn allowed_in(self, mode: Mode) -> bool {
        match mode {
            Mode::Hex => !matches!(self, Formation::Flight),
            Mode::FreeSpace => matches!(self, Formation::Line | Formation::Column | Formation::Square),
        }
    }
}

/// Cavalry readiness (RULES.md 1.2), apart from morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub enum Readiness {
    #[default]
    Fresh,
    Tired,
    Exhausted,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_control_reads_the_old_name_of_a_player_and_writes_the_new() {
        let read = |s: &str| ron::from_str::<Control>(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(read("Human"), Control::Player, "saves from before control was one type");
        assert_eq!(read("Player"), Control::Player);
        assert_eq!(read("Idle"), Control::Idle);
        assert_eq!(ron::to_string(&Control::Player).ok().as_deref(), Some("Player"));
    }
}
