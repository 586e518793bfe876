//! What the AI plays for (objectives, exits, broken corps) and its
//! thresholds at a side's aggression, from the scenario's `rules.ai`.

use std::sync::Arc;

use crate::hex::{Edge, Offset};
use crate::labataille::victory::CorpsStatus;
use crate::rules::ai::{AiRules, Standoff};
use crate::scenario::Scenario;
use crate::terrain::Arm;
use crate::vocab::AiLevel;

use super::script::Script;

/// What the AI plays for, from the scenario and the state of the battle.
#[derive(Clone, Debug, PartialEq)]
pub struct AiGoals {
    /// Objective hexes with their victory points and current holder (side index) if any.
    pub objectives: Vec<(Offset, u32, Option<usize>)>,
    /// 0.0 (cautious) ..= 1.0 (reckless); the scenario's side aggression, default 0.5.
    pub aggression: f32,
    /// Units whose corps has broken: they should withdraw, not attack.
    pub broken: Vec<bool>,
    /// The side's exits (scenario `exits`): the edge and its points per
    /// increment that leaves the map across it.
    pub exits: Vec<(Edge, u32)>,
    /// How well it plays ([`AiLevel`]).
    pub level: AiLevel,
    /// Each unit's script for the movement phase (the planning AI's
    /// choice; empty, or shorter than the units: `Advance`).
    pub scripts: Vec<Script>,
    /// The battle to look ahead in, for `Hard` (without it `Hard` plays as
    /// `Normal`).
    pub foresight: Option<Arc<Foresight>>,
    /// How far the battle has gone: the turn being played over the
    /// battle's turns (0 where unknown). A cautious side at `Normal`
    /// keeps its objective bias early on ([`Tuning::at_level`]).
    pub progress: f32,
}

impl Default for AiGoals {
    fn default() -> Self {
        Self {
            objectives: Vec::new(),
            aggression: 0.5,
            broken: Vec::new(),
            exits: Vec::new(),
            level: AiLevel::default(),
            scripts: Vec::new(),
            foresight: None,
            progress: 0.0,
        }
    }
}

impl AiGoals {
    /// What side `side` plays for at `level` in turn `turn`: the
    /// scenario's objectives with their `holders`, its aggression, the
    /// units of the corps broken so far (`corps_broken`, by corps), its
    /// exits and how far the battle has gone.
    pub fn for_side(
        scenario: &Scenario,
        holders: &[Option<usize>],
        corps_broken: &[bool],
        side: usize,
        level: AiLevel,
        turn: u32,
    ) -> Self {
        AiGoals {
            objectives: scenario.objectives.iter().zip(holders).map(|(o, h)| (o.at, o.points, *h)).collect(),
            aggression: scenario.sides.get(side).map_or(crate::scenario::DEFAULT_AGGRESSION, |s| s.aggression),
            broken: (0..scenario.units.len())
                .map(|u| scenario.corps_of_unit(u).is_some_and(|c| corps_broken.get(c) == Some(&true)))
                .collect(),
            exits: scenario.exits.iter().filter(|e| e.side == side).map(|e| (e.edge, e.points)).collect(),
            level,
            scripts: Vec::new(),
            foresight: None,
            progress: turn as f32 / scenario.turns.max(1) as f32,
        }
    }

    /// The unit's script for the movement phase.
    /// Unit `unit`'s script: the planning AI's, `Hold` for every unit of
    /// a side at [`AiLevel::Hold`], else `Advance`.
    pub(super) fn script(&self, unit: usize) -> Script {
        if self.level == AiLevel::Hold {
            return Script::Hold;
        }
        self.scripts.get(unit).copied().unwrap_or_default()
    }

    pub(super) fn broken(&self, unit: usize) -> bool {
        self.broken.get(unit).copied().unwrap_or(false)
    }

    /// Whether it plays with `Normal`'s mends ([`AiLevel::mended`]).
    pub(super) fn mended(&self) -> bool {
        self.level.mended()
    }
}

/// Which corps the mended AI (`Normal`, `Hard`, `Hold`) counts as broken
/// after a command segment (docs/rules.md "The AI"), by
/// [`Scenario::corps`]: each corps broken now, and each it counted broken
/// before (`before`) that has not yet mended by `rules.ai.mend_margin`
/// units, its routed units rallied. The rules let a corps mend as soon as
/// its routed and gone units are fewer than its `breaks_at` (1.6); the
/// AI waits until one rout more would not break it again before it sends
/// its units forward. (`Easy` counts a corps broken for good once it
/// breaks.)
pub fn corps_broken_for_orders(scenario: &Scenario, status: &[CorpsStatus], before: &[bool]) -> Vec<bool> {
    let margin = scenario.rules.ai.mend_margin;
    let mut out = vec![false; scenario.corps.len()];
    for st in status {
        let Some(corps) = scenario.corps.get(st.corps) else { continue };
        let was = before.get(st.corps) == Some(&true);
        out[st.corps] = st.broken || (was && st.gone + st.routed + margin > corps.breaks_at);
    }
    out
}

/// What `hard` needs to look ahead: the battle and how it stands beyond
/// the board (who holds what, what has marched off, which corps broke).
#[derive(Clone, Debug, PartialEq)]
pub struct Foresight {
    pub scenario: Arc<Scenario>,
    /// The game's seed, from which the continuations' seeds are made.
    pub seed: u64,
    /// The turn now being played.
    pub turn: u32,
    /// Each objective's holder (by [`Scenario::objectives`]).
    pub holders: Vec<Option<usize>>,
    /// Increments marched off by each exit (by [`Scenario::exits`]).
    pub exited: Vec<u32>,
    /// The corps it counts broken (by [`Scenario::corps`];
    /// [`corps_broken_for_orders`]).
    pub corps_broken: Vec<bool>,
}

/// The AI's thresholds for one side: the scenario's `rules.ai` numbers
/// (distances, weights and the thresholds' ranges, docs/rules.md "The AI")
/// at the side's aggression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Least chance of a favourable result for a charge: 0.65 - 0.4 a by default.
    pub charge_threshold: f32,
    /// Least chance of a favourable result for a melee: 0.6 - 0.3 a by default.
    pub melee_threshold: f32,
    /// Share of the good-order units kept in reserve: 0.5 (1 - a) by default.
    pub reserve_share: f32,
    /// How far behind the objectives (hundredths of MP) the enemy counts as
    /// a goal: 200 + 1000 (1 - a) by default, so the cautious keep to the
    /// objectives.
    pub objective_bias: u32,
    /// Hexes kept from the nearest enemy, per arm (by default infantry 1
    /// from a = 0.5, else 2; cavalry 2 from a = 0.75, else 3; artillery 3).
    pub standoff: [u16; 3],
}

impl Tuning {
    /// The thresholds for a side of this aggression playing at `level`,
    /// `progress` into the battle (the turn over the turns): at `Normal`,
    /// only `normal_bias_share` of the objective bias is kept, except by
    /// a side more cautious than `normal_bias_below` while `progress` is
    /// within `normal_bias_until`, which keeps it all.
    pub fn at_level(aggression: f32, r: &AiRules, level: AiLevel, progress: f32) -> Self {
        let mut t = Self::new(aggression, r);
        let securing = aggression < r.normal_bias_below && progress <= r.normal_bias_until;
        if level.mended() && !securing {
            t.objective_bias = (t.objective_bias as f32 * r.normal_bias_share).round() as u32;
        }
        t
    }

    pub fn new(aggression: f32, r: &AiRules) -> Self {
        let a = if aggression.is_finite() { aggression.clamp(0.0, 1.0) } else { 0.5 };
        let s = &r.standoff;
        let standoff = |arm: &Standoff| if a >= arm.bold_from { arm.bold } else { arm.cautious };
        Self {
            charge_threshold: r.charge_threshold - r.charge_threshold_drop * a,
            melee_threshold: r.melee_threshold - r.melee_threshold_drop * a,
            reserve_share: r.reserve_share * (1.0 - a),
            objective_bias: r.objective_bias + (r.objective_bias_span * (1.0 - a)).round() as u32,
            standoff: [standoff(&s.infantry), standoff(&s.cavalry), standoff(&s.artillery)],
        }
    }

    pub(super) fn standoff(&self, arm: Arm) -> u16 {
        self.standoff[arm.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corps counted broken stays so while one rout more would break it
    /// again, and fights again once its rallied units leave it
    /// `mend_margin` short; one that never broke is not counted broken.
    #[test]
    fn a_broken_corps_fights_again_once_it_has_mended_by_the_margin() {
        let mut s = crate::scenario::parse(include_str!("../../../../../scenarios/grossbeeren-1813.ron"), "g.ron")
            .expect("the bundled scenario loads");
        let c = s.corps.iter().position(|c| c.id == "pr-centre").expect("the corps");
        assert_eq!(s.corps[c].breaks_at, 3);
        let at = |s: &Scenario, routed: u32, gone: u32, before: bool| {
            let status: Vec<CorpsStatus> = (0..s.corps.len())
                .map(|k| {
                    let (gone, routed) = if k == c { (gone, routed) } else { (0, 0) };
                    CorpsStatus { corps: k, gone, routed, broken: gone + routed >= s.corps[k].breaks_at }
                })
                .collect();
            let mut was = vec![false; s.corps.len()];
            was[c] = before;
            corps_broken_for_orders(s, &status, &was)[c]
        };
        assert!(at(&s, 3, 0, false), "it breaks");
        assert!(at(&s, 1, 2, false), "gone units count with the routed");
        assert!(at(&s, 2, 0, true), "one short of breaking: still broken");
        assert!(!at(&s, 1, 0, true), "two short: it has mended");
        assert!(!at(&s, 2, 0, false), "a corps that never broke is not counted broken");
        s.rules.ai.mend_margin = 1;
        assert!(!at(&s, 2, 0, true), "with a margin of one it mends as the rules do");
        s.rules.ai.mend_margin = 3;
        assert!(at(&s, 1, 0, true), "a margin of three asks for every unit rallied");
        assert!(!at(&s, 0, 0, true));
    }
}
