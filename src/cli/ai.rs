//! `--ai`: who the computer plays, and how well. `both` (every side, at
//! its scenario's level), `none` (nobody gives orders), a side id (that
//! side only, the others give none), a level (`easy`, `normal`, `hard`: every
//! side at that level), or a list `SIDE=LEVEL,...` where a level may be
//! `none` (that side gives no orders) and a side left out gives none:
//! `--ai fr=normal,pr=easy` plays the French at `normal` against the
//! Prussians at `easy`.

use crate::scenario::{Scenario, Side};
use crate::sim::Seats;
use crate::vocab::{AiLevel, Control};

/// What `--ai` asked for: the seats, and a level for each side whose level
/// it names (`None`: the scenario's own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiChoice {
    pub seats: Seats,
    pub levels: Vec<Option<AiLevel>>,
}

impl AiChoice {
    /// `scenario` with the levels asked for.
    pub fn apply(&self, mut scenario: Scenario) -> Scenario {
        for (side, level) in scenario.sides.iter_mut().zip(&self.levels) {
            if let Some(l) = level {
                side.level = *l;
            }
        }
        scenario
    }

    /// Who plays each side of `scenario` (after [`AiChoice::apply`]): the
    /// AI's level as a word, or `none`.
    pub fn players(&self, scenario: &Scenario) -> Vec<String> {
        let controls = self.seats.controls(scenario);
        scenario
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| match controls.of(i) {
                Control::Ai => s.level.word().to_owned(),
                Control::Player => "player".to_owned(),
                Control::Idle => "none".to_owned(),
            })
            .collect()
    }
}

const EXPECTED: &str = "expected both, none, a side id, a level (easy, normal, hard) or SIDE=LEVEL,...";

/// Reads `--ai` against a scenario's sides.
pub fn ai_choice(ai: &str, sides: &[Side]) -> Result<AiChoice, String> {
    let n = sides.len();
    let ids = || sides.iter().map(|s| s.id.as_str()).collect::<Vec<_>>().join(", ");
    let side_of = |id: &str| {
        sides.iter().position(|s| s.id == id).ok_or_else(|| format!("--ai {ai:?}: no side {id:?} ({})", ids()))
    };
    let all = |seats| AiChoice { seats, levels: vec![None; n] };
    if !ai.contains('=') {
        return match ai {
            "both" => Ok(all(Seats::Watch)),
            "none" => Ok(all(Seats::Nobody)),
            word => match AiLevel::from_word(word) {
                Some(l) => Ok(AiChoice { seats: Seats::Watch, levels: vec![Some(l); n] }),
                None => side_of(word)
                    .map(|i| all(Seats::AiOnly(i)))
                    .map_err(|_| format!("--ai {ai:?}: {EXPECTED}; the sides are {}", ids())),
            },
        };
    }
    let mut levels = vec![None; n];
    let mut named = vec![false; n];
    for part in ai.split(',') {
        let Some((id, level)) = part.split_once('=') else {
            return Err(format!("--ai {ai:?}: {part:?} is not SIDE=LEVEL ({EXPECTED})"));
        };
        let i = side_of(id.trim())?;
        if named[i] {
            return Err(format!("--ai {ai:?}: side {:?} is named twice", sides[i].id));
        }
        named[i] = true;
        levels[i] = match level.trim() {
            "none" => None,
            word => Some(
                AiLevel::from_word(word)
                    .ok_or_else(|| format!("--ai {ai:?}: {word:?} is not a level (easy, normal, hard) or none"))?,
            ),
        };
    }
    let playing: Vec<usize> = (0..n).filter(|&i| levels[i].is_some()).collect();
    let seats = match playing.as_slice() {
        [] => Seats::Nobody,
        [one] if n > 1 => Seats::AiOnly(*one),
        _ if playing.len() == n => Seats::Watch,
        _ => return Err(format!("--ai {ai:?}: the computer plays one side or every side, not {}", playing.len())),
    };
    Ok(AiChoice { seats, levels })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides() -> Vec<Side> {
        let s = crate::scenario::parse(include_str!("../../scenarios/cascade.ron"), "cascade.ron")
            .unwrap_or_else(|e| panic!("{e}"));
        s.sides
    }

    #[test]
    fn ai_reads_both_none_a_side_a_level_or_a_list() {
        let sides = sides();
        let (e, n) = (Some(AiLevel::Easy), Some(AiLevel::Normal));
        let choice = |s: &str| ai_choice(s, &sides).map(|c| (c.seats, c.levels));
        assert_eq!(choice("both"), Ok((Seats::Watch, vec![None, None])));
        assert_eq!(choice("none"), Ok((Seats::Nobody, vec![None, None])));
        assert_eq!(choice("ru"), Ok((Seats::AiOnly(1), vec![None, None])));
        assert_eq!(choice("easy"), Ok((Seats::Watch, vec![e, e])));
        assert_eq!(choice("fr=normal,ru=easy"), Ok((Seats::Watch, vec![n, e])));
        assert_eq!(choice("ru=easy"), Ok((Seats::AiOnly(1), vec![None, e])), "a side left out gives no orders");
        assert_eq!(choice("fr=normal,ru=none"), Ok((Seats::AiOnly(0), vec![n, None])));
        assert_eq!(choice("fr=none"), Ok((Seats::Nobody, vec![None, None])));
        assert_eq!(choice("fr=hard,ru=normal"), Ok((Seats::Watch, vec![Some(AiLevel::Hard), n])));
        assert_eq!(choice("fr=normal,ru=hold"), Ok((Seats::Watch, vec![n, Some(AiLevel::Hold)])));
        for (bad, says) in [
            ("prussia", "the sides are fr, ru"),
            ("fr=expert", "\"expert\" is not a level"),
            ("fr=easy,fr=normal", "named twice"),
            ("pr=easy", "no side \"pr\""),
            ("fr:easy,ru=easy", "is not SIDE=LEVEL"),
        ] {
            assert!(choice(bad).is_err_and(|m| m.contains(says)), "{bad}: {:?}", choice(bad));
        }
    }

    #[test]
    fn the_levels_asked_for_replace_the_scenarios_and_say_who_played() {
        let s = crate::scenario::parse(include_str!("../../scenarios/cascade.ron"), "cascade.ron")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.sides.iter().map(|x| x.level).collect::<Vec<_>>(), vec![AiLevel::Normal; 2], "the default");
        let c = ai_choice("fr=easy,ru=normal", &s.sides).unwrap_or_else(|e| panic!("{e}"));
        let s = c.apply(s);
        assert_eq!(s.sides[0].level, AiLevel::Easy);
        assert_eq!(c.players(&s), vec!["easy", "normal"]);
        let none = ai_choice("ru", &s.sides).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(none.players(&s), vec!["none", "normal"]);
    }
}
