//! The planning AI (`hard`, issue 31): deterministic on any number of
//! threads and in its replay, and a search that keeps only what its
//! continuations show to be better.

mod common;

use std::sync::Arc;

use common::{rows, scenario_text, unit};
use sauve::labataille::ai::Script;
use sauve::labataille::ai::foresight;
use sauve::save::{self, SaveGame};
use sauve::scenario::Scenario;
use sauve::sim::{Deliberations, Seats, Simulation};
use sauve::vocab::AiLevel;

fn bundled(name: &str, turns: u32, levels: [AiLevel; 2]) -> (Arc<Scenario>, String) {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a bundled scenario");
    let mut s = sauve::scenario::parse(&text, &path).expect("loads");
    s.turns = turns;
    for (side, level) in s.sides.iter_mut().zip(levels) {
        side.level = level;
    }
    (Arc::new(s), text)
}

/// A game played on a pool of `threads` threads: its log, its save and
/// what the planning AI weighed.
struct Played {
    log: String,
    save: String,
    weighed: Vec<sauve::labataille::ai::Deliberation>,
}

fn play(s: &Arc<Scenario>, text: &str, seed: u64, threads: usize) -> Played {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
    pool.install(|| {
        let mut sim = Simulation::new(s.clone(), seed, Vec::new(), Seats::Watch);
        sim.app.world_mut().insert_resource(Deliberations::default());
        sim.run();
        let weighed = sim.app.world_mut().remove_resource::<Deliberations>().map(|d| d.0).unwrap_or_default();
        let save = save::capture(sim.app.world(), text).expect("a battle").to_ron();
        Played { log: sim.log().to_jsonl(), save, weighed }
    })
}

#[test]
fn hard_plays_the_same_on_one_thread_and_on_many_and_its_save_replays_it() {
    let (s, text) = bundled("dennewitz-1813.ron", 3, [AiLevel::Hard, AiLevel::Normal]);
    let one = play(&s, &text, 5, 1);
    let many = play(&s, &text, 5, 4);
    assert!(!one.weighed.is_empty(), "hard weighed its movement phases");
    assert_eq!(one.weighed, many.weighed, "the same continuations, the same worths");
    assert_eq!(one.log, many.log, "the same game");

    let (loaded, scenario) = SaveGame::parse(&one.save, "t.save.ron").expect("reads back");
    let mut replay = Simulation::new(Arc::new(scenario.clone()), 0, vec![], Seats::Watch);
    save::restore(replay.app.world_mut(), &loaded, Arc::new(scenario));
    assert_eq!(replay.log().to_jsonl(), one.log, "the save replays the game");

    // Another seed weighs other continuations.
    let other = play(&s, &text, 6, 1);
    assert_ne!(other.weighed, one.weighed);
}

#[test]
fn hard_keeps_a_script_only_when_its_continuations_do_better_by_the_least_gain() {
    let (s, text) = bundled("hagelberg-1813.ron", 4, [AiLevel::Normal, AiLevel::Hard]);
    let hard = &s.rules.ai.hard;
    // Seed 6: a game that lasts the four turns (on seed 4, since the
    // continuations roll each unit's dice apart, it is over before hard's
    // third turn).
    let weighed = play(&s, &text, 6, 2).weighed;
    assert!(weighed.len() >= 3, "one deliberation a turn: {}", weighed.len());
    let mut changed = 0;
    for d in &weighed {
        assert_eq!(d.side, 1, "only the hard side deliberates");
        let looked: u32 = d.tried.iter().map(|t| t.rollouts).sum();
        assert_eq!(d.rollouts, hard.rollouts + looked, "the baseline over every continuation, then each look");
        for t in &d.tried {
            assert!(t.rollouts == hard.screen || t.rollouts == hard.rollouts, "{t:?}");
            assert!(!t.kept || t.rollouts == hard.rollouts, "a script is kept on all its continuations: {t:?}");
        }
        assert!(d.worth >= d.baseline, "never worse than advancing everywhere");
        let mut best = d.baseline;
        for t in &d.tried {
            if t.kept {
                assert!(t.worth > best + hard.min_gain, "a kept script gained: {t:?} over {best}");
                best = t.worth;
                assert_eq!(d.chosen[t.group], t.script);
            }
        }
        assert_eq!(best, d.worth);
        for (g, group) in d.groups.iter().enumerate() {
            assert!(group.units.len() as u32 <= hard.group_size, "{}", group.name);
            assert!(group.units.iter().all(|&u| s.units[u].side == 1), "{}: its own units", group.name);
            if !d.tried.iter().any(|t| t.group == g && t.kept) {
                assert_eq!(d.chosen[g], Script::Advance, "an unchanged group advances");
            } else {
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "some group was given another script in four turns");
}

/// A lone battalion three hexes from a brigade and its horse: advancing
/// into it is worse than holding or falling back, and `hard` sees it.
#[test]
fn hard_does_not_march_a_lone_battalion_into_a_brigade() {
    let units = [
        unit("fr-a", "fr", "Infantry", 5, 7, 32, ""),
        unit("ru-a", "ru", "Infantry", 4, 3, 45, ""),
        unit("ru-b", "ru", "Infantry", 5, 3, 45, ""),
        unit("ru-c", "ru", "Infantry", 6, 3, 45, ""),
        unit("ru-d", "ru", "Infantry", 5, 2, 45, ""),
        unit("ru-h", "ru", "Cavalry", 7, 3, 45, ""),
    ];
    let text = scenario_text(&rows(12, 12, &[]), &units, &[], "", 3);
    let mut s = (*common::load(&text)).clone();
    s.sides[0].level = AiLevel::Hard;
    s.sides[1].level = AiLevel::Normal;
    let weighed = play(&Arc::new(s), &text, 7, 2).weighed;
    let first = &weighed[0];
    assert_eq!(first.groups.len(), 1);
    assert_ne!(first.chosen[0], Script::Advance, "{:?}", first.lines(&common::load(&text)));
    assert!(first.worth > first.baseline + 1.0, "{:?}", first.lines(&common::load(&text)));
}

#[test]
fn a_large_corps_is_cut_into_nearly_equal_groups_along_its_front() {
    let (s, _) = bundled("cascade.ron", 1, [AiLevel::Hard, AiLevel::Normal]);
    let mut sim = Simulation::new(s.clone(), 1, vec![], Seats::Nobody);
    let board = sim.board();
    let standing: Vec<usize> = (0..board.units.len())
        .filter(|&u| {
            let x = &board.units[u];
            x.side == 0 && x.at.is_some() && x.state == sauve::vocab::State::GoodOrder
        })
        .collect();
    assert!(standing.len() > 6, "a corps larger than a group");
    let groups = foresight::groups(&s, &board, 0, &vec![false; s.corps.len()], 6);
    let mut all: Vec<usize> = groups.iter().flat_map(|g| g.units.clone()).collect();
    all.sort_unstable();
    assert_eq!(all, standing, "every unit that can move, once");
    let sizes: Vec<usize> = groups.iter().map(|g| g.units.len()).collect();
    assert!(sizes.iter().all(|&n| n <= 6), "{sizes:?}");
    assert!(sizes.iter().max().unwrap_or(&0) - sizes.iter().min().unwrap_or(&0) <= 1, "nearly equal: {sizes:?}");
    let col = |u: usize| board.units[u].at.map_or(0, |a| a.c);
    for pair in groups.windows(2) {
        let left = pair[0].units.iter().map(|&u| col(u)).max().unwrap_or(0);
        let right = pair[1].units.iter().map(|&u| col(u)).min().unwrap_or(0);
        assert!(left <= right, "{} lies west of {}", pair[0].name, pair[1].name);
    }
    assert!(groups.iter().all(|g| !g.broken && g.choices().len() == 5), "every script for a whole corps");
    // A broken corps' units come in groups of their own, which may only
    // fall back as `normal` does (`advance`) or hold.
    let broken = foresight::groups(&s, &board, 0, &vec![true; s.corps.len()], 6);
    let mut again: Vec<usize> = broken.iter().flat_map(|g| g.units.clone()).collect();
    again.sort_unstable();
    assert_eq!(again, standing);
    for g in &broken {
        assert!(g.broken, "{}", g.name);
        assert_eq!(g.choices(), [Script::Advance, Script::Hold]);
    }
}

/// The window's way: each `hard` movement phase asks its question and
/// waits (its steps deferred), the question is weighed on another thread
/// and answered; the game is the one played in place, byte for byte, on
/// hexes and on a table.
#[test]
fn hard_thinking_on_another_thread_plays_the_game_it_plays_in_place() {
    thought_game("dennewitz-1813.ron", 3, [AiLevel::Normal, AiLevel::Hard], 9);
    thought_game("ligny-1815.ron", 3, [AiLevel::Hard, AiLevel::Normal], 2);
}

fn thought_game(name: &str, turns: u32, levels: [AiLevel; 2], seed: u64) {
    use sauve::labataille::ai::DeliberationProgress;
    use sauve::sim::{Clock, Thinking, answer, step_phase};

    let (s, text) = bundled(name, turns, levels);
    let in_place = play(&s, &text, seed, 2);
    let mut sim = Simulation::new(s.clone(), seed, Vec::new(), Seats::Watch);
    let world = sim.app.world_mut();
    world.insert_resource(Thinking::default());
    world.insert_resource(Deliberations::default());
    let mut asked = 0;
    loop {
        world.resource_mut::<Thinking>().defer = true;
        let going = step_phase(world);
        world.resource_mut::<Thinking>().defer = false;
        if !going {
            break;
        }
        let Some(q) = world.resource::<Thinking>().asked().cloned() else { continue };
        asked += 1;
        // The phase waits for its answer: a deferred step changes nothing.
        let (clock, events) = (*world.resource::<Clock>(), sim_events(world));
        world.resource_mut::<Thinking>().defer = true;
        assert!(step_phase(world));
        world.resource_mut::<Thinking>().defer = false;
        assert_eq!((*world.resource::<Clock>(), sim_events(world)), (clock, events), "waits");
        let position = q.position.clone();
        let d = std::thread::spawn(move || position.deliberate(&DeliberationProgress::default()))
            .join()
            .expect("the thinking thread");
        assert!(!answer(world, q.id + 1, d.clone()), "an answer to another question is dropped");
        assert!(world.resource::<Thinking>().asked().is_some(), "and the question still waits");
        assert!(answer(world, q.id, d), "the answer is taken");
        assert!(world.resource::<Thinking>().asked().is_none());
    }
    assert!(asked > 0, "{name}: hard asked");
    assert_eq!(asked, in_place.weighed.len(), "one question for each deliberation");
    let weighed = world.remove_resource::<Deliberations>().map(|d| d.0).unwrap_or_default();
    assert_eq!(weighed, in_place.weighed, "the same deliberations");
    assert_eq!(sim.log().to_jsonl(), in_place.log, "the same game");
}

fn sim_events(world: &bevy::prelude::World) -> usize {
    world.resource::<sauve::sim::BattleLog>().events.len()
}

/// Hurried before it weighs anything, `hard` gives `normal`'s orders (every
/// group advancing) and says it was hurried; a step that is not the
/// window's answers a waiting question itself.
#[test]
fn a_hurried_deliberation_gives_the_best_found_so_far() {
    use sauve::labataille::ai::DeliberationProgress;
    use sauve::sim::{Thinking, step_phase};

    let (s, _) = bundled("hagelberg-1813.ron", 2, [AiLevel::Normal, AiLevel::Hard]);
    let mut sim = Simulation::new(s.clone(), 4, Vec::new(), Seats::Watch);
    let world = sim.app.world_mut();
    world.insert_resource(Thinking::default());
    let q = loop {
        world.resource_mut::<Thinking>().defer = true;
        assert!(step_phase(world), "hard moves before the battle ends");
        world.resource_mut::<Thinking>().defer = false;
        if let Some(q) = world.resource::<Thinking>().asked().cloned() {
            break q;
        }
    };
    let progress = DeliberationProgress::default();
    progress.hurry();
    let d = q.position.deliberate(&progress);
    assert!(d.hurried);
    assert!(d.tried.is_empty(), "{:?}", d.tried);
    assert!(d.chosen.iter().all(|&c| c == Script::Advance));
    assert_eq!((d.worth, d.rollouts), (d.baseline, s.rules.ai.hard.rollouts));
    assert_eq!(progress.fraction(), 1.0, "over");
    assert!(d.lines(&s)[0].contains("(hurried)"));
    let unhurried = q.position.deliberate(&DeliberationProgress::default());
    assert!(!unhurried.hurried && !unhurried.tried.is_empty());

    // Not deferred: the step answers the question in place and goes on.
    let clock = *world.resource::<sauve::sim::Clock>();
    assert!(step_phase(world));
    assert!(world.resource::<Thinking>().asked().is_none());
    assert_ne!(*world.resource::<sauve::sim::Clock>(), clock, "the phase ended");
}

/// On a table `hard` weighs its groups' scripts too, by the free-space
/// rules: the same game and deliberations on one thread and on many, its
/// save replays it, and the search keeps only what gains.
#[test]
fn hard_plans_on_a_table_the_same_on_any_number_of_threads() {
    let (s, text) = bundled("ligny-1815.ron", 3, [AiLevel::Hard, AiLevel::Normal]);
    let one = play(&s, &text, 2, 1);
    let many = play(&s, &text, 2, 4);
    assert_eq!(one.weighed.len(), 3, "one deliberation a turn");
    assert_eq!(one.weighed, many.weighed);
    assert_eq!(one.log, many.log);
    let (loaded, scenario) = SaveGame::parse(&one.save, "t.save.ron").expect("reads back");
    let mut replay = Simulation::new(Arc::new(scenario.clone()), 0, vec![], Seats::Watch);
    save::restore(replay.app.world_mut(), &loaded, Arc::new(scenario));
    assert_eq!(replay.log().to_jsonl(), one.log, "the save replays the game");
    let hard = &s.rules.ai.hard;
    for d in &one.weighed {
        assert_eq!(d.side, 0);
        assert!(!d.groups.is_empty());
        assert!(d.groups.iter().all(|g| g.units.len() as u32 <= hard.group_size));
        assert!(d.groups.iter().flat_map(|g| &g.units).all(|&u| s.units[u].side == 0), "its own units");
        assert!(d.worth >= d.baseline);
        let looked: u32 = d.tried.iter().map(|t| t.rollouts).sum();
        assert_eq!(d.rollouts, hard.rollouts + looked);
        for t in d.tried.iter().filter(|t| t.kept) {
            assert_eq!(d.chosen[t.group], t.script);
        }
    }
    assert!(
        one.weighed.iter().any(|d| d.chosen.iter().any(|&c| c != Script::Advance)),
        "some other script in three turns"
    );
}
