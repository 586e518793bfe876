//! A why as a Graphviz digraph (`sauve why --dot | dot -Tsvg`): one box
//! per event of the chain labelled with a short sentence, an edge from
//! each cause to what it caused, the roots shaded and the fall asked about
//! drawn bold.

use std::fmt::Write;

use crate::sentences::Names;

use super::graph::{Graph, ReadError};
use super::roots::root_kind;
use super::text::said;
use super::tree::Tree;

/// The widest line of a box's sentence, in characters.
const WIDTH: usize = 36;
/// The most lines of a box's sentence; the rest is cut.
const LINES: usize = 3;

/// A sentence made short for a box: without its closing parenthesis of
/// dice (what was rolled), in lines of at most [`WIDTH`] characters (a
/// longer word has a line of its own), at most [`LINES`] of them.
pub fn short(sentence: &str) -> Vec<String> {
    let s = match last_group(sentence) {
        Some(i) if sentence[i..].contains("rolled") => sentence[..i].trim_end(),
        _ => sentence,
    };
    let mut lines: Vec<String> = Vec::new();
    for word in s.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= WIDTH => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    if lines.len() > LINES {
        lines.truncate(LINES);
        lines[LINES - 1].push_str(" …");
    }
    lines
}

/// Where the parenthesis that closes a sentence opens, if one does.
fn last_group(s: &str) -> Option<usize> {
    if !s.ends_with(')') {
        return None;
    }
    let mut depth = 0;
    for (i, c) in s.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A string as a DOT quoted string's inside.
fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The digraph of the chain behind a fall.
pub fn tree(g: &Graph, tree: &Tree, names: &dyn Names) -> Result<String, ReadError> {
    let mut out = String::from("digraph why {\n");
    out += "  node [shape=box, style=rounded, fontname=\"sans-serif\", fontsize=10];\n";
    out += "  edge [color=\"#555555\"];\n";
    for &seq in &tree.chain.events {
        let e = g.event(seq as usize)?;
        let words: Vec<String> = short(&said(&e, names)).iter().map(|l| quoted(l)).collect();
        let mut label = format!("#{seq} turn {} {}\\n{}", e.turn, quoted(e.phase.words()), words.join("\\n"));
        let style = if tree.is_root(seq) {
            let _ = write!(label, "\\n[root: {}]", root_kind(&e).words());
            ", style=\"rounded,filled\", fillcolor=\"#f3e3c3\""
        } else if seq == tree.target() {
            ", style=\"rounded,bold\", color=\"#b22222\""
        } else {
            ""
        };
        let _ = writeln!(out, "  e{seq} [label=\"{label}\"{style}];");
    }
    for &seq in &tree.chain.events {
        for c in g.causes(seq as usize) {
            let _ = writeln!(out, "  e{c} -> e{seq};");
        }
    }
    out += "}\n";
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EventKind, EventLog};
    use crate::turn::Phase;
    use crate::vocab::State;
    use crate::why::names::Ids;

    #[test]
    fn edges_run_from_cause_to_effect_and_labels_are_quoted() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let shock = log.push(EventKind::StateChange {
            unit: "the \"Old\" Guard".into(),
            from: State::GoodOrder,
            to: State::Routed,
            cause: Cause::Shock,
        });
        let fell = log.push_because(
            EventKind::StateChange {
                unit: "b".into(),
                from: State::GoodOrder,
                to: State::Disordered,
                cause: Cause::Contagion,
            },
            &[shock],
        );
        let g = Graph::from_events(&log.events);
        let t = Tree::new(&g, fell).expect("the fall");
        let dot = tree(&g, &t, &Ids { free_space: false }).expect("writes");
        assert!(dot.starts_with("digraph why {\n") && dot.ends_with("}\n"), "{dot}");
        assert!(dot.contains(&format!("  e{shock} -> e{fell};")), "{dot}");
        assert!(dot.contains(r#"the \"Old\" Guard routs"#), "{dot}");
        assert!(dot.contains("[root: scripted shock]\", style=\"rounded,filled\""), "{dot}");
        assert_eq!(dot.matches("->").count(), 1);
    }

    #[test]
    fn a_sentence_is_wrapped_its_dice_left_out_and_its_names_kept() {
        let check = "2e Bn 2e Ligne (conscripts) fails its morale check for contagion from 1er Bn 2e Ligne (rolled 43; needed 53 or better: morale 52)";
        assert_eq!(
            short(check),
            ["2e Bn 2e Ligne (conscripts) fails", "its morale check for contagion from", "1er Bn 2e Ligne"]
        );
        assert_eq!(short("a routs 10 hexes to (8, 14)"), ["a routs 10 hexes to (8, 14)"]);
        let long = vec!["word"; 40].join(" ");
        let cut = short(&long);
        assert_eq!(cut.len(), LINES);
        assert!(cut.iter().all(|l| l.chars().count() <= WIDTH + 2) && cut[LINES - 1].ends_with('…'));
    }
}
