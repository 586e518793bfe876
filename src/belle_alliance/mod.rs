//! Belle Alliance (free-space mode): units as rectangles of figure bases on a
//! table measured in centimetres. Pure functions over plain data, as in
//! [`crate::labataille`].

use crate::rules::BelleAllianceRules;
use crate::scenario::Formation;
use crate::terrain::Arm;

/// Width (along the front) and depth of a unit's footprint in cm, from its
/// figures, formation and the house-default base sizes (RULES.md 2.6).
///
/// House defaults: infantry lines stand two ranks deep, cavalry and
/// artillery one; columns are eight infantry figures (four horsemen, two
/// guns) wide; a square is a hollow square a fifth larger than the figures'
/// area; the flight formation (2.2.5) is as wide as it is deep.
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
                Arm::Infantry => 8.0,
                Arm::Cavalry => 4.0,
                Arm::Artillery => 2.0,
            };
            let files = n.min(files);
            (files * bw, (n / files).ceil() * bd)
        }
        Formation::Square => {
            let side = (n * bw * bd * 1.2).sqrt();
            (side, side)
        }
        Formation::Flight => {
            let side = (n * bw * bd).sqrt();
            (side, side)
        }
        Formation::Line | Formation::GeneralOrder | Formation::Skirmish => {
            let ranks = if arm == Arm::Infantry { 2.0f32.min(n) } else { 1.0 };
            ((n / ranks).ceil() * bw, ranks * bd)
        }
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
        let (w, d) = footprint(Arm::Infantry, 24, Formation::Flight, &r);
        assert!((w - d).abs() < 1e-6 && (w * d - 96.0).abs() < 1e-3, "as wide as deep, same area");
    }
}
