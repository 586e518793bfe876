//! The `rules.ai` block: the hex-mode AI's thresholds, distances and score
//! weights (docs/rules.md, "The AI"). A side's temper, its `aggression`
//! (a, 0 cautious ..= 1 reckless), stays with the side in the scenario; the
//! numbers here say how the thresholds follow from it.

use serde::{Deserialize, Serialize};

/// How close one arm goes to the enemy by choice (hexes): `cautious` below
/// aggression `bold_from`, `bold` from it on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standoff {
    /// Hexes kept from the nearest enemy below `bold_from`.
    pub cautious: u16,
    /// Hexes kept from the nearest enemy at or above `bold_from`.
    pub bold: u16,
    /// Aggression (0..=1) from which the arm keeps only `bold`.
    pub bold_from: f32,
}

/// Stand-off per arm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StandoffByArm {
    /// Infantry: 2 hexes, 1 from a = 0.5.
    pub infantry: Standoff,
    /// Cavalry: 3 hexes, 2 from a = 0.75.
    pub cavalry: Standoff,
    /// Artillery: 3 hexes whatever its temper.
    pub artillery: Standoff,
}

impl Default for StandoffByArm {
    fn default() -> Self {
        Self {
            infantry: Standoff { cautious: 2, bold: 1, bold_from: 0.5 },
            cavalry: Standoff { cautious: 3, bold: 2, bold_from: 0.75 },
            artillery: Standoff { cautious: 3, bold: 3, bold_from: 1.0 },
        }
    }
}

/// The AI's numbers. Every field has a default; a scenario names only what
/// it changes: `rules: (ai: (threat_radius: 6))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AiRules {
    /// Least chance of a favourable result for a charge at aggression 0; the
    /// threshold is `charge_threshold - charge_threshold_drop * a`.
    pub charge_threshold: f32,
    /// How far the charge threshold falls from aggression 0 to 1.
    pub charge_threshold_drop: f32,
    /// Least chance of a favourable result for an ordinary melee at
    /// aggression 0; the threshold is `melee_threshold - melee_threshold_drop * a`.
    pub melee_threshold: f32,
    /// How far the melee threshold falls from aggression 0 to 1.
    pub melee_threshold_drop: f32,
    /// Share of the good-order units kept in reserve at aggression 0; the
    /// share is `reserve_share * (1 - a)`.
    pub reserve_share: f32,
    /// How much farther than an objective (hundredths of MP) the enemy counts
    /// as a goal at aggression 1: the bias is `objective_bias + objective_bias_span * (1 - a)`.
    pub objective_bias: u32,
    /// What the objective bias gains from aggression 1 down to 0 (hundredths of MP).
    pub objective_bias_span: f32,
    /// Hexes each arm keeps from the nearest enemy.
    pub standoff: StandoffByArm,
    /// Enemy cavalry able to charge this close (hexes) makes infantry in the
    /// open form square.
    pub square_radius: u32,
    /// Infantry farther than this (hexes) from the enemy marches in column;
    /// nearer, it deploys into line. Cavalry farther than this forms column.
    pub column_beyond: u16,
    /// An objective with an enemy this close (hexes) is threatened.
    pub threat_radius: u16,
    /// The reserve closes up to this distance (hexes) from the enemy, no nearer.
    pub reserve_follow: u16,
    /// Limbered guns this close (hexes) to the enemy, and in range, unlimber
    /// where they stand.
    pub unlimber_within: u16,
    /// At the end of its moves, a unit in good order with an enemy this close
    /// (hexes) and outside its front hexsides turns to face the nearest.
    pub face_within: u16,
    /// Charge targets per charger whose odds are worked out in full, after
    /// the quick screen.
    pub charge_candidates: u32,
    /// The quick screen of charge targets, before their odds: points for a
    /// routed target in the hex.
    pub charge_screen_routed: u32,
    /// ... for a disordered target in the hex.
    pub charge_screen_disordered: u32,
    /// ... taken off for a square in the hex.
    pub charge_screen_square: u32,
    /// ... for guns in the hex.
    pub charge_screen_guns: u32,
    /// ... for a target in the open (not woods or built-up).
    pub charge_screen_open: u32,
    /// ... for each whole strength ratio (charger's increments over the
    /// hex's increments not routed), pro rata.
    pub charge_screen_ratio: u32,
    /// Added to a charge's chance when ranking targets, for a disordered target.
    pub charge_disordered_bonus: f32,
    /// Added to a charge's chance when ranking targets, for guns.
    pub charge_guns_bonus: f32,
    /// Placement penalty (hundredths of MP of field distance) per hex nearer
    /// the enemy than the arm's stand-off, except on an objective.
    pub too_close_penalty: u32,
    /// Placement penalty for infantry ending in an enemy cavalry zone.
    pub cavalry_zone_penalty: u32,
    /// Placement bonus for woods, village or town within `cover_within` of the enemy.
    pub cover_bonus: u32,
    /// Cover counts only this close (hexes) to the enemy.
    pub cover_within: u16,
    /// A volley's value is multiplied by this on a disordered target.
    pub volley_disordered_factor: f32,
    /// ... and by this on a target of `volley_weak_strength` increments or fewer.
    pub volley_weak_factor: f32,
    /// Strength (increments) at or below which a target counts as weak.
    pub volley_weak_strength: u32,
    /// Share of the attacking units (those neither holding an objective nor
    /// in reserve) that make for the side's exits, nearest an exit first;
    /// only when the scenario gives the side exits.
    pub exit_share: f32,
    /// Least points a unit's leaving must earn (its increments times the
    /// exit's points) for it to make for that exit or leave by it.
    pub exit_min_points: u32,
    /// At `Normal`: the share of the melee threshold an attack on a
    /// disordered target must still clear, its own checks' failures taken
    /// off its chance.
    pub shaken_share: f32,
    /// At `Normal`: how many of the best places to fall back to are asked
    /// whether a rout from there stays on the map.
    pub fall_back_candidates: u32,
    /// At `Normal`: a unit that moves keeps out of the rout lanes of the
    /// side's units this near (hexes) the enemy, in good order or
    /// disordered: the hexes each would rout through now, its own
    /// included (the rout preview), where a unit would check for contagion.
    pub rout_lane_within: u16,
    /// At `Normal`: placement penalty for ending a move in such a lane,
    /// except on an objective.
    pub rout_lane_penalty: u32,
    /// At `Normal`: an enemy unit that still counts towards breaking its
    /// corps (in good order or disordered, of a corps not counted broken)
    /// with none of the side's units within this many hexes is hunted by
    /// the nearest attacker with no such enemy within this many hexes of
    /// its own, one attacker to each.
    pub hunt_beyond: u16,
    /// At `Normal`: the most enemy units hunted in one movement phase, the
    /// nearest pairs of hunter and quarry first (0: none is).
    pub hunters_max: u32,
    /// At `Normal`: the share of the battle's turns (the turn played over
    /// the turns) before which nobody is hunted.
    pub hunt_from: f32,
    /// At `Normal`: a volley's value is multiplied by 1 + this times the
    /// contagion failures the target's rout would bring on its friends
    /// (the rout preview's expected failures).
    pub volley_contagion_weight: f32,
    /// At `Normal`: a charge's chance is lessened by this times its chance
    /// of a table result against the charger (repulsed or driven off: a
    /// horse unit driven off routs).
    pub charge_loss_weight: f32,
    /// At `Normal`: the chance the table goes against a charger is weighed
    /// again by 1 + this times the friends its own rout from the hex of
    /// contact is expected to rout as well (each friend's chance to fail
    /// its contagion check, then, unless it is horse, which routs at once,
    /// its recovery check as a disordered unit).
    pub charge_rout_weight: f32,
    /// At `Normal`: among the charges that clear the threshold, each is
    /// ranked by its chance times 1 + this times the contagion failures the
    /// target's rout would bring on its friends (the rout preview's
    /// expected failures), as `volley_contagion_weight` weighs a volley.
    pub charge_contagion_weight: f32,
    /// At `Normal`: the share of the objective bias it keeps (0: an enemy
    /// counts as a goal as near as an objective to take, so the attack
    /// goes for whichever is nearer).
    pub normal_bias_share: f32,
    /// At `Normal`: a side more cautious than this (aggression below it)
    /// keeps its whole objective bias while the battle is within
    /// `normal_bias_until` of its turns: it secures its objectives
    /// first, then goes for the nearer goal as a bolder side does.
    pub normal_bias_below: f32,
    /// The share of the battle's turns (the turn played over the turns)
    /// up to which a cautious side keeps its whole objective bias.
    pub normal_bias_until: f32,
    /// At `Normal`: a broken corps whose routed units rally fights again
    /// once its routed and gone units are at least this many short of its
    /// `breaks_at` (2: one rout more would not break it again); until
    /// then its units fall back as a broken corps' do. 1 to 100.
    pub mend_margin: u32,
    /// The planning AI's budget and weights (`hard`).
    pub hard: super::hard::HardRules,
}

impl Default for AiRules {
    fn default() -> Self {
        Self {
            charge_threshold: 0.65,
            charge_threshold_drop: 0.4,
            melee_threshold: 0.6,
            melee_threshold_drop: 0.3,
            reserve_share: 0.5,
            objective_bias: 200,
            objective_bias_span: 1000.0,
            standoff: StandoffByArm::default(),
            square_radius: 3,
            column_beyond: 4,
            threat_radius: 4,
            reserve_follow: 8,
            unlimber_within: 5,
            face_within: 8,
            charge_candidates: 4,
            charge_screen_routed: 2_000,
            charge_screen_disordered: 500,
            charge_screen_square: 2_000,
            charge_screen_guns: 300,
            charge_screen_open: 200,
            charge_screen_ratio: 1_000,
            charge_disordered_bonus: 0.1,
            charge_guns_bonus: 0.1,
            too_close_penalty: 10_000,
            cavalry_zone_penalty: 5_000,
            cover_bonus: 100,
            cover_within: 3,
            volley_disordered_factor: 1.5,
            volley_weak_factor: 1.25,
            volley_weak_strength: 2,
            exit_share: 0.25,
            exit_min_points: 1,
            shaken_share: 0.5,
            fall_back_candidates: 12,
            rout_lane_within: 8,
            rout_lane_penalty: 1_000,
            hunt_beyond: 4,
            hunters_max: 4,
            hunt_from: 0.3,
            volley_contagion_weight: 3.0,
            charge_loss_weight: 1.0,
            charge_rout_weight: 2.0,
            charge_contagion_weight: 3.0,
            normal_bias_share: 0.0,
            normal_bias_below: 0.4,
            normal_bias_until: 0.3,
            mend_margin: 2,
            hard: super::hard::HardRules::default(),
        }
    }
}

impl AiRules {
    /// Problems with the numbers, as (field, message).
    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        let mut out = self.hard.problems();
        let mut add = |field: &str, msg: String| out.push((format!("rules.ai.{field}"), msg));
        for (name, v) in [
            ("charge_threshold", self.charge_threshold),
            ("charge_threshold_drop", self.charge_threshold_drop),
            ("melee_threshold", self.melee_threshold),
            ("melee_threshold_drop", self.melee_threshold_drop),
            ("reserve_share", self.reserve_share),
            ("charge_disordered_bonus", self.charge_disordered_bonus),
            ("charge_guns_bonus", self.charge_guns_bonus),
            ("exit_share", self.exit_share),
            ("standoff.infantry.bold_from", self.standoff.infantry.bold_from),
            ("standoff.cavalry.bold_from", self.standoff.cavalry.bold_from),
            ("standoff.artillery.bold_from", self.standoff.artillery.bold_from),
            ("shaken_share", self.shaken_share),
            ("normal_bias_share", self.normal_bias_share),
            ("normal_bias_below", self.normal_bias_below),
            ("normal_bias_until", self.normal_bias_until),
            ("hunt_from", self.hunt_from),
        ] {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                add(name, format!("{v} must be 0..=1"));
            }
        }
        for (name, v) in [
            ("objective_bias_span", self.objective_bias_span),
            ("volley_disordered_factor", self.volley_disordered_factor),
            ("volley_weak_factor", self.volley_weak_factor),
            ("volley_contagion_weight", self.volley_contagion_weight),
            ("charge_loss_weight", self.charge_loss_weight),
            ("charge_rout_weight", self.charge_rout_weight),
            ("charge_contagion_weight", self.charge_contagion_weight),
        ] {
            let max = if name == "objective_bias_span" { 100_000.0 } else { 10.0 };
            if !(v.is_finite() && (0.0..=max).contains(&v)) {
                add(name, format!("{v} must be 0..={max}"));
            }
        }
        for (name, v) in [
            ("standoff.infantry.cautious", self.standoff.infantry.cautious),
            ("standoff.infantry.bold", self.standoff.infantry.bold),
            ("standoff.cavalry.cautious", self.standoff.cavalry.cautious),
            ("standoff.cavalry.bold", self.standoff.cavalry.bold),
            ("standoff.artillery.cautious", self.standoff.artillery.cautious),
            ("standoff.artillery.bold", self.standoff.artillery.bold),
            ("column_beyond", self.column_beyond),
            ("threat_radius", self.threat_radius),
            ("reserve_follow", self.reserve_follow),
            ("unlimber_within", self.unlimber_within),
            ("face_within", self.face_within),
            ("cover_within", self.cover_within),
            ("rout_lane_within", self.rout_lane_within),
            ("hunt_beyond", self.hunt_beyond),
        ] {
            if v > 100 {
                add(name, format!("{v} must be 0..=100"));
            }
        }
        if self.square_radius > 100 {
            add("square_radius", format!("{} must be 0..=100", self.square_radius));
        }
        if !(1..=100).contains(&self.charge_candidates) {
            add("charge_candidates", format!("{} must be 1..=100", self.charge_candidates));
        }
        if self.volley_weak_strength > 100 {
            add("volley_weak_strength", format!("{} must be 0..=100", self.volley_weak_strength));
        }
        if self.fall_back_candidates > 100 {
            add("fall_back_candidates", format!("{} must be 0..=100", self.fall_back_candidates));
        }
        if self.hunters_max > 100 {
            add("hunters_max", format!("{} must be 0..=100", self.hunters_max));
        }
        if !(1..=100).contains(&self.mend_margin) {
            add("mend_margin", format!("{} must be 1..=100", self.mend_margin));
        }
        if self.exit_min_points > 10_000 {
            add("exit_min_points", format!("{} must be 0..=10000", self.exit_min_points));
        }
        for (name, v) in [
            ("objective_bias", self.objective_bias),
            ("too_close_penalty", self.too_close_penalty),
            ("cavalry_zone_penalty", self.cavalry_zone_penalty),
            ("cover_bonus", self.cover_bonus),
            ("rout_lane_penalty", self.rout_lane_penalty),
            ("charge_screen_routed", self.charge_screen_routed),
            ("charge_screen_disordered", self.charge_screen_disordered),
            ("charge_screen_square", self.charge_screen_square),
            ("charge_screen_guns", self.charge_screen_guns),
            ("charge_screen_open", self.charge_screen_open),
            ("charge_screen_ratio", self.charge_screen_ratio),
        ] {
            if v > 100_000 {
                add(name, format!("{v} must be 0..=100000"));
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
    fn the_defaults_are_sound() {
        assert!(AiRules::default().problems().is_empty());
    }

    #[test]
    fn a_scenario_may_override_one_ai_number() {
        let r: Rules = crate::scenario::ron_options()
            .from_str("(ai: (threat_radius: 6, standoff: (cavalry: (cautious: 4, bold: 2, bold_from: 0.5))))")
            .expect("parses");
        assert_eq!(r.ai.threat_radius, 6);
        assert_eq!(r.ai.standoff.cavalry.cautious, 4);
        assert_eq!(r.ai.standoff.infantry, StandoffByArm::default().infantry, "the rest keep their defaults");
        assert_eq!(r.ai.column_beyond, AiRules::default().column_beyond);
        assert!(r.problems().is_empty(), "{:?}", r.problems());
    }

    #[test]
    fn a_bad_ai_number_is_named() {
        let r: Rules = crate::scenario::ron_options().from_str("(ai: (melee_threshold: 1.5))").expect("parses");
        let p = r.problems();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].0, "rules.ai.melee_threshold");
        assert!(p[0].1.contains("1.5"), "{p:?}");

        let r: Rules = crate::scenario::ron_options()
            .from_str("(ai: (standoff: (infantry: (cautious: 2, bold: 1, bold_from: -1.0))))")
            .expect("parses");
        assert_eq!(r.problems()[0].0, "rules.ai.standoff.infantry.bold_from");

        let r: Rules = crate::scenario::ron_options().from_str("(ai: (charge_screen_guns: 200000))").expect("parses");
        assert_eq!(r.problems()[0].0, "rules.ai.charge_screen_guns");

        let r: Rules = crate::scenario::ron_options().from_str("(ai: (mend_margin: 0))").expect("parses");
        assert_eq!(r.problems()[0].0, "rules.ai.mend_margin");

        let r: Rules = crate::scenario::ron_options().from_str("(ai: (hunt_beyond: 101))").expect("parses");
        assert_eq!(r.problems()[0].0, "rules.ai.hunt_beyond");
        let r: Rules =
            crate::scenario::ron_options().from_str("(ai: (hunt_beyond: 100, hunters_max: 0))").expect("parses");
        assert!(r.problems().is_empty(), "100 hexes and no hunter are allowed");
        let r: Rules = crate::scenario::ron_options().from_str("(ai: (hunters_max: 101))").expect("parses");
        assert_eq!(r.problems()[0].0, "rules.ai.hunters_max");
        let r: Rules = crate::scenario::ron_options().from_str("(ai: (hunt_from: 1.5))").expect("parses");
        assert_eq!(r.problems()[0].0, "rules.ai.hunt_from");

        let r: Rules =
            crate::scenario::ron_options().from_str("(ai: (exit_share: 2.0, exit_min_points: 20000))").expect("parses");
        let p: Vec<String> = r.problems().into_iter().map(|p| p.0).collect();
        assert_eq!(p, ["rules.ai.exit_share", "rules.ai.exit_min_points"]);

        let r: Rules = crate::scenario::ron_options()
            .from_str("(ai: (shaken_share: 1.5, fall_back_candidates: 200, normal_bias_share: -0.5))")
            .expect("parses");
        let mut p: Vec<String> = r.problems().into_iter().map(|p| p.0).collect();
        p.sort();
        assert_eq!(p, ["rules.ai.fall_back_candidates", "rules.ai.normal_bias_share", "rules.ai.shaken_share"]);

        let r: Rules = crate::scenario::ron_options()
            .from_str("(ai: (normal_bias_below: 1.2, normal_bias_until: -0.1))")
            .expect("parses");
        let mut p: Vec<String> = r.problems().into_iter().map(|p| p.0).collect();
        p.sort();
        assert_eq!(p, ["rules.ai.normal_bias_below", "rules.ai.normal_bias_until"]);
        let r: Rules = crate::scenario::ron_options()
            .from_str("(ai: (normal_bias_below: 0.0, normal_bias_until: 1.0))")
            .expect("parses");
        assert!(r.problems().is_empty(), "the ends of the range are allowed");

        let e = crate::scenario::ron_options().from_str::<Rules>("(ai: (treat_radius: 6))");
        assert!(e.is_err_and(|e| e.to_string().contains("treat_radius")));
    }
    #[test]
    fn a_scenario_file_with_an_ai_override_loads_and_a_bad_one_is_named() {
        let text = include_str!("../../../../scenarios/grossbeeren-1813.ron");
        let good = text.replace("off_map_recovery: [South],", "off_map_recovery: [South], ai: (reserve_follow: 6),");
        assert_ne!(good, text);
        let s = crate::scenario::parse(&good, "g.ron").expect("loads");
        assert_eq!(s.rules.ai.reserve_follow, 6);

        let bad = text.replace("off_map_recovery: [South],", "off_map_recovery: [South], ai: (charge_candidates: 0),");
        match crate::scenario::parse(&bad, "g.ron") {
            Err(crate::scenario::LoadError::Invalid { problems, .. }) => {
                assert!(problems.iter().any(|p| p.subject == "rules.ai.charge_candidates"), "{problems:?}")
            }
            other => panic!("expected a problem, got {:?}", other.map(|_| ())),
        }
    }
}
