//! The cause graph (docs/event-log.md, `because`): every event that
//! follows from another names it. Walked here on every bundled battle, with
//! the AI on both sides and with nobody giving orders, on seeds beyond the
//! golden logs' and on generated battles: each `because` points backwards to
//! an event that exists, each kind of effect points at the kind of cause the
//! rules give it, and every rout, flight, surrender and elimination traces
//! back to a root (a phase start, an order, a scripted shock).

use std::sync::Arc;

use sauve::events::{Cause, Event, EventKind, MoveReason};
use sauve::scenario::{Scenario, load, parse};
use sauve::sim::{Seats, Simulation};
use sauve::turn::Phase;
use sauve::vocab::State;

fn bundled() -> Vec<Arc<Scenario>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files.iter().map(|f| Arc::new(load(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))).collect()
}

/// The log as a script reads it: written as JSON Lines, read back.
fn played(s: &Arc<Scenario>, seed: u64, seats: Seats) -> Vec<Event> {
    let mut sim = Simulation::new(s.clone(), seed, Vec::new(), seats);
    sim.run();
    let text = sim.log().to_jsonl();
    text.lines()
        .map(|l| {
            let e: Event = serde_json::from_str(l).unwrap_or_else(|err| panic!("{}: cannot read {l}: {err}", s.name));
            // The reader and the writer agree, field for field.
            assert_eq!(serde_json::to_string(&e).expect("an event writes"), l, "{}: read back differently", s.name);
            e
        })
        .collect()
}

fn unit_of(e: &Event) -> Option<&str> {
    match &e.kind {
        EventKind::MoraleCheck { unit, .. }
        | EventKind::StateChange { unit, .. }
        | EventKind::Move { unit, .. }
        | EventKind::Surrendered { unit }
        | EventKind::Eliminated { unit, .. }
        | EventKind::LeftMap { unit, .. }
        | EventKind::Losses { unit, .. }
        | EventKind::Valour { unit, .. }
        | EventKind::Readiness { unit, .. }
        | EventKind::Formation { unit, .. } => Some(unit),
        _ => None,
    }
}

/// Whether `e` is one of the events the rules start from: a phase start, an
/// order (a volley, an attack, a march, a change of formation), a scripted
/// shock, cavalry resting. A melee, a charge's ride and the checks an
/// attack demands follow from the order to attack.
fn may_be_root(e: &Event) -> bool {
    match &e.kind {
        EventKind::PhaseStart {}
        | EventKind::Fire { .. }
        | EventKind::Attack { .. }
        | EventKind::Readiness { .. }
        | EventKind::Formation { .. }
        | EventKind::Facing { .. }
        | EventKind::Exited { .. }
        | EventKind::GameOver { .. }
        | EventKind::Final { .. }
        | EventKind::ReplayError { .. }
        | EventKind::LeaderJoined { .. } => true,
        EventKind::Move { reason, .. } => matches!(reason, MoveReason::Order),
        EventKind::StateChange { cause, .. } => *cause == Cause::Shock,
        EventKind::MoraleCheck { .. }
        | EventKind::Melee { .. }
        | EventKind::Surrendered { .. }
        | EventKind::Eliminated { .. }
        | EventKind::LeftMap { .. }
        | EventKind::Losses { .. }
        | EventKind::Valour { .. }
        | EventKind::GunsCaptured { .. }
        | EventKind::CorpsBroken { .. } => false,
    }
}

/// The roots `seq` traces back to.
fn roots(log: &[Event], seq: u64) -> Vec<u64> {
    let mut seen = vec![false; log.len()];
    let mut stack = vec![seq];
    let mut found = Vec::new();
    while let Some(s) = stack.pop() {
        if std::mem::replace(&mut seen[s as usize], true) {
            continue;
        }
        let e = &log[s as usize];
        if e.because.is_empty() {
            found.push(s);
        }
        stack.extend(&e.because);
    }
    found.sort_unstable();
    found
}

/// Checks one log; returns what is wrong, one line each.
fn walk(name: &str, log: &[Event]) -> Vec<String> {
    let mut bad = Vec::new();
    let mut say = |e: &Event, what: &str| bad.push(format!("{name}: seq {} ({:?}): {what}", e.seq, e.kind));
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e.seq, i as u64, "{name}: seq out of order");
        if e.because.iter().any(|&b| b >= e.seq) {
            say(e, "a cause that is not earlier");
            continue;
        }
        if e.because.is_empty() && !may_be_root(e) {
            say(e, "no cause");
            continue;
        }
        let causes: Vec<&Event> = e.because.iter().map(|&b| &log[b as usize]).collect();
        let about = |unit: &str| causes.iter().any(|c| unit_of(c) == Some(unit));
        let forced = |r: &MoveReason| {
            matches!(
                r,
                MoveReason::Rout
                    | MoveReason::Disorder
                    | MoveReason::Recovery
                    | MoveReason::Flight
                    | MoveReason::CarriedAlong
            )
        };
        let fault = match &e.kind {
            // A contagion check follows from the move of the unit that
            // passed; a stack-mate's also from the top unit's failure.
            EventKind::MoraleCheck { cause: Cause::Contagion, source: Some(s), .. } => {
                let by_move = causes.iter().any(|c| matches!(&c.kind, EventKind::Move { unit, .. } if unit == s));
                (!by_move).then_some("a contagion check not caused by the passing unit's move")
            }
            // A segment's roll follows from its start and from the fall
            // that left the unit shaken (none for a unit the scenario
            // starts shaken).
            EventKind::MoraleCheck { unit, cause: Cause::Recovery | Cause::Reorganisation, .. } => {
                let start = causes.iter().any(|c| matches!(c.kind, EventKind::PhaseStart {}) && c.phase == e.phase);
                let fall = causes.iter().any(|c| c.worsens() == Some(unit.as_str()));
                let other = causes
                    .iter()
                    .any(|c| !matches!(c.kind, EventKind::PhaseStart {}) && c.worsens() != Some(unit.as_str()));
                let fell = log[..i].iter().any(|x| x.worsens() == Some(unit.as_str()));
                (!start || other || fell != fall)
                    .then_some("a segment's roll not caused by the segment's start and the unit's fall")
            }
            // The checks an attack demands (an attacker's and a defender's
            // before the melee, a charged battalion's square, the results'
            // after it) and the melee itself go back to the order to attack.
            EventKind::MoraleCheck { cause: Cause::Melee | Cause::Charge, .. } | EventKind::Melee { .. } => {
                let ordered =
                    roots(log, e.seq).iter().any(|&r| matches!(log[r as usize].kind, EventKind::Attack { .. }));
                (!ordered).then_some("an attack's check or melee that does not go back to an order to attack")
            }
            EventKind::MoraleCheck { cause: Cause::Fire, .. } => {
                (!causes.iter().any(|c| matches!(c.kind, EventKind::Fire { .. })))
                    .then_some("a fire check not caused by a volley")
            }
            // A state change follows from the unit's own check, or from a
            // melee result, a move of its own (a cavalry zone) or, in free
            // space, a volley at it.
            EventKind::StateChange { unit, cause, .. } if *cause != Cause::Shock => {
                let by_melee = causes.iter().any(|c| matches!(c.kind, EventKind::Melee { .. }));
                let by_volley =
                    causes.iter().any(|c| matches!(&c.kind, EventKind::Fire { target, .. } if target == unit));
                (!about(unit) && !by_melee && !by_volley).then_some("a state change caused by nothing of its unit")
            }
            EventKind::Valour { unit, .. } => {
                (!about(unit)).then_some("a fall of valour caused by nothing of its unit")
            }
            // A forced move follows from its unit's state change or check.
            EventKind::Move { unit, reason, .. } if forced(reason) => {
                let own = causes.iter().any(|c| {
                    unit_of(c) == Some(unit.as_str())
                        && matches!(c.kind, EventKind::StateChange { .. } | EventKind::MoraleCheck { .. })
                });
                // A scripted shock on a unit already in its state changes
                // nothing: its move follows from the shocks segment.
                let shocked = e.phase == Phase::Shocks
                    && causes.iter().all(|c| matches!(c.kind, EventKind::PhaseStart {}) && c.phase == Phase::Shocks);
                (!own && !shocked).then_some("a forced move not caused by its unit's state change or check")
            }
            EventKind::Losses { .. } => {
                (!causes.iter().all(|c| matches!(c.kind, EventKind::Fire { .. } | EventKind::Melee { .. })))
                    .then_some("losses not caused by fire or melee")
            }
            EventKind::Eliminated { unit, .. } | EventKind::LeftMap { unit, .. } => {
                (!about(unit)).then_some("an elimination caused by nothing of its unit")
            }
            EventKind::CorpsBroken { .. } => causes
                .iter()
                .any(|c| c.worsens().is_none())
                .then_some("a corps broken by something that befell none of its units"),
            _ => None,
        };
        if let Some(f) = fault {
            say(e, f);
        }
        // Every rout, flight, surrender and elimination traces to roots the
        // rules start from.
        let fate = matches!(
            &e.kind,
            EventKind::StateChange { to: State::Routed | State::FU, .. }
                | EventKind::Surrendered { .. }
                | EventKind::Eliminated { .. }
                | EventKind::Move { reason: MoveReason::Rout | MoveReason::Flight, .. }
        );
        if fate {
            let r = roots(log, e.seq);
            if r.is_empty() || r.iter().any(|&s| !may_be_root(&log[s as usize])) {
                say(e, "does not trace back to a root");
            }
        }
    }
    bad
}

#[test]
fn every_bundled_battle_is_a_graph_whose_causes_point_backwards() {
    let mut bad = Vec::new();
    let mut linked = 0;
    for s in bundled() {
        for (seed, seats) in [(1, Seats::Watch), (2, Seats::Watch), (3, Seats::Watch), (4, Seats::Nobody)] {
            let log = played(&s, seed, seats);
            linked += log.iter().filter(|e| !e.because.is_empty()).count();
            bad.extend(walk(&format!("{} seed {seed}", s.name), &log));
        }
    }
    assert!(linked > 1000, "only {linked} events name a cause");
    assert!(bad.is_empty(), "{} faults:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

#[test]
fn generated_battles_are_graphs_too() {
    let mut bad = Vec::new();
    for seed in [11, 12] {
        let text = sauve::generate::scenario_text(40, 30, 80, seed);
        let s = Arc::new(parse(&text, "generated.ron").unwrap_or_else(|e| panic!("{e}")));
        bad.extend(walk(&format!("generated {seed}"), &played(&s, seed, Seats::Watch)));
    }
    assert!(bad.is_empty(), "{} faults:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

/// A known cascade: in the bundled `cascade` battle (seed 1, no orders) the
/// scripted shock that routs the 1st battalion of the 2e Ligne sets off the
/// whole first-turn cascade; every unit disordered in the shocks segment
/// traces back to it alone, through the moves of the units that passed it.
#[test]
fn the_cascade_battle_traces_back_to_its_shock() {
    let s = bundled().into_iter().find(|s| s.name.starts_with("Cascade")).expect("the cascade battle");
    let log = played(&s, 1, Seats::Nobody);
    let shock = log
        .iter()
        .find(|e| matches!(&e.kind, EventKind::StateChange { cause: Cause::Shock, .. }))
        .expect("a scripted shock");
    let Some(first_unit) = unit_of(shock) else { panic!("the shock names a unit") };
    let taken: Vec<&Event> = log
        .iter()
        .filter(|e| e.turn == 1 && e.phase == shock.phase && e.seq != shock.seq)
        .filter(|e| matches!(&e.kind, EventKind::StateChange { to: State::Disordered | State::Routed, .. }))
        .collect();
    assert!(taken.len() >= 5, "the first turn's cascade takes {} units", taken.len());
    for e in taken {
        assert_eq!(roots(&log, e.seq), vec![shock.seq], "{:?} traces elsewhere than to {first_unit}'s shock", e.kind);
        // The chain runs through contagion checks, each caused by a move.
        let EventKind::StateChange { cause, .. } = &e.kind else { unreachable!() };
        assert_eq!(*cause, Cause::Contagion);
    }
}
