//! `sauve why` through the real binary, on the bundled `cascade` battle
//! (seed 1, no orders) as `sauve simulate` writes its log. What the output
//! should say is worked out here from the log itself, read whole with
//! `Event`'s own reader and walked by hand, never from the why's code; and
//! the why's light reading of a log is checked against the whole events
//! on every golden log.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use sauve::events::{Cause, Event, EventKind};
use sauve::scenario::{Scenario, load};
use sauve::turn::Phase;
use sauve::why::graph::Graph;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    // The build's own scratch folder: one folder, shared by every test
    // here and written over by the next run, rather than one more in /tmp
    // each run.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sauve-why");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn sauve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sauve")).args(args).output().expect("the sauve binary runs")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "sauve failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn cascade_ron() -> PathBuf {
    root().join("scenarios/cascade.ron")
}

/// The cascade battle's log, simulated once for every test here: its file
/// and its events.
fn battle() -> &'static (PathBuf, Vec<Event>) {
    static BATTLE: OnceLock<(PathBuf, Vec<Event>)> = OnceLock::new();
    BATTLE.get_or_init(|| {
        let log = scratch().join("cascade.jsonl");
        let ron = cascade_ron();
        let out = sauve(&["simulate", p(&ron), "--seed", "1", "--ai", "none", "--events", p(&log)]);
        stdout(&out);
        let text = std::fs::read_to_string(&log).expect("the log was written");
        let events = text.lines().map(|l| serde_json::from_str(l).expect("an event")).collect();
        (log, events)
    })
}

fn p(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn scenario() -> Scenario {
    load(&cascade_ron()).expect("the bundled cascade")
}

/// The scripted shock that opens the battle: the scenario's first shock,
/// found in the log.
fn shock(log: &[Event]) -> &Event {
    let s = scenario();
    let unit = &s.units[s.shocks[0].unit].id;
    log.iter()
        .find(|e| matches!(&e.kind, EventKind::StateChange { unit: u, cause: Cause::Shock, .. } if u == unit))
        .expect("the shock is in the log")
}

/// Every event `seq` follows from, itself included, walked by hand.
fn behind(log: &[Event], seq: u64) -> BTreeSet<u64> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![seq];
    while let Some(s) = todo.pop() {
        if seen.insert(s) {
            todo.extend(&log[s as usize].because);
        }
    }
    seen
}

/// The worst fall of a unit, the latest of equals, by hand: surrender,
/// elimination or leaving the map over rout over disorder.
fn worst_fall(log: &[Event], unit: &str) -> Option<u64> {
    let rank = |e: &Event| match &e.kind {
        EventKind::StateChange { to, .. } => match format!("{to:?}").as_str() {
            "Routed" | "FU" => 2,
            "Surrendered" | "Eliminated" => 3,
            _ => 1,
        },
        _ => 3,
    };
    log.iter().filter(|e| e.worsens() == Some(unit)).max_by_key(|e| (rank(e), e.seq)).map(|e| e.seq)
}

/// A printed tree's lines as (indent, seq, a back-reference?), the
/// heading and the closing notes left out.
fn tree_lines(text: &str) -> Vec<(usize, u64, bool)> {
    text.lines()
        .filter_map(|l| {
            let body = l.trim_start();
            let depth = (l.len() - body.len()) / 2;
            let (again, rest) = match body.strip_prefix("(see #") {
                Some(r) => (true, r),
                None => (false, body.strip_prefix('#')?),
            };
            let seq = rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
            Some((depth, seq, again))
        })
        .collect()
}

/// The units the first turn's cascade shook by contagion (in the shocks
/// segment), with their worst fall, which may be that or a later one.
fn taken_in_the_shocks(log: &[Event]) -> Vec<(String, u64)> {
    let mut units = Vec::new();
    for e in log.iter().filter(|e| e.turn == 1 && e.phase == Phase::Shocks) {
        if let (EventKind::StateChange { unit, cause: Cause::Contagion, .. }, Some(worst)) =
            (&e.kind, e.worsens().and_then(|u| worst_fall(log, u)))
            && !units.iter().any(|(u, _)| u == unit)
        {
            units.push((unit.clone(), worst));
        }
    }
    units
}

#[test]
fn the_why_of_a_unit_the_first_cascade_took_runs_back_to_the_shock_through_its_contagion_checks() {
    let (file, log) = battle();
    let shock = shock(log);
    let taken = taken_in_the_shocks(log);
    assert!(taken.len() >= 5, "the first turn's cascade took {} units", taken.len());
    assert!(taken.iter().any(|(_, f)| log[*f as usize].phase != Phase::Shocks), "some fell worse later");
    for (unit, fall) in taken {
        let text = stdout(&sauve(&["why", p(file), &unit]));
        let lines = tree_lines(&text);
        assert_eq!(lines[0], (0, fall, false), "the fall at the top:\n{text}");
        // Every event behind the fall is printed once, and only those.
        let printed: BTreeSet<u64> = lines.iter().filter(|l| !l.2).map(|l| l.1).collect();
        assert_eq!(printed, behind(log, fall), "{unit}:\n{text}");
        assert_eq!(lines.iter().filter(|l| !l.2).count(), printed.len(), "each laid out once:\n{text}");
        // Each line hangs under an event that follows from it.
        for (k, &(depth, seq, _)) in lines.iter().enumerate().skip(1) {
            let parent = lines[..k].iter().rev().find(|l| l.0 + 1 == depth).expect("a line above");
            assert!(log[parent.1 as usize].because.contains(&seq), "#{seq} under #{}:\n{text}", parent.1);
        }
        // A back-reference points at a line above it.
        for (k, l) in lines.iter().enumerate().filter(|(_, l)| l.2) {
            assert!(lines[..k].iter().any(|m| m.1 == l.1 && !m.2), "(see #{}) before its line:\n{text}", l.1);
        }
        // The shock is its root, and the way there runs through every
        // contagion check the log gives.
        let root_line = text.lines().find(|l| l.trim_start().starts_with(&format!("#{} ", shock.seq))).expect("shock");
        assert!(root_line.ends_with("[root: scripted shock]"), "{root_line}");
        // Every root marked, and only roots: the shock, and for a later
        // fall in a segment, the segment's start.
        let roots: Vec<u64> = behind(log, fall).into_iter().filter(|&s| log[s as usize].because.is_empty()).collect();
        assert_eq!(text.matches("[root:").count(), roots.len(), "{text}");
        for r in roots {
            assert!(r == shock.seq || matches!(log[r as usize].kind, EventKind::PhaseStart {}), "root #{r}:\n{text}");
        }
        let checks: Vec<u64> = behind(log, fall)
            .into_iter()
            .filter(|&s| matches!(log[s as usize].kind, EventKind::MoraleCheck { cause: Cause::Contagion, .. }))
            .collect();
        assert!(!checks.is_empty());
        for c in checks {
            let line = text.lines().find(|l| l.trim_start().starts_with(&format!("#{c} "))).expect("the check");
            assert!(line.contains("morale check for contagion from"), "{line}");
        }
    }
}

/// A unit's worst fall may come later than the first cascade (a failed
/// recovery check routs it): its fall in the cascade itself is asked for
/// by `--event` (which the why's closing line offers when the worst fall's
/// tree does not show it), and runs back to the shock alone.
#[test]
fn every_fall_of_the_first_cascade_runs_back_to_the_shock_by_its_event() {
    let (file, log) = battle();
    let shock = shock(log);
    let falls: Vec<&Event> = log
        .iter()
        .filter(|e| e.turn == 1 && e.phase == Phase::Shocks && e.seq != shock.seq && e.worsens().is_some())
        .collect();
    assert!(falls.len() >= 5, "the first turn's cascade takes {} units", falls.len());
    let mut later = 0;
    for fall in falls {
        let unit = fall.worsens().expect("a unit");
        let worst = worst_fall(log, unit).expect("it fell");
        if worst != fall.seq {
            // The worst fall's why shows this one if it follows from it,
            // and otherwise names it at the end.
            later += 1;
            let text = stdout(&sauve(&["why", p(file), unit]));
            let shown = tree_lines(&text).iter().any(|l| l.1 == fall.seq && !l.2);
            let named = text
                .lines()
                .last()
                .is_some_and(|l| l.starts_with("Its other falls: ") && l.contains(&format!("#{} ", fall.seq)));
            assert_eq!(
                (shown, named),
                (behind(log, worst).contains(&fall.seq), !behind(log, worst).contains(&fall.seq)),
                "{text}"
            );
        }
        let text = stdout(&sauve(&["why", p(file), "--event", &fall.seq.to_string()]));
        let lines = tree_lines(&text);
        assert_eq!(lines[0], (0, fall.seq, false), "{text}");
        let printed: BTreeSet<u64> = lines.iter().filter(|l| !l.2).map(|l| l.1).collect();
        assert_eq!(printed, behind(log, fall.seq), "{text}");
        assert!(text.contains(&format!("#{} turn 1, shocks: ", shock.seq)) && text.contains("[root: scripted shock]"));
    }
    assert!(later > 0, "some unit fell worse later");
    let err = refused(&["why", p(file), "--event", &log.len().to_string()]);
    assert!(err.contains(p(file)) && err.contains(&format!("--event {}", log.len())), "{err}");
}

#[test]
fn json_nodes_name_only_causes_that_are_nodes_of_it() {
    let (file, log) = battle();
    // The unit whose chain is widest: most events behind its fall.
    let (unit, fall) = taken_in_the_shocks(log).into_iter().max_by_key(|(_, f)| behind(log, *f).len()).expect("one");
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&sauve(&["why", p(file), &unit, "--json"]))).expect("one JSON object");
    assert_eq!(v["target"], fall);
    assert_eq!(v["unit"], unit.as_str());
    let nodes = v["nodes"].as_array().expect("nodes");
    let seqs: BTreeSet<u64> = nodes.iter().filter_map(|n| n["seq"].as_u64()).collect();
    assert_eq!(seqs, behind(log, fall));
    for n in nodes {
        let seq = n["seq"].as_u64().expect("a seq");
        let because: Vec<u64> = n["because"].as_array().expect("because").iter().filter_map(|b| b.as_u64()).collect();
        assert!(because.iter().all(|b| seqs.contains(b)), "node {seq} names a cause outside: {because:?}");
        assert_eq!(because, log[seq as usize].because, "node {seq}");
        assert!(n["sentence"].as_str().is_some_and(|s| !s.is_empty()));
        assert_eq!(n["root"].is_string(), because.is_empty(), "node {seq}");
    }
    let roots: Vec<u64> = behind(log, fall).into_iter().filter(|&s| log[s as usize].because.is_empty()).collect();
    assert_eq!(v["roots"], serde_json::json!(roots));
    assert!(roots.contains(&shock(log).seq));
}

#[test]
fn dot_writes_a_digraph_with_an_edge_for_every_cause() {
    let (file, log) = battle();
    let (unit, fall) = taken_in_the_shocks(log).into_iter().next().expect("one");
    let dot = stdout(&sauve(&["why", p(file), &unit, "--dot"]));
    assert!(dot.starts_with("digraph"), "{dot}");
    let edges: usize = behind(log, fall).iter().map(|&s| log[s as usize].because.len()).sum();
    assert_eq!(dot.matches(" -> ").count(), edges, "{dot}");
    assert!(dot.contains(&format!("e{} -> ", shock(log).seq)));
    // Graphviz, where it is installed, reads it.
    if let Ok(mut child) =
        Command::new("dot").arg("-Tsvg").stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::null()).spawn()
    {
        use std::io::Write;
        let _ = child.stdin.take().map(|mut i| i.write_all(dot.as_bytes()));
        assert!(child.wait().expect("dot runs").success(), "dot refused:\n{dot}");
    }
}

#[test]
fn cascades_are_listed_by_size_and_the_first_turn_shock_is_the_largest() {
    let (file, log) = battle();
    // Cascades by hand: each start (a root other than a phase start, or an
    // event following from one) and the units with a fall it leads to.
    let mut effects: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for e in log {
        for &b in &e.because {
            effects.entry(b).or_default().push(e.seq);
        }
    }
    let phase_start = |s: &u64| matches!(log[*s as usize].kind, EventKind::PhaseStart {});
    let starts =
        |e: &Event| if e.because.is_empty() { !phase_start(&e.seq) } else { e.because.iter().any(phase_start) };
    let mut expected: Vec<(usize, u64, Vec<String>)> = Vec::new();
    for e in log.iter().filter(|e| starts(e)) {
        // Everything that follows, short of another cascade's start.
        let mut seen = BTreeSet::new();
        let mut todo = vec![e.seq];
        while let Some(s) = todo.pop() {
            if seen.insert(s) {
                todo.extend(effects.get(&s).into_iter().flatten().filter(|&&x| !starts(&log[x as usize])));
            }
        }
        // Its units, each once, in the order of their first fall.
        let mut units: Vec<String> = Vec::new();
        for u in seen.iter().filter_map(|&s| log[s as usize].worsens()) {
            if !units.iter().any(|t| t == u) {
                units.push(u.to_owned());
            }
        }
        if !units.is_empty() {
            expected.push((units.len(), e.seq, units));
        }
    }
    expected.sort_by_key(|(size, seq, _)| (std::cmp::Reverse(*size), *seq));

    let v: serde_json::Value =
        serde_json::from_str(&stdout(&sauve(&["why", p(file), "--cascades", "--json"]))).expect("JSON");
    let listed: Vec<(usize, u64, Vec<String>)> = v["cascades"]
        .as_array()
        .expect("cascades")
        .iter()
        .map(|c| {
            let units = c["units"].as_array().expect("units").iter().filter_map(|u| u.as_str().map(str::to_owned));
            (c["size"].as_u64().expect("size") as usize, c["start"]["seq"].as_u64().expect("seq"), units.collect())
        })
        .collect();
    assert_eq!(listed, expected);
    let shock = shock(log);
    assert_eq!(listed[0].1, shock.seq, "the shock's cascade first");
    assert!(listed[0].0 > listed[1].0, "and the largest: {listed:?}");
    assert_eq!(v["cascades"][0]["from"], "scripted shock");

    let text = stdout(&sauve(&["why", p(file), "--cascades"]));
    let second = text.lines().nth(1).expect("the largest's line");
    assert!(second.starts_with(&format!("{} units, depth ", listed[0].0)), "{text}");
    assert!(second.contains(&format!("from #{} ", shock.seq)), "{text}");
}

#[test]
fn a_scenario_gives_the_sentences_their_names() {
    let (file, log) = battle();
    let s = scenario();
    let shocked = &s.units[s.shocks[0].unit];
    let text = stdout(&sauve(&["why", p(file), &shocked.id, "--scenario", p(&cascade_ron())]));
    assert!(text.contains(&format!("#{} turn 1, shocks: {} routs", shock(log).seq, shocked.name)), "{text}");
    assert!(text.starts_with(&format!("Why {} ({})", shocked.name, shocked.id)), "{text}");
    // A unit may be asked for by its name, too.
    let by_name = stdout(&sauve(&["why", p(file), &shocked.name, "--scenario", p(&cascade_ron())]));
    assert_eq!(by_name, text);
}

/// A refusal: not 0, and stderr, which is returned.
fn refused(args: &[&str]) -> String {
    let out = sauve(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(out.stdout.is_empty(), "{args:?} printed an answer");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_input_is_refused_with_the_file_named() {
    let (file, log) = battle();
    let dir = scratch();
    let missing = dir.join("no-such.jsonl");
    let err = refused(&["why", p(&missing), "fr-1-2"]);
    assert!(err.starts_with(&format!("{}: error: cannot read the event log", p(&missing))), "{err}");

    let text = std::fs::read_to_string(file).expect("the log");
    let mut lines: Vec<&str> = text.lines().collect();
    lines[6] = r#"{"seq":6,"turn":1,"side":null,"phase":"Shocks","kind":"Move","#;
    let bad = dir.join("bad-line.jsonl");
    std::fs::write(&bad, lines.join("\n")).expect("written");
    let err = refused(&["why", p(&bad), "fr-1-2"]);
    assert!(err.starts_with(&format!("{}:7:", p(&bad))), "the file and line 7: {err}");

    let shocked = shock(log).worsens().expect("a unit").to_owned();
    let slip = format!("{shocked}x");
    let err = refused(&["why", p(file), &slip]);
    assert!(err.contains(p(file)) && err.contains(&format!("no unit '{slip}'")), "{err}");
    assert!(err.contains(&shocked), "the nearest id offered: {err}");

    let err = refused(&["why", p(file), "zzzzzzzzzzzz"]);
    let Some(EventKind::Final { units }) = log.last().map(|e| &e.kind) else { panic!("a roll call") };
    assert!(err.contains(&format!("it knows {} units", units.len())), "{err}");

    let quiet = units.iter().find(|u| worst_fall(log, &u.id).is_none()).expect("a unit nothing befell");
    let err = refused(&["why", p(file), &quiet.id]);
    assert!(err.contains(&format!("nothing befell {}", quiet.id)) && err.contains(p(file)), "{err}");

    let last_turn = log.iter().map(|e| e.turn).max().expect("turns");
    let err = refused(&["why", p(file), &shocked, "--turn", &(last_turn + 1).to_string()]);
    assert!(err.contains(p(file)) && err.contains(&format!("--turn {}", last_turn + 1)), "{err}");
    let quiet_turn = (1..=last_turn)
        .find(|&t| !log.iter().any(|e| e.turn == t && e.worsens() == Some(shocked.as_str())))
        .expect("a turn the shocked unit came through");
    let err = refused(&["why", p(file), &shocked, "--turn", &quiet_turn.to_string()]);
    assert!(err.contains(&format!("nothing befell {shocked} on turn {quiet_turn}")), "{err}");

    let out = sauve(&["why", p(file)]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("<UNIT|--event <SEQ>|--cascades>"));
}

/// The why reads a file lightly, for speed; on every golden log its falls
/// and chains are those of the whole events as the window reads them.
#[test]
fn the_light_reading_finds_the_falls_and_chains_of_the_whole_events() {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(root().join("tests/golden"))
        .expect("the golden logs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.sort();
    assert!(!logs.is_empty());
    for path in logs {
        let text = std::fs::read_to_string(&path).expect("a golden log");
        let events: Vec<Event> = text.lines().map(|l| serde_json::from_str(l).expect("an event")).collect();
        let g = Graph::read(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        assert_eq!(g.len(), events.len());
        for unit in g.units() {
            let u = g.unit(unit).expect("known");
            let fall = g.fate(u, None);
            assert_eq!(fall, sauve::why::fate_event(&events, unit, None), "{}: {unit}", path.display());
            if let Some(f) = fall {
                assert_eq!(g.chain(f), sauve::why::chain(&events, f), "{}: {unit}", path.display());
                assert_eq!(g.event(f as usize).expect("reads").as_ref(), &events[f as usize]);
            }
        }
    }
}

/// The log of `sauve simulate FILE --seed SEED --ai both`, written under
/// `name` in the scratch folder, and its events.
fn ai_battle(file: &str, seed: u64, name: &str) -> (PathBuf, Vec<Event>) {
    let log = scratch().join(name);
    let ron = root().join("scenarios").join(file);
    stdout(&sauve(&["simulate", p(&ron), "--seed", &seed.to_string(), "--ai", "both", "--events", p(&log)]));
    let text = std::fs::read_to_string(&log).expect("the log was written");
    (log, text.lines().map(|l| serde_json::from_str(l).expect("an event")).collect())
}

/// An attack is an event of its own, before its checks, which follow
/// from it: the why of a pre-melee check (hex mode) or of a charged
/// battalion's square test (free space) says who was ordered to attack
/// whom, marked as an order.
#[test]
fn the_why_of_an_attacks_check_names_the_order_to_attack() {
    for (file, seed, cause) in [("dennewitz-1813.ron", 1, Cause::Melee), ("ligny-1815.ron", 1, Cause::Charge)] {
        let (log, events) = ai_battle(file, seed, &format!("{file}.jsonl"));
        // The first check an attack demanded before its melee.
        let check = events
            .iter()
            .find(|e| {
                matches!(&e.kind, EventKind::MoraleCheck { cause: c, .. } if *c == cause)
                    && e.because.iter().any(|&b| matches!(events[b as usize].kind, EventKind::Attack { .. }))
            })
            .unwrap_or_else(|| panic!("{file}: no {cause:?} check follows from an attack"));
        let attack = check.because.iter().map(|&b| &events[b as usize]).find_map(|e| match &e.kind {
            EventKind::Attack { attackers, target, charge } => {
                Some((e.seq, attackers.clone(), target.clone(), *charge))
            }
            _ => None,
        });
        let (seq, attackers, target, charge) = attack.expect("the attack");
        assert!(events[seq as usize].because.is_empty(), "{file}: the order is a root");
        let ron = root().join("scenarios").join(file);
        let s = load(&ron).expect("the scenario");
        let name = |id: &str| s.units.iter().find(|u| u.id == id).map_or(id.to_owned(), |u| u.name.clone());
        let text = stdout(&sauve(&["why", p(&log), "--event", &check.seq.to_string(), "--scenario", p(&ron)]));
        let verb = if charge { "charge" } else { "attack" };
        let said = format!("{} ordered to {verb} {}", name(&attackers[0]), name(&target));
        let line = text.lines().find(|l| l.contains(&said)).unwrap_or_else(|| panic!("{file}: '{said}' in\n{text}"));
        assert!(line.contains(&format!("#{seq}")) && line.contains("[root: order]"), "{line}");
    }
}

/// A log written in the first vocabulary (a table's `Volley`, `Clash`,
/// `Casualties`, `Turned`, a broken army's side as a second `side`) is still
/// read by `sauve why`, as the same events: its answers are the new log's.
#[test]
fn sauve_why_reads_a_log_of_the_first_vocabulary_as_the_same_events() {
    let (log, _) = ai_battle("ligny-1815.ron", 2, "ligny-now.jsonl");
    let now = std::fs::read_to_string(&log).expect("the log");
    let then: String = now
        .lines()
        .map(|l| {
            l.replace(r#""kind":"Fire","#, r#""kind":"Volley","#)
                .replace(r#""kind":"Melee","#, r#""kind":"Clash","#)
                .replace(r#""kind":"Losses","#, r#""kind":"Casualties","#)
                .replace(r#""kind":"Facing","#, r#""kind":"Turned","#)
                .replace(r#","army":"#, r#","side":"#)
                + "\n"
        })
        .collect();
    assert_ne!(then, now);
    assert!(then.contains("Volley") && then.contains("Clash") && then.contains("Casualties"), "a fought battle");
    let old = scratch().join("ligny-then.jsonl");
    std::fs::write(&old, &then).expect("written");
    let ron = root().join("scenarios/ligny-1815.ron");
    for args in [vec!["--cascades"], vec!["--event", "300"]] {
        let answer = |path: &Path| {
            let mut a = vec!["why", p(path)];
            a.extend(args.iter().copied());
            a.extend(["--scenario", p(&ron)]);
            stdout(&sauve(&a))
        };
        assert_eq!(answer(&old), answer(&log), "sauve why {args:?}");
    }
}
