//! What if? (issue 16): forecasts are the plain games of their seeds and
//! do not depend on the threads; a fork is the game of the hand-edited
//! dice; shards partition a batch and merged equal one unsharded run.

use std::sync::Arc;

use sauve::events::EventKind;
use sauve::labataille::victory::corps_status;
use sauve::save::{self, SaveGame};
use sauve::scenario::{self, Scenario};
use sauve::sim::{self, Control, DiceBox, Seats, Simulation};
use sauve::whatif::compare::compare;
use sauve::whatif::merge::{join, summarise};
use sauve::whatif::odds::Forecast;
use sauve::whatif::outcome::{BROKEN, Outcome, ROUTED};
use sauve::whatif::reroll::{ForkError, RollAt, Which, forked_script, roll_of, rolls, rolls_of, script};
use sauve::whatif::seeds::{run_seed, shard};
use sauve::whatif::table::BatchTable;
use sauve::whatif::{Progress, Start, batch, forecast, fork};

fn bundled(name: &str) -> (String, Arc<Scenario>) {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let s = scenario::parse(&text, name).unwrap_or_else(|e| panic!("{e}"));
    (text, Arc::new(s))
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool")
}

/// The outcome of the plain game `sauve simulate FILE --seed SEED --turns T`.
fn plain(s: &Arc<Scenario>, seed: u64, turns: u32) -> Outcome {
    let mut short = (**s).clone();
    short.turns = turns;
    let short = Arc::new(short);
    let mut sim = Simulation::new(short.clone(), seed, Vec::new(), Seats::Watch);
    sim.run();
    let board = sim.board();
    let corps = corps_status(&short, &board).into_iter().map(|c| c.broken).collect();
    Outcome::read(&short, &sim.log().events, 0, corps)
}

#[test]
fn a_forecast_from_the_opening_is_the_sum_of_the_plain_games_of_its_seeds() {
    let (_, s) = bundled("grossbeeren-1813.ron");
    let start = Start::Opening { scenario: s.clone(), seed: 5 };
    let runs = 12;
    let f = forecast::forecast(&start, runs, 1, &Progress::default()).expect("not cancelled");
    let mut by_hand = Forecast::new(&s, f.horizon.clone(), s.units.iter().map(|u| u.state).collect());
    for i in 0..runs {
        by_hand.add(&plain(&s, run_seed(5, i), 1));
    }
    assert_eq!(f, by_hand);
    assert_eq!(f.runs, runs);
    assert_eq!(f.horizon.to_turn, 1);
    assert!(f.falls.iter().any(|c| c[0] > 0), "someone is shaken in some run of a fought turn");
    assert_eq!(f.decided, runs, "every hex run ends with a verdict");
}

#[test]
fn the_same_seeds_give_the_same_forecast_on_one_thread_or_two() {
    let (_, s) = bundled("cascade.ron");
    let start = Start::Opening { scenario: s.clone(), seed: 2 };
    let one = pool(1).install(|| forecast::forecast(&start, 24, 2, &Progress::default()));
    let two = pool(2).install(|| forecast::forecast(&start, 24, 2, &Progress::default()));
    assert!(one.is_some());
    assert_eq!(one, two);
    let f = one.expect("a forecast");
    // The cascade's shock routs its battalion in every run.
    let first = s.shocks[0].unit;
    assert_eq!(f.falls[first][1], 24, "routed in all runs");
    assert!(f.cascade_units >= 24, "every run has a cascade");
}

#[test]
fn a_cancelled_forecast_gives_nothing() {
    let (_, s) = bundled("cascade.ron");
    let progress = Progress::default();
    progress.cancel();
    assert_eq!(forecast::forecast(&Start::Opening { scenario: s, seed: 1 }, 50, 1, &progress), None);
    assert_eq!(progress.done(), 0);
}

/// A save of a game the AI plays on both sides, stopped at `turn`'s start.
fn mid_game_save(name: &str, seed: u64, turn: u32) -> (SaveGame, Arc<Scenario>) {
    let (text, s) = bundled(name);
    let mut sim = Simulation::new(s.clone(), seed, Vec::new(), Seats::Watch);
    while sim.clock().turn < turn && sim.step() {}
    let save = save::capture(sim.app.world(), &text).expect("a battle");
    let (save, s) = SaveGame::parse(&save.to_ron(), "mid.ron").expect("the save reads back");
    (save, Arc::new(s))
}

#[test]
fn a_forecast_from_a_save_continues_the_saved_game() {
    let (save, s) = mid_game_save("hagelberg-1813.ron", 3, 2);
    let start = Start::Saved { save: save.clone(), scenario: s.clone() };
    let f = forecast::forecast(&start, 6, 1, &Progress::default()).expect("a forecast");
    // Each run is the saved game, then dice of its own.
    let mut original = Simulation::new(s.clone(), save.seed, save.dice.clone(), Seats::Nobody);
    save::restore(original.app.world_mut(), &save, s.clone());
    let before = original.log().events.clone();
    let now = sauve::whatif::outcome::states_after(&s, &before);
    assert_eq!(f.now, now, "the states where the runs begin are the save's");
    let mut by_hand = Forecast::new(&s, f.horizon.clone(), now);
    let horizon = start.horizon(2);
    for i in 0..6 {
        let mut sim = Simulation::new(s.clone(), 0, Vec::new(), Seats::Nobody);
        let from = start.continue_in(&mut sim, run_seed(save.seed, i), &horizon);
        assert_eq!(from, before.len());
        assert_eq!(&sim.log().events[..from], &before[..], "run {i} begins from the saved game");
        assert_eq!(sim.log().events.last().map(|e| e.turn), Some(2), "and plays to the end of turn 2");
        let board = sim.board();
        let corps = corps_status(&s, &board).into_iter().map(|c| c.broken).collect();
        by_hand.add(&Outcome::read(&s, &sim.log().events, from, corps));
    }
    assert_eq!(f, by_hand);
    // A unit routed in the save counts as routed in every run.
    for (u, state) in f.now.iter().enumerate() {
        if state.hex() == sauve::vocab::State::Routed {
            assert_eq!(f.falls[u][4], 6);
        }
    }
}

/// A finished AI-against-AI game as a save (what `simulate --save` writes).
fn finished_save(name: &str, seed: u64) -> (SaveGame, Arc<Scenario>, Simulation) {
    let (text, s) = bundled(name);
    let mut sim = Simulation::new(s.clone(), seed, Vec::new(), Seats::Watch);
    sim.run();
    let save = save::capture(sim.app.world(), &text).expect("a battle");
    (save, s, sim)
}

/// The seq and value of each roll, in the order rolled.
fn seq_rolls(events: &[sauve::events::Event]) -> Vec<(u64, u32)> {
    rolls(events).into_iter().map(|(at, r)| (at.seq, r)).collect()
}

#[test]
fn the_log_gives_back_every_roll_and_they_replay_the_same_game() {
    let (_, s, sim) = finished_save("grossbeeren-1813.ron", 4);
    let all = rolls(&sim.log().events);
    let rolled = sim.app.world().resource::<DiceBox>().0.rolled();
    assert_eq!(all.len() as u64, rolled, "one entry per roll");
    let mut again = Simulation::new(s.clone(), 4, script(&sim.log().events), Seats::Watch);
    again.run();
    assert_eq!(again.log().to_jsonl(), sim.log().to_jsonl(), "the rolls as a script are the same game");
}

/// Every bundled battle, both modes, with the AI on both sides: every
/// roll the dice made is in the log ([`rolls_of`] names each event's),
/// and the rolls played back as `--dice` are the same game, line for line.
#[test]
fn every_bundled_battle_gives_back_every_roll_and_replays_from_them() {
    for name in BUNDLED {
        let mut melees = 0;
        let mut table = false;
        for seed in [1, 3] {
            let (_, s, sim) = finished_save(name, seed);
            let events = &sim.log().events;
            let rolled = sim.app.world().resource::<DiceBox>().0.rolled();
            assert_eq!(rolls(events).len() as u64, rolled, "{name} seed {seed}: a roll the log does not hold");
            let mut again = Simulation::new(s.clone(), seed, script(events), Seats::Watch);
            again.run();
            assert_eq!(again.log().to_jsonl(), sim.log().to_jsonl(), "{name} seed {seed}: the rolls as --dice");
            // A melee on a table holds two rolls, each its own.
            if s.mode == sauve::scenario::Mode::FreeSpace {
                table = true;
                for two in events.iter().filter(|e| rolls_of(e).len() == 2) {
                    let which: Vec<Which> = rolls_of(two).into_iter().map(|(w, _)| w).collect();
                    assert_eq!(which, vec![Which::Attack, Which::Defence]);
                    melees += 1;
                }
            }
        }
        assert!(!table || melees > 0, "{name}: no melee in seeds 1 and 3");
    }
}

const BUNDLED: [&str; 6] = [
    "cascade.ron",
    "dennewitz-1813.ron",
    "grossbeeren-1813.ron",
    "hagelberg-1813.ron",
    "ligny-1815.ron",
    "plancenoit-1815.ron",
];

/// A fork at late rolled events of every bundled battle (the last check,
/// a fire combat, a melee's rolls, each one changed) agrees with the
/// original on every event before it, and holds the new roll at it.
#[test]
fn a_fork_of_every_bundled_battle_agrees_with_the_original_before_its_roll() {
    for name in BUNDLED {
        let (save, s, sim) = finished_save(name, 3);
        let events = &sim.log().events;
        let all = rolls(events);
        let hex = s.mode == sauve::scenario::Mode::Hex;
        // The latest roll of each kind of rolled event, and one of each side of a melee.
        let mut picks: Vec<(RollAt, u32)> = Vec::new();
        for want in [Which::Roll, Which::Attack, Which::Defence] {
            for kind in ["MoraleCheck", "Fire", "Melee"] {
                let late = all.iter().rev().find(|(at, _)| {
                    at.which == want
                        && serde_json::to_value(&events[at.seq as usize].kind)
                            .ok()
                            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(|k| k == kind))
                            == Some(true)
                });
                picks.extend(late.copied());
            }
        }
        assert!(picks.len() >= 2, "{name}: rolled events to fork");
        for (at, was) in picks {
            let roll = match (hex, was) {
                (true, 66) => 11,
                (true, _) => 66,
                (false, 18) => 3,
                (false, _) => 18,
            };
            let which = (at.which != Which::Roll).then_some(at.which);
            let forked = fork::fork(&save, &s, at.seq, which, roll)
                .unwrap_or_else(|e| panic!("{name}: fork at {} {}: {e}", at.seq, at.which));
            let n = at.seq as usize;
            let (old, new) = (sim.log().to_jsonl(), forked.fork.to_jsonl());
            let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
            assert_eq!(&new[..n], &old[..n], "{name}: the fork at {} agrees line for line before it", at.seq);
            assert_eq!(roll_of(&forked.fork.events[n], at.which), Some(roll), "{name}: the new roll at {}", at.seq);
            assert!(forked.comparison.agree_before >= at.seq);
        }
    }
}

#[test]
fn a_fork_is_the_game_of_the_hand_edited_dice() {
    let (save, s, sim) = finished_save("grossbeeren-1813.ron", 4);
    let all = seq_rolls(&sim.log().events);
    // A morale check in the middle of the battle that failed: make it 66.
    let (at, was) = all
        .iter()
        .copied()
        .skip(all.len() / 3)
        .find(|&(seq, _)| matches!(&sim.log().events[seq as usize].kind, EventKind::MoraleCheck { passed: false, .. }))
        .expect("a failed check");
    let forked = fork::fork(&save, &s, at, None, 66).expect("a fork");
    // By hand: every roll of the game, that one changed, as --dice.
    let mut dice: Vec<u32> = all.iter().map(|&(_, r)| r).collect();
    let k = all.iter().position(|&(q, _)| q == at).expect("the roll");
    dice[k] = 66;
    assert_ne!(was, 66);
    let mut by_hand = Simulation::new(s.clone(), 4, dice.clone(), Seats::Watch);
    by_hand.run();
    assert_eq!(forked.fork.to_jsonl(), by_hand.log().to_jsonl(), "the fork is the --dice game");
    assert_eq!(forked.save.dice, dice);
    // Same before the fork, the new roll at it.
    assert_eq!(&forked.fork.events[..at as usize], &sim.log().events[..at as usize]);
    assert!(matches!(&forked.fork.events[at as usize].kind, EventKind::MoraleCheck { roll: 66, .. }));
    assert_eq!(forked.comparison.agree_before, at);
    // The fork's save replays it.
    let text = forked.save.to_ron();
    let (back, s2) = SaveGame::parse(&text, "fork.ron").expect("the fork's save reads");
    let s2 = Arc::new(s2);
    let mut replay = Simulation::new(s2.clone(), back.seed, back.dice.clone(), Seats::Nobody);
    save::restore(replay.app.world_mut(), &back, s2);
    assert_eq!(replay.log().to_jsonl(), forked.fork.to_jsonl(), "sauve replay of the fork's save is the fork");
    assert_eq!(save::failed_order(replay.app.world(), &back, &text), None);
}

#[test]
fn a_melee_on_a_table_forks_at_either_sides_roll() {
    let (save, s, sim) = finished_save("ligny-1815.ron", 1);
    let events = &sim.log().events;
    let melee = events.iter().rev().find(|e| rolls_of(e).len() == 2).expect("a melee");
    let rolled = rolls_of(melee);
    let all = rolls(events);
    for (which, was) in rolled {
        let roll = if was == 18 { 3 } else { 18 };
        let forked = fork::fork(&save, &s, melee.seq, Some(which), roll).expect("a fork");
        let k = all.iter().position(|&(at, _)| at == RollAt { seq: melee.seq, which }).expect("listed");
        let mut dice = script(events);
        dice[k] = roll;
        assert_eq!(forked.save.dice, dice, "the {which} roll is the one changed");
        assert_eq!(roll_of(&forked.fork.events[melee.seq as usize], which), Some(roll));
    }
    // Unnamed, a roll of two is refused, saying which there are.
    let err = forked_script(events, melee.seq, None, 10, false).unwrap_err();
    assert_eq!(err, ForkError::WhichRoll { seq: melee.seq, asked: None, has: vec![Which::Attack, Which::Defence] });
    assert!(err.to_string().contains("--which attack or defence"), "{err}");
    let check = events.iter().find(|e| rolls_of(e).len() == 1).expect("a check");
    let err = forked_script(events, check.seq, Some(Which::Defence), 10, false).unwrap_err();
    assert!(err.to_string().contains("has no defence roll"), "{err}");
}

#[test]
fn a_fork_keeps_the_players_orders_and_lets_the_ai_decide_afresh() {
    // The French orders count as a player's: they are replayed; the
    // Prussians are the AI's and decide anew in the other history.
    let (mut save, s, sim) = finished_save("grossbeeren-1813.ron", 9);
    save.controls = vec![Control::Player, Control::Ai];
    let all = seq_rolls(&sim.log().events);
    let (at, was) = all[all.len() / 2];
    let roll = if was == 66 { 11 } else { 66 };
    let forked = fork::fork(&save, &s, at, None, roll).expect("a fork");
    assert_eq!(&forked.fork.events[..at as usize], &sim.log().events[..at as usize], "the same game before");
    let before_fork = |o: &&sauve::sim::LoggedOrder| {
        // Orders of phases wholly before the forked event's.
        let e = &sim.log().events[at as usize];
        (o.at.turn, o.at.side) < (e.turn, s.sides.iter().position(|x| Some(&x.id) == e.side.as_ref()).unwrap_or(0))
    };
    let french = |o: &&sauve::sim::LoggedOrder| o.at.phase.acting_side(o.at.side) == 0;
    let kept: Vec<_> = forked.save.orders.iter().filter(french).filter(before_fork).collect();
    let given: Vec<_> = save.orders.iter().filter(french).filter(before_fork).collect();
    assert_eq!(kept, given, "the player's orders before the fork are replayed as saved");
    // The fork's save replays exactly.
    let text = forked.save.to_ron();
    let (back, s2) = SaveGame::parse(&text, "fork.ron").expect("reads");
    let s2 = Arc::new(s2);
    let mut replay = Simulation::new(s2.clone(), back.seed, back.dice.clone(), Seats::Nobody);
    save::restore(replay.app.world_mut(), &back, s2);
    assert_eq!(replay.log().to_jsonl(), forked.fork.to_jsonl());
    // And no replay error was written into the fork's history.
    assert!(!forked.fork.events.iter().any(|e| matches!(e.kind, EventKind::ReplayError { .. })));
}

#[test]
fn a_fork_names_what_is_wrong_with_its_event_or_roll() {
    let (_, _, sim) = finished_save("cascade.ron", 1);
    let events = &sim.log().events;
    let all = seq_rolls(events);
    let (at, was) = all[0];
    assert_eq!(
        forked_script(events, 0, None, 36, true),
        Err(ForkError::NotRolled {
            seq: 0,
            kind: "PhaseStart".into(),
            nearest: all.iter().take(3).map(|&(s, _)| s).collect(),
        })
    );
    assert_eq!(
        forked_script(events, 999_999, None, 36, true),
        Err(ForkError::NoEvent { seq: 999_999, len: events.len() })
    );
    assert_eq!(forked_script(events, at, None, 37, true), Err(ForkError::BadRoll { roll: 37, d66: true }));
    assert_eq!(forked_script(events, at, None, was, true), Err(ForkError::SameRoll { seq: at, roll: was }));
    let msg = ForkError::NotRolled { seq: 0, kind: "PhaseStart".into(), nearest: vec![3, 5] }.to_string();
    assert!(msg.contains("rolls no die") && msg.contains("3, 5"), "{msg}");
    let msg = ForkError::PartedEarly { at: 473, parted: 44 }.to_string();
    assert!(msg.contains("473") && msg.contains("event 44") && msg.contains("before the changed roll"), "{msg}");
}

#[test]
fn a_comparison_lists_changed_fates_and_cascades() {
    let (save, s, sim) = finished_save("cascade.ron", 1);
    // The failed contagion checks of the cascade battle, first the shock's
    // own: passing one of them stops the cascade there, and the unit that
    // checked holds where it had fallen (a later check may shake it all
    // the same, so the first fork that changes its unit's fate is taken).
    let failed: Vec<(u64, String)> = sim
        .log()
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MoraleCheck { passed: false, cause: sauve::events::Cause::Contagion, unit, .. } => {
                Some((e.seq, unit.clone()))
            }
            _ => None,
        })
        .collect();
    assert!(!failed.is_empty(), "a failed contagion check");
    let (forked, unit) = failed
        .iter()
        .find_map(|(at, unit)| {
            let f = fork::fork(&save, &s, *at, None, 66).expect("a fork");
            f.comparison.fates.iter().any(|d| d.unit == *unit).then(|| (f, unit.clone()))
        })
        .expect("passing one of the failed checks changes its unit's fate");
    let c = &forked.comparison;
    assert!(!c.fates.is_empty(), "a unit that routed in the original holds in the fork");
    assert!(!c.vanish.is_empty() || !c.appear.is_empty(), "the cascade changed");
    assert_eq!(
        compare(&s, &sim.log().events, &sim.log().events).fates,
        vec![],
        "a game against itself differs nowhere"
    );
    let d = c.fates.iter().find(|d| d.unit == unit).expect("the checked unit's fate differs");
    assert!(d.original.falls.contains(&"routed") || d.original.falls.contains(&"shaken"));
}

#[test]
fn shards_partition_a_batch_and_merged_equal_one_unsharded_run() {
    let (_, s) = bundled("cascade.ron");
    let whole = batch::batch(&s, 0..10, Seats::Watch, vec!["normal".into(); 2], &Progress::default()).expect("a batch");
    assert_eq!(whole.rows.iter().map(|r| r.seed).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
    let shards: Vec<(String, BatchTable)> = (0..4)
        .map(|k| {
            let seeds = shard(0..10, k, 4).expect("a shard");
            let t =
                batch::batch(&s, seeds, Seats::Watch, vec!["normal".into(); 2], &Progress::default()).expect("a batch");
            // Through the CSV text, as the shards' files are merged.
            let back = BatchTable::from_csv(&t.to_csv(), &format!("shard{k}.csv")).expect("reads back");
            assert_eq!(back, t, "a batch file reads back as written");
            (format!("shard{k}.csv"), back)
        })
        .collect();
    let merged = join(shards.clone()).expect("shards join");
    assert_eq!(merged, whole);
    assert_eq!(summarise(&merged), summarise(&whole));
    // A shard given twice is refused, naming both files.
    let mut twice = shards.clone();
    twice.push(shards[1].clone());
    let err = join(twice).unwrap_err();
    assert!(err.contains("shard1.csv") && err.contains("already played"), "{err}");
}

#[test]
fn a_batch_row_is_the_plain_game_of_its_seed() {
    let (_, s) = bundled("grossbeeren-1813.ron");
    let mut sim = Simulation::new(s.clone(), 0, Vec::new(), Seats::Nobody);
    let row = batch::play(&s, 17, Seats::Watch, &mut sim);
    let mut plain = Simulation::new(s.clone(), 17, Vec::new(), Seats::Watch);
    plain.run();
    let over = plain.log().events.iter().rev().find_map(|e| match &e.kind {
        EventKind::GameOver { winner, points, decisive, .. } => Some((winner.clone(), points.clone(), *decisive)),
        _ => None,
    });
    let (winner, points, decisive) = over.expect("a verdict");
    assert_eq!(row.winner.map(|w| s.sides[w].id.clone()), winner);
    assert_eq!(row.points, points);
    assert_eq!(row.decisive, decisive);
    let Some(sim::BattleSummary::Hex(summary)) = sim::summary(plain.app.world_mut()) else { panic!("hex") };
    assert_eq!(row.largest_cascade, summary.largest_cascade);
    assert_eq!(row.losses, summary.sides.iter().map(|x| x.increments_lost).collect::<Vec<_>>());
    assert_eq!(row.routs, summary.sides.iter().map(|x| x.routed).collect::<Vec<_>>());
    assert_eq!(row.turns, plain.log().events.last().map_or(0, |e| e.turn));
    let held = sim::holders(plain.app.world());
    assert_eq!(held.len(), s.objectives.len());
    assert_eq!(row.held, held, "who held each objective when the battle ended");
}

#[test]
fn an_outcome_counts_the_falls_after_its_start_and_the_state_before() {
    let (_, s) = bundled("cascade.ron");
    let mut sim = Simulation::new(s.clone(), 1, Vec::new(), Seats::Nobody);
    sim.run();
    let events = &sim.log().events;
    let whole = Outcome::read(&s, events, 0, Vec::new());
    let first = s.unit_index("fr-2-9").expect("unit");
    assert!(whole.fates[first] & ROUTED != 0);
    // From after the last event: only the states then.
    let after = Outcome::read(&s, events, events.len(), Vec::new());
    assert_eq!(after.cascades, Vec::<u32>::new());
    for (u, state) in sauve::whatif::outcome::states_after(&s, events).iter().enumerate() {
        assert_eq!(after.fates[u], sauve::whatif::outcome::fate_of(*state));
    }
    assert!(
        whole.fates.iter().filter(|f| **f & BROKEN != 0).count()
            >= after.fates.iter().filter(|f| **f & BROKEN != 0).count()
    );
}
