//! The rout preview: where a unit would run if it routed now, and which
//! friends it would put to a contagion check on the way, with each one's
//! exact chance to fail (rules 1.1, 1.3, 1.4). Nothing is rolled and the
//! board is left as it was; the path comes from the very planner the rout
//! move asks ([`Engine::plan_rout`]), so the preview is the move.

use crate::dice::{D66, morale_check};
use crate::hex::{Edge, Offset};
use crate::labataille::Board;
use crate::labataille::engine::{Ctx, Engine};
use crate::labataille::rout::RoutPlan;
use crate::rules::StackContagion;
use crate::terrain::Arm;
use crate::vocab::State;

/// An exact chance: `ways` of `outcomes` equally likely d66 results (36 for
/// one check, 36 x 36 for a check that happens only if another fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chance {
    pub ways: u32,
    pub outcomes: u32,
}

impl Chance {
    /// As a fraction of 1.
    pub fn fraction(self) -> f64 {
        f64::from(self.ways) / f64::from(self.outcomes.max(1))
    }

    /// As a percentage, 0 to 100.
    pub fn percent(self) -> f64 {
        100.0 * self.fraction()
    }

    /// Both this and `other` (independent rolls).
    pub fn and(self, other: Chance) -> Chance {
        Chance { ways: self.ways * other.ways, outcomes: self.outcomes * other.outcomes }
    }
}

/// How a previewed rout move would end (rule 1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutEnd {
    /// The full move: the unit stands at the path's last hex.
    Full,
    /// Off the map across `edge` after the path; `recovers` when the
    /// scenario lets that edge take routers back (`rules.off_map_recovery`),
    /// else the unit is eliminated.
    OffMap { edge: Edge, recovers: bool },
    /// No legal move of full length: the unit surrenders where it stands.
    Surrender,
}

/// One friend the router would pass, and its contagion check (rule 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContagionRisk {
    /// The friend's index on the board.
    pub unit: usize,
    /// The hex of the path it stands in.
    pub hex: Offset,
    /// The modifier its check would use (state and leader), as the real
    /// check works it out.
    pub modifier: i32,
    /// Its chance to fail the check, if it checks.
    pub fails: Chance,
    /// Whether it checks only if the top unit of its stack fails first
    /// (the house-default stack rule).
    pub after_top: bool,
    /// Its chance to fail all told: the same as `fails` for a unit that
    /// checks in any case, times the top's chance to fail for one that
    /// checks only after it.
    pub overall: Chance,
}

/// What a rout of one unit now would do.
#[derive(Clone, Debug, PartialEq)]
pub struct RoutPreview {
    /// The unit previewed.
    pub unit: usize,
    /// Every hex it would pass, start first; only the start for a
    /// surrender (it does not move).
    pub path: Vec<Offset>,
    pub end: RoutEnd,
    /// The friends that would check, in the order they would: by the
    /// path's hexes from start to end, each stack top first.
    pub risks: Vec<ContagionRisk>,
}

impl RoutPreview {
    /// How many of the friends' contagion checks the rout is expected to
    /// see failed: each friend's chance to be shaken, summed (1.4).
    pub fn expected_failures(&self) -> f64 {
        self.risks.iter().map(|r| r.overall.fraction()).sum()
    }

    /// How many of the friends it would pass are expected to rout by it:
    /// each friend's chance to fail its contagion check, times, for foot
    /// and guns (which only disorder, 1.4), the chance it then fails its
    /// recovery check as a disordered unit (1.5); horse that fails routs
    /// at once.
    pub fn expected_routs(&self, ctx: &Ctx, board: &Board) -> f64 {
        let rules = ctx.rules;
        self.risks
            .iter()
            .map(|r| {
                let Some(friend) = board.units.get(r.unit) else { return 0.0 };
                let routs = match friend.arm {
                    Arm::Cavalry => 1.0,
                    Arm::Infantry | Arm::Artillery => {
                        let modifier = r.modifier + rules.disordered_modifier;
                        fail_chance(friend.morale, modifier, rules.natural_extremes).fraction()
                    }
                };
                r.overall.fraction() * routs
            })
            .sum()
    }

    /// The hex it would end in, if it stays on the map.
    pub fn last_hex(&self) -> Option<Offset> {
        match self.end {
            RoutEnd::Full => self.path.last().copied(),
            RoutEnd::OffMap { .. } | RoutEnd::Surrender => None,
        }
    }
}

/// The chance a unit fails a check of `morale` with `modifier` (rule 1.1),
/// counted over the 36 d66 results.
pub fn fail_chance(morale: u8, modifier: i32, natural_extremes: bool) -> Chance {
    let fails = (1..=6u8)
        .flat_map(|tens| (1..=6u8).map(move |units| D66 { tens, units }))
        .filter(|&roll| !morale_check(morale, modifier, roll, natural_extremes).passed)
        .count();
    Chance { ways: fails as u32, outcomes: 36 }
}

/// Where `unit` would run if it routed now (rule 1.3), and the contagion
/// checks the move would cause (rule 1.4), on the board as it stands: the
/// engine's caches are brought up to date first; no die is rolled and the
/// board does not change. A unit not yet routed is previewed as if it
/// routed now; whatever its arm the move is the rout move. `None` when the
/// unit is not on the board.
pub fn preview_rout(ctx: &Ctx, engine: &mut Engine, board: &Board, unit: usize) -> Option<RoutPreview> {
    let start = board.units.get(unit)?.at?;
    engine.sync(ctx.grid, board);
    let (path, end) = match engine.plan_rout(ctx, board, unit)? {
        RoutPlan::Full(path) => (path, RoutEnd::Full),
        RoutPlan::OffMap(path, edge) => {
            (path, RoutEnd::OffMap { edge, recovers: ctx.rules.off_map_recovery.contains(&edge) })
        }
        // A unit that surrenders makes no move, so it passes no one.
        RoutPlan::Surrender => {
            return Some(RoutPreview { unit, path: vec![start], end: RoutEnd::Surrender, risks: Vec::new() });
        }
    };
    let risks = contagion_risks(ctx, engine, board, unit, &path);
    Some(RoutPreview { unit, path, end, risks })
}

/// The contagion checks a move along `path` would cause (rule 1.4): in each
/// hex, the good-order units of the mover's side. With the house stack rule
/// the first of them (the stack's top, lowest board index, as the engine
/// keeps stacks) checks and the rest only if it fails; with `EachUnit`
/// every one checks on its own. A failure only queues a forced move, so no
/// check of this move changes who checks later in it.
fn contagion_risks(ctx: &Ctx, engine: &Engine, board: &Board, mover: usize, path: &[Offset]) -> Vec<ContagionRisk> {
    let side = board.units[mover].side;
    let mut risks = Vec::new();
    for &hex in path {
        let mut top: Option<Chance> = None;
        for &u in engine.occupancy.at(ctx.grid.idx(hex)) {
            let u = u as usize;
            let friend = &board.units[u];
            if u == mover || friend.side != side || friend.state != State::GoodOrder {
                continue;
            }
            // The modifier the engine's own check adds up: state, leader,
            // and no extra for contagion.
            let modifier = Engine::state_modifier(ctx.rules, friend.state) + engine.bonus.get(u).copied().unwrap_or(0);
            let fails = fail_chance(friend.morale, modifier, ctx.rules.natural_extremes);
            let (after_top, overall) = match (top, ctx.rules.contagion_stack) {
                (Some(t), StackContagion::TopThenAll) => (true, t.and(fails)),
                _ => (false, fails),
            };
            top.get_or_insert(fails);
            risks.push(ContagionRisk { unit: u, hex, modifier, fails, after_top, overall });
        }
    }
    risks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Morale 32 in good order passes on 33 or better (rule 1.1): 11..32 is
    /// 14 of the 36 results, and a natural 11 fails anyway.
    #[test]
    fn fail_chance_counts_the_results_at_or_below_morale() {
        assert_eq!(fail_chance(32, 0, true), Chance { ways: 14, outcomes: 36 });
        // Disordered (-3) needs 36: 11..35 are 17 results that fail.
        assert_eq!(fail_chance(32, -3, true).ways, 17);
        // A bonus of +6 (one whole tens step) turns 32 into 26 needed.
        assert_eq!(fail_chance(32, 6, true).ways, 8);
    }

    /// The house switch: a natural 66 passes and a natural 11 fails only
    /// with natural extremes on.
    #[test]
    fn natural_extremes_decide_the_hopeless_and_the_certain() {
        assert_eq!(fail_chance(66, 0, true).ways, 35);
        assert_eq!(fail_chance(66, 0, false).ways, 36);
        assert_eq!(fail_chance(11, 12, true).ways, 1);
        assert_eq!(fail_chance(11, 12, false).ways, 0);
    }

    #[test]
    fn a_check_after_the_top_fails_multiplies_the_chances() {
        let top = Chance { ways: 14, outcomes: 36 };
        let mate = Chance { ways: 20, outcomes: 36 };
        assert_eq!(top.and(mate), Chance { ways: 280, outcomes: 1296 });
        assert!((top.and(mate).percent() - 100.0 * 280.0 / 1296.0).abs() < 1e-9);
    }
}
