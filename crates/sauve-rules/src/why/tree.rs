//! The chain behind an event laid out as a tree to print: the event at
//! the top, each cause indented under what it caused, down to the roots.
//! The chain is a graph in which one event may cause several (a unit's
//! move shakes a whole stack): such an event is laid out once, where the
//! walk first meets it, and named again after that.

use crate::events::Seq;

use super::Chain;
use super::graph::Graph;

/// One line of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub seq: Seq,
    /// How far it is indented: 0 for the event asked about.
    pub depth: usize,
    /// Whether it was laid out above already: the line only points back
    /// to it.
    pub again: bool,
}

/// The event asked about, its chain, and the lines to print it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    pub chain: Chain,
    pub lines: Vec<Line>,
}

impl Tree {
    /// The tree behind `target`, `None` if the graph has no such event.
    /// Causes come in the order the event names them, each followed by
    /// its own causes before the next (a walk with its own stack, so a
    /// chain thousands of events long lays out as well as a short one).
    pub fn new(g: &Graph, target: Seq) -> Option<Tree> {
        let chain = g.chain(target)?;
        let mut laid = vec![false; g.len()];
        let mut lines = Vec::new();
        let mut stack = vec![(target as usize, 0)];
        while let Some((i, depth)) = stack.pop() {
            let again = std::mem::replace(&mut laid[i], true);
            lines.push(Line { seq: i as Seq, depth, again });
            if !again {
                let causes: Vec<usize> = g.causes(i).collect();
                stack.extend(causes.into_iter().rev().map(|c| (c, depth + 1)));
            }
        }
        Some(Tree { chain, lines })
    }

    pub fn target(&self) -> Seq {
        self.chain.target
    }

    /// Whether `seq` follows from nothing.
    pub fn is_root(&self, seq: Seq) -> bool {
        self.chain.roots.binary_search(&seq).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EventKind, EventLog};
    use crate::turn::Phase;
    use crate::vocab::State;

    fn change(unit: &str, to: State) -> EventKind {
        EventKind::StateChange { unit: unit.into(), from: State::GoodOrder, to, cause: Cause::Contagion }
    }

    #[test]
    fn each_cause_hangs_under_its_effect_and_a_shared_one_is_laid_out_once() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let shock = log.push(change("a", State::Routed));
        let moved = log.push_because(change("a", State::Routed), &[shock]);
        let top = log.push_because(change("b", State::Disordered), &[moved]);
        let _other = log.push(change("z", State::Disordered));
        // A stack-mate's check follows from the move and the top's failure.
        let mate = log.push_because(change("c", State::Disordered), &[moved, top]);
        let g = Graph::from_events(&log.events);
        let tree = Tree::new(&g, mate).expect("the event exists");
        let laid: Vec<(Seq, usize, bool)> = tree.lines.iter().map(|l| (l.seq, l.depth, l.again)).collect();
        assert_eq!(
            laid,
            vec![(mate, 0, false), (moved, 1, false), (shock, 2, false), (top, 1, false), (moved, 2, true),]
        );
        assert_eq!(tree.chain.events, vec![shock, moved, top, mate]);
        assert!(tree.is_root(shock) && !tree.is_root(moved));
        assert!(Tree::new(&g, 99).is_none());
    }

    #[test]
    fn a_long_chain_lays_out_without_running_out_of_stack() {
        let mut log = EventLog::default();
        let mut last = log.push(change("u0", State::Routed));
        for k in 1..50_000 {
            last = log.push_because(change(&format!("u{}", k % 7), State::Disordered), &[last]);
        }
        let g = Graph::from_events(&log.events);
        let tree = Tree::new(&g, last).expect("the event exists");
        assert_eq!(tree.lines.len(), 50_000);
        assert_eq!(tree.lines.last().map(|l| (l.seq, l.depth)), Some((0, 49_999)));
        assert_eq!(tree.chain.roots, vec![0]);
    }
}
