//! The why view: the picture of a chain worked out from the log (pure), and
//! the view at the window in an app without a window or renderer: W on a
//! unit the first turn's cascade took shows its chain, a line clicked steps
//! the playback to its event, W again closes it.

use std::sync::Arc;

use bevy::prelude::*;

use crate::game::testing::{battle_app, parse, press};
use bevy::ui_widgets::Activate;

use super::picture::{Link, picture};
use super::{WhyLabel, WhyLine, WhyView};
use crate::events::{Cause, Event, EventKind, Pos};
use crate::game::input::MapPointer;
use crate::game::playback;
use crate::game::seats::Seats;
use crate::game::shown::{ScenarioNames, Shown};
use crate::hex::Offset;
use crate::scenario::Scenario;
use crate::sim::Simulation;
use crate::turn::Phase;
use crate::why::{chain, fate_event};

fn cascade() -> Arc<Scenario> {
    parse(crate::game::opened::BUNDLED[0].1, "cascade.ron")
}

/// The cascade battle after its first shocks segment (no orders given).
fn after_the_shocks() -> Simulation {
    let mut sim = Simulation::new(cascade(), 1, vec![], Seats::Nobody);
    while sim.log().events.last().is_none_or(|e| e.phase == Phase::Shocks) {
        sim.step();
    }
    sim
}

/// The unit of the shocks segment whose fall has the longest chain.
fn deepest(s: &Scenario, events: &[Event]) -> (usize, u64) {
    let mut best = None;
    for (u, spec) in s.units.iter().enumerate() {
        let Some(seq) = fate_event(events, &spec.id, None) else { continue };
        let len = chain(events, seq).map_or(0, |c| c.events.len());
        if best.is_none_or(|(_, _, l)| len > l) {
            best = Some((u, seq, len));
        }
    }
    let Some((u, seq, len)) = best else { panic!("the shocks took nobody") };
    assert!(len >= 8, "a long chain: {len} events");
    (u, seq)
}

fn hex(p: &Pos) -> Offset {
    match *p {
        Pos::Hex([c, r]) => Offset::new(c, r),
        Pos::Cm(_) => panic!("a hex battle"),
    }
}

/// Each step of the picture is an event of the chain, numbered in log
/// order, the root first; every contagion check of the chain gets an arrow
/// into its unit's hex from the hex of the passing unit's path before it;
/// every move of the chain is drawn along its path.
#[test]
fn the_picture_numbers_the_chain_and_draws_contagion_from_the_passing_path() {
    let sim = after_the_shocks();
    let s = cascade();
    let events = &sim.log().events;
    let (_, target) = deepest(&s, events);
    let Some(ch) = chain(events, target) else { panic!("a chain") };
    let p = picture(&s, events, &ch, &ScenarioNames(&s));
    assert_eq!(p.steps.iter().map(|st| st.seq).collect::<Vec<_>>(), ch.events);
    assert_eq!(p.steps.iter().map(|st| st.number).collect::<Vec<_>>(), (1..=ch.events.len()).collect::<Vec<_>>());
    let root = &p.steps[0];
    assert!(root.root && p.steps.iter().filter(|st| st.root).count() == 1, "one root");
    assert!(matches!(events[root.seq as usize].kind, EventKind::StateChange { cause: Cause::Shock, .. }));
    let mut contagion = 0;
    for st in &p.steps {
        let e = &events[st.seq as usize];
        let EventKind::MoraleCheck { cause: Cause::Contagion, source: Some(src), .. } = &e.kind else { continue };
        contagion += 1;
        let Some(at) = st.at else { panic!("a check where its unit stood") };
        let mover = e.because.iter().map(|&b| &events[b as usize]).find_map(|c| match &c.kind {
            EventKind::Move { unit, path, .. } if unit == src => Some(path),
            _ => None,
        });
        let Some(path) = mover else { panic!("the check follows from {src}'s move") };
        let arrow = p.arrows.iter().find(|a| a.number == st.number && a.link == Link::Contagion);
        let Some(arrow) = arrow else { panic!("no contagion arrow for step {}", st.number) };
        assert_eq!(arrow.to, at);
        assert!(path.contains(&at) && path.contains(&arrow.from), "the arrow comes off the mover's path");
        let d = hex(&arrow.from).distance(hex(&at));
        assert!(d == 1 || (d == 0 && path[0] == at), "from the hex before it entered");
    }
    assert!(contagion >= 3, "the chain passes {contagion} contagion checks");
    let moves = ch.events.iter().filter(|&&q| matches!(events[q as usize].kind, EventKind::Move { .. })).count();
    assert_eq!(p.paths.len(), moves);
}

/// The battle at the window with the playback and the why view, in the
/// game's frame order, shown up to the end of its log.
fn window_app(sim: Simulation) -> App {
    let mut app = battle_app(sim);
    super::plugin(&mut app);
    app.update();
    app.world_mut().resource_mut::<playback::Playback>().jump_to_present();
    app.update();
    app
}

fn count<C: Component>(app: &mut App) -> usize {
    app.world_mut().query_filtered::<(), With<C>>().iter(app.world()).count()
}

#[test]
fn w_shows_the_chain_a_line_steps_there_and_w_closes() {
    let sim = after_the_shocks();
    let s = cascade();
    let events = sim.log().events.clone();
    let (unit, target) = deepest(&s, &events);
    let mut app = window_app(sim);
    assert_eq!(app.world().resource::<Shown>().cursor, events.len(), "shown to the end");
    app.world_mut().resource_mut::<MapPointer>().selected = Some(unit);
    press(&mut app, KeyCode::KeyW);
    let view = app.world().resource::<WhyView>();
    let Some(p) = view.picture.clone() else { panic!("no picture: {:?}", view.message) };
    assert_eq!(p.target, target);
    assert_eq!(count::<WhyLabel>(&mut app), p.steps.iter().filter(|st| st.at.is_some()).count());
    assert_eq!(count::<WhyLine>(&mut app), p.steps.len());

    // A line clicked: the battle as it stood just after that event.
    let second = p.steps[1].seq;
    let line = app.world_mut().query::<(Entity, &WhyLine)>().iter(app.world()).find(|(_, l)| l.0 == second);
    let Some((entity, _)) = line else { panic!("a line for step 2") };
    app.world_mut().trigger(Activate { entity });
    app.update();
    let shown = app.world().resource::<Shown>();
    assert_eq!(shown.cursor as u64, second + 1);
    assert!(app.world().resource::<WhyView>().picture.is_some(), "the view stays open while stepping");

    press(&mut app, KeyCode::KeyW);
    assert!(app.world().resource::<WhyView>().picture.is_none());
    assert_eq!(count::<WhyLabel>(&mut app) + count::<WhyLine>(&mut app), 0, "all gone");
}

/// A unit nothing has befallen gets a message, not a chain.
#[test]
fn a_unit_that_never_broke_is_said_so() {
    let sim = after_the_shocks();
    let s = cascade();
    let steady = {
        let board_state = |id: &str| sim.log().events.iter().any(|e| e.worsens() == Some(id));
        (0..s.units.len()).find(|&u| !board_state(&s.units[u].id))
    };
    let Some(steady) = steady else { panic!("every unit broke") };
    let mut app = window_app(sim);
    app.world_mut().resource_mut::<MapPointer>().selected = Some(steady);
    press(&mut app, KeyCode::KeyW);
    let view = app.world().resource::<WhyView>();
    assert!(view.picture.is_none());
    assert!(view.message.as_deref().is_some_and(|m| m.contains(&s.units[steady].name)), "{:?}", view.message);
}

/// On a free-space table the chain of a unit broken by a volley draws an
/// amber arrow from the firer, and one broken in a melee a red arrow from
/// the side that beat it.
#[test]
fn a_table_volley_and_melee_draw_their_arrows_from_the_other_side() {
    let ligny =
        parse(crate::game::opened::BUNDLED.iter().find(|b| b.0.contains("ligny")).expect("Ligny").1, "ligny.ron");
    let mut sim = Simulation::new(ligny.clone(), 1, vec![], Seats::Watch);
    sim.run();
    let events = &sim.log().events;
    let names = ScenarioNames(&ligny);
    let mut seen = (false, false);
    for e in events {
        let EventKind::StateChange { unit, cause: cause @ (Cause::Fire | Cause::Melee), .. } = &e.kind else {
            continue;
        };
        let Some(c) = chain(events, e.seq) else { continue };
        let p = picture(&ligny, events, &c, &names);
        let link = if *cause == Cause::Fire { Link::Fire } else { Link::Melee };
        let me = ligny.unit_index(unit);
        let into_me = p.arrows.iter().filter(|a| a.link == link).count();
        assert!(into_me > 0, "{unit}'s {cause:?} fall has no {link:?} arrow: {:?}", p.arrows);
        assert!(p.steps.iter().any(|s| s.unit == me));
        if *cause == Cause::Fire {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
    }
    assert_eq!(seen, (true, true), "seed 1 of Ligny breaks units by fire and by melee");
}
