//! Names for a why's sentences: the scenario's, when the command line is
//! given it (`--scenario`), or else the log's own ids. A log holds no
//! names, only ids, and the mode it was played in shows only in what it
//! wrote (a free-space state), which is all the ids need to word a check.

use crate::scenario::{Mode, Scenario};
use crate::sentences::Names;

/// The scenario's display names of units, sides, corps and leaders; an id
/// it does not know is said as it is.
pub struct ScenarioNames<'a>(pub &'a Scenario);

impl Names for ScenarioNames<'_> {
    fn name(&self, id: &str) -> String {
        self.0.unit_index(id).and_then(|i| self.0.units.get(i)).map_or_else(|| id.to_owned(), |u| u.name.clone())
    }
    fn side(&self, id: &str) -> String {
        self.0.sides.iter().find(|s| s.id == id).map_or_else(|| id.to_owned(), |s| s.name.clone())
    }
    fn d66(&self) -> bool {
        self.0.mode == Mode::Hex
    }
    fn natural_extremes(&self) -> bool {
        self.0.rules.natural_extremes
    }
    fn corps(&self, id: &str) -> String {
        self.0.corps.iter().find(|c| c.id == id).map_or_else(|| id.to_owned(), |c| c.name.clone())
    }
    fn leader(&self, id: &str) -> String {
        self.0.leaders.iter().find(|l| l.id == id).map_or_else(|| id.to_owned(), |l| l.name.clone())
    }
}

/// Ids for names, with checks worded for the mode the log shows
/// (`free_space`: 3d6 totals; otherwise d66 rolls, with the house
/// default's natural 11 and 66).
pub struct Ids {
    pub free_space: bool,
}

impl Names for Ids {
    fn name(&self, id: &str) -> String {
        id.to_owned()
    }
    fn side(&self, id: &str) -> String {
        id.to_owned()
    }
    fn d66(&self) -> bool {
        !self.free_space
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_names_what_it_knows_and_leaves_other_ids_be() {
        let text = include_str!("../../../../scenarios/cascade.ron");
        let s = crate::scenario::parse(text, "cascade.ron").expect("the bundled cascade");
        let names = ScenarioNames(&s);
        let first = &s.units[0];
        assert_eq!(names.name(&first.id), first.name);
        assert_ne!(first.name, first.id, "the bundled units have names of their own");
        assert_eq!(names.name("nobody"), "nobody");
        assert_eq!(names.side(&s.sides[0].id), s.sides[0].name);
        assert!(names.d66());
        assert!(Ids { free_space: false }.d66() && !Ids { free_space: true }.d66());
    }
}
