//! The numbers of the free-space game beyond morale (docs/rules.md, 2.7 to
//! 2.11): march lengths, the fire and melee tables, capture of guns, valour
//! loss, victory and the AI. They live in `rules.belle_alliance`; every
//! field has a house default, so a scenario names only what it changes:
//! `rules: (belle_alliance: (march_cm: (infantry_line: 12.0)))`.
//!
//! Belle Alliance's own tables are not public; these are `sauve`'s, built
//! to give the source's flow (fire and melee put units into LU, U or FU;
//! valour falls with losses) with 3d6 totals as every roll of the mode.

use serde::{Deserialize, Serialize};

/// March per bound in cm by arm and formation (2.7). Squares and
/// unlimbered guns barely move; a column marches faster than a line.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MarchLengths {
    pub infantry_line: f32,
    pub infantry_column: f32,
    pub infantry_square: f32,
    pub cavalry_line: f32,
    pub cavalry_column: f32,
    /// Limbered foot artillery; horse artillery (`horse: true`) uses
    /// `horse_artillery`.
    pub foot_artillery: f32,
    pub horse_artillery: f32,
    /// Unlimbered guns, manhandled.
    pub unlimbered: f32,
}

impl Default for MarchLengths {
    fn default() -> Self {
        Self {
            infantry_line: 10.0,
            infantry_column: 15.0,
            infantry_square: 3.0,
            cavalry_line: 25.0,
            cavalry_column: 30.0,
            foot_artillery: 15.0,
            horse_artillery: 30.0,
            unlimbered: 2.0,
        }
    }
}

/// What each part of a march costs (2.7): a change of formation or
/// limbering takes a share of the march; a wheel costs the arc its outer
/// flank walks; a move off straight ahead costs more.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MarchCosts {
    /// Share of the march a formation change or (un)limbering uses.
    pub formation_change_share: f32,
    /// Moves within this many degrees of the facing are straight ahead.
    pub straight_degrees: f32,
    /// Moves up to this many degrees off the facing are oblique.
    pub oblique_degrees: f32,
    /// Each cm of an oblique move costs this much.
    pub oblique_factor: f32,
    /// Each cm sideways or backwards costs this much.
    pub sideways_factor: f32,
    /// A charge (cavalry in line or column, in order or LU) may ride this
    /// many times its march, straight at a target in its front arc.
    pub charge_factor: f32,
    /// Half-angle of the front arc (fire, charges, melee flanks), degrees.
    pub front_arc_degrees: f32,
}

impl Default for MarchCosts {
    fn default() -> Self {
        Self {
            formation_change_share: 0.5,
            straight_degrees: 5.0,
            oblique_degrees: 45.0,
            oblique_factor: 1.25,
            sideways_factor: 2.0,
            charge_factor: 1.5,
            front_arc_degrees: 45.0,
        }
    }
}

/// One range band of a weapon: up to `max_cm` (measured between the
/// footprints), each firing figure or gun is worth `points`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub max_cm: f32,
    pub points: f32,
}

/// One row of a result table: totals from `from` up lose `figures` and put
/// the unit at least into `state` (`Order` for none).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRow {
    pub from: i32,
    pub figures: u32,
    pub state: crate::vocab::State,
}

/// The fire table (2.8): fire points by weapon and range band, one point of
/// modifier per `points_per_modifier`, up to `max_modifier`, on one result
/// table of 3d6 totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FireTables {
    /// Infantry muskets, points per figure, nearest band first.
    pub musketry: Vec<Band>,
    /// Guns, points per gun figure, nearest band first.
    pub artillery: Vec<Band>,
    /// Share of its figures a unit fires with, by formation.
    pub column_share: f32,
    pub square_share: f32,
    /// Cavalry fires only carbines: this share of the musketry points.
    pub cavalry_share: f32,
    pub points_per_modifier: f32,
    pub max_modifier: i32,
    /// Target in cover (any part in woods, town, village, garden): added.
    pub cover_modifier: i32,
    /// Target in column or square under artillery fire: added.
    pub dense_target_modifier: i32,
    /// Results, ascending `from`; totals below the first row do nothing.
    pub results: Vec<ResultRow>,
}

impl Default for FireTables {
    fn default() -> Self {
        use crate::vocab::State::*;
        Self {
            musketry: vec![Band { max_cm: 8.0, points: 1.0 }, Band { max_cm: 16.0, points: 0.5 }],
            artillery: vec![
                Band { max_cm: 20.0, points: 6.0 },
                Band { max_cm: 50.0, points: 3.0 },
                Band { max_cm: 100.0, points: 1.5 },
            ],
            column_share: 0.33,
            square_share: 0.5,
            cavalry_share: 0.25,
            points_per_modifier: 8.0,
            max_modifier: 6,
            cover_modifier: -2,
            dense_target_modifier: 2,
            results: vec![
                ResultRow { from: 11, figures: 1, state: Order },
                ResultRow { from: 13, figures: 2, state: LU },
                ResultRow { from: 15, figures: 3, state: U },
                ResultRow { from: 17, figures: 4, state: U },
                ResultRow { from: 19, figures: 5, state: FU },
            ],
        }
    }
}

/// The melee table (2.9): each side rolls 3d6 plus its modifiers; the
/// difference is read on `results`, which the loser suffers; the winner
/// loses `winner_figures` when the difference is below `clean_win`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeleeTable {
    /// Figure ratio: +this with half again the enemy's figures, twice for double.
    pub ratio_modifier: i32,
    /// Attacker on the defender's flank / rear (FU units have neither).
    pub flank_modifier: i32,
    pub rear_modifier: i32,
    /// Cavalry against infantry not in square, and against a square.
    pub cavalry_vs_foot: i32,
    pub cavalry_vs_square: i32,
    /// Cavalry that charged this bound.
    pub charge_modifier: i32,
    /// Infantry attacking in column (impetus).
    pub column_modifier: i32,
    /// Defender in cover (woods, town, village, garden).
    pub cover_modifier: i32,
    /// By state: LU, U, FU.
    pub lu_modifier: i32,
    pub u_modifier: i32,
    pub fu_modifier: i32,
    /// Unlimbered guns, or gunners without their guns, in melee.
    pub guns_modifier: i32,
    /// Difference of totals; ascending `from`. A difference below the first
    /// row (a draw) costs each side one figure and nobody gives ground.
    pub results: Vec<ResultRow>,
    pub winner_figures: u32,
    pub clean_win: i32,
    /// How near (cm) the fronts must be to melee.
    pub contact_cm: f32,
    /// Foot in line or column, in order or LU, charged by horse, forms
    /// square before the contact when 3d6 + its valour reaches this.
    pub square_test: i32,
}

impl Default for MeleeTable {
    fn default() -> Self {
        use crate::vocab::State::*;
        Self {
            ratio_modifier: 2,
            flank_modifier: 2,
            rear_modifier: 4,
            cavalry_vs_foot: 3,
            cavalry_vs_square: -4,
            charge_modifier: 2,
            column_modifier: 1,
            cover_modifier: 2,
            lu_modifier: -1,
            u_modifier: -2,
            fu_modifier: -4,
            guns_modifier: -3,
            results: vec![
                ResultRow { from: 1, figures: 1, state: LU },
                ResultRow { from: 3, figures: 2, state: U },
                ResultRow { from: 6, figures: 3, state: FU },
            ],
            winner_figures: 1,
            clean_win: 4,
            contact_cm: 1.5,
            square_test: 11,
        }
    }
}

/// Losses and their effect on valour (the mode's opening rule, 2.10).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ValourLoss {
    /// Valour falls one point per this share of the starting figures lost.
    pub share_per_point: f32,
    /// House default: each fall makes the unit test 3d6 + its new valour;
    /// at or below this total it enters FU and flees (2.2.4: a free
    /// direction unless the same result already gave it a cause).
    pub flight_max: i32,
    /// A battery whose guns an enemy in order or LU touches within this
    /// many cm while no friend in order guards them loses them (2.2.7).
    pub capture_cm: f32,
}

impl Default for ValourLoss {
    fn default() -> Self {
        Self { share_per_point: 0.2, flight_max: 7, capture_cm: 3.0 }
    }
}

/// Victory in free space (2.11).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FsVictory {
    /// An objective's area: every point within this many cm of its cell's centre.
    pub objective_radius_cm: f32,
    /// A side's army breaks when this share of its units is in FU at the
    /// start of a turn (from `rules.first_command_turn`).
    pub army_breaks_at: f32,
    /// Points for every this many enemy figures lost.
    pub figures_per_point: u32,
    /// Points for each enemy battery captured.
    pub captured_guns_points: u32,
}

impl Default for FsVictory {
    fn default() -> Self {
        Self { objective_radius_cm: 20.0, army_breaks_at: 0.5, figures_per_point: 10, captured_guns_points: 5 }
    }
}

/// The free-space AI's numbers (docs/rules.md, 2.12). The side's
/// `aggression` (a) moves the thresholds as in hex mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FsAiRules {
    /// Infantry in the open forms square with enemy cavalry this near (cm).
    pub square_within_cm: f32,
    /// Farther than this from the enemy, foot and horse march in column.
    pub column_beyond_cm: f32,
    /// At `Normal`, a cautious side's (a < `bold_from`) `column_beyond_cm`:
    /// it waits for the enemy deployed, out of the guns' reach of a column.
    pub cautious_column_beyond_cm: f32,
    /// How near each arm goes by choice (cm between footprints); a bold side
    /// (a >= `bold_from`) comes `bold_closer_cm` nearer with foot and guns.
    pub infantry_standoff_cm: f32,
    pub cavalry_standoff_cm: f32,
    pub artillery_standoff_cm: f32,
    pub bold_closer_cm: f32,
    /// From this aggression up a side is bold: it comes closer, its foot
    /// closes on disordered enemies, and at `Normal` it goes round to the
    /// enemy and storms objectives.
    pub bold_from: f32,
    /// Share of the units in order held back at a = 0; `(1 - a)` times it.
    pub reserve_share: f32,
    /// The reserve closes up to this far from the enemy, no nearer.
    pub reserve_follow_cm: f32,
    /// Least expected melee difference for a charge at a = 0, and how far it
    /// falls at a = 1; a disordered target counts `disordered_bonus` better.
    pub charge_threshold: f32,
    pub charge_threshold_drop: f32,
    pub disordered_bonus: f32,
    /// At `Normal`: the least a charge's worth (its chance to win less its
    /// chance to lose, plus the target's chance to be left fleeing less the
    /// charger's) must reach at a = 0; it falls to nothing at a = 1.
    pub normal_charge_edge: f32,
    /// At `Normal`: the most legs of its route a unit marches in one
    /// movement phase (each leg a straight march).
    pub route_legs: u32,
    /// At `Normal`: a bold side's foot this near (cm, centre to centre) an
    /// objective its side does not hold storms it, making for the enemy
    /// standing in it (0: none does).
    pub storm_within_cm: f32,
    /// At `Normal`: a cautious side counts the enemy as coming once one of
    /// its units stands more than this (cm) from where the scenario set it
    /// out; until then, and while it does not lead on the score, waiting
    /// cannot win it the battle (0: the enemy always counts as coming).
    pub coming_cm: f32,
    /// At `Normal`: a unit on a bridge more than this many degrees off the
    /// bridge's run, whose march is refused, squares up to the run.
    pub askew_degrees: f32,
    /// Near the enemy (this many cm), ending in cover is worth `cover_bonus_cm`.
    pub cover_within_cm: f32,
    pub cover_bonus_cm: f32,
    /// Least chance to win less chance to lose for a melee at a = 0, and how
    /// far it falls at a = 1 (a target in LU or U is attacked whatever the
    /// odds, unless at `Normal` the loss would spread: `melee_cascade_max`).
    pub melee_threshold: f32,
    pub melee_threshold_drop: f32,
    /// At `Normal`, the least chance to win less chance to lose at which a
    /// target in LU or U is attacked whatever `melee_threshold` says.
    pub melee_disordered_edge: f32,
    /// At `Normal`, the most friends a melee may be expected to put to
    /// flight by carrying them along in its lead attacker's flight (2.3,
    /// 2.12): above it the melee is not fought, whatever its odds.
    pub melee_cascade_max: f32,
    /// At `Normal`, how many times `melee_cascade_max` a melee may risk
    /// against an enemy garrison, a unit standing in an objective its side
    /// holds (2.11, 2.12).
    pub garrison_cascade_factor: f32,
    /// Guns unlimber with an enemy in their arc within this share of their range.
    pub unlimber_share: f32,
    /// Foot and horse make for enemy guns left within this many of their marches.
    pub guns_within_marches: f32,
    /// A volley's value: its chance to shake, this times its chance to cost
    /// figures, all times `volley_disordered_factor` on a target in LU or U.
    pub volley_hurt_weight: f32,
    pub volley_disordered_factor: f32,
    /// At `Normal`: a volley at enemy guns is worth this many times as
    /// much (a gun outshoots a file of muskets at every range and fires in
    /// both fire phases).
    pub volley_guns_factor: f32,
    /// At `Normal`, a friend idle in the way of a unit held on a bridge
    /// makes way (2.12, routes): it counts as in the way with its
    /// rectangle within this many cells (`cell_cm`) of the held unit's,
    /// steps aside until the two fronts are this many cm apart, and
    /// marches at each of these angles off the held unit's front in turn
    /// (90 square to it) until one march is legal.
    pub make_way_reach_cells: f32,
    pub make_way_clearance_cm: f32,
    pub make_way_degrees: Vec<f32>,
    /// At `Normal`, how far (cm) a unit wedged at a bridge backs off at
    /// most to find room to wheel onto its way, and the angles off
    /// straight back it tries at each distance, in turn, each to either
    /// side (2.12, routes).
    pub back_off_cm: f32,
    pub back_off_degrees: Vec<f32>,
    /// At `Normal`, foot and horse on their way round that stand within
    /// this many cm of a bridge keep to column while a friend stands on a
    /// bridge within `bridge_follower_cm` of them (centres): a line
    /// deployed at a bridge's far end shuts it for the friends crossing
    /// behind (2.12, movement). 0 keeps to column only on a bridge itself.
    pub bridge_column_cm: f32,
    pub bridge_follower_cm: f32,
}

impl Default for FsAiRules {
    fn default() -> Self {
        Self {
            square_within_cm: 35.0,
            column_beyond_cm: 50.0,
            cautious_column_beyond_cm: 80.0,
            infantry_standoff_cm: 6.0,
            cavalry_standoff_cm: 25.0,
            artillery_standoff_cm: 30.0,
            bold_closer_cm: 2.0,
            bold_from: 0.5,
            reserve_share: 0.3,
            reserve_follow_cm: 40.0,
            charge_threshold: 2.0,
            charge_threshold_drop: 2.0,
            disordered_bonus: 2.0,
            normal_charge_edge: 0.3,
            route_legs: 3,
            storm_within_cm: 80.0,
            coming_cm: 15.0,
            askew_degrees: 10.0,
            cover_within_cm: 30.0,
            cover_bonus_cm: 6.0,
            melee_threshold: 0.1,
            melee_threshold_drop: 0.3,
            melee_disordered_edge: 0.0,
            melee_cascade_max: 0.25,
            garrison_cascade_factor: 2.0,
            unlimber_share: 0.9,
            guns_within_marches: 2.0,
            volley_hurt_weight: 0.25,
            volley_disordered_factor: 1.5,
            volley_guns_factor: 4.0,
            make_way_reach_cells: 1.0,
            make_way_clearance_cm: 1.0,
            make_way_degrees: vec![90.0, 60.0, 45.0, 30.0],
            back_off_cm: 10.0,
            back_off_degrees: vec![0.0, 30.0, 60.0, 90.0],
            bridge_column_cm: 15.0,
            bridge_follower_cm: 30.0,
        }
    }
}

fn bad_rows(rows: &[ResultRow]) -> bool {
    rows.windows(2).any(|w| w[0].from >= w[1].from)
}

/// Adds a problem to `out` unless `v` is a number in `lo..=hi`; `name` is
/// the field's path below `rules.belle_alliance`.
pub(crate) fn range(out: &mut Vec<(String, String)>, name: &str, v: f32, lo: f32, hi: f32) {
    if !(v.is_finite() && (lo..=hi).contains(&v)) {
        out.push((format!("rules.belle_alliance.{name}"), format!("{v} must be {lo}..={hi}")));
    }
}

/// Problems with the free-space game's numbers: `(field, why)`.
pub(crate) fn problems(
    march: &MarchLengths,
    costs: &MarchCosts,
    fire: &FireTables,
    melee: &MeleeTable,
    valour: &ValourLoss,
    victory: &FsVictory,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, v) in [
        ("infantry_line", march.infantry_line),
        ("infantry_column", march.infantry_column),
        ("infantry_square", march.infantry_square),
        ("cavalry_line", march.cavalry_line),
        ("cavalry_column", march.cavalry_column),
        ("foot_artillery", march.foot_artillery),
        ("horse_artillery", march.horse_artillery),
        ("unlimbered", march.unlimbered),
    ] {
        range(&mut out, &format!("march_cm.{name}"), v, 0.0, 500.0);
    }
    range(&mut out, "march_costs.formation_change_share", costs.formation_change_share, 0.0, 1.0);
    range(&mut out, "march_costs.straight_degrees", costs.straight_degrees, 0.0, 45.0);
    range(&mut out, "march_costs.oblique_degrees", costs.oblique_degrees, costs.straight_degrees, 90.0);
    range(&mut out, "march_costs.oblique_factor", costs.oblique_factor, 1.0, 10.0);
    range(&mut out, "march_costs.sideways_factor", costs.sideways_factor, 1.0, 10.0);
    range(&mut out, "march_costs.charge_factor", costs.charge_factor, 0.0, 5.0);
    range(&mut out, "march_costs.front_arc_degrees", costs.front_arc_degrees, 1.0, 90.0);
    range(&mut out, "fire.points_per_modifier", fire.points_per_modifier, 0.1, 1000.0);
    for (name, v) in [
        ("column_share", fire.column_share),
        ("square_share", fire.square_share),
        ("cavalry_share", fire.cavalry_share),
    ] {
        range(&mut out, &format!("fire.{name}"), v, 0.0, 1.0);
    }
    for (name, bands) in [("musketry", &fire.musketry), ("artillery", &fire.artillery)] {
        if bands.windows(2).any(|w| w[0].max_cm >= w[1].max_cm)
            || bands
                .iter()
                .any(|b| !(b.max_cm.is_finite() && b.max_cm > 0.0 && b.points.is_finite() && b.points >= 0.0))
        {
            out.push((format!("rules.belle_alliance.fire.{name}"), "bands must have rising max_cm above 0".into()));
        }
    }
    if bad_rows(&fire.results) {
        out.push(("rules.belle_alliance.fire.results".into(), "rows must rise in `from`".into()));
    }
    if bad_rows(&melee.results) || melee.results.first().is_some_and(|r| r.from < 1) {
        out.push(("rules.belle_alliance.melee.results".into(), "rows must rise in `from`, from 1 up".into()));
    }
    range(&mut out, "melee.contact_cm", melee.contact_cm, 0.0, 50.0);
    if !(3..=30).contains(&melee.square_test) {
        out.push(("rules.belle_alliance.melee.square_test".into(), format!("{} must be 3..=30", melee.square_test)));
    }
    range(&mut out, "valour_loss.share_per_point", valour.share_per_point, 0.01, 1.0);
    range(&mut out, "valour_loss.capture_cm", valour.capture_cm, 0.0, 100.0);
    range(&mut out, "victory.objective_radius_cm", victory.objective_radius_cm, 1.0, 500.0);
    range(&mut out, "victory.army_breaks_at", victory.army_breaks_at, 0.0, 1.0);
    if victory.figures_per_point == 0 {
        out.push(("rules.belle_alliance.victory.figures_per_point".into(), "must be at least 1".into()));
    }
    out
}
