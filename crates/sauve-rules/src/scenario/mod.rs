//! Scenario files (docs/scenario-format.md): the RON format as written by
//! authors, one pure parse-and-validate function shared by the command line
//! and the game's asset loader, and the validated [`Scenario`] it yields.
//!
//! The file as written is in `file`, the validated scenario in `spec`;
//! `parse` reads text, `validate` checks it (with `units`, `victory` and
//! `map` for those blocks), `problem` says what is wrong and `locate`
//! where.

mod file;
pub mod locate;
mod map;
mod parse;
mod problem;
mod spec;
mod units;
mod validate;
mod victory;

pub use file::{
    CorpsFile, ExitFile, FORMAT_VERSION, FacingFile, HexsideFile, LeaderFile, MapFile, ObjectiveFile, ScenarioFile,
    ShockFile, SideFile, StaffFile, UnitFile,
};
pub use locate::Pos;
pub use parse::{load, locate, parse, parse_bytes, read_file, utf8};
pub(crate) use parse::{ron_options, without_bom};
pub(crate) use problem::About;
pub use problem::{LoadError, Other, Problem};
pub use spec::{Corps, DEFAULT_AGGRESSION, Exit, Leader, Objective, Place, Scenario, Shock, Side, Staff, UnitSpec};
pub use units::{VALOUR, is_d66};
pub use validate::validate;

pub use crate::vocab::{Control, Formation, Mode, Readiness};

pub use crate::vocab::State;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{Edge, Offset};
    use crate::terrain::Terrain;

    const SMALL: &str = r#"
Scenario(
    format: 1,
    name: "The first rout",
    turns: 6,
    seed: 1813,
    sides: [
        (id: "fr", name: "French",  rear: South, control: Player),
        (id: "ru", name: "Russian", rear: North, control: Ai),
    ],
    map: (
        rows: [
            "..........",
            "...ww..t..",
            "~~~~=~~~~~",
        ],
        legend: { '=': Bridge },
    ),
    units: [
        (id: "fr-1-9L", side: "fr", arm: Infantry, at: (3, 1), morale: 32, strength: 6),
        (id: "ru-sumy", side: "ru", arm: Cavalry, at: (5, 0), morale: 43, strength: 8,
         state: Routed, name: "Sumy Hussars"),
    ],
    shocks: [
        (turn: 1, unit: "fr-1-9L", to: Routed, cause: Some("ru-sumy")),
    ],
    rules: (),
)
"#;

    fn problems(text: &str) -> Vec<String> {
        match parse(text, "t.ron") {
            Err(LoadError::Invalid { problems, .. }) => problems.iter().map(|p| p.to_string()).collect(),
            Err(e) => panic!("expected semantic problems, got {e}"),
            Ok(_) => panic!("expected problems, the file was accepted"),
        }
    }

    #[test]
    fn the_contract_example_loads() {
        let s = parse(SMALL, "t.ron").expect("valid");
        assert_eq!(s.units.len(), 2);
        assert_eq!(s.map.terrain(Offset::new(4, 2)), Some(Terrain::Bridge));
        assert_eq!(s.units[1].state, State::Routed);
        assert_eq!(s.shocks[0].cause, Some(1));
        assert_eq!(s.sides[1].rear, Edge::North);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_later_positions_stay_right() {
        let with_bom = format!("\u{feff}{SMALL}");
        let s = parse_bytes(with_bom.as_bytes(), "t.ron").expect("a file with a BOM loads");
        assert_eq!(s.name, "The first rout");
        // The same typo as without the mark, reported at the same place.
        let bad = with_bom.replace("seed: 1813,", "sead: 1813,");
        match parse_bytes(bad.as_bytes(), "t.ron") {
            Err(LoadError::Syntax { line, col, .. }) => assert_eq!((line, col), (6, 5)),
            other => panic!("{other:?}"),
        }
        // A mark on the first line does not shift the columns there.
        match parse("\u{feff}Scenario(sead: 1)", "t.ron") {
            Err(LoadError::Syntax { line, col, .. }) => assert_eq!((line, col), (1, 10)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn some_may_be_left_out() {
        let text = SMALL.replace("cause: Some(\"ru-sumy\")", "cause: \"ru-sumy\"");
        assert!(parse(&text, "t.ron").is_ok());
    }

    #[test]
    fn unknown_fields_are_syntax_errors_with_a_position() {
        let text = SMALL.replace("seed: 1813,", "sead: 1813,");
        match parse(&text, "t.ron") {
            Err(LoadError::Syntax { line, col, message, .. }) => {
                assert_eq!(line, 6, "{message}");
                assert!(col > 1);
                assert!(message.contains("sead"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_semantic_problem_is_reported_in_one_pass() {
        let text = SMALL
            .replace("morale: 32", "morale: 37")
            .replace("at: (5, 0)", "at: (50, 0)")
            .replace("\"...ww..t..\"", "\"...ww..t.\"")
            .replace("unit: \"fr-1-9L\"", "unit: \"nobody\"")
            .replace("format: 1", "format: 3");
        let all = problems(&text).join("\n");
        for needle in ["format", "d66", "off the", "row 1 has 9", "'nobody'"] {
            assert!(all.contains(needle), "missing {needle:?} in\n{all}");
        }
    }

    #[test]
    fn semantic_errors_name_the_unit() {
        let text = SMALL.replace("side: \"ru\"", "side: \"prussia\"").replace("strength: 6", "strength: 0");
        let all = problems(&text);
        assert!(all.iter().any(|m| m.starts_with("unit 'ru-sumy'") && m.contains("prussia")), "{all:?}");
        assert!(all.iter().any(|m| m.starts_with("unit 'fr-1-9L'") && m.contains("strength")), "{all:?}");
    }

    #[test]
    fn duplicate_ids_prohibited_terrain_and_bad_characters() {
        let text = SMALL
            .replace("\"ru-sumy\", side", "\"fr-1-9L\", side")
            .replace("at: (3, 1)", "at: (0, 2)")
            .replace("\"..........\"", "\"....X.....\"");
        let all = problems(&text).join("\n");
        assert!(all.contains("duplicate unit id"), "{all}");
        assert!(all.contains("River, prohibited"), "{all}");
        assert!(all.contains("'X'"), "{all}");
    }

    /// The lines `sauve check` prints for `text`.
    fn check_lines(text: &str) -> Vec<String> {
        match parse(text, "t.ron") {
            Err(e) => e.lines(),
            Ok(_) => panic!("expected problems, the file was accepted"),
        }
    }

    /// The line and column of the first occurrence of `needle` in SMALL-like text.
    fn where_is(text: &str, needle: &str) -> String {
        position_of(text, text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in the text")))
    }

    /// The line and column of byte `i` of `text`.
    fn position_of(text: &str, i: usize) -> String {
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{line}:{col}")
    }

    #[test]
    fn semantic_errors_give_the_line_and_column_of_the_unit_or_field() {
        let text = SMALL
            .replace("morale: 32", "morale: 37, facing: inf")
            .replace("\"...ww..t..\"", "\"...ww..t.\"")
            .replace("rules: ()", "rules: (rout_hexes: 0)")
            .replace("(turn: 1, unit: \"fr-1-9L\"", "(turn: 9, unit: \"fr-1-9L\"")
            .replace("format: 1", "format: 3");
        let lines = check_lines(&text);
        let expect = [
            format!("t.ron:{}: error: format: unsupported format 3", where_is(&text, "format")),
            format!("t.ron:{}: error: map.rows[1]: row 1 has 9 hexes", where_is(&text, "\"...ww")),
            format!("t.ron:{}: error: rules.rout_hexes: 0 must be", where_is(&text, "rout_hexes")),
            format!("t.ron:{}: error: unit 'fr-1-9L': morale 37", where_is(&text, "morale: 37")),
            format!("t.ron:{}: error: unit 'fr-1-9L': facing must be", where_is(&text, "facing")),
            format!("t.ron:{}: error: shocks[0]: turn 9 is outside", where_is(&text, "turn: 9")),
        ];
        for e in &expect {
            assert!(lines.iter().any(|l| l.starts_with(e.as_str())), "missing {e:?} in\n{}", lines.join("\n"));
        }
        assert_eq!(lines.len(), expect.len(), "{}", lines.join("\n"));
    }

    #[test]
    fn a_problem_with_a_missing_field_points_at_its_entry() {
        let text = SMALL.replace(", morale: 32", "");
        let lines = check_lines(&text);
        let entry = where_is(&text, "(id: \"fr-1-9L\"");
        assert_eq!(lines, [format!("t.ron:{entry}: error: unit 'fr-1-9L': missing `morale` (a d66 value such as 32)")]);
    }

    #[test]
    fn duplicate_unit_and_side_ids_name_both_places() {
        let text = SMALL.replace("\"ru-sumy\", side", "\"fr-1-9L\", side").replace("(id: \"ru\"", "(id: \"fr\"");
        let lines = check_lines(&text);
        let (first, second) = (where_is(&text, "(id: \"fr-1-9L\""), where_is(&text, "(id: \"fr-1-9L\", side: \"ru"));
        let first_side = where_is(&text, "(id: \"fr\", name: \"French\"");
        let second_side = where_is(&text, "(id: \"fr\", name: \"Russian\"");
        for e in [
            format!("t.ron:{second}: error: unit 'fr-1-9L': duplicate unit id (first at {first})"),
            format!("t.ron:{second_side}: error: side 'fr': duplicate side id (first at {first_side})"),
        ] {
            assert!(lines.contains(&e), "missing {e:?} in\n{}", lines.join("\n"));
        }
        assert_ne!(first, second);
    }

    #[test]
    fn two_sides_with_one_rear_edge_are_refused_at_the_second_rear() {
        let text = SMALL.replace("rear: North", "rear: South");
        let at = where_is(&text, "rear: South, control: Ai");
        assert_eq!(
            check_lines(&text),
            [format!(
                "t.ron:{at}: error: side 'ru': rear South is also the rear of side 'fr': the two sides must fall back towards different edges"
            )]
        );
        // A rear left to its default (North for the second side) is placed
        // at the side's entry.
        let text =
            SMALL.replace("rear: South, ", "rear: North, ").replace(", rear: North, control: Ai", ", control: Ai");
        let lines = check_lines(&text);
        let entry = where_is(&text, "(id: \"ru\"");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(&format!("t.ron:{entry}: error: side 'ru': rear North is also")), "{lines:?}");
    }

    #[test]
    fn a_hexside_on_the_outer_edge_of_the_map_is_refused() {
        // Row 0 has no hexes north of it; even column 0 none to the NW or SW;
        // odd column 9 (the last) none to the NE or SE.
        let text = SMALL.replace(
            "legend: { '=': Bridge },",
            "legend: { '=': Bridge }, hexsides: [(at: (3, 0), side: N, kind: Stream), (at: (3, 0), side: S, kind: Slope),
                (at: (0, 1), side: SW, kind: Slope), (at: (9, 1), side: NW, kind: Slope), (at: (9, 2), side: SE, kind: Stream)],",
        );
        let lines = check_lines(&text);
        let first = where_is(&text, "(at: (3, 0), side: N,");
        let last = where_is(&text, "(at: (9, 2)");
        assert_eq!(
            lines,
            [
                format!(
                    "t.ron:{first}: error: map.hexsides[0]: the N side of (3, 0) is on the map's edge: there is no hex on the other side of it"
                ),
                format!(
                    "t.ron:{}: error: map.hexsides[2]: the SW side of (0, 1) is on the map's edge: there is no hex on the other side of it",
                    where_is(&text, "(at: (0, 1)")
                ),
                format!(
                    "t.ron:{last}: error: map.hexsides[4]: the SE side of (9, 2) is on the map's edge: there is no hex on the other side of it"
                ),
            ]
        );
    }

    #[test]
    fn hex_facing_may_be_degrees_or_a_hexside_name() {
        for (written, degrees) in [("30.0", 30.0), ("120", 120.0), ("NE", 60.0), ("\"SW\"", 240.0), ("Some(NW)", 300.0)]
        {
            let text = SMALL.replace("morale: 32", &format!("morale: 32, facing: {written}"));
            let s = parse(&text, "t.ron").unwrap_or_else(|e| panic!("facing: {written}: {e}"));
            assert_eq!(s.units[0].facing, Some(degrees), "facing: {written}");
        }
    }

    #[test]
    fn a_facing_that_is_no_hexside_name_says_what_is_expected_where() {
        for bad in ["ENE", "\"ENE\"", "Some(ENE)", "(1, 2)", "true"] {
            let text = SMALL.replace("morale: 32", &format!("morale: 32, facing: {bad}"));
            facing_refused_at_its_value(&text, bad);
        }
    }

    fn facing_refused_at_its_value(text: &str, bad: &str) {
        match parse(text, "t.ron") {
            Err(e @ LoadError::Syntax { .. }) => {
                let LoadError::Syntax { line, col, .. } = e else { unreachable!() };
                let written = format!("facing: {bad}");
                let value = text.find(&written).map(|i| i + "facing: ".len());
                let at = position_of(text, value.unwrap_or_else(|| panic!("{written:?} not in the text")));
                assert_eq!(format!("{line}:{col}"), at, "{written}");
                assert_eq!(
                    e.to_string(),
                    format!(
                        "t.ron:{at}: error: facing must be degrees clockwise from north or a hexside name: N, NE, SE, S, SW, NW"
                    )
                );
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    }

    #[test]
    fn a_free_space_facing_must_be_degrees() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace, sides: [(id: "a"), (id: "b")],
            map: (rows: ["....", "...."]),
            units: [(id: "a1", side: "a", arm: Infantry, pos: (15.0, 5.0), facing: NE, figures: 24)])"#;
        let at = where_is(text, "facing");
        assert_eq!(
            check_lines(text),
            [format!(
                "t.ron:{at}: error: unit 'a1': facing NE is a hexside name, for Hex mode: give degrees clockwise from north"
            )]
        );
        assert!(parse(&text.replace("facing: NE", "facing: 90"), "t.ron").is_ok());
    }

    #[test]
    fn a_problem_the_file_holds_no_place_for_keeps_the_plain_form() {
        let text = r#"Scenario(format: 1, name: "t", sides: [(id: "a"), (id: "b")], map: (rows: [".."]))"#;
        assert_eq!(check_lines(text), ["t.ron: error: units: a scenario needs at least one unit"]);
    }

    #[test]
    fn objectives_exits_corps_leaders_and_aggression_load() {
        let text = SMALL.replace("control: Player)", "control: Player, aggression: 0.8)").replace(
            "rules: (),",
            r#"objectives: [(at: (7, 1), points: 3, name: "the church", held_by: "ru"), (at: (0, 0))],
                   exits: [(side: "fr", edge: North, points: 2)],
                   corps: [(id: "I", side: "fr", name: "I Corps", units: ["fr-1-9L"], breaks_at: 1)],
                   leaders: [(id: "bulow", side: "ru", with: "ru-sumy", bonus: 2, name: "Bülow")],
                   rules: (),"#,
        );
        let s = parse(&text, "t.ron").expect("valid");
        assert_eq!((s.sides[0].aggression, s.sides[1].aggression), (0.8, DEFAULT_AGGRESSION));
        assert_eq!(
            s.objectives[0],
            Objective { at: Offset::new(7, 1), points: 3, name: "the church".into(), held_by: Some(1) }
        );
        assert_eq!((s.objectives[1].points, s.objectives[1].held_by), (1, None));
        assert_eq!(s.exits, [Exit { side: 0, edge: Edge::North, points: 2 }]);
        assert_eq!(s.leaders[0].with, 1);
        // The explicit corps, then the Russians' implicit one.
        let ids: Vec<_> = s.corps.iter().map(|c| (c.id.as_str(), c.side, c.implicit)).collect();
        assert_eq!(ids, [("I", 0, false), ("ru", 1, true)]);
    }

    #[test]
    fn files_without_the_victory_fields_get_one_implicit_corps_per_side() {
        let s = parse(SMALL, "t.ron").expect("valid");
        assert!(s.objectives.is_empty() && s.exits.is_empty() && s.leaders.is_empty());
        let ids: Vec<_> = s.corps.iter().map(|c| (c.id.as_str(), c.units.clone(), c.breaks_at)).collect();
        assert_eq!(ids, [("fr", vec![0], 1), ("ru", vec![1], 1)]);
    }

    #[test]
    fn victory_field_problems_name_their_subject() {
        let text = SMALL.replace("control: Ai)", "control: Ai, aggression: 1.5)").replace(
            "rules: (),",
            r#"objectives: [(at: (70, 1), points: 0), (at: (1, 1), held_by: "prussia"), (at: (1, 1))],
               exits: [(side: "fr", edge: North), (side: "fr", edge: North, points: 101)],
               corps: [(id: "III", side: "fr", units: ["fr-1-9L", "ru-sumy", "nobody"], breaks_at: 4),
                       (id: "IV", side: "fr", units: ["fr-1-9L"]), (id: "ru", side: "ru", units: ["ru-sumy"])],
               leaders: [(id: "bulow", side: "ru", with: "fr-1-9L", bonus: 7), (id: "bulow", side: "ru", with: "x")],
               rules: (),"#,
        );
        let all = problems(&text);
        for needle in [
            "side 'ru': aggression 1.5",
            "objectives[0]: at (70, 1) is off",
            "objectives[0]: points 0",
            "objectives[1]: held_by 'prussia'",
            "objectives[2]: a second objective at (1, 1)",
            "exits[1]: side 'fr' already has an exit",
            "exits[1]: points 101",
            "corps 'III': unit 'ru-sumy' is on side 'ru'",
            "corps 'III': unit 'nobody' does not exist",
            "corps 'III': breaks_at 4 must be 1..=3",
            "corps 'IV': unit 'fr-1-9L' is already in corps 'III'",
            "corps 'ru': a corps id may not be a side id",
            "leader 'bulow': with 'fr-1-9L' is a unit of side 'fr'",
            "leader 'bulow': bonus 7",
            "leader 'bulow': duplicate leader id",
            "leader 'bulow': with 'x' is not a unit id",
        ] {
            assert!(all.iter().any(|m| m.starts_with(needle)), "missing {needle:?} in\n{}", all.join("\n"));
        }
    }

    #[test]
    fn exits_corps_and_leaders_are_hex_only_but_objectives_stand_on_tables_too() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace,
            sides: [(id: "a", aggression: 0.2), (id: "b")],
            map: (rows: ["....", "...."]),
            units: [(id: "a1", side: "a", arm: Infantry, pos: (15.0, 5.0), figures: 24)],
            objectives: [(at: (1, 1))], corps: [(id: "I", side: "a", units: ["a1"])],
            leaders: [(id: "l", side: "a", with: "a1")], exits: [(side: "a", edge: North)])"#;
        let all = problems(text).join("\n");
        for field in ["exits", "corps", "leaders"] {
            assert!(all.contains(&format!("{field}: only used in Hex mode")), "{all}");
        }
        assert!(!all.contains("objectives"), "a free-space objective names a cell: {all}");
        assert!(!all.contains("aggression"), "{all}");
    }

    #[test]
    fn d66_numbers() {
        assert!(is_d66(11) && is_d66(36) && is_d66(66));
        assert!(!is_d66(10) && !is_d66(17) && !is_d66(70) && !is_d66(67) && !is_d66(-11));
    }

    #[test]
    fn free_space_units_are_checked_on_the_table() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace,
            sides: [(id: "a"), (id: "b")],
            map: (rows: ["....", "...."], cell_cm: 10.0),
            units: [
              (id: "a1", side: "a", arm: Infantry, pos: (15.0, 5.0), facing: 0.0, figures: 24, valour: 0),
              (id: "b1", side: "b", arm: Cavalry, pos: (95.0, 5.0), figures: 12, valour: 9, state: Routed),
            ],
            shocks: [(turn: 1, unit: "a1", to: FU, cause: "b1")])"#;
        let all = problems(text).join("\n");
        assert!(all.contains("off the 40x20 cm table"), "{all}");
        assert!(all.contains("valour 9"), "{all}");
        assert!(all.contains("state Routed is not a FreeSpace-mode state"), "{all}");
        let ok = text.replace("(95.0, 5.0)", "(35.0, 15.0)").replace("valour: 9, state: Routed", "valour: 2");
        let s = parse(&ok, "t").expect("valid");
        assert_eq!(s.units[0].place, Place::Table { x: 15.0, y: 5.0 });
        assert_eq!(s.table_cm(), (40.0, 20.0));
    }

    #[test]
    fn a_unit_cannot_begin_the_battle_surrendered_or_in_the_other_modes_state() {
        let text = r#"Scenario(format: 1, name: "t", mode: Hex,
            sides: [(id: "a"), (id: "b")],
            map: (rows: ["....", "...."]),
            units: [
              (id: "a1", side: "a", arm: Infantry, at: (0, 0), morale: 44, strength: 4, state: Surrendered),
              (id: "b1", side: "b", arm: Infantry, at: (3, 1), morale: 44, strength: 4, state: FU),
            ])"#;
        let all = problems(text).join("\n");
        assert!(all.contains("state Surrendered is not a Hex-mode state"), "{all}");
        assert!(all.contains("state FU is not a Hex-mode state"), "{all}");
        let ok = text.replace("state: Surrendered", "state: Routed").replace("state: FU", "state: Disordered");
        let s = parse(&ok, "t").expect("valid");
        assert_eq!(s.units[0].state, State::Routed);
    }
}
