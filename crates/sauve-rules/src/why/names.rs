//! Names for a why's sentences: the scenario's, when the command line is
//! given it (`--scenario`), or else the log's own ids. A log holds no
//! names, only ids, and the mode it was played in shows only in what it
//! wrote (a free-space state), which is all the ids need to word a check.

use crate::sentences::Names;

pub use crate::sentences::ScenarioNames;

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
