//! The scenario's `rules` block: every number the rules use, with the house
//! defaults of docs/rules.md as the shipped defaults. docs/rules.md explains each.

pub mod ai;
pub mod belle_play;
pub mod combat;
pub mod hard;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::hex::Edge;
use crate::terrain::{Arm, HexsideKind, Terrain};

/// Movement cost of one terrain or hexside for each arm, in movement points.
/// `None` means prohibited for that arm. All three arms must be written: a
/// left-out arm reads as [`LEFT_OUT`] and validation names it, so that
/// forgetting an arm never silently prohibits it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmCosts {
    #[serde(default = "left_out")]
    pub infantry: Option<f32>,
    #[serde(default = "left_out")]
    pub cavalry: Option<f32>,
    #[serde(default = "left_out")]
    pub artillery: Option<f32>,
}

/// The value a left-out arm reads as: a NaN with its own payload. A file can
/// write `NaN` too, which parses as the standard NaN (`f32::NAN`, another bit
/// pattern), so comparing bits tells "not written" (say it is missing) from
/// "written as NaN" (say it must be a finite number). A NaN rather than a
/// separate flag keeps `ArmCosts` the plain `Option<f32>` triple every rule
/// reads; copies keep a NaN's bits, and no rule runs on a file that still
/// holds one, since validation refuses it.
pub const LEFT_OUT: f32 = f32::from_bits(0x7fc0_1eaf);

fn left_out() -> Option<f32> {
    Some(LEFT_OUT)
}

/// Whether a cost is the [`LEFT_OUT`] marker rather than a number the file
/// gave (an explicit `NaN` included).
fn is_left_out(v: f32) -> bool {
    v.to_bits() == LEFT_OUT.to_bits()
}

impl ArmCosts {
    pub const fn all(inf: f32, cav: f32, art: f32) -> Self {
        Self { infantry: Some(inf), cavalry: Some(cav), artillery: Some(art) }
    }

    pub fn get(&self, arm: Arm) -> Option<f32> {
        match arm {
            Arm::Infantry => self.infantry,
            Arm::Cavalry => self.cavalry,
            Arm::Artillery => self.artillery,
        }
    }
}

/// docs/rules.md 1.8: the typical La Bataille terrain chart.
pub fn default_terrain_costs(t: Terrain) -> ArmCosts {
    match t {
        Terrain::Clear | Terrain::Bridge => ArmCosts::all(1.0, 1.0, 1.0),
        Terrain::Road => ArmCosts::all(0.5, 0.5, 0.5),
        Terrain::Town | Terrain::Village => ArmCosts::all(3.0, 3.0, 3.0),
        Terrain::Woods => ArmCosts { infantry: Some(3.0), cavalry: Some(4.0), artillery: None },
        Terrain::Garden => ArmCosts::all(2.0, 2.0, 4.0),
        Terrain::Marsh => ArmCosts { infantry: Some(4.0), cavalry: Some(5.0), artillery: None },
        Terrain::River => ArmCosts { infantry: None, cavalry: None, artillery: None },
    }
}

/// docs/rules.md 1.8: extra cost of crossing a hexside feature.
pub fn default_hexside_costs(k: HexsideKind) -> ArmCosts {
    match k {
        HexsideKind::Slope => ArmCosts::all(2.0, 3.0, 4.0),
        HexsideKind::Stream => ArmCosts { infantry: Some(3.0), cavalry: Some(5.0), artillery: None },
    }
}

/// How a contagion check falls on a stack (docs/rules.md 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum StackContagion {
    /// House default: the first good-order unit of the stack checks; if it
    /// fails, every other good-order unit in the stack checks too.
    #[default]
    TopThenAll,
    /// Every good-order unit in the hex checks on its own.
    EachUnit,
}

/// Where the woods/built-up preference of a rout move ranks (docs/rules.md 1.3,
/// preference 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum RoutRefuge {
    /// House default: the router seeks a woods or built-up hex as its
    /// destination, so such an end beats every end in the open, however
    /// much cheaper the ground to it; the route is chosen second.
    #[default]
    Destination,
    /// The refuge only breaks ties between routes of equal terrain cost and
    /// equal friends passed (before the zones of influence).
    TieBreak,
}

/// The longest rout move a scenario may set (`rules.rout_hexes`); the rout
/// planner packs its window and tallies for moves up to this length.
pub const MAX_ROUT_HEXES: u32 = 50;

/// The most turns a battle may last: a scenario's and a save's `turns`, and
/// so the latest turn that command may begin on.
pub const MAX_TURNS: u32 = 1000;

/// The most movement points anything may cost or be worth: a terrain or
/// hexside cost, a unit's own allowance.
pub const MAX_MP: f32 = 100.0;

/// The whole rules block. Every field has a default; a scenario overrides only
/// what it names. Terrain and hexside entries replace the default for that
/// terrain only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Movement costs per terrain (docs/rules.md 1.8), overriding the defaults.
    pub terrain: BTreeMap<Terrain, ArmCosts>,
    /// Extra costs per hexside feature (docs/rules.md 1.8), overriding the defaults.
    pub hexsides: BTreeMap<HexsideKind, ArmCosts>,
    /// Length of a rout move in hexes (docs/rules.md 1.3).
    pub rout_hexes: u32,
    /// Where the woods/built-up end ranks among the rout preferences
    /// (docs/rules.md 1.3).
    pub rout_refuge: RoutRefuge,
    /// A natural 11 always fails and a natural 66 always passes a morale
    /// check, whatever the modifiers (docs/rules.md 1.1, house default on).
    pub natural_extremes: bool,
    /// Movement points of a disorder retreat (docs/rules.md 1.3).
    pub retreat_mp: f32,
    /// Morale modifier while disordered (docs/rules.md 1.2).
    pub disordered_modifier: i32,
    /// Morale modifier while routed (docs/rules.md 1.2).
    pub routed_modifier: i32,
    /// A routed unit this far (hexes) from every enemy is out of danger
    /// (docs/rules.md 1.5), and its refuge must be at least this far too.
    pub safe_distance: u32,
    /// Rout priority 2 (house default): the router must end no closer to any
    /// enemy within this many hexes of its start.
    pub rout_enemy_radius: u32,
    /// Hexes a far router moves towards its refuge in one segment.
    pub far_router_hexes: u32,
    /// How a contagion check falls on a stack.
    pub contagion_stack: StackContagion,
    /// Map edges across which a router leaves the map without being
    /// eliminated (docs/rules.md 1.3, off-map recovery).
    pub off_map_recovery: Vec<Edge>,
    /// Victory points a side earns for each increment the enemy loses.
    pub points_per_increment: u32,
    /// The first turn whose command segment checks corps morale (docs/rules.md
    /// 1.6); earlier turns keep the opening position the author set.
    pub first_command_turn: u32,
    /// Movement allowances, formations, fire and melee tables, stacking.
    pub combat: combat::CombatRules,
    /// Free-space (Belle Alliance) numbers.
    pub belle_alliance: BelleAllianceRules,
    /// The hex-mode AI's thresholds and distances (docs/rules.md, The AI).
    pub ai: ai::AiRules,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            terrain: BTreeMap::new(),
            hexsides: BTreeMap::new(),
            rout_hexes: 10,
            rout_refuge: RoutRefuge::Destination,
            natural_extremes: true,
            retreat_mp: 3.0,
            disordered_modifier: -3,
            routed_modifier: -6,
            safe_distance: 15,
            rout_enemy_radius: 15,
            far_router_hexes: 10,
            contagion_stack: StackContagion::TopThenAll,
            off_map_recovery: Vec::new(),
            points_per_increment: 1,
            first_command_turn: 2,
            combat: combat::CombatRules::default(),
            belle_alliance: BelleAllianceRules::default(),
            ai: ai::AiRules::default(),
        }
    }
}

impl Rules {
    /// Cost for `arm` to enter `terrain`, with the scenario's overrides.
    pub fn terrain_cost(&self, terrain: Terrain, arm: Arm) -> Option<f32> {
        self.terrain.get(&terrain).copied().unwrap_or_else(|| default_terrain_costs(terrain)).get(arm)
    }

    /// Extra cost for `arm` to cross a hexside feature.
    pub fn hexside_cost(&self, kind: HexsideKind, arm: Arm) -> Option<f32> {
        self.hexsides.get(&kind).copied().unwrap_or_else(|| default_hexside_costs(kind)).get(arm)
    }

    /// Problems with the numbers themselves, as (field, message).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut cost_ok = |field: String, c: &ArmCosts| {
            for arm in Arm::ALL {
                match c.get(arm) {
                    Some(v) if is_left_out(v) => {
                        out.push((field.clone(), format!("{arm:?} cost is missing (write None to prohibit)")))
                    }
                    Some(v) if !v.is_finite() => out.push((
                        field.clone(),
                        format!("{arm:?} cost {v} must be a finite number of movement points (None prohibits)"),
                    )),
                    Some(v) if !(v > 0.0 && v <= MAX_MP) => out.push((
                        field.clone(),
                        format!("{arm:?} cost {v} must be above 0 and at most {MAX_MP} (None prohibits)"),
                    )),
                    _ => {}
                }
            }
        };
        for (t, c) in &self.terrain {
            cost_ok(format!("rules.terrain.{t:?}"), c);
        }
        for (k, c) in &self.hexsides {
            cost_ok(format!("rules.hexsides.{k:?}"), c);
        }
        if !(1..=MAX_ROUT_HEXES).contains(&self.rout_hexes) {
            out.push(("rules.rout_hexes".into(), format!("{} must be 1..={MAX_ROUT_HEXES}", self.rout_hexes)));
        }
        if !(self.retreat_mp.is_finite() && self.retreat_mp > 0.0 && self.retreat_mp <= 50.0) {
            out.push(("rules.retreat_mp".into(), format!("{} must be above 0 and at most 50", self.retreat_mp)));
        }
        for (name, v) in
            [("rules.disordered_modifier", self.disordered_modifier), ("rules.routed_modifier", self.routed_modifier)]
        {
            if !(-35..=35).contains(&v) {
                out.push((name.into(), format!("{v} must be -35..=35")));
            }
        }
        if self.safe_distance > 1000 || self.rout_enemy_radius > 1000 || self.far_router_hexes > 1000 {
            out.push(("rules".into(), "distances must be at most 1000 hexes".into()));
        }
        if self.points_per_increment > 100 {
            out.push(("rules.points_per_increment".into(), format!("{} must be 0..=100", self.points_per_increment)));
        }
        if !(1..=MAX_TURNS).contains(&self.first_command_turn) {
            out.push((
                "rules.first_command_turn".into(),
                format!("{} must be 1..={MAX_TURNS}", self.first_command_turn),
            ));
        }
        out.extend(self.combat.problems());
        out.extend(self.belle_alliance.problems());
        out.extend(self.ai.problems());
        out
    }
}

/// Flight march per bound, by arm (docs/rules.md 2.6).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlightMarch {
    pub infantry: f32,
    pub cavalry: f32,
    pub foot_artillery: f32,
    pub horse_artillery: f32,
}

impl Default for FlightMarch {
    fn default() -> Self {
        Self { infantry: 20.0, cavalry: 40.0, foot_artillery: 20.0, horse_artillery: 40.0 }
    }
}

/// Width x depth of one figure's base, in centimetres (docs/rules.md 2.6).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BaseSizes {
    pub infantry: (f32, f32),
    pub cavalry: (f32, f32),
    pub gun: (f32, f32),
}

impl Default for BaseSizes {
    fn default() -> Self {
        Self { infantry: (2.0, 2.0), cavalry: (2.5, 5.0), gun: (4.0, 4.0) }
    }
}

/// Figures abreast in a column, by arm (house default).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ColumnFiles {
    pub infantry: u32,
    pub cavalry: u32,
    pub guns: u32,
}

impl Default for ColumnFiles {
    fn default() -> Self {
        Self { infantry: 8, cavalry: 4, guns: 2 }
    }
}

/// The Belle Alliance house defaults of docs/rules.md 2.6.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BelleAllianceRules {
    pub flight_march_cm: FlightMarch,
    /// Half-angle of the flight cone around the line from the cause (2.2).
    pub flight_cone_degrees: f32,
    /// March-length factor while in woods, town, marsh or crossing a stream.
    pub terrain_reduction: f32,
    /// Carry-along (2.3): 3d6 + valour + ratio modifier at or below this is carried.
    pub carry_along_max: i32,
    pub carry_ratio_50: i32,
    pub carry_ratio_100: i32,
    /// Reorganisation (2.4): 3d6 + valour (+ staff) totals.
    pub reorg_stay_fu_max: i32,
    pub reorg_u_max: i32,
    pub reorg_lu_max: i32,
    pub reorg_staff_bonus: i32,
    /// Figures lost on entering FU.
    pub figure_loss_on_fu: u32,
    pub base_cm: BaseSizes,
    /// Footprints (house defaults): ranks of an infantry line (cavalry and
    /// guns stand one deep), files of a column by arm, and how much larger
    /// than its figures' area a hollow square stands.
    pub line_ranks_infantry: u32,
    pub column_files: ColumnFiles,
    pub square_area_factor: f32,
    /// Carry-along (2.3), house default: totals this far above
    /// `carry_along_max` drop the second unit into U instead of FU.
    pub carry_u_band: i32,
    /// House default: a unit dropping into U retreats this far straight away
    /// from the cause, keeping formation and facing; if it cannot, it enters
    /// FU with a free direction (2.2.4).
    pub u_retreat_cm: f32,
    /// Terrain in which the march length is reduced (2.2.3, 2.6): any part of
    /// the unit in a cell of these kinds moves at `terrain_reduction`.
    pub reducing_terrain: Vec<Terrain>,
    /// Flight directions are tried every this many degrees across the cone.
    pub direction_step_degrees: f32,
    /// A staff figure touches a unit whose rectangle is at most this far from
    /// the figure's position (2.4).
    pub staff_contact_cm: f32,
    /// House default: LU and U units also roll on the reorganisation table
    /// each announcement phase, keeping only a result better than their state.
    pub reorg_lu_and_u: bool,
    /// The free-space game beyond morale (docs/rules.md 2.7-2.12).
    pub march_cm: belle_play::MarchLengths,
    pub march_costs: belle_play::MarchCosts,
    pub fire: belle_play::FireTables,
    pub melee: belle_play::MeleeTable,
    pub valour_loss: belle_play::ValourLoss,
    pub victory: belle_play::FsVictory,
    pub ai: belle_play::FsAiRules,
}

impl Default for BelleAllianceRules {
    fn default() -> Self {
        Self {
            flight_march_cm: FlightMarch::default(),
            flight_cone_degrees: 45.0,
            terrain_reduction: 0.5,
            carry_along_max: 10,
            carry_ratio_50: 2,
            carry_ratio_100: 4,
            reorg_stay_fu_max: 8,
            reorg_u_max: 12,
            reorg_lu_max: 15,
            reorg_staff_bonus: 2,
            figure_loss_on_fu: 0,
            base_cm: BaseSizes::default(),
            line_ranks_infantry: 2,
            column_files: ColumnFiles::default(),
            square_area_factor: 1.2,
            carry_u_band: 2,
            u_retreat_cm: 10.0,
            reducing_terrain: vec![Terrain::Woods, Terrain::Town, Terrain::Village, Terrain::Marsh, Terrain::Bridge],
            direction_step_degrees: 5.0,
            staff_contact_cm: 1.0,
            reorg_lu_and_u: true,
            march_cm: Default::default(),
            march_costs: Default::default(),
            fire: Default::default(),
            melee: Default::default(),
            valour_loss: Default::default(),
            victory: Default::default(),
            ai: Default::default(),
        }
    }
}

impl BelleAllianceRules {
    fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let f = &self.flight_march_cm;
        for (name, v) in [
            ("infantry", f.infantry),
            ("cavalry", f.cavalry),
            ("foot_artillery", f.foot_artillery),
            ("horse_artillery", f.horse_artillery),
        ] {
            if !(v.is_finite() && (0.0..=500.0).contains(&v)) {
                out.push((format!("rules.belle_alliance.flight_march_cm.{name}"), format!("{v} must be 0..=500")));
            }
        }
        if !(self.flight_cone_degrees.is_finite() && (0.0..=180.0).contains(&self.flight_cone_degrees)) {
            out.push(("rules.belle_alliance.flight_cone_degrees".into(), "must be 0..=180".into()));
        }
        if !(self.terrain_reduction.is_finite() && (0.0..=1.0).contains(&self.terrain_reduction)) {
            out.push(("rules.belle_alliance.terrain_reduction".into(), "must be 0..=1".into()));
        }
        if !(self.reorg_stay_fu_max <= self.reorg_u_max && self.reorg_u_max <= self.reorg_lu_max) {
            out.push(("rules.belle_alliance".into(), "reorganisation thresholds must not decrease".into()));
        }
        if !(0..=18).contains(&self.carry_u_band) {
            out.push(("rules.belle_alliance.carry_u_band".into(), "must be 0..=18".into()));
        }
        for (name, v, max) in [
            ("u_retreat_cm", self.u_retreat_cm, 500.0),
            ("staff_contact_cm", self.staff_contact_cm, 100.0),
            ("direction_step_degrees", self.direction_step_degrees, 90.0),
        ] {
            if !(v.is_finite() && (0.0..=max).contains(&v)) {
                out.push((format!("rules.belle_alliance.{name}"), format!("{v} must be 0..={max}")));
            }
        }
        if self.direction_step_degrees < 0.5 {
            out.push(("rules.belle_alliance.direction_step_degrees".into(), "must be at least 0.5".into()));
        }
        let b = &self.base_cm;
        for (name, (w, d)) in [("infantry", b.infantry), ("cavalry", b.cavalry), ("gun", b.gun)] {
            if !(w.is_finite() && d.is_finite() && w > 0.0 && d > 0.0 && w <= 100.0 && d <= 100.0) {
                out.push((
                    format!("rules.belle_alliance.base_cm.{name}"),
                    "sizes must be above 0 and at most 100".into(),
                ));
            }
        }
        let c = &self.column_files;
        for (name, v) in [
            ("line_ranks_infantry", self.line_ranks_infantry),
            ("column_files.infantry", c.infantry),
            ("column_files.cavalry", c.cavalry),
            ("column_files.guns", c.guns),
        ] {
            if !(1..=100).contains(&v) {
                out.push((format!("rules.belle_alliance.{name}"), format!("{v} must be 1..=100")));
            }
        }
        if !(self.square_area_factor.is_finite() && (1.0..=4.0).contains(&self.square_area_factor)) {
            out.push(("rules.belle_alliance.square_area_factor".into(), "must be 1..=4".into()));
        }
        if !(1..=10).contains(&self.ai.route_legs) {
            out.push(("rules.belle_alliance.ai.route_legs".into(), format!("{} must be 1..=10", self.ai.route_legs)));
        }
        let ai = &self.ai;
        for (field, v, lo, hi) in [
            ("bold_from", ai.bold_from, 0.0, 1.0),
            ("storm_within_cm", ai.storm_within_cm, 0.0, 1000.0),
            ("coming_cm", ai.coming_cm, 0.0, 1000.0),
            ("askew_degrees", ai.askew_degrees, 0.0, 90.0),
            ("cautious_column_beyond_cm", ai.cautious_column_beyond_cm, 0.0, 1000.0),
            ("volley_guns_factor", ai.volley_guns_factor, 0.0, 100.0),
            ("make_way_reach_cells", ai.make_way_reach_cells, 0.0, 10.0),
            ("make_way_clearance_cm", ai.make_way_clearance_cm, 0.0, 50.0),
            ("back_off_cm", ai.back_off_cm, 0.0, 50.0),
            ("bridge_column_cm", ai.bridge_column_cm, 0.0, 100.0),
            ("bridge_follower_cm", ai.bridge_follower_cm, 0.0, 1000.0),
            ("melee_cascade_max", ai.melee_cascade_max, 0.0, 100.0),
            ("melee_disordered_edge", ai.melee_disordered_edge, -1.0, 1.0),
            ("garrison_cascade_factor", ai.garrison_cascade_factor, 0.0, 100.0),
        ] {
            belle_play::range(&mut out, &format!("ai.{field}"), v, lo, hi);
        }
        // Each angle off the held unit's front: above nothing (a march
        // along the front clears nothing), at most square to it; a few.
        if ai.make_way_degrees.len() > 8
            || ai.make_way_degrees.iter().any(|d| !(d.is_finite() && *d > 0.0 && *d <= 90.0))
        {
            out.push((
                "rules.belle_alliance.ai.make_way_degrees".into(),
                "at most 8 angles, each above 0 and at most 90".into(),
            ));
        }
        // Each angle off straight back: none past square to it (a step
        // forward is no backing off); a few.
        if ai.back_off_degrees.len() > 8
            || ai.back_off_degrees.iter().any(|d| !(d.is_finite() && (0.0..=90.0).contains(d)))
        {
            out.push(("rules.belle_alliance.ai.back_off_degrees".into(), "at most 8 angles, each 0 to 90".into()));
        }
        out.extend(belle_play::problems(
            &self.march_cm,
            &self.march_costs,
            &self.fire,
            &self.melee,
            &self.valour_loss,
            &self.victory,
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `problems` names `rules.belle_alliance.ai.FIELD` for each
    /// value, as `bad` says it should.
    fn refuses_only_the_bad(field: &str, values: &[(&str, bool)]) {
        for &(v, bad) in values {
            let r: Rules = crate::scenario::ron_options()
                .from_str(&format!("(belle_alliance: (ai: ({field}: {v})))"))
                .expect("parses");
            let named = r.problems().iter().any(|p| p.0 == format!("rules.belle_alliance.ai.{field}"));
            assert_eq!(named, bad, "{field} {v}");
        }
    }

    #[test]
    fn a_route_of_no_legs_or_too_many_is_refused() {
        refuses_only_the_bad("route_legs", &[("0", true), ("1", false), ("3", false), ("10", false), ("11", true)]);
    }

    #[test]
    fn a_bold_temper_outside_the_aggression_scale_is_refused() {
        refuses_only_the_bad(
            "bold_from",
            &[("-0.1", true), ("0.0", false), ("0.5", false), ("1.0", false), ("1.1", true)],
        );
    }

    #[test]
    fn a_storm_reach_below_nothing_or_past_the_table_is_refused() {
        refuses_only_the_bad(
            "storm_within_cm",
            &[("-1.0", true), ("0.0", false), ("80.0", false), ("1000.0", false), ("1001.0", true)],
        );
    }

    #[test]
    fn a_distance_for_the_enemy_to_come_below_nothing_or_past_the_table_is_refused() {
        refuses_only_the_bad(
            "coming_cm",
            &[("-1.0", true), ("0.0", false), ("15.0", false), ("1000.0", false), ("1001.0", true)],
        );
    }

    #[test]
    fn a_bridge_askew_past_a_right_angle_or_below_nothing_is_refused() {
        refuses_only_the_bad(
            "askew_degrees",
            &[("-1.0", true), ("0.0", false), ("10.0", false), ("90.0", false), ("91.0", true)],
        );
    }

    #[test]
    fn a_cautious_deployment_distance_below_nothing_or_past_the_table_is_refused() {
        refuses_only_the_bad(
            "cautious_column_beyond_cm",
            &[("-1.0", true), ("0.0", false), ("80.0", false), ("1000.0", false), ("1001.0", true)],
        );
    }

    #[test]
    fn a_weight_on_volleys_at_guns_below_nothing_or_past_a_hundred_is_refused() {
        refuses_only_the_bad(
            "volley_guns_factor",
            &[("-0.5", true), ("0.0", false), ("4.0", false), ("100.0", false), ("100.5", true)],
        );
    }

    #[test]
    fn a_way_made_beyond_ten_cells_or_fifty_cm_or_at_a_bad_angle_is_refused() {
        refuses_only_the_bad(
            "make_way_reach_cells",
            &[("-0.5", true), ("0.0", false), ("1.0", false), ("10.0", false), ("10.5", true)],
        );
        refuses_only_the_bad(
            "make_way_clearance_cm",
            &[("-1.0", true), ("0.0", false), ("1.0", false), ("50.0", false), ("51.0", true)],
        );
        refuses_only_the_bad(
            "make_way_degrees",
            &[
                ("[]", false),
                ("[90.0, 60.0, 45.0, 30.0]", false),
                ("[15.0]", false),
                ("[0.0]", true),
                ("[90.0, 91.0]", true),
                ("[-30.0]", true),
                ("[90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 20.0, 10.0]", true),
            ],
        );
    }

    #[test]
    fn a_melee_cascade_limit_below_nothing_or_past_a_hundred_is_refused() {
        refuses_only_the_bad(
            "melee_cascade_max",
            &[("-0.1", true), ("0.0", false), ("0.25", false), ("100.0", false), ("100.5", true)],
        );
    }

    #[test]
    fn a_disordered_target_edge_beyond_a_whole_chance_either_way_is_refused() {
        refuses_only_the_bad(
            "melee_disordered_edge",
            &[("-1.5", true), ("-1.0", false), ("0.0", false), ("1.0", false), ("1.5", true)],
        );
    }

    #[test]
    fn a_garrison_cascade_factor_below_nothing_or_past_a_hundred_is_refused() {
        refuses_only_the_bad(
            "garrison_cascade_factor",
            &[("-1.0", true), ("0.0", false), ("2.0", false), ("100.0", false), ("101.0", true)],
        );
    }

    #[test]
    fn a_bridge_column_reach_below_nothing_or_past_its_bound_is_refused() {
        refuses_only_the_bad(
            "bridge_column_cm",
            &[("-1.0", true), ("0.0", false), ("15.0", false), ("100.0", false), ("100.5", true)],
        );
        refuses_only_the_bad(
            "bridge_follower_cm",
            &[("-1.0", true), ("0.0", false), ("30.0", false), ("1000.0", false), ("1000.5", true)],
        );
    }

    #[test]
    fn a_back_off_below_nothing_or_past_fifty_cm_is_refused() {
        refuses_only_the_bad(
            "back_off_cm",
            &[("-1.0", true), ("0.0", false), ("10.0", false), ("50.0", false), ("50.5", true)],
        );
        refuses_only_the_bad(
            "back_off_degrees",
            &[
                ("[]", false),
                ("[0.0, 30.0, 60.0, 90.0]", false),
                ("[90.0]", false),
                ("[-10.0]", true),
                ("[0.0, 91.0]", true),
                ("[0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]", true),
            ],
        );
    }

    #[test]
    fn default_chart_matches_rules_1_8() {
        let r = Rules::default();
        assert_eq!(r.terrain_cost(Terrain::Woods, Arm::Cavalry), Some(4.0));
        assert_eq!(r.terrain_cost(Terrain::Woods, Arm::Artillery), None);
        assert_eq!(r.terrain_cost(Terrain::Marsh, Arm::Infantry), Some(4.0));
        assert_eq!(r.terrain_cost(Terrain::River, Arm::Infantry), None);
        assert_eq!(r.terrain_cost(Terrain::Road, Arm::Artillery), Some(0.5));
        assert_eq!(r.hexside_cost(HexsideKind::Stream, Arm::Cavalry), Some(5.0));
        assert_eq!(r.hexside_cost(HexsideKind::Stream, Arm::Artillery), None);
        assert_eq!(r.hexside_cost(HexsideKind::Slope, Arm::Artillery), Some(4.0));
    }

    #[test]
    fn a_cost_row_must_name_every_arm() {
        let r: Rules = crate::scenario::ron_options()
            .from_str("(terrain: { Woods: (infantry: 2.0, cavalry: 3.0) })")
            .expect("parses");
        let p = r.problems();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].0 == "rules.terrain.Woods" && p[0].1.contains("Artillery cost is missing"), "{p:?}");
        let r: Rules = crate::scenario::ron_options()
            .from_str("(terrain: { Woods: (infantry: 2.0, cavalry: 3.0, artillery: None) })")
            .expect("parses");
        assert!(r.problems().is_empty());
    }

    #[test]
    fn a_cost_written_as_nan_or_infinity_must_be_finite_not_missing() {
        let r: Rules = crate::scenario::ron_options()
            .from_str("(terrain: { Woods: (infantry: NaN, cavalry: inf, artillery: -inf) }, hexsides: { Slope: (infantry: NaN, cavalry: 1.0) })")
            .expect("parses");
        let p = r.problems();
        let says = |field: &str, arm: &str, what: &str| {
            p.iter().any(|(f, m)| f == field && m.starts_with(arm) && m.contains(what))
        };
        for arm in ["Infantry", "Cavalry", "Artillery"] {
            assert!(says("rules.terrain.Woods", arm, "must be a finite number"), "{arm}: {p:?}");
        }
        assert!(says("rules.hexsides.Slope", "Infantry", "must be a finite number"), "{p:?}");
        // The arm left out of the same row is still missing, not "not finite".
        assert!(says("rules.hexsides.Slope", "Artillery", "cost is missing"), "{p:?}");
        assert!(!p.iter().any(|(_, m)| m.contains("Infantry cost is missing")), "{p:?}");
        assert_eq!(p.len(), 5, "{p:?}");
        assert!(f32::NAN.to_bits() != LEFT_OUT.to_bits() && LEFT_OUT.is_nan());
    }

    #[test]
    fn an_override_replaces_only_its_terrain() {
        let mut r = Rules::default();
        r.terrain.insert(Terrain::Woods, ArmCosts::all(2.0, 2.0, 6.0));
        assert_eq!(r.terrain_cost(Terrain::Woods, Arm::Artillery), Some(6.0));
        assert_eq!(r.terrain_cost(Terrain::Garden, Arm::Artillery), Some(4.0));
    }
}
