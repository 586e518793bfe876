//! The `rules.combat` block: movement allowances, formations, fire and melee
//! tables, stacking and leaders (docs/rules.md 1.7 and 1.9). The source texts give
//! no combat system, so these tables are our own design in the La Bataille
//! spirit; docs/rules.md explains every number. They live here, in data, so a
//! scenario can replace any of them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::terrain::Arm;
use crate::vocab::Formation;

/// One number per arm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerArm {
    pub infantry: f32,
    pub cavalry: f32,
    pub artillery: f32,
}

impl PerArm {
    pub fn get(&self, arm: Arm) -> f32 {
        match arm {
            Arm::Infantry => self.infantry,
            Arm::Cavalry => self.cavalry,
            Arm::Artillery => self.artillery,
        }
    }
}

/// One number per hex-mode formation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerFormation {
    pub line: f32,
    pub column: f32,
    pub square: f32,
    pub general_order: f32,
    pub skirmish: f32,
}

impl PerFormation {
    pub fn get(&self, f: Formation) -> f32 {
        match f {
            Formation::Line => self.line,
            Formation::Column | Formation::Flight => self.column,
            Formation::Square => self.square,
            Formation::GeneralOrder => self.general_order,
            Formation::Skirmish => self.skirmish,
        }
    }
}

/// Artillery firepower per increment out to a range (hexes).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub up_to: u32,
    pub per_increment: f32,
}

/// Column shifts on the fire table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FireShifts {
    /// Target in woods, village, town or garden.
    pub target_in_cover: i32,
    /// Artillery firing at a column or square.
    pub artillery_at_dense_target: i32,
    /// Each disordered firer drags the volley down.
    pub disordered_firers: i32,
}

impl Default for FireShifts {
    fn default() -> Self {
        Self { target_in_cover: -1, artillery_at_dense_target: 1, disordered_firers: -1 }
    }
}

/// Modifiers to the melee roll (2d6 total; + favours the attacker).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeleeModifiers {
    pub defender_in_town: i32,
    /// Woods or garden (a village counts as a town).
    pub defender_in_woods: i32,
    pub defender_disordered: i32,
    pub defender_artillery: i32,
    pub attacker_in_column: i32,
    pub cavalry_against_square: i32,
    /// Cavalry that charged this turn, against anything but a square.
    pub cavalry_charging: i32,
    pub cavalry_tired: i32,
    pub cavalry_exhausted: i32,
    /// Some attacker crosses a stream or slope hexside into the defender.
    pub across_hexside: i32,
}

impl Default for MeleeModifiers {
    fn default() -> Self {
        Self {
            defender_in_town: -2,
            defender_in_woods: -1,
            defender_disordered: 2,
            defender_artillery: 1,
            attacker_in_column: 1,
            cavalry_against_square: -4,
            cavalry_charging: 1,
            cavalry_tired: -1,
            cavalry_exhausted: -2,
            across_hexside: -1,
        }
    }
}

/// A cell of the fire table: increments lost, then maybe a morale check with
/// its own modifier. Written `-`, `M`, `M-1`, `1`, `1M`, `2M-2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FireResult {
    pub losses: u32,
    pub check: Option<i32>,
}

impl FireResult {
    pub fn parse(s: &str) -> Option<FireResult> {
        let s = s.trim();
        if s == "-" {
            return Some(FireResult::default());
        }
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        let losses = if digits == 0 { 0 } else { s[..digits].parse().ok()? };
        let rest = &s[digits..];
        let check = match rest.strip_prefix('M') {
            None if rest.is_empty() && digits > 0 => None,
            None => return None,
            Some("") => Some(0),
            Some(m) => Some(m.parse::<i32>().ok().filter(|m| (-35..=35).contains(m))?),
        };
        Some(FireResult { losses, check })
    }
}

impl fmt::Display for FireResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.losses, self.check) {
            (0, None) => write!(f, "-"),
            (n, None) => write!(f, "{n}"),
            (n, Some(m)) => {
                if n > 0 {
                    write!(f, "{n}")?;
                }
                write!(f, "M")?;
                if m != 0 {
                    write!(f, "{m:+}")?;
                }
                Ok(())
            }
        }
    }
}

/// Written in the log as the table writes it (`"1M-1"`).
impl Serialize for FireResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FireResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        FireResult::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("'{text}' is not a fire table result (-, M, 1, 1M-1, ...)"))
        })
    }
}

/// A cell of the melee table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeleeResult {
    /// Attacker repulsed: each attacker checks morale.
    AR,
    /// Attacker driven off: the lead attacker loses an increment and every
    /// attacker is disordered and retreats (cavalry routs).
    AD,
    /// Exchange: one increment each side; the defender checks morale.
    EX,
    /// Defender retreats disordered (cavalry routs).
    DR,
    /// Defender loses an increment, disordered and retreats.
    DD,
    /// Defender loses an increment and routs.
    DX,
    /// Defender surrenders.
    DS,
}

impl MeleeResult {
    pub fn parse(s: &str) -> Option<MeleeResult> {
        Some(match s.trim() {
            "AR" => MeleeResult::AR,
            "AD" => MeleeResult::AD,
            "EX" => MeleeResult::EX,
            "DR" => MeleeResult::DR,
            "DD" => MeleeResult::DD,
            "DX" => MeleeResult::DX,
            "DS" => MeleeResult::DS,
            _ => return None,
        })
    }

    /// Plain words for the odds panel and the battle log.
    pub fn words(self) -> &'static str {
        match self {
            MeleeResult::AR => "attackers repulsed",
            MeleeResult::AD => "attackers driven off",
            MeleeResult::EX => "exchange of losses",
            MeleeResult::DR => "defenders fall back",
            MeleeResult::DD => "defenders lose and fall back",
            MeleeResult::DX => "defenders rout",
            MeleeResult::DS => "defenders surrender",
        }
    }

    /// Good for the attacker.
    pub fn favours_attacker(self) -> bool {
        matches!(self, MeleeResult::DR | MeleeResult::DD | MeleeResult::DX | MeleeResult::DS)
    }

    /// The attackers are repulsed or driven off.
    pub fn favours_defender(self) -> bool {
        matches!(self, MeleeResult::AR | MeleeResult::AD)
    }
}

/// Rows of the 2d6 tables: totals 2 to 12.
pub const TABLE_ROWS: usize = 11;

/// The whole combat block. Every field has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CombatRules {
    /// Movement allowance in MP when the unit gives none.
    pub movement: PerArm,
    /// Share of the allowance a unit may use in each formation.
    pub formation_movement: PerFormation,
    /// MP a change of formation costs; limbering or unlimbering costs the same.
    pub formation_change_mp: f32,
    /// MP a turn to a new facing costs (rule 1.7); 0, the default, makes
    /// facing free.
    pub face_mp: f32,
    /// Fire range in hexes (0: does not fire).
    pub fire_range: PerArm,
    /// Infantry firepower per increment, by formation.
    pub infantry_fire: PerFormation,
    /// Artillery firepower per increment by range band, nearest first.
    pub artillery_fire: Vec<RangeBand>,
    /// Least firepower for each column of the fire table.
    pub fire_columns: Vec<f32>,
    /// One row per 2d6 total (2 first), one cell per column.
    pub fire_table: Vec<String>,
    pub fire_shifts: FireShifts,
    /// Least attacker:defender strength ratio for each melee column.
    pub melee_odds: Vec<f32>,
    /// One row per modified 2d6 total (2 first), one cell per odds column.
    pub melee_table: Vec<String>,
    pub melee_modifiers: MeleeModifiers,
    /// Morale modifier for infantry trying to form square as cavalry charges.
    pub form_square_modifier: i32,
    /// Stacking limit in increments: open terrain, and woods/built-up hexes.
    pub stacking_open: u32,
    pub stacking_close: u32,
    /// A leader lends its bonus to friends this many hexes from it.
    pub leader_radius: u32,
}

impl Default for CombatRules {
    fn default() -> Self {
        let row = |s: &str| s.to_owned();
        Self {
            movement: PerArm { infantry: 6.0, cavalry: 10.0, artillery: 6.0 },
            formation_movement: PerFormation {
                line: 0.5,
                column: 1.0,
                square: 0.25,
                general_order: 1.0,
                skirmish: 1.0,
            },
            formation_change_mp: 2.0,
            face_mp: 0.0,
            fire_range: PerArm { infantry: 2.0, cavalry: 0.0, artillery: 8.0 },
            infantry_fire: PerFormation { line: 1.0, column: 0.5, square: 0.5, general_order: 0.75, skirmish: 0.75 },
            artillery_fire: vec![
                RangeBand { up_to: 1, per_increment: 3.0 },
                RangeBand { up_to: 3, per_increment: 2.0 },
                RangeBand { up_to: 8, per_increment: 1.0 },
            ],
            fire_columns: vec![1.0, 3.0, 5.0, 8.0, 12.0, 18.0],
            fire_table: vec![
                row("-    -    -    -    M    M"),
                row("-    -    -    M    M    1M"),
                row("-    -    M    M    1M   1M"),
                row("-    -    M    1M   1M   1M"),
                row("-    M    M    1M   1M   1M-1"),
                row("-    M    1M   1M   1M-1 2M"),
                row("M    M    1M   1M-1 2M   2M"),
                row("M    1M   1M   2M   2M   2M-1"),
                row("M    1M   1M-1 2M   2M-1 2M-2"),
                row("1M   1M-1 2M   2M-1 2M-2 3M-2"),
                row("1M-1 2M   2M-1 2M-2 3M-2 3M-3"),
            ],
            fire_shifts: FireShifts::default(),
            melee_odds: vec![0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0],
            melee_table: vec![
                row("AD AD AD AR AR AR EX"),
                row("AD AD AR AR AR EX EX"),
                row("AD AR AR AR EX EX DR"),
                row("AR AR AR EX EX DR DR"),
                row("AR AR EX EX DR DR DD"),
                row("AR EX EX DR DR DD DD"),
                row("EX EX DR DR DD DD DX"),
                row("EX DR DR DD DD DX DX"),
                row("DR DR DD DD DX DX DX"),
                row("DR DD DD DX DX DX DS"),
                row("DD DD DX DX DX DS DS"),
            ],
            melee_modifiers: MeleeModifiers::default(),
            form_square_modifier: 0,
            stacking_open: 18,
            stacking_close: 10,
            leader_radius: 1,
        }
    }
}

/// The two tables read once, after validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    pub fire: Vec<Vec<FireResult>>,
    pub melee: Vec<Vec<MeleeResult>>,
}

impl CombatRules {
    /// The parsed tables; cells that do not parse read as no effect (validation
    /// has already reported them, so a validated scenario never has any).
    pub fn tables(&self) -> Tables {
        let fire = self
            .fire_table
            .iter()
            .map(|r| r.split_whitespace().map(|c| FireResult::parse(c).unwrap_or_default()).collect())
            .collect();
        let melee = self
            .melee_table
            .iter()
            .map(|r| r.split_whitespace().map(|c| MeleeResult::parse(c).unwrap_or(MeleeResult::AR)).collect())
            .collect();
        Tables { fire, melee }
    }

    /// Allowance of `arm` in MP, or the unit's own.
    pub fn allowance(&self, arm: Arm, own: Option<f32>) -> f32 {
        own.unwrap_or_else(|| self.movement.get(arm))
    }

    /// Column of the fire table for a firepower, before shifts; `None` below
    /// the first column (too weak to fire).
    pub fn fire_column(&self, firepower: f32) -> Option<usize> {
        self.fire_columns.iter().rposition(|&least| firepower >= least)
    }

    /// Column of the melee table for an attacker:defender ratio.
    pub fn melee_column(&self, ratio: f32) -> usize {
        self.melee_odds.iter().rposition(|&least| ratio >= least).unwrap_or(0)
    }

    /// Artillery firepower per increment at `range`, `None` beyond the last band.
    pub fn artillery_per_increment(&self, range: u32) -> Option<f32> {
        self.artillery_fire.iter().find(|b| range <= b.up_to).map(|b| b.per_increment)
    }

    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut add = |field: &str, msg: String| out.push((format!("rules.combat.{field}"), msg));
        for (name, v) in [
            ("movement.infantry", self.movement.infantry),
            ("movement.cavalry", self.movement.cavalry),
            ("movement.artillery", self.movement.artillery),
            ("formation_change_mp", self.formation_change_mp),
            ("face_mp", self.face_mp),
            ("fire_range.infantry", self.fire_range.infantry),
            ("fire_range.cavalry", self.fire_range.cavalry),
            ("fire_range.artillery", self.fire_range.artillery),
        ] {
            if !(v.is_finite() && (0.0..=100.0).contains(&v)) {
                add(name, format!("{v} must be 0..=100"));
            }
        }
        for (group, pf) in [("formation_movement", &self.formation_movement), ("infantry_fire", &self.infantry_fire)] {
            for (name, v) in [
                ("line", pf.line),
                ("column", pf.column),
                ("square", pf.square),
                ("general_order", pf.general_order),
                ("skirmish", pf.skirmish),
            ] {
                if !(v.is_finite() && (0.0..=10.0).contains(&v)) {
                    add(&format!("{group}.{name}"), format!("{v} must be 0..=10"));
                }
            }
        }
        if self.artillery_fire.windows(2).any(|w| w[0].up_to >= w[1].up_to)
            || self.artillery_fire.iter().any(|b| !(b.per_increment.is_finite() && b.per_increment >= 0.0))
        {
            add("artillery_fire", "bands must be nearest first with firepower of 0 or more".into());
        }
        let increasing = |v: &[f32]| v.windows(2).all(|w| w[0] < w[1]) && v.iter().all(|x| x.is_finite() && *x >= 0.0);
        if self.fire_columns.is_empty() || !increasing(&self.fire_columns) {
            add("fire_columns", "must list at least one firepower, each larger than the last".into());
        }
        if self.melee_odds.is_empty() || !increasing(&self.melee_odds) {
            add("melee_odds", "must list at least one ratio, each larger than the last".into());
        }
        let mut table = |name: &str, rows: &[String], width: usize, ok: &dyn Fn(&str) -> bool| {
            if rows.len() != TABLE_ROWS {
                add(name, format!("needs {TABLE_ROWS} rows (2d6 totals 2 to 12), found {}", rows.len()));
            }
            for (i, r) in rows.iter().enumerate() {
                let cells: Vec<&str> = r.split_whitespace().collect();
                if cells.len() != width {
                    add(&format!("{name}[{i}]"), format!("row for {} has {} cells, needs {width}", i + 2, cells.len()));
                }
                for c in cells.iter().filter(|c| !ok(c)) {
                    add(&format!("{name}[{i}]"), format!("cell {c:?} is not a result"));
                }
            }
        };
        table("fire_table", &self.fire_table, self.fire_columns.len(), &|c| FireResult::parse(c).is_some());
        table("melee_table", &self.melee_table, self.melee_odds.len(), &|c| MeleeResult::parse(c).is_some());
        if self.stacking_open == 0 || self.stacking_close == 0 || self.stacking_open > 1000 {
            out.push(("rules.combat.stacking_open".into(), "stacking limits must be 1..=1000".into()));
        }
        if self.leader_radius > 20 {
            out.push(("rules.combat.leader_radius".into(), "must be 0..=20".into()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fire_cells_read_losses_then_check() {
        assert_eq!(FireResult::parse("-"), Some(FireResult { losses: 0, check: None }));
        assert_eq!(FireResult::parse("M"), Some(FireResult { losses: 0, check: Some(0) }));
        assert_eq!(FireResult::parse("2M-2"), Some(FireResult { losses: 2, check: Some(-2) }));
        assert_eq!(FireResult::parse("1"), Some(FireResult { losses: 1, check: None }));
        assert_eq!(FireResult::parse("X"), None);
        assert_eq!(FireResult::parse("1Mx"), None);
        for s in ["-", "M", "1M-1", "3M+2", "2"] {
            assert_eq!(FireResult::parse(s).map(|r| r.to_string()).as_deref(), Some(s));
        }
    }

    #[test]
    fn the_default_tables_are_complete_and_valid() {
        let c = CombatRules::default();
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        let t = c.tables();
        assert_eq!(t.fire.len(), TABLE_ROWS);
        assert!(t.fire.iter().all(|r| r.len() == c.fire_columns.len()));
        assert!(t.melee.iter().all(|r| r.len() == c.melee_odds.len()));
    }

    #[test]
    fn columns_come_from_the_least_value_reached() {
        let c = CombatRules::default();
        assert_eq!(c.fire_column(0.5), None);
        assert_eq!(c.fire_column(6.0), Some(2));
        assert_eq!(c.fire_column(40.0), Some(5));
        assert_eq!(c.melee_column(0.3), 0);
        assert_eq!(c.melee_column(2.0), 4);
        assert_eq!(c.artillery_per_increment(3), Some(2.0));
        assert_eq!(c.artillery_per_increment(9), None);
    }

    #[test]
    fn a_short_row_or_bad_cell_is_named() {
        let mut c = CombatRules::default();
        c.melee_table[3] = "AR AR QQ".into();
        let p = c.problems();
        assert!(p.iter().any(|(f, m)| f == "rules.combat.melee_table[3]" && m.contains("3 cells")), "{p:?}");
        assert!(p.iter().any(|(_, m)| m.contains("\"QQ\"")), "{p:?}");
    }
}
