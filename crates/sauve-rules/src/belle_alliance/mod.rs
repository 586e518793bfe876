//! Belle Alliance (free-space mode): units as rectangles of figure bases on a
//! table measured in centimetres. Pure functions over plain data, as in
//! [`crate::labataille`]; `crate::sim` adapts them to the ECS.
//!
//! - [`geometry`]: oriented rectangles, bearings, parry2d sweeps and overlaps;
//! - [`broad`]: the broad phase that finds the units a flight may meet;
//! - [`tables`]: the rule tables as pure functions (march length, carry-along,
//!   reorganisation);
//! - [`engine`]: flights, spread of rout, U retreats and reorganisation, with
//!   the queue that resolves them at the end of a phase (docs/rules.md 2.2-2.5);
//! - [`flight_preview`]: where a unit would flee now and the friends it would
//!   carry along, with their chances, from the engine's own flight;
//! - [`march`], [`combat`] and [`play`]: marches in cm, the fire and melee
//!   tables, and the orders of a bound that use them (docs/rules.md 2.7-2.10);
//! - [`ai`]: the computer's orders, with [`route`] its ways round what its
//!   arms may not cross, and [`foresight`] the planning AI's continuations; [`victory`]: objectives, army morale and the score
//!   (2.11, 2.12).

pub mod ai;
pub mod broad;
pub mod combat;
pub mod engine;
pub mod flight_preview;
pub mod foresight;
pub mod geometry;
pub mod march;
pub mod play;
pub mod route;
pub mod summary;
pub mod tables;
#[cfg(test)]
pub(crate) mod testing;
pub mod victory;

use crate::hex::{Edge, Offset};
use crate::map::TerrainMap;
use crate::rules::{BelleAllianceRules, Rules};
use crate::scenario::{Place, Scenario, Side, Staff, UnitSpec};
use crate::terrain::{Arm, Terrain};
use crate::vocab::Formation;
use crate::vocab::State;
use geometry::OrientedRect;

/// Width (along the front) and depth of a unit's footprint in cm, from its
/// figures, formation and the house-default base sizes (docs/rules.md 2.6).
///
/// House defaults, all in the rules block: infantry lines stand
/// `line_ranks_infantry` deep (2), cavalry and artillery one; columns are
/// `column_files` figures wide (8 infantry, 4 horsemen, 2 guns); a square is
/// a hollow square `square_area_factor` (1.2) times the figures' area; the
/// flight formation (2.2.5) is as wide as it is deep.
pub fn footprint(arm: Arm, figures: u32, formation: Formation, rules: &BelleAllianceRules) -> (f32, f32) {
    let (bw, bd) = match arm {
        Arm::Infantry => rules.base_cm.infantry,
        Arm::Cavalry => rules.base_cm.cavalry,
        Arm::Artillery => rules.base_cm.gun,
    };
    let n = figures.max(1) as f32;
    match formation {
        Formation::Column => {
            let files = match arm {
                Arm::Infantry => rules.column_files.infantry,
                Arm::Cavalry => rules.column_files.cavalry,
                Arm::Artillery => rules.column_files.guns,
            }
            .max(1) as f32;
            let files = n.min(files);
            (files * bw, (n / files).ceil() * bd)
        }
        Formation::Square => {
            let side = (n * bw * bd * rules.square_area_factor).sqrt();
            (side, side)
        }
        Formation::Flight => {
            let side = (n * bw * bd).sqrt();
            (side, side)
        }
        Formation::Line | Formation::GeneralOrder | Formation::Skirmish => {
            let ranks = if arm == Arm::Infantry { (rules.line_ranks_infantry.max(1) as f32).min(n) } else { 1.0 };
            ((n / ranks).ceil() * bw, ranks * bd)
        }
    }
}

/// Plain data for one free-space unit, as the rules see it.
#[derive(Clone, Debug, PartialEq)]
pub struct FsUnit {
    pub id: String,
    pub side: usize,
    pub arm: Arm,
    pub figures: u32,
    pub valour: i32,
    pub state: State,
    pub formation: Formation,
    pub limbered: bool,
    pub horse: bool,
    /// Centre of the footprint, cm.
    pub x: f32,
    pub y: f32,
    /// Degrees clockwise from north.
    pub facing: f32,
    /// Where the unit's guns were left when its crew fled (2.2.7).
    pub guns_left: Option<(f32, f32)>,
    /// The turn its state last got worse (0: it began the battle shaken);
    /// reorganisation waits for the next bound (house default, 2.4).
    pub shaken_in: Option<u32>,
}

impl FsUnit {
    pub fn from_spec(spec: &UnitSpec, rear: Edge) -> Self {
        let (x, y) = match spec.place {
            Place::Table { x, y } => (x, y),
            Place::Hex(_) => (0.0, 0.0),
        };
        Self {
            id: spec.id.clone(),
            side: spec.side,
            arm: spec.arm,
            figures: spec.strength,
            valour: spec.valour,
            state: spec.state,
            formation: spec.formation.unwrap_or(Formation::Line),
            limbered: spec.limbered,
            horse: spec.horse,
            x,
            y,
            facing: spec.facing.unwrap_or_else(|| away_from(rear)),
            guns_left: None,
            shaken_in: (spec.state != State::Order).then_some(0),
        }
    }

    /// The arm whose bases and terrain the unit moves with: gunners who left
    /// their guns move as foot (house default, 2.2.7).
    pub fn moving_arm(&self) -> Arm {
        if self.arm == Arm::Artillery && self.guns_left.is_some() { Arm::Infantry } else { self.arm }
    }

    /// The unit's rectangle on the table.
    pub fn rect(&self, rules: &BelleAllianceRules) -> OrientedRect {
        let (w, d) = footprint(self.moving_arm(), self.figures, self.formation, rules);
        OrientedRect::new(self.x, self.y, w, d, self.facing)
    }

    /// Flight march per bound (docs/rules.md 2.6). House default: artillery flees
    /// at the foot-artillery rate unless it is limbered horse artillery.
    pub fn flight_march_cm(&self, rules: &BelleAllianceRules) -> f32 {
        let m = &rules.flight_march_cm;
        match self.arm {
            Arm::Infantry => m.infantry,
            Arm::Cavalry => m.cavalry,
            Arm::Artillery if self.horse && self.limbered && self.guns_left.is_none() => m.horse_artillery,
            Arm::Artillery => m.foot_artillery,
        }
    }
}

/// The bearing a side's units face by default: away from their own rear.
pub fn away_from(rear: Edge) -> f32 {
    (rear_bearing(rear) + 180.0) % 360.0
}

/// The bearing straight towards a side's rear edge.
pub fn rear_bearing(rear: Edge) -> f32 {
    match rear {
        Edge::North => 0.0,
        Edge::East => 90.0,
        Edge::South => 180.0,
        Edge::West => 270.0,
    }
}

/// All units of a free-space battle, in scenario order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Table {
    pub units: Vec<FsUnit>,
}

impl Table {
    pub fn from_scenario(s: &Scenario) -> Self {
        Self { units: s.units.iter().map(|u| FsUnit::from_spec(u, s.sides[u.side].rear)).collect() }
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }
}

/// The fixed context of a free-space battle.
pub struct FsCtx<'a> {
    pub map: &'a TerrainMap,
    pub cell_cm: f32,
    pub rules: &'a Rules,
    pub sides: &'a [Side],
    pub staff: &'a [Staff],
    /// The units as the scenario set them out (starting figures and valour).
    pub units: &'a [UnitSpec],
    pub objectives: &'a [crate::scenario::Objective],
}

impl<'a> FsCtx<'a> {
    pub fn new(s: &'a Scenario) -> Self {
        Self {
            map: &s.map,
            cell_cm: s.cell_cm,
            rules: &s.rules,
            sides: &s.sides,
            staff: &s.staff,
            units: &s.units,
            objectives: &s.objectives,
        }
    }

    pub fn ba(&self) -> &BelleAllianceRules {
        &self.rules.belle_alliance
    }

    /// Table size in cm.
    pub fn table_cm(&self) -> (f32, f32) {
        (self.map.width as f32 * self.cell_cm, self.map.height as f32 * self.cell_cm)
    }

    /// Terrain under a point; `None` off the table.
    /// Whether any part of `r` stands on ground `on` picks, its points
    /// sampled every half cell as a march samples a footprint (2.7).
    pub fn touches(&self, r: &OrientedRect, on: impl Fn(Terrain) -> bool) -> bool {
        let mut pts = Vec::new();
        r.sample_points(self.cell_cm / 2.0, &mut pts);
        pts.iter().any(|&(x, y)| self.terrain_at(x, y).is_some_and(&on))
    }

    pub fn terrain_at(&self, x: f32, y: f32) -> Option<Terrain> {
        if x < 0.0 || y < 0.0 {
            return None;
        }
        self.map.terrain(Offset::new((x / self.cell_cm) as i32, (y / self.cell_cm) as i32))
    }

    /// Whether `arm` may stand on `t` at all (the terrain chart's `None`).
    pub fn passable(&self, t: Terrain, arm: Arm) -> bool {
        self.rules.terrain_cost(t, arm).is_some()
    }

    pub fn rear_bearing(&self, side: usize) -> f32 {
        rear_bearing(self.sides.get(side).map_or(Edge::South, |s| s.rear))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_24_figure_battalion_in_line_is_24_cm_by_4() {
        let r = BelleAllianceRules::default();
        assert_eq!(footprint(Arm::Infantry, 24, Formation::Line, &r), (24.0, 4.0));
        assert_eq!(footprint(Arm::Infantry, 24, Formation::Column, &r), (16.0, 6.0));
        assert_eq!(footprint(Arm::Cavalry, 8, Formation::Line, &r), (20.0, 5.0));
        let three_deep = BelleAllianceRules { line_ranks_infantry: 3, ..r.clone() };
        assert_eq!(footprint(Arm::Infantry, 24, Formation::Line, &three_deep), (16.0, 6.0), "ranks come from data");
        let (w, d) = footprint(Arm::Infantry, 24, Formation::Flight, &r);
        assert!((w - d).abs() < 1e-6 && (w * d - 96.0).abs() < 1e-3, "as wide as deep, same area");
    }
}
