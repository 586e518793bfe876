//! Forking at the window, in an app without a window or renderer: D lists
//! the rolled events, a click picks one and another its new roll; the
//! fork opens from a save of its own and is the game `whatif::fork` makes
//! of the same save; B switches between the branches at the same moment;
//! opening another battle ends the fork.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::ui_widgets::Activate;
use bevy::window::FileDragAndDrop;

use super::choices::{roll_choices, rolled_before};
use super::{EventLine, ForkView, RollButton};
use crate::events::{Event, EventKind};
use crate::game::lines::Lines;
use crate::game::opened::{Opened, Source};
use crate::game::playback;
use crate::game::scenarios::{self, Pending, ScenarioText};
use crate::game::seats::Seats;
use crate::game::shown::Shown;
use crate::game::testing::{battle_app, parse, press};
use crate::game::theme::DIFFER;
use crate::save::SaveGame;
use crate::sim::{BattleLog, Simulation};
use crate::whatif::reroll::{RollAt, Which, roll_of};

const CASCADE: &str = crate::game::opened::BUNDLED[0].1;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sauve-fork-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The cascade battle played to its end by the AI at the window, shown
/// to the end of its log, forks written under `dir`; and its save.
fn window(dir: &std::path::Path) -> (App, SaveGame) {
    let mut sim = Simulation::new(parse(CASCADE, "cascade.ron"), 1, vec![], Seats::Watch);
    sim.run();
    let save = crate::save::capture(sim.app.world(), CASCADE).expect("a save");
    let mut app = battle_app(sim);
    let opened = app.world_mut().remove_resource::<Opened>().expect("opened");
    app.add_message::<FileDragAndDrop>();
    scenarios::plugin(&mut app);
    app.world_mut().resource_mut::<Pending>().0 = None;
    app.insert_resource(opened).insert_resource(ScenarioText(CASCADE.to_owned()));
    super::plugin(&mut app);
    app.world_mut().resource_mut::<ForkView>().dir = dir.to_path_buf();
    app.update();
    app.world_mut().resource_mut::<playback::Playback>().jump_to_present();
    app.update();
    (app, save)
}

fn events(app: &App) -> Vec<Event> {
    app.world().resource::<BattleLog>().events.clone()
}

fn entity_of<C: Component>(app: &mut App, want: impl Fn(&C) -> bool) -> Option<Entity> {
    let mut q = app.world_mut().query::<(Entity, &C)>();
    q.iter(app.world()).find(|(_, c)| want(c)).map(|(e, _)| e)
}

fn click(app: &mut App, entity: Entity) {
    app.world_mut().trigger(Activate { entity });
    app.update();
}

/// A morale check of the game and a roll for it whose fork changes some
/// unit's fate, found by forking the save itself.
fn fateful(save: &SaveGame, events: &[Event]) -> (u64, u32, crate::whatif::fork::Forked) {
    let scenario = std::sync::Arc::new(parse(CASCADE, "cascade.ron").as_ref().clone());
    for e in events.iter().rev() {
        let EventKind::MoraleCheck { passed, .. } = &e.kind else { continue };
        let flip = roll_choices(&scenario, e, Which::Roll).into_iter().find(|c| c.passes == Some(!passed) && !c.same);
        let Some(flip) = flip else { continue };
        if let Ok(f) = crate::whatif::fork::fork(save, &scenario, e.seq, None, flip.roll)
            && !f.comparison.fates.is_empty()
        {
            return (e.seq, flip.roll, f);
        }
    }
    panic!("no check of the cascade changes a fate when it goes the other way");
}

#[test]
fn d_picks_a_roll_and_the_fork_opens_from_its_own_save_and_b_switches_branches() {
    let dir = temp_dir("window");
    let (mut app, save) = window(&dir);
    let original = events(&app);
    assert_eq!(app.world().resource::<Shown>().cursor, original.len());
    let (at, roll, expected) = fateful(&save, &original);

    // D lists the latest rolled events before the moment shown; step the
    // log back to the check so that it is listed.
    app.world_mut().resource_mut::<playback::Playback>().seek_to(at as usize + 1);
    app.update();
    press(&mut app, KeyCode::KeyD);
    assert!(app.world().resource::<ForkView>().open, "D opens the panel");
    let s = app.world().resource::<Opened>().scenario.clone().expect("a scenario");
    let listed: Vec<u64> =
        rolled_before(&s, &original, at as usize + 1, super::LISTED).iter().map(|r| r.at.seq).collect();
    assert_eq!(listed.first(), Some(&at), "newest first, up to the moment shown");
    for seq in &listed {
        assert!(entity_of::<EventLine>(&mut app, |l| l.0.seq == *seq).is_some(), "event {seq} listed");
    }
    assert!(entity_of::<EventLine>(&mut app, |l| l.0.seq > at).is_none(), "nothing after the moment shown");

    // Its line picks it; the picker offers every d66 result but the one rolled.
    let line = entity_of::<EventLine>(&mut app, |l| l.0.seq == at).expect("the check's line");
    click(&mut app, line);
    assert_eq!(app.world().resource::<ForkView>().picked, Some(RollAt { seq: at, which: Which::Roll }));
    let mut q = app.world_mut().query::<&RollButton>();
    let offered: Vec<u32> = q.iter(app.world()).map(|r| r.0).collect();
    let was = roll_of(&original[at as usize], Which::Roll).expect("a roll");
    assert_eq!(offered.len(), 35, "{offered:?}");
    assert!(!offered.contains(&was));

    // The roll makes the fork: both saves written, the fork opened at it.
    let button = entity_of::<RollButton>(&mut app, |r| r.0 == roll).expect("the roll's button");
    click(&mut app, button);
    app.update();
    let (fork_path, original_path) =
        (dir.join(format!("fork-{at}-{roll}.save.ron")), dir.join(format!("fork-{at}-{roll}.original.save.ron")));
    assert_eq!(app.world().resource::<Opened>().source, Source::File(fork_path.clone()));
    assert!(fork_path.exists() && original_path.exists());
    assert_eq!(events(&app), expected.fork.events, "the window's fork is whatif::fork's");
    assert_eq!(roll_of(&events(&app)[at as usize], Which::Roll), Some(roll));
    assert_eq!(app.world().resource::<Shown>().cursor, at as usize + 1, "shown at the changed roll");
    let view = app.world().resource::<ForkView>();
    let b = view.branches.as_ref().expect("two branches");
    assert!(b.on_fork && b.was == was);
    assert_eq!(b.comparison, expected.comparison);
    assert!(!view.open, "the picker closes");
    // Units whose fate differs are ringed where they stand.
    app.update();
    assert!(app.world().resource::<Lines>().colours().contains(&DIFFER));

    // B: the original, at the same moment; B again: the fork.
    app.world_mut().resource_mut::<playback::Playback>().seek_to(at as usize + 3);
    app.update();
    press(&mut app, KeyCode::KeyB);
    assert_eq!(app.world().resource::<Opened>().source, Source::File(original_path));
    assert_eq!(events(&app), original);
    assert_eq!(app.world().resource::<Shown>().cursor, at as usize + 3);
    assert!(!app.world().resource::<ForkView>().branches.as_ref().expect("kept").on_fork);
    press(&mut app, KeyCode::KeyB);
    assert_eq!(app.world().resource::<Opened>().source, Source::File(fork_path));
    assert_eq!(events(&app), expected.fork.events);

    // Another battle opened ends the fork.
    app.world_mut().resource_mut::<Pending>().0 = Some(Source::Bundled(0));
    app.update();
    app.update();
    assert!(app.world().resource::<ForkView>().branches.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_picker_marks_each_d66_roll_pass_or_fail_and_free_space_offers_3d6() {
    let s = parse(CASCADE, "cascade.ron");
    let check = |morale: u8, modifier: i32, roll: u8| Event {
        seq: 0,
        turn: 1,
        phase: crate::turn::Phase::Shocks,
        side: None,
        kind: EventKind::MoraleCheck {
            unit: s.units[0].id.clone(),
            cause: crate::events::Cause::Shock,
            morale,
            modifier,
            roll,
            result: roll,
            passed: false,
            source: None,
        },
        because: Vec::new(),
    };
    let c = roll_choices(&s, &check(35, 0, 24), Which::Roll);
    assert_eq!(c.len(), 36);
    let at = |r: u32| c.iter().find(|x| x.roll == r).copied().expect("offered");
    // docs/rules.md 1.1: a modified roll above the morale passes; natural 11
    // fails and natural 66 passes whatever the modifiers.
    assert_eq!(at(35).passes, Some(false));
    assert_eq!(at(36).passes, Some(true));
    assert!(at(24).same && c.iter().filter(|x| x.same).count() == 1);
    let c = roll_choices(&s, &check(20, 30, 24), Which::Roll);
    assert_eq!(c.iter().find(|x| x.roll == 11).and_then(|x| x.passes), Some(!s.rules.natural_extremes));
    let c = roll_choices(&s, &check(65, -20, 24), Which::Roll);
    assert_eq!(c.iter().find(|x| x.roll == 66).and_then(|x| x.passes), Some(s.rules.natural_extremes));

    let ligny = parse(crate::game::opened::BUNDLED[4].1, "ligny-1815.ron");
    let c = roll_choices(&ligny, &check(35, 0, 9), Which::Roll);
    assert_eq!(c.iter().map(|x| x.roll).collect::<Vec<_>>(), (3..=18).collect::<Vec<_>>());
    assert!(c.iter().all(|x| x.passes.is_none()));
}
