//! The Belle Alliance tables as pure functions: the carry-along test (2.3)
//! and the reorganisation table (2.4), numbers from the scenario's rules.

use crate::rules::BelleAllianceRules;
use crate::vocab::State;

/// Carry-along ratio modifier (docs/rules.md 2.6): the second unit gains when it
/// outnumbers the fleeing mass by half again (`carry_ratio_50`) or double
/// (`carry_ratio_100`), and loses as much the other way round.
pub fn carry_ratio_modifier(second: u32, mass: u32, rules: &BelleAllianceRules) -> i32 {
    let (s, m) = (second as u64, mass as u64);
    if s >= 2 * m {
        rules.carry_ratio_100
    } else if 2 * s >= 3 * m {
        rules.carry_ratio_50
    } else if m >= 2 * s {
        -rules.carry_ratio_100
    } else if 2 * m >= 3 * s {
        -rules.carry_ratio_50
    } else {
        0
    }
}

/// What a carry-along test does to the second unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryResult {
    /// Total at or below `carry_along_max`: it enters FU and flees (2.3).
    Carried,
    /// House default: a total at most `carry_u_band` above the threshold
    /// shakes it into U; it retreats after the first unit's flight.
    Shaken,
    /// Anything higher: it stands; the first unit passes through.
    Holds,
}

/// Carry-along (docs/rules.md 2.3, 2.6): 3d6 + valour + ratio modifier.
pub fn carry_along(total: i32, rules: &BelleAllianceRules) -> CarryResult {
    if total <= rules.carry_along_max {
        CarryResult::Carried
    } else if total <= rules.carry_along_max + rules.carry_u_band {
        CarryResult::Shaken
    } else {
        CarryResult::Holds
    }
}

/// Reorganisation table (docs/rules.md 2.4, table 16 as the house default of
/// 2.6): 3d6 + valour (+ staff bonus).
pub fn reorganisation(total: i32, rules: &BelleAllianceRules) -> State {
    if total <= rules.reorg_stay_fu_max {
        State::FU
    } else if total <= rules.reorg_u_max {
        State::U
    } else if total <= rules.reorg_lu_max {
        State::LU
    } else {
        State::Order
    }
}

/// How bad a free-space state is: Order 0, LU 1, U 2, FU 3.
pub fn severity(s: State) -> u8 {
    match s {
        State::LU => 1,
        State::U | State::Disordered => 2,
        State::FU | State::Routed | State::Surrendered | State::Eliminated => 3,
        State::Order | State::GoodOrder => 0,
    }
}

/// Whether an enemy has been pushed back (U or FU): it no longer stops a
/// flight (docs/rules.md 2.2.6).
pub fn pushed_back(s: State) -> bool {
    severity(s) >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_modifiers_of_rule_2_6() {
        let r = BelleAllianceRules::default();
        assert_eq!(carry_ratio_modifier(24, 24, &r), 0);
        assert_eq!(carry_ratio_modifier(36, 24, &r), 2, "half again as many");
        assert_eq!(carry_ratio_modifier(48, 24, &r), 4, "twice as many");
        assert_eq!(carry_ratio_modifier(24, 36, &r), -2);
        assert_eq!(carry_ratio_modifier(24, 48, &r), -4);
        assert_eq!(carry_ratio_modifier(35, 24, &r), 0);
    }

    #[test]
    fn carry_along_threshold_and_u_band() {
        let r = BelleAllianceRules::default();
        assert_eq!(carry_along(10, &r), CarryResult::Carried);
        assert_eq!(carry_along(11, &r), CarryResult::Shaken);
        assert_eq!(carry_along(12, &r), CarryResult::Shaken);
        assert_eq!(carry_along(13, &r), CarryResult::Holds);
    }

    #[test]
    fn reorganisation_table_16() {
        let r = BelleAllianceRules::default();
        assert_eq!(reorganisation(8, &r), State::FU);
        assert_eq!(reorganisation(9, &r), State::U);
        assert_eq!(reorganisation(12, &r), State::U);
        assert_eq!(reorganisation(13, &r), State::LU);
        assert_eq!(reorganisation(15, &r), State::LU);
        assert_eq!(reorganisation(16, &r), State::Order);
    }
}
