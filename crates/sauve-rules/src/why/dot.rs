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

/// The longest label line, in characters, before it is cut.
const LABEL: usize = 48;

/// A sentence cut short for a box: without its parenthesis of dice and at
/// most [`LABEL`] characters.
pub fn short(sentence: &str) -> String {
    let s = sentence.find(" (").map_or(sentence, |i| &sentence[..i]);
    if s.chars().count() <= LABEL { s.to_owned() } else { s.chars().take(LABEL - 1).collect::<String>() + "…" }
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
        let mut label =
            format!("#{seq} turn {} {}\\n{}", e.turn, quoted(e.phase.words()), quoted(&short(&said(&e, names))));
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
    fn a_long_sentence_is_cut_and_its_dice_left_out() {
        assert_eq!(short("a fails its check (rolled 12; needed 33)"), "a fails its check");
        let long = "x".repeat(100);
        assert_eq!(short(&long).chars().count(), LABEL);
        assert!(short(&long).ends_with('…'));
    }
}
