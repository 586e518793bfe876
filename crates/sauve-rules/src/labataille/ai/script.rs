//! What the planning AI (`hard`) may tell one group of its units to do in a
//! movement phase: the scripts it weighs, each a way the `normal` AI's
//! movement is bent for the group's units (docs/rules.md, "Hard").

/// One group's orders for a movement phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Script {
    /// As `normal` moves: attackers, a reserve, garrisons, exits.
    #[default]
    Advance,
    /// Stand where they are, deployed, fronts to the enemy.
    Hold,
    /// Every unit goes for the enemy and the objectives, none kept back,
    /// at the stand-off of the boldest temper.
    Assault,
    /// Make for the objectives to take (or, all held, the nearest held)
    /// and take no notice of the enemy elsewhere.
    Objective,
    /// Fall back out of the enemy's reach, as a shaken unit does.
    Withdraw,
}

impl Script {
    /// Every script, `Advance` first (the one a group starts from).
    pub const ALL: [Script; 5] = [Script::Advance, Script::Hold, Script::Assault, Script::Objective, Script::Withdraw];

    /// The script's name, as `--explain` prints it.
    pub fn word(self) -> &'static str {
        match self {
            Script::Advance => "advance",
            Script::Hold => "hold",
            Script::Assault => "assault",
            Script::Objective => "objective",
            Script::Withdraw => "withdraw",
        }
    }
}
