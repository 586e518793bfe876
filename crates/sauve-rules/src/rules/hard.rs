//! The `rules.ai.hard` block: how much the planning AI (`hard`, docs/rules.md
//! "Hard") looks ahead, and what it counts a position worth.

use serde::{Deserialize, Serialize};

/// The planning AI's budget and weights. Every field has a default; a
/// scenario names only what it changes: `rules: (ai: (hard: (rollouts: 4)))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HardRules {
    /// Continuations played for each choice it weighs (the same seeds for
    /// every choice, so they differ by the choice alone).
    pub rollouts: u32,
    /// Continuations of the first look at each group's other scripts, when
    /// fewer than `rollouts`: only the best of them, if it beats the
    /// group's script there, is played over all `rollouts`. (The default
    /// looks at every script over all of them: a first look over 8 did
    /// worse, measured in docs/benchmarks.md.)
    pub screen: u32,
    /// How far each continuation plays: to the start of the side's own
    /// turn this many turns on (1: to the end of the enemy's reply).
    pub turns: u32,
    /// Times it goes over every group in turn, keeping a better script.
    pub passes: u32,
    /// Most units in one group: a larger corps is split along its front.
    pub group_size: u32,
    /// Points a corps is worth on its way to breaking: its share of the
    /// losses that break it, times this (the enemy's counted for, its own
    /// against).
    pub corps_weight: f32,
    /// Points an army broken is worth (the battle is lost outright).
    pub army_weight: f32,
    /// Points each unit disordered or routed and still on the map costs
    /// its side.
    pub shaken_weight: f32,
    /// Least gain (points, over the rollouts' mean) for a script to replace
    /// the one it has: smaller differences are the dice's.
    pub min_gain: f32,
}

impl Default for HardRules {
    fn default() -> Self {
        Self {
            rollouts: 32,
            screen: 32,
            turns: 1,
            passes: 1,
            group_size: 3,
            corps_weight: 4.0,
            army_weight: 30.0,
            shaken_weight: 0.5,
            min_gain: 0.25,
        }
    }
}

impl HardRules {
    /// Problems with the numbers, as (field, message).
    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut add = |field: &str, msg: String| out.push((format!("rules.ai.hard.{field}"), msg));
        for (name, v, max) in [
            ("rollouts", self.rollouts, 1000),
            ("screen", self.screen, 1000),
            ("turns", self.turns, 10),
            ("passes", self.passes, 10),
            ("group_size", self.group_size, 1000),
        ] {
            if !(1..=max).contains(&v) {
                add(name, format!("{v} must be 1..={max}"));
            }
        }
        for (name, v) in [
            ("corps_weight", self.corps_weight),
            ("army_weight", self.army_weight),
            ("shaken_weight", self.shaken_weight),
            ("min_gain", self.min_gain),
        ] {
            if !(v.is_finite() && (0.0..=1000.0).contains(&v)) {
                add(name, format!("{v} must be 0..=1000"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_defaults_are_sound_and_a_bad_number_is_named() {
        assert!(HardRules::default().problems().is_empty());
        let r: Rules =
            crate::scenario::ron_options().from_str("(ai: (hard: (rollouts: 0, army_weight: -1.0)))").expect("parses");
        let p: Vec<String> = r.problems().into_iter().map(|p| p.0).collect();
        assert_eq!(p, ["rules.ai.hard.rollouts", "rules.ai.hard.army_weight"]);
        let r: Rules = crate::scenario::ron_options().from_str("(ai: (hard: (passes: 2)))").expect("parses");
        assert_eq!(r.ai.hard.passes, 2);
        assert_eq!(r.ai.hard.rollouts, HardRules::default().rollouts, "the rest keep their defaults");
    }
}
