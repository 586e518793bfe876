//! The rout preview at the window, in an app without a window or renderer:
//! R on a selected unit marks the hexes of the rules' own preview, follows
//! the board when an order changes it, and pointing at a target in a fire
//! phase shows the target's rout.

use bevy::prelude::*;

use crate::game::testing::{battle_app, go_to, parse, press};

use super::{RiskLabel, RoutMark, RoutView, Why, risk_labels};
use crate::game::input::{MapButton, MapClick, MapPointer};
use crate::game::seats::{Seats, seat};
use crate::game::turn::PlayerTurn;
use crate::game::{orders, playback};
use crate::hex::Offset;
use crate::labataille::engine::{Ctx, Engine};
use crate::labataille::orders::Order;
use crate::labataille::rout_preview::{RoutPreview, preview_rout};
use crate::sim::{self, Simulation};
use crate::turn::Phase;

/// The battle at the window with the playback, the orders and the rout
/// preview, in the game's frame order.
pub(super) fn window_app(sim: Simulation) -> App {
    let mut app = battle_app(sim);
    orders::plugin(&mut app);
    super::plugin(&mut app);
    app.update();
    app
}

/// The preview straight from the rules crate, on the board the simulation
/// holds, with a fresh engine of its own and the same leader bonuses.
fn rules_preview(w: &mut World, unit: usize) -> Option<RoutPreview> {
    sim::view::board_scope(w, |w, board| {
        let battle = w.resource::<sim::Battle>();
        let ctx = Ctx { grid: &battle.grid, rules: &battle.scenario.rules, sides: &battle.scenario.sides };
        let mut engine = Engine::new(&battle.grid, board);
        engine.bonus = w.resource::<sim::EngineState>().0.bonus.clone();
        preview_rout(&ctx, &mut engine, board, unit)
    })
    .flatten()
}

fn marks(app: &mut App) -> Vec<Offset> {
    let mut q = app.world_mut().query::<&RoutMark>();
    let mut hexes: Vec<Offset> = q.iter(app.world()).map(|m| m.hex).collect();
    hexes.sort_by_key(|h| (h.c, h.r));
    hexes
}

fn labels(app: &mut App) -> Vec<(Offset, String)> {
    let mut q = app.world_mut().query::<&RiskLabel>();
    let mut out: Vec<(Offset, String)> = q.iter(app.world()).map(|l| (l.hex, l.text.clone())).collect();
    out.sort_by_key(|(h, _)| (h.c, h.r));
    out
}

fn sorted(path: &[Offset]) -> Vec<Offset> {
    let mut v = path.to_vec();
    v.sort_by_key(|h| (h.c, h.r));
    v
}

/// R on a selected unit marks every hex of the path the rules' planner
/// gives and labels the friends it would pass with their chances; after a
/// march the marks follow the board; R again takes them away.
#[test]
fn r_marks_the_rules_own_rout_path_and_follows_the_board() {
    let mut sim = Simulation::new(parse(crate::game::opened::BUNDLED[0].1, "cascade.ron"), 7, vec![], Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    let side = go_to(w, Phase::Movement);
    let s = w.resource::<sim::Battle>().scenario.clone();
    // A unit of the side to move whose rout would pass friends and that
    // can march (to see the marks follow it).
    let unit = (0..s.units.len()).find(|&u| {
        s.units[u].side == side
            && rules_preview(w, u).is_some_and(|p| !p.risks.is_empty())
            && !sim::movement_range(w, u).ends.is_empty()
    });
    let Some(unit) = unit else { panic!("no unit of side {side} routs through friends and can march") };
    let Some(expected) = rules_preview(w, unit) else { panic!("a preview") };
    let mut app = window_app(sim);
    app.world_mut().resource_mut::<MapPointer>().selected = Some(unit);
    app.update();
    assert!(marks(&mut app).is_empty(), "nothing shown before R");

    press(&mut app, KeyCode::KeyR);
    let view = app.world().resource::<RoutView>();
    assert!(view.on);
    assert_eq!(view.shown.as_ref().map(|s| (s.why, &s.preview)), Some((Why::Selected, &expected)));
    assert_eq!(marks(&mut app), sorted(&expected.path), "a mark on every hex of the planner's path");
    let want_labels = {
        let mut l = risk_labels(&expected);
        l.sort_by_key(|(h, _)| (h.c, h.r));
        l
    };
    assert!(!want_labels.is_empty());
    assert_eq!(labels(&mut app), want_labels, "a label on each hex of friends, with their chances");
    let first = &expected.risks[0];
    let pct = crate::game::orders::words::pct(first.fails.fraction() as f32);
    assert!(labels(&mut app).iter().any(|(h, t)| *h == first.hex && t.contains(&pct)), "{pct} at {}", first.hex);

    // A march changes the board: the preview is worked out again from
    // where the unit now stands.
    let Some(start) = expected.path.first().copied() else { panic!("a path") };
    let ends = sim::movement_range(app.world_mut(), unit).ends;
    let Some(&(to, _)) = ends.iter().find(|(h, _)| *h != start) else { panic!("somewhere to march") };
    let order = Order::Move { unit: s.units[unit].id.clone(), to: (to.c, to.r) };
    assert!(sim::issue_order(app.world_mut(), &order).is_ok());
    // Shown at once, as a screenshot shows it, not slid hex by hex.
    app.world_mut().resource_mut::<playback::Playback>().instant = true;
    for _ in 0..3 {
        app.update();
    }
    let len = app.world().resource::<sim::BattleLog>().events.len();
    assert_eq!(app.world().resource::<crate::game::shown::Shown>().cursor, len, "the march is shown");
    let Some(moved) = rules_preview(app.world_mut(), unit) else { panic!("a preview after the march") };
    assert_eq!(moved.path.first(), Some(&to));
    assert_eq!(marks(&mut app), sorted(&moved.path), "the marks follow the board");

    press(&mut app, KeyCode::KeyR);
    assert!(marks(&mut app).is_empty() && labels(&mut app).is_empty(), "R again hides it");
    assert!(app.world().resource::<RoutView>().shown.is_none());
}

/// While the picked firers point at an enemy for the odds, the enemy's
/// rout is shown too, with the friend stacked with it that it would shake
/// as it leaves (rule 1.4: the start hex counts); pointing away takes it
/// off.
#[test]
fn pointing_at_a_target_shows_where_it_would_rout() {
    let rows: Vec<String> = (0..12).map(|_| format!("\"{}\"", ".".repeat(8))).collect();
    let text = format!(
        "Scenario(format: 1, name: \"duel\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [(id: \"fr-a\", side: \"fr\", arm: Infantry, at: (3, 8), morale: 32, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: (3, 6), morale: 32, strength: 4), (id: \"ru-b\", side: \"ru\", arm: Infantry, at: (3, 6), morale: 44, strength: 4)])",
        rows.join(",\n ")
    );
    let mut sim = Simulation::new(parse(&text, "duel.ron"), 7, vec![], Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    assert_eq!(go_to(w, Phase::OffensiveFire), 0);
    let Some(expected) = rules_preview(w, 1) else { panic!("a preview of ru-a") };
    assert!(expected.risks.iter().any(|r| r.unit == 2), "ru-a's rout passes ru-b: {expected:?}");
    let mut app = window_app(sim);
    app.world_mut().write_message(MapClick { hex: Offset::new(3, 8), button: MapButton::Primary });
    app.update();
    assert_eq!(app.world().resource::<PlayerTurn>().group, vec![0], "the firer is picked");
    app.world_mut().resource_mut::<MapPointer>().hex = Some(Offset::new(3, 6));
    app.update();
    assert!(app.world().resource::<PlayerTurn>().odds.is_some(), "the odds are up");
    let view = app.world().resource::<RoutView>();
    assert!(!view.on, "no R pressed");
    assert_eq!(view.shown.as_ref().map(|s| (s.why, &s.preview)), Some((Why::Target, &expected)));
    assert_eq!(marks(&mut app), sorted(&expected.path));
    assert!(labels(&mut app).iter().any(|(h, _)| *h == Offset::new(3, 6)), "ru-b is labelled");

    app.world_mut().resource_mut::<MapPointer>().hex = Some(Offset::new(6, 10));
    app.update();
    assert!(marks(&mut app).is_empty(), "pointing at open ground: no target, no preview");
}

/// The legend names the end, counts the friends and explains "then" only
/// when some friend checks after its stack's top.
#[test]
fn the_legend_says_how_the_rout_ends_and_what_the_labels_mean() {
    use crate::hex::Edge;
    use crate::labataille::rout_preview::{Chance, ContagionRisk, RoutEnd};
    let of36 = |ways| Chance { ways, outcomes: 36 };
    let risk = |unit, after_top| ContagionRisk {
        unit,
        hex: Offset::new(1, 2),
        modifier: 0,
        fails: of36(14),
        after_top,
        overall: if after_top { of36(22).and(of36(14)) } else { of36(14) },
    };
    let preview = RoutPreview {
        unit: 0,
        path: vec![Offset::new(1, 2), Offset::new(1, 3), Offset::new(1, 4)],
        end: RoutEnd::OffMap { edge: Edge::South, recovers: false },
        risks: vec![risk(1, false)],
    };
    let view = |preview: RoutPreview| RoutView {
        on: true,
        shown: Some(super::Previewed { why: Why::Selected, preview, name: "fr-a".into() }),
        ..RoutView::default()
    };
    let names = |u: usize| format!("unit {u}");
    let Some(one) = super::legend_words(&view(preview.clone()), names) else { panic!("a legend") };
    assert!(one.contains("runs 2 hexes and off the map by the south edge: eliminated"), "{one}");
    assert!(one.contains("passes 1 friend in good order") && one.contains("unit 1 at (1, 2): 39%"), "{one}");
    assert!(!one.contains("\"then\""), "{one}");
    let stack = RoutPreview { risks: vec![risk(1, false), risk(2, true)], ..preview };
    let Some(two) = super::legend_words(&view(stack), names) else { panic!("a legend") };
    assert!(two.contains("passes 2 friends") && two.contains("\"then\""), "{two}");
    assert!(two.contains("unit 2 at (1, 2): then 24% (39%)"), "{two}");
    let off = RoutView { on: true, ..RoutView::default() };
    assert!(super::legend_words(&off, names).is_some_and(|t| t.contains("select a unit")));
    assert_eq!(super::legend_words(&RoutView::default(), names), None);
}

/// While a charge is chosen, the target's rout is previewed on the board at
/// contact: the charger next to it, where it stands when the melee is
/// rolled (not where it stands now, far off).
#[test]
fn pointing_a_charge_at_a_target_previews_its_rout_at_contact() {
    let rows: Vec<String> = (0..10).map(|_| format!("\"{}\"", ".".repeat(10))).collect();
    let text = format!(
        "Scenario(format: 1, name: \"charge\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [(id: \"fr-h\", side: \"fr\", arm: Cavalry, at: (7, 1), morale: 45, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: (4, 4), morale: 35, strength: 4, state: Disordered)])",
        rows.join(",\n ")
    );
    let mut sim = Simulation::new(parse(&text, "charge.ron"), 7, vec![], Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    assert_eq!(go_to(w, Phase::Charge), 0);
    let at_contact = crate::sim::charge_target_rout(w, 0, 1).expect("a preview at contact");
    let Some(now) = rules_preview(w, 1) else { panic!("a preview of ru-a") };
    assert_ne!(at_contact.path, now.path, "the horse at contact changes the way it would run");
    let mut app = window_app(sim);
    app.world_mut().write_message(MapClick { hex: Offset::new(7, 1), button: MapButton::Primary });
    app.update();
    assert_eq!(app.world().resource::<PlayerTurn>().group, vec![0], "the horse is picked");
    app.world_mut().resource_mut::<MapPointer>().hex = Some(Offset::new(4, 4));
    app.update();
    let view = app.world().resource::<RoutView>();
    assert_eq!(view.shown.as_ref().map(|s| (s.why, &s.preview)), Some((Why::Charged(0), &at_contact)));
    assert_eq!(marks(&mut app), sorted(&at_contact.path));
}
