//! The cascades of a log, read off its cause graph (docs/why.md,
//! Cascades). A cascade starts where [`starts_cascade`] says: a root other
//! than a phase start (a scripted shock, a volley, an attack, a charge),
//! or a unit's own check in a segment (each recovery failure is its own
//! start, not the whole segment one cascade). It takes every unit with a
//! fall that descends from its start, the start itself included, short of
//! another cascade's start: a unit's check in a segment follows from its
//! earlier fall too, but a failure there is a new trial, and what it shakes
//! is its own cascade's, as the end-of-game summary counts it. Its depth
//! is the most hops from one unit to another along a chain of causes from
//! the start to a fall: each time the chain passes from an event about one
//! unit to an event about another (a unit's move to a friend's contagion
//! check, a top unit's failed check to its stack-mate's).

use crate::events::Seq;

use super::graph::Graph;
use super::roots::starts_cascade;

/// One cascade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cascade {
    /// The event it starts from.
    pub start: Seq,
    /// The units it took (indices of the graph's units), each once, in
    /// the order of their first fall in it.
    pub units: Vec<u32>,
    /// Hops from unit to unit along its longest chain to a fall: 0 when
    /// the falls are all the first unit's.
    pub depth: u32,
}

impl Cascade {
    /// Units it took.
    pub fn size(&self) -> usize {
        self.units.len()
    }
}

/// The events about a unit nearest behind an event, for the depth: the
/// deepest (with its unit), and the deepest of any other unit; all that is
/// needed to tell how deep the next event about any unit is.
#[derive(Clone, Copy, Debug, Default)]
struct Deepest {
    best: Option<(u32, u32)>,
    other: Option<(u32, u32)>,
}

impl Deepest {
    /// Adds an event about `unit` at `depth`.
    fn add(&mut self, depth: u32, unit: u32) {
        match self.best {
            None => self.best = Some((depth, unit)),
            Some((d, u)) if u == unit => self.best = Some((d.max(depth), u)),
            Some((d, u)) if depth > d => {
                self.other = Some((d, u));
                self.best = Some((depth, unit));
            }
            Some(_) => {
                if self.other.is_none_or(|(d, _)| depth > d) {
                    self.other = Some((depth, unit));
                }
            }
        }
    }

    fn merge(&mut self, o: Deepest) {
        for (d, u) in [o.best, o.other].into_iter().flatten() {
            self.add(d, u);
        }
    }

    /// How deep an event about `unit` after these is: one hop more than
    /// an event about another unit, as deep as one about itself.
    fn after(&self, unit: u32) -> u32 {
        match (self.best, self.other) {
            (None, _) => 0,
            (Some((d, u)), _) if u != unit => d + 1,
            (Some((d, _)), other) => other.map_or(d, |(o, _)| d.max(o + 1)),
        }
    }
}

/// Every cascade of the log that took a unit, the largest first (equal
/// sizes in the order they started).
pub fn cascades(g: &Graph) -> Vec<Cascade> {
    let n = g.len();
    // What follows from each event: the causes turned round.
    let mut first = vec![0u32; n + 1];
    for i in 0..n {
        for c in g.causes(i) {
            first[c + 1] += 1;
        }
    }
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut effects = vec![0u32; first[n] as usize];
    for i in 0..n {
        for c in g.causes(i) {
            effects[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
    }
    let effects_of = |i: usize| &effects[first[i] as usize..first[i + 1] as usize];

    // Marks of the cascade being read (its number), so nothing is cleared
    // between cascades.
    let mut member = vec![u32::MAX; n];
    let mut took = vec![u32::MAX; g.units().len()];
    let mut deepest = vec![Deepest::default(); n];
    let mut out = Vec::new();
    let mut todo = Vec::new();
    let mut members = Vec::new();
    let starts: Vec<bool> = (0..n).map(|i| starts_cascade(g, i)).collect();
    for (k, s) in (0..n).filter(|&i| starts[i]).enumerate() {
        let k = k as u32;
        members.clear();
        todo.push(s);
        member[s] = k;
        while let Some(i) = todo.pop() {
            members.push(i);
            for &e in effects_of(i) {
                let e = e as usize;
                if !starts[e] && std::mem::replace(&mut member[e], k) != k {
                    todo.push(e);
                }
            }
        }
        members.sort_unstable();
        let mut cascade = Cascade { start: s as Seq, units: Vec::new(), depth: 0 };
        for &i in &members {
            let mut behind = Deepest::default();
            for c in g.causes(i).filter(|&c| member[c] == k) {
                behind.merge(deepest[c]);
            }
            let node = &g.nodes[i];
            // An event about no one unit (a melee) passes on what is
            // behind it.
            deepest[i] = match node.unit {
                Some(u) => {
                    let depth = behind.after(u);
                    if node.gravity > 0 {
                        cascade.depth = cascade.depth.max(depth);
                        if std::mem::replace(&mut took[u as usize], k) != k {
                            cascade.units.push(u);
                        }
                    }
                    Deepest { best: Some((depth, u)), other: None }
                }
                None => behind,
            };
        }
        if !cascade.units.is_empty() {
            out.push(cascade);
        }
    }
    out.sort_by_key(|c| (std::cmp::Reverse(c.size()), c.start));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EventKind, EventLog, MoveReason, Pos};
    use crate::turn::Phase;
    use crate::vocab::State;

    fn change(unit: &str, to: State, cause: Cause) -> EventKind {
        EventKind::StateChange { unit: unit.into(), from: State::GoodOrder, to, cause }
    }

    fn moved(unit: &str) -> EventKind {
        EventKind::Move {
            unit: unit.into(),
            reason: MoveReason::Disorder,
            from: Pos::Hex([0, 0]),
            to: Pos::Hex([0, 1]),
            path: vec![Pos::Hex([0, 0]), Pos::Hex([0, 1])],
        }
    }

    fn check(unit: &str, cause: Cause, passed: bool) -> EventKind {
        EventKind::MoraleCheck {
            unit: unit.into(),
            cause,
            morale: 40,
            modifier: 0,
            roll: 30,
            result: 30,
            passed,
            source: None,
        }
    }

    /// A unit shaken by the one before it: its check, its fall, its move.
    fn shaken(log: &mut EventLog, unit: &str, by: &[Seq]) -> (Seq, Seq) {
        let c = log.push_because(check(unit, Cause::Contagion, false), by);
        let f = log.push_because(change(unit, State::Disordered, Cause::Contagion), &[c]);
        (f, log.push_because(moved(unit), &[f]))
    }

    fn ids(g: &Graph, c: &Cascade) -> Vec<String> {
        c.units.iter().map(|&u| g.unit_id(u).to_owned()).collect()
    }

    #[test]
    fn a_shock_takes_every_unit_whose_fall_descends_from_it() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        log.push(EventKind::PhaseStart {});
        let shock = log.push(change("a", State::Routed, Cause::Shock));
        let a_moves = log.push_because(moved("a"), &[shock]);
        let (_, b_moves) = shaken(&mut log, "b", &[a_moves]);
        let (c_fell, _) = shaken(&mut log, "c", &[b_moves]);
        // A stack-mate of c's, checked because c failed as well.
        let (_, _) = shaken(&mut log, "d", &[b_moves, c_fell - 1]);
        // A passed check takes nobody.
        log.push_because(check("e", Cause::Contagion, true), &[a_moves]);
        let g = Graph::from_events(&log.events);
        let found = cascades(&g);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].start, shock);
        assert_eq!(ids(&g, &found[0]), ["a", "b", "c", "d"]);
        // a -> b -> c, then c's failed check -> d's: three hops.
        assert_eq!(found[0].depth, 3);
    }

    #[test]
    fn each_check_of_a_segment_starts_its_own_cascade_and_the_largest_comes_first() {
        let mut log = EventLog::default();
        log.set_stamp(1, Some("fr"), Phase::MoraleRecovery);
        let start = log.push(EventKind::PhaseStart {});
        for (unit, followers) in [("a", 0), ("b", 2), ("c", 1)] {
            let c = log.push_because(check(unit, Cause::Recovery, false), &[start]);
            let f = log.push_because(change(unit, State::Routed, Cause::Recovery), &[c]);
            let mut last = log.push_because(moved(unit), &[f]);
            for k in 0..followers {
                last = shaken(&mut log, &format!("{unit}{k}"), &[last]).1;
            }
        }
        let g = Graph::from_events(&log.events);
        let found = cascades(&g);
        let sizes: Vec<(usize, u32)> = found.iter().map(|c| (c.size(), c.depth)).collect();
        assert_eq!(sizes, vec![(3, 2), (2, 1), (1, 0)]);
        assert_eq!(ids(&g, &found[0]), ["b", "b0", "b1"]);
        assert!(found.iter().all(|c| g.nodes[c.start as usize].kind == g.nodes[1].kind), "each starts at a check");
    }

    /// A shaken unit's recovery check follows from its segment and from the
    /// fall that shook it; failing it starts a cascade of its own, and the
    /// one that shook it ends there.
    #[test]
    fn a_failed_recovery_check_starts_anew_though_it_follows_from_the_earlier_fall() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let shock = log.push(change("a", State::Routed, Cause::Shock));
        let a_moves = log.push_because(moved("a"), &[shock]);
        let (b_fell, _) = shaken(&mut log, "b", &[a_moves]);
        log.set_stamp(1, Some("fr"), Phase::MoraleRecovery);
        let start = log.push(EventKind::PhaseStart {});
        let check = log.push_because(check("b", Cause::Recovery, false), &[start, b_fell]);
        let routs = log.push_because(change("b", State::Routed, Cause::Recovery), &[check]);
        let b_routs = log.push_because(moved("b"), &[routs]);
        shaken(&mut log, "c", &[b_routs]);
        let g = Graph::from_events(&log.events);
        let found = cascades(&g);
        let read: Vec<(Seq, Vec<String>, u32)> = found.iter().map(|c| (c.start, ids(&g, c), c.depth)).collect();
        assert_eq!(read, vec![(shock, vec!["a".into(), "b".into()], 1), (check, vec!["b".into(), "c".into()], 1)]);
    }

    #[test]
    fn a_volley_is_a_start_and_a_unit_falling_twice_counts_once() {
        let mut log = EventLog::default();
        log.set_stamp(1, Some("ru"), Phase::OffensiveFire);
        let fire = log.push(EventKind::Fire {
            units: vec!["r".into()],
            target: "t".into(),
            rolled: crate::events::FireRoll::Hex {
                firepower: 4.0,
                column: 2,
                roll: 36,
                total: 9,
                result: crate::rules::combat::FireResult { losses: 1, check: Some(0) },
            },
        });
        let c = log.push_because(check("t", Cause::Fire, false), &[fire]);
        let dis = log.push_because(change("t", State::Disordered, Cause::Fire), &[c]);
        let back = log.push_because(moved("t"), &[dis]);
        let (_, _) = shaken(&mut log, "u", &[back]);
        log.push_because(change("t", State::Routed, Cause::CavalryZone), &[back]);
        let g = Graph::from_events(&log.events);
        let found = cascades(&g);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].start, ids(&g, &found[0]), found[0].depth), (fire, vec!["t".into(), "u".into()], 1));
    }

    #[test]
    fn the_deepest_fall_of_another_unit_is_kept_beside_the_deepest() {
        let mut d = Deepest::default();
        d.add(3, 7);
        d.add(1, 8);
        d.add(2, 9);
        assert_eq!(d.after(7), 3, "as deep as its own, or one past unit 9's");
        assert_eq!(d.after(8), 4);
        d.add(5, 9);
        assert_eq!((d.best, d.other), (Some((5, 9)), Some((3, 7))));
        assert_eq!(d.after(9), 5);
        assert_eq!(Deepest::default().after(1), 0);
    }
}
