//! A why in words, for a person at a terminal: the tree of causes behind a
//! unit's fall, indented, and the cascades of a log by size. Also how each
//! event is said, which the JSON and Graphviz writers share.

use std::fmt::Write;

use crate::events::{Event, EventKind};
use crate::sentences::{Names, sentence, state_words};

use super::cascades::Cascade;
use super::graph::{Graph, ReadError};
use super::roots::{root_kind, start_kind};
use super::tree::Tree;

/// An event's sentence, or its kind for one the battle log does not word.
pub fn said(e: &Event, names: &dyn Names) -> String {
    match sentence(e, names) {
        Some((_, s)) => s,
        None => match &e.kind {
            EventKind::Final { units } => format!("the roll call of {} units", units.len()),
            _ => "an event".to_owned(),
        },
    }
}

/// Where in the battle an event happened: "turn 1, shocks", "turn 2,
/// French morale recovery".
pub fn stamp(e: &Event, names: &dyn Names) -> String {
    match &e.side {
        Some(side) => format!("turn {}, {} {}", e.turn, names.side(side), e.phase.words()),
        None => format!("turn {}, {}", e.turn, e.phase.words()),
    }
}

/// What befell a unit, for a heading: "was routed", "surrendered".
pub fn fall_words(e: &Event) -> String {
    match &e.kind {
        EventKind::StateChange { to, .. } => format!("was {}", state_words(*to)),
        EventKind::Surrendered { .. } => "surrendered".to_owned(),
        EventKind::Eliminated { .. } => "was eliminated".to_owned(),
        EventKind::LeftMap { .. } => "left the map".to_owned(),
        _ => "fell".to_owned(),
    }
}

/// A unit as a heading names it: its name, with its id when the two differ.
pub fn unit_words(id: &str, names: &dyn Names) -> String {
    let name = names.name(id);
    if name == id { name } else { format!("{name} ({id})") }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// The tree behind a unit's fall: a heading, then one line per event,
/// each cause indented under what it caused, roots marked; an event met a
/// second time is named only ("(see #12)").
pub fn tree(g: &Graph, tree: &Tree, names: &dyn Names) -> Result<String, ReadError> {
    let target = g.event(tree.target() as usize)?;
    let node = &g.nodes[tree.target() as usize];
    let behind = match tree.chain.events.len() - 1 {
        0 => format!("nothing behind it, a root ({})", root_kind(&target).words()),
        n => format!(
            "{} behind it, from {}",
            plural(n, "event", "events"),
            plural(tree.chain.roots.len(), "root", "roots")
        ),
    };
    // A fall is asked about by its unit; any other event by its place.
    let what = match node.unit.filter(|_| node.gravity > 0) {
        Some(u) => format!("{} {}", unit_words(g.unit_id(u), names), fall_words(&target)),
        None => format!("#{}", tree.target()),
    };
    let mut out = format!("Why {what} on {} (#{}): {behind}\n", stamp(&target, names), tree.target());
    for line in &tree.lines {
        let indent = "  ".repeat(line.depth);
        if line.again {
            let _ = writeln!(out, "{indent}(see #{})", line.seq);
            continue;
        }
        let e = g.event(line.seq as usize)?;
        let root = if tree.is_root(line.seq) { format!("  [root: {}]", root_kind(&e).words()) } else { String::new() };
        let _ = writeln!(out, "{indent}#{} {}: {}{root}", line.seq, stamp(&e, names), said(&e, names));
    }
    Ok(out)
}

/// The unit's falls that the tree does not show, in a line, for a reader
/// who wonders about the rest ("Its other falls: #4 turn 1 (disordered)",
/// each of which `--event` explains); empty when there are none.
pub fn other_falls(g: &Graph, unit: u32, tree: &Tree) -> Result<String, ReadError> {
    let mut others = Vec::new();
    for n in g.falls(unit).filter(|n| !tree.chain.contains(n.seq)) {
        let e = g.event(n.seq as usize)?;
        others.push(format!("#{} turn {} ({})", n.seq, n.turn, fall_words(&e).trim_start_matches("was ")));
    }
    Ok(if others.is_empty() { String::new() } else { format!("Its other falls: {}\n", others.join(", ")) })
}

/// The cascades, largest first: size, depth, the start in words and the
/// units it took, in the order they fell.
pub fn cascades(g: &Graph, cascades: &[Cascade], names: &dyn Names) -> Result<String, ReadError> {
    let mut out = match cascades.len() {
        0 => "No cascade: nothing befell any unit\n".to_owned(),
        n => format!("{}, the largest first\n", plural(n, "cascade", "cascades")),
    };
    for c in cascades {
        let e = g.event(c.start as usize)?;
        let _ = writeln!(
            out,
            "{}, depth {}: from #{} {}: {}  [{}]",
            plural(c.size(), "unit", "units"),
            c.depth,
            c.start,
            stamp(&e, names),
            said(&e, names),
            start_kind(&e).words()
        );
        let took: Vec<String> = c.units.iter().map(|&u| names.name(g.unit_id(u))).collect();
        let _ = writeln!(out, "  took: {}", took.join(", "));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EventLog, MoveReason, Pos, Seq};
    use crate::turn::Phase;
    use crate::vocab::State;
    use crate::why::names::Ids;

    fn log() -> EventLog {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        log.push(EventKind::PhaseStart {});
        let shock = log.push(EventKind::StateChange {
            unit: "a".into(),
            from: State::GoodOrder,
            to: State::Routed,
            cause: Cause::Shock,
        });
        let moved = log.push_because(
            EventKind::Move {
                unit: "a".into(),
                reason: MoveReason::Rout,
                from: Pos::Hex([3, 3]),
                to: Pos::Hex([3, 5]),
                path: vec![Pos::Hex([3, 3]), Pos::Hex([3, 4]), Pos::Hex([3, 5])],
            },
            &[shock],
        );
        let check = |unit: &str| EventKind::MoraleCheck {
            unit: unit.into(),
            cause: Cause::Contagion,
            morale: 44,
            modifier: 0,
            roll: 23,
            result: 23,
            passed: false,
            source: Some("a".into()),
        };
        let top = log.push_because(check("b"), &[moved]);
        let mate = log.push_because(check("c"), &[moved, top]);
        log.push_because(
            EventKind::StateChange {
                unit: "c".into(),
                from: State::GoodOrder,
                to: State::Disordered,
                cause: Cause::Contagion,
            },
            &[mate],
        );
        log
    }

    #[test]
    fn the_tree_reads_from_the_fall_down_to_its_root() {
        let log = log();
        let g = Graph::from_events(&log.events);
        let t = Tree::new(&g, 5).expect("the fall");
        let text = tree(&g, &t, &Ids { free_space: false }).expect("words");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Why c was disordered on turn 1, shocks (#5): 4 events behind it, from 1 root");
        assert_eq!(lines[1], "#5 turn 1, shocks: c falls into disorder");
        assert!(lines[2].starts_with("  #4 turn 1, shocks: c fails its morale check for contagion from a"), "{text}");
        assert_eq!(lines[3], "    #2 turn 1, shocks: a routs 2 hexes to (3, 5)");
        assert_eq!(lines[4], "      #1 turn 1, shocks: a routs (a shock)  [root: scripted shock]");
        assert!(lines[5].starts_with("    #3 turn 1, shocks: b fails"), "{text}");
        assert_eq!(lines[6], "      (see #2)");
        assert_eq!(lines.len(), 7);
        let root = tree(&g, &Tree::new(&g, 1).expect("the shock"), &Ids { free_space: false }).expect("words");
        assert!(
            root.starts_with("Why a was routed on turn 1, shocks (#1): nothing behind it, a root (scripted shock)\n")
        );
        let move_of = tree(&g, &Tree::new(&g, 2).expect("the move"), &Ids { free_space: false }).expect("words");
        assert!(move_of.starts_with("Why #2 on turn 1, shocks (#2): 1 event behind it, from 1 root\n"), "{move_of}");
    }

    #[test]
    fn cascades_read_as_size_depth_start_and_the_units_taken() {
        let log = log();
        let g = Graph::from_events(&log.events);
        let found = super::super::cascades::cascades(&g);
        let text = cascades(&g, &found, &Ids { free_space: false }).expect("words");
        assert_eq!(
            text,
            "1 cascade, the largest first\n\
             2 units, depth 2: from #1 turn 1, shocks: a routs (a shock)  [scripted shock]\n  took: a, c\n"
        );
        assert_eq!(other_falls(&g, g.unit("a").expect("a"), &found_tree(&g, 5)).expect("reads"), "", "in the tree");
    }

    fn found_tree(g: &Graph, seq: Seq) -> Tree {
        Tree::new(g, seq).expect("the event")
    }

    #[test]
    fn a_units_falls_the_tree_leaves_out_are_named_after_it() {
        let mut log = log();
        let later = log.push(EventKind::StateChange {
            unit: "c".into(),
            from: State::Disordered,
            to: State::Routed,
            cause: Cause::Shock,
        });
        let g = Graph::from_events(&log.events);
        let c = g.unit("c").expect("c");
        assert_eq!(
            other_falls(&g, c, &found_tree(&g, 5)).expect("reads"),
            format!("Its other falls: #{later} turn 1 (routed)\n")
        );
        assert_eq!(
            other_falls(&g, c, &found_tree(&g, later)).expect("reads"),
            "Its other falls: #5 turn 1 (disordered)\n"
        );
    }
}
