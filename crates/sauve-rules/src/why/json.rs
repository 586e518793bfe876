//! A why for scripts (`sauve why --json`): the tree as its nodes, each
//! naming the nodes it follows from, and the cascades as records. One JSON
//! object, on one line.

use serde::Serialize;

use crate::events::Seq;
use crate::sentences::Names;

use super::cascades::Cascade;
use super::graph::{Graph, ReadError};
use super::roots::{root_kind, start_kind};
use super::text::said;
use super::tree::Tree;

/// One event of a why.
#[derive(Serialize)]
pub struct Node {
    pub seq: Seq,
    pub turn: u32,
    pub side: Option<String>,
    pub phase: &'static str,
    pub kind: String,
    /// The unit it is about (a volley's target), if one.
    pub unit: Option<String>,
    pub sentence: String,
    /// The nodes it follows from, all in the same why.
    pub because: Vec<Seq>,
    /// For a root, what kind ("scripted shock", "order", "phase start").
    pub root: Option<&'static str>,
}

impl Node {
    fn of(g: &Graph, seq: Seq, root: bool, names: &dyn Names) -> Result<Node, ReadError> {
        let i = seq as usize;
        let e = g.event(i)?;
        let node = &g.nodes[i];
        Ok(Node {
            seq,
            turn: e.turn,
            side: e.side.clone(),
            phase: e.phase.name(),
            kind: g.kind_name(node).to_owned(),
            unit: node.unit.map(|u| g.unit_id(u).to_owned()),
            sentence: said(&e, names),
            because: g.causes(i).map(|c| c as Seq).collect(),
            root: root.then(|| root_kind(&e).words()),
        })
    }
}

#[derive(Serialize)]
struct TreeOut<'a> {
    target: Seq,
    /// The unit the target is about, if one.
    unit: Option<&'a str>,
    /// Every event of the chain, in log order (roots first, the target
    /// last).
    nodes: Vec<Node>,
    roots: Vec<Seq>,
}

/// The tree behind a fall: `{"target", "unit", "nodes": [...], "roots"}`.
pub fn tree(g: &Graph, tree: &Tree, names: &dyn Names) -> Result<String, ReadError> {
    let unit = g.nodes[tree.target() as usize].unit.map(|u| g.unit_id(u));
    let nodes = tree.chain.events.iter().map(|&s| Node::of(g, s, tree.is_root(s), names)).collect::<Result<_, _>>()?;
    let out = TreeOut { target: tree.target(), unit, nodes, roots: tree.chain.roots.clone() };
    Ok(serde_json::to_string(&out).unwrap_or_default() + "\n")
}

#[derive(Serialize)]
struct CascadeOut {
    start: Node,
    /// What kind of start: a root's kind, or a unit's own check in a
    /// segment.
    from: String,
    size: usize,
    depth: u32,
    /// The units it took, in the order they fell.
    units: Vec<String>,
}

#[derive(Serialize)]
struct CascadesOut {
    cascades: Vec<CascadeOut>,
}

/// The cascades: `{"cascades": [{"start", "from", "size", "depth",
/// "units"}, ...]}`, the largest first.
pub fn cascades(g: &Graph, cascades: &[Cascade], names: &dyn Names) -> Result<String, ReadError> {
    let mut out = CascadesOut { cascades: Vec::with_capacity(cascades.len()) };
    for c in cascades {
        let start = Node::of(g, c.start, g.because(c.start as usize).is_empty(), names)?;
        let e = g.event(c.start as usize)?;
        out.cascades.push(CascadeOut {
            start,
            from: start_kind(&e).words(),
            size: c.size(),
            depth: c.depth,
            units: c.units.iter().map(|&u| g.unit_id(u).to_owned()).collect(),
        });
    }
    Ok(serde_json::to_string(&out).unwrap_or_default() + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EventKind, EventLog};
    use crate::turn::Phase;
    use crate::vocab::State;
    use crate::why::names::Ids;

    #[test]
    fn every_cause_a_node_names_is_a_node_of_the_same_why() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let start = log.push(EventKind::PhaseStart {});
        let shock = log.push(EventKind::StateChange {
            unit: "a".into(),
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
            &[shock, start],
        );
        // A hand-cut log's cause that points nowhere.
        log.events[fell as usize].because.push(77);
        let g = Graph::from_events(&log.events);
        let t = Tree::new(&g, fell).expect("the fall");
        let v: serde_json::Value =
            serde_json::from_str(&tree(&g, &t, &Ids { free_space: false }).expect("writes")).expect("one JSON object");
        assert_eq!(v["target"], fell);
        assert_eq!(v["unit"], "b");
        let nodes = v["nodes"].as_array().expect("nodes");
        let seqs: Vec<u64> = nodes.iter().filter_map(|n| n["seq"].as_u64()).collect();
        assert_eq!(seqs, vec![start, shock, fell]);
        assert_eq!(nodes[2]["because"], serde_json::json!([shock, start]), "a cause that points nowhere is left out");
        assert_eq!(nodes[1]["root"], "scripted shock");
        assert_eq!(nodes[0]["root"], "phase start");
        assert_eq!(nodes[2]["root"], serde_json::Value::Null);
        assert_eq!(nodes[2]["phase"], "Shocks");
        assert_eq!(nodes[2]["kind"], "StateChange");
        assert_eq!(v["roots"], serde_json::json!([start, shock]));

        let found = crate::why::cascades::cascades(&g);
        let c: serde_json::Value =
            serde_json::from_str(&cascades(&g, &found, &Ids { free_space: false }).expect("writes")).expect("JSON");
        assert_eq!(c["cascades"][0]["size"], 1);
        assert_eq!(c["cascades"][0]["units"], serde_json::json!(["a"]));
        assert_eq!(c["cascades"][0]["from"], "scripted shock");
        // b's fall also follows from the segment's start, so it starts a
        // cascade of its own, and the shock's stops short of it.
        assert_eq!(c["cascades"][1]["start"]["seq"], fell);
        assert_eq!(c["cascades"][1]["units"], serde_json::json!(["b"]));
        assert_eq!(c["cascades"][1]["from"], "own check in the shocks segment");
    }
}
