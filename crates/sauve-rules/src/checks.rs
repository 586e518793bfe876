//! Warnings: what a scenario may legally say but almost surely does not
//! mean. `sauve check` prints them once a file has validated; they never
//! stop a file from loading, and no rule reads them. (Its own module, not
//! part of `scenario`: it asks the rule systems, which read scenarios.)

use crate::belle_alliance::FsUnit;
use crate::hex::{Edge, Offset};

use crate::scenario::{About, Other, Place, Problem, Scenario, UnitSpec};
use crate::vocab::Mode;
use crate::vocab::State;

/// Every warning about a validated scenario, each with the path of what it
/// is about (placed in the text by [`crate::scenario::locate`]), in file order.
pub fn warnings(s: &Scenario) -> Vec<Problem> {
    let mut out = Vec::new();
    sides_without_units(s, &mut out);
    match s.mode {
        Mode::FreeSpace => overlapping_footprints(s, &mut out),
        Mode::Hex => {
            routs_off_the_map(s, &mut out);
            small_leftover_corps(s, &mut out);
        }
    }
    out
}

fn warn(out: &mut Vec<Problem>, about: About, message: String, other: Option<Other>) {
    out.push(Problem { subject: about.subject, message, path: Some(about.path), other, at: None });
}

fn unit_about(s: &Scenario, i: usize) -> About {
    About::entry("unit", s.units.get(i).map_or("", |u| u.id.as_str()), format!("units[{i}]"))
}

/// A side with no units: it has nothing to fight with, no corps to break
/// and no army to lose, so the battle is decided before it begins (almost
/// surely a side whose units were forgotten or given the other's id).
fn sides_without_units(s: &Scenario, out: &mut Vec<Problem>) {
    for (i, side) in s.sides.iter().enumerate() {
        if s.units.iter().all(|u| u.side != i) {
            let message = "has no units: give it some (a unit's `side` is its id), or the battle has nothing to decide";
            warn(out, About::entry("side", &side.id, format!("sides[{i}]")), message.to_owned(), None);
        }
    }
}

/// Free space: two units whose footprints overlap as the battle opens. The
/// rules never let units pass through each other, so the first flight or
/// contact test would start from a position no move could reach.
fn overlapping_footprints(s: &Scenario, out: &mut Vec<Problem>) {
    let rects: Vec<_> = s
        .units
        .iter()
        .map(|u| {
            // A validated unit's side always exists; the default is never used.
            let rear = s.sides.get(u.side).map_or(Edge::South, |side| side.rear);
            FsUnit::from_spec(u, rear).rect(&s.rules.belle_alliance)
        })
        .collect();
    for j in 0..rects.len() {
        for i in 0..j {
            if rects[i].intersects(&rects[j]) {
                let what = unit_about(s, i).subject;
                warn(
                    out,
                    unit_about(s, j),
                    "its footprint overlaps another unit's at the start: move them apart".into(),
                    Some(Other { what, path: format!("units[{i}]"), at: None }),
                );
            }
        }
    }
}

/// Hex mode: good-order units in the line (an enemy within
/// `rules.safe_distance`, the distance at which a router is out of danger,
/// rule 1.5) standing fewer than `rules.rout_hexes` hexes from their own rear
/// edge, so that a rout from there runs off the map and eliminates them. A
/// side whose rear edge is in `off_map_recovery` is left out (leaving there
/// is a recovery by design), and units further from every enemy (reserves,
/// trains) too. One warning per side, at the unit with the least room,
/// counting the others: a shallow map puts a whole line there, and one
/// line says so as well as thirty.
fn routs_off_the_map(s: &Scenario, out: &mut Vec<Problem>) {
    let at = |u: &UnitSpec| match u.place {
        Place::Hex(o) => Some(o),
        Place::Table { .. } => None,
    };
    let rout = s.rules.rout_hexes;
    for (side_index, side) in s.sides.iter().enumerate() {
        if s.rules.off_map_recovery.contains(&side.rear) {
            continue;
        }
        let enemies: Vec<Offset> = s.units.iter().filter(|u| u.side != side_index).filter_map(at).collect();
        // (room behind, unit index, nearest enemy) of each unit in the line.
        let mut short: Vec<(u32, usize, u32)> = s
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.side == side_index && u.state == State::GoodOrder)
            .filter_map(|(i, u)| {
                let here = at(u)?;
                let room = u32::try_from(side.rear.distance(here, s.map.width, s.map.height)).ok()?;
                let enemy = enemies.iter().map(|e| here.distance(*e)).min()?;
                (room < rout && enemy <= s.rules.safe_distance).then_some((room, i, enemy))
            })
            .collect();
        short.sort_unstable();
        let Some(&(room, worst, enemy)) = short.first() else { continue };
        let others: Vec<String> = short[1..].iter().map(|&(_, i, _)| format!("'{}'", s.units[i].id)).collect();
        let more = match others.len() {
            0 => String::new(),
            n => {
                let named =
                    if n > 3 { format!("{} and {} others", others[..3].join(", "), n - 3) } else { others.join(", ") };
                let units = if n == 1 { "unit" } else { "units" };
                format!(" (so would the routs of {n} more {units} of side '{}' in the line: {named})", side.id)
            }
        };
        warn(
            out,
            unit_about(s, worst),
            format!(
                "in good order {enemy} hexes from the enemy but only {room} from its rear edge ({:?}): a rout of \
                 rules.rout_hexes ({rout}) from there would run off the map{more}",
                side.rear
            ),
            None,
        );
    }
}

/// Hex mode: a corps of one or two units that the loader made up from the
/// units a side's partial corps list left out. It breaks (rule 1.6) when one
/// of them routs, which can tip the army's morale: almost surely units
/// forgotten in the list rather than a corps meant.
fn small_leftover_corps(s: &Scenario, out: &mut Vec<Problem>) {
    for corps in s.corps.iter().filter(|c| c.implicit && c.units.len() <= 2) {
        let listed_any = s.corps.iter().any(|c| !c.implicit && c.side == corps.side);
        let Some(&first) = corps.units.first() else { continue };
        if !listed_any {
            continue;
        }
        let ids: Vec<String> = corps.units.iter().map(|&u| format!("'{}'", s.units[u].id)).collect();
        let side = s.sides.get(corps.side).map_or("", |side| side.id.as_str());
        let message = if let [one] = ids.as_slice() {
            format!(
                "{one} is in no corps of side '{side}', so the loader makes it a corps of its own ('{}') that breaks \
                 when it routs or is gone: list it in a corps",
                corps.id
            )
        } else {
            format!(
                "{} are in no corps of side '{side}', so the loader makes them a corps of their own ('{}') that \
                 breaks when {} of them routs or is gone: list them in a corps",
                ids.join(" and "),
                corps.id,
                corps.breaks_at
            )
        };
        warn(out, unit_about(s, first), message, None);
    }
}

#[cfg(test)]
mod tests {
    use super::warnings;
    use crate::scenario::{locate, parse};

    fn lines(text: &str) -> Vec<String> {
        let s = parse(text, "w.ron").unwrap_or_else(|e| panic!("{e}"));
        let mut w = warnings(&s);
        locate(&mut w, text);
        w.iter().map(|p| p.line("w.ron", "warning")).collect()
    }

    fn where_is(text: &str, needle: &str) -> String {
        let i = text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in the text"));
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{line}:{col}")
    }

    /// A hex battle on a 12 x `rows` map: French (rear South) and Russians
    /// (rear North), with `units` and `extra` top-level fields.
    fn hex(rows: usize, units: &[(&str, &str, i32, i32)], extra: &str) -> String {
        let map = vec![format!("\"{}\"", ".".repeat(12)); rows].join(", ");
        let units: Vec<String> = units
            .iter()
            .map(|(id, side, c, r)| {
                format!("\n  (id: \"{id}\", side: \"{side}\", arm: Infantry, at: ({c}, {r}), morale: 44, strength: 4),")
            })
            .collect();
        format!(
            "Scenario(format: 1, name: \"w\", sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{map}]),\n units: [{}\n ],\n {extra})",
            units.concat()
        )
    }

    #[test]
    fn a_side_with_no_units_is_named_where_the_file_declares_it() {
        let text = hex(12, &[("fr-a", "fr", 4, 7), ("fr-b", "fr", 5, 7)], "");
        let at = where_is(&text, "(id: \"ru\"");
        assert_eq!(
            lines(&text),
            [format!(
                "w.ron:{at}: warning: side 'ru': has no units: give it some (a unit's `side` is its id), or the battle has nothing to decide"
            )]
        );
        let both = hex(12, &[("fr-a", "fr", 4, 7), ("ru-a", "ru", 4, 2)], "");
        assert!(lines(&both).iter().all(|l| !l.contains("has no units")), "{:?}", lines(&both));
    }

    #[test]
    fn a_line_too_close_to_its_rear_edge_is_one_warning_at_its_worst_unit() {
        // Russians 2 and 3 hexes from the north edge, the French 5 hexes
        // south of them with 14 rows behind them.
        let text =
            hex(24, &[("ru-a", "ru", 2, 3), ("ru-b", "ru", 4, 2), ("ru-c", "ru", 6, 3), ("fr-a", "fr", 4, 7)], "");
        let at = where_is(&text, "(id: \"ru-b\"");
        assert_eq!(
            lines(&text),
            [format!(
                "w.ron:{at}: warning: unit 'ru-b': in good order 5 hexes from the enemy but only 2 from its rear edge (North): a rout of rules.rout_hexes (10) from there would run off the map (so would the routs of 2 more units of side 'ru' in the line: 'ru-a', 'ru-c')"
            )]
        );
    }

    #[test]
    fn reserves_far_from_the_enemy_routers_already_broken_and_recovery_edges_are_quiet() {
        // The Russians stand 20 hexes from the nearest Frenchman, beyond
        // safe_distance (15): reserves, not the line.
        let far = hex(30, &[("ru-a", "ru", 2, 1), ("fr-a", "fr", 2, 21)], "");
        assert_eq!(lines(&far), Vec::<String>::new());
        // Closer in, but their rear edge is an off-map recovery edge.
        let near = hex(24, &[("ru-a", "ru", 2, 1), ("fr-a", "fr", 2, 6)], "");
        assert_eq!(lines(&near).len(), 1);
        let recovering = hex(24, &[("ru-a", "ru", 2, 1), ("fr-a", "fr", 2, 6)], "rules: (off_map_recovery: [North])");
        assert_eq!(lines(&recovering), Vec::<String>::new());
        // A unit that starts routed is the author's staging, not a slip.
        let routed = near.replace(
            "morale: 44, strength: 4),\n  (id: \"fr-a\"",
            "morale: 44, strength: 4, state: Routed),\n  (id: \"fr-a\"",
        );
        assert_ne!(routed, near);
        assert_eq!(lines(&routed), Vec::<String>::new());
        // One more, named in the singular.
        let two = hex(24, &[("ru-a", "ru", 2, 1), ("ru-b", "ru", 3, 2), ("fr-a", "fr", 2, 6)], "");
        assert!(lines(&two)[0].ends_with("(so would the routs of 1 more unit of side 'ru' in the line: 'ru-b')"));
        // Room enough: rout_hexes hexes or more behind.
        let roomy = hex(24, &[("ru-a", "ru", 2, 10), ("fr-a", "fr", 2, 13)], "");
        assert_eq!(lines(&roomy), Vec::<String>::new());
    }

    #[test]
    fn units_a_partial_corps_list_leaves_over_are_named() {
        let units = [("fr-a", "fr", 2, 12), ("fr-b", "fr", 3, 12), ("fr-c", "fr", 4, 12), ("ru-a", "ru", 2, 10)];
        let text = hex(24, &units, r#"corps: [(id: "I", side: "fr", units: ["fr-a"])]"#);
        let at = where_is(&text, "(id: \"fr-b\"");
        assert_eq!(
            lines(&text),
            [format!(
                "w.ron:{at}: warning: unit 'fr-b': 'fr-b' and 'fr-c' are in no corps of side 'fr', so the loader makes them a corps of their own ('fr') that breaks when 1 of them routs or is gone: list them in a corps"
            )]
        );
        // No corps list at all: every unit in the side's one corps, by design.
        assert_eq!(lines(&hex(24, &units, "")), Vec::<String>::new());
        // A leftover of three is a corps someone may well mean.
        let four = [units[0], units[1], units[2], ("fr-d", "fr", 5, 12), units[3]];
        let three = hex(24, &four, r#"corps: [(id: "I", side: "fr", units: ["fr-a"])]"#);
        assert_eq!(lines(&three), Vec::<String>::new());
    }

    #[test]
    fn overlapping_free_space_footprints_name_both_units() {
        let text = r#"Scenario(format: 1, name: "w", mode: FreeSpace, sides: [(id: "a"), (id: "b")],
            map: (rows: ["..........", ".........."]),
            units: [
              (id: "a1", side: "a", arm: Infantry, pos: (20.0, 10.0), facing: 0.0, figures: 24),
              (id: "a2", side: "a", arm: Infantry, pos: (40.0, 10.0), facing: 0.0, figures: 24),
              (id: "b1", side: "b", arm: Infantry, pos: (80.0, 10.0), facing: 180.0, figures: 24),
            ])"#;
        // 24 figures two ranks deep: 24 cm wide, so centres 20 cm apart overlap.
        let (a1, a2) = (where_is(text, "(id: \"a1\""), where_is(text, "(id: \"a2\""));
        assert_eq!(
            lines(text),
            [format!(
                "w.ron:{a2}: warning: unit 'a2': its footprint overlaps another unit's at the start: move them apart (unit 'a1' at {a1})"
            )]
        );
        assert_eq!(lines(&text.replace("(40.0, 10.0)", "(50.0, 10.0)")), Vec::<String>::new());
    }
}
