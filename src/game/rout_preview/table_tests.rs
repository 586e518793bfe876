//! The flight preview at the window on a free-space table, in an app
//! without a window or renderer: on the bundled Ligny, R with a unit
//! selected shows the rules' own preview (its path from the unit, its
//! friends real units of its side, ringed and labelled), the legend says
//! it in names, and R again hides it.

use bevy::prelude::*;

use super::table::{compass, flight_labels, legend_words};
use super::tests::window_app;
use super::{FlightLabel, FlightShown, RoutView};
use crate::belle_alliance::flight_preview::{CarryRisk, FlightPreview, Obstacle, Whence};
use crate::belle_alliance::geometry::OrientedRect;
use crate::belle_alliance::{FsCtx, Table};
use crate::game::input::MapPointer;
use crate::game::lines::Lines;
use crate::game::playback;
use crate::game::seats::{Seats, seat};
use crate::game::testing::{go_to, parse, press};
use crate::game::theme::{ROUT_CASING, ROUT_PATH};
use crate::hex::Edge;
use crate::labataille::orders::Order;
use crate::labataille::rout_preview::Chance;
use crate::sim::{self, Simulation};
use crate::turn::Phase;

fn labels(app: &mut App) -> Vec<(Option<usize>, String)> {
    let mut q = app.world_mut().query::<&FlightLabel>();
    let mut out: Vec<_> = q.iter(app.world()).map(|l| (l.unit, l.text.clone())).collect();
    out.sort();
    out
}

fn table(w: &mut World) -> Table {
    sim::view::table_scope(w, |_, t| t.clone()).unwrap_or_default()
}

/// The preview straight from the rules crate, on the table the simulation
/// holds.
fn rules_preview(w: &mut World, unit: usize) -> Option<FlightPreview> {
    let s = w.resource::<sim::Battle>().scenario.clone();
    let t = table(w);
    crate::belle_alliance::flight_preview::flight_preview(&FsCtx::new(&s), &t, unit, None)
}

/// A short march of `unit` the rules allow now: a few cm any way.
fn a_march(w: &mut World, t: &Table, unit: usize) -> Option<(f32, f32)> {
    let u = &t.units[unit];
    [(0.0, 3.0), (0.0, -3.0), (3.0, 0.0), (-3.0, 0.0)]
        .into_iter()
        .map(|(dx, dy)| (u.x + dx, u.y + dy))
        .find(|&to| sim::fs_march_preview(w, unit, to, u.facing).is_ok())
}

/// R with a unit selected on Ligny shows its flight: the path starts at the
/// unit, the friends it would meet are units of its side, each labelled
/// with its chance, the legend names them; the path is drawn in the rout
/// preview's colours; after a march it follows the table; R again hides
/// it all.
#[test]
fn r_on_a_table_shows_the_selected_units_flight_and_r_again_hides_it() {
    let ligny = crate::game::opened::BUNDLED.iter().find(|b| b.0.contains("ligny")).expect("Ligny is bundled").1;
    let mut sim = Simulation::new(parse(ligny, "ligny-1815.ron"), 1, vec![], Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    let s = w.resource::<sim::Battle>().scenario.clone();
    // A unit of the side to move whose flight would meet a friend and that
    // may march (to see the preview follow it): the French, who move
    // second, have some.
    let mut found = None;
    for _ in 0..s.sides.len() {
        let side = go_to(w, Phase::Movement);
        let t = table(w);
        found = (0..t.units.len()).find(|&u| {
            t.units[u].side == side
                && rules_preview(w, u).is_some_and(|p| !p.carried.is_empty())
                && a_march(w, &t, u).is_some()
        });
        if found.is_some() {
            break;
        }
        sim::end_phase(w);
    }
    let Some(unit) = found else { panic!("no unit on Ligny would carry a friend along and march") };
    let t = table(w);
    let Some(expected) = rules_preview(w, unit) else { panic!("a preview") };
    let mut app = window_app(sim);
    app.world_mut().resource_mut::<MapPointer>().selected = Some(unit);
    app.update();
    assert!(app.world().resource::<RoutView>().flight.is_none(), "nothing shown before R");

    press(&mut app, KeyCode::KeyR);
    let view = app.world().resource::<RoutView>();
    assert!(view.on && view.shown.is_none(), "a table has no hex preview");
    let Some(shown) = view.flight.clone() else { panic!("R shows the flight of {}", s.units[unit].name) };
    assert_eq!(shown.preview, expected, "the rules' own preview");
    assert_eq!(shown.name, s.units[unit].name);
    assert_eq!(shown.preview.path.first(), Some(&(t.units[unit].x, t.units[unit].y)), "the path starts at the unit");
    for r in &shown.preview.carried {
        assert!(r.unit != unit && t.units[r.unit].side == t.units[unit].side, "{} is a friend", s.units[r.unit].name);
    }
    let want: Vec<_> = {
        let mut l: Vec<_> =
            flight_labels(&expected, |u| s.units[u].name.clone()).into_iter().map(|(u, _, text)| (u, text)).collect();
        l.sort();
        l
    };
    assert_eq!(labels(&mut app), want, "a label over each friend (and the end, if something stopped it)");
    let first = &expected.carried[0];
    let pct = crate::game::orders::words::pct(first.fails.fraction() as f32);
    assert!(labels(&mut app).iter().any(|(u, text)| *u == Some(first.unit) && text.contains(&pct)), "{pct}");
    let legend = super::legend_words(app.world().resource::<RoutView>(), |u| s.units[u].name.clone());
    let Some(legend) = legend else { panic!("a legend") };
    assert!(legend.contains(&format!("{} would flee", s.units[unit].name)), "{legend}");
    let mut titles = app.world_mut().query_filtered::<&Text, With<super::LegendTitle>>();
    let titles: Vec<String> = titles.iter(app.world()).map(|t| t.0.clone()).collect();
    assert_eq!(titles, ["Flight preview"], "the card says what it shows on a table");
    assert!(legend.contains(&format!("would carry along {} (fails {pct})", s.units[first.unit].name)), "{legend}");
    assert!(!legend.contains(&s.units[unit].id) || s.units[unit].id == s.units[unit].name, "names, not ids: {legend}");
    let colours = app.world().resource::<Lines>().colours();
    assert!(colours.contains(&ROUT_PATH) && colours.contains(&ROUT_CASING), "the path in the rout colours");

    // A march moves the unit: the preview is worked out again from where
    // it now stands.
    let Some(to) = a_march(app.world_mut(), &t, unit) else { panic!("a march") };
    let order = Order::March { unit: s.units[unit].id.clone(), to, facing: t.units[unit].facing };
    assert!(sim::issue_order(app.world_mut(), &order).is_ok());
    app.world_mut().resource_mut::<playback::Playback>().instant = true;
    for _ in 0..3 {
        app.update();
    }
    let Some(moved) = rules_preview(app.world_mut(), unit) else { panic!("a preview after the march") };
    assert_eq!(moved.path.first(), Some(&to), "the rules' preview starts where it marched to");
    let view = app.world().resource::<RoutView>();
    assert_eq!(view.flight.as_ref().map(|f| &f.preview), Some(&moved), "the preview follows the table");

    press(&mut app, KeyCode::KeyR);
    let view = app.world().resource::<RoutView>();
    assert!(!view.on && view.flight.is_none(), "R again hides it");
    assert!(labels(&mut app).is_empty(), "and its labels");
    assert_eq!(super::legend_words(app.world().resource::<RoutView>(), |u| format!("{u}")), None);
}

/// The legend says the flight in words: how far, which way, what stops
/// it, whom it would carry along with what chance, and what it flees.
#[test]
fn the_legend_says_the_flight_in_names_and_words() {
    let of216 = |ways| Chance { ways, outcomes: 216 };
    let friend = |unit, ways, overall| CarryRisk {
        unit,
        at: (60.0, 80.0),
        modifier: 0,
        fails: of216(ways),
        shaken: of216(52),
        overall,
        path_if_carried: vec![(50.0, 50.0), (60.0, 75.0)],
    };
    let preview = FlightPreview {
        unit: 0,
        whence: Whence::Enemy { unit: 3, nearest: true },
        march_cm: 20.0,
        fleeing: false,
        path: vec![(50.0, 50.0), (50.0 - 13.435, 50.0 + 13.435)],
        square: OrientedRect::new(36.565, 63.435, 9.8, 9.8, 0.0),
        stopped: Some(Obstacle::Edge(Edge::South)),
        carried: vec![friend(1, 91, 91.0 / 216.0), friend(2, 108, 91.0 / 216.0 * 0.5)],
        fled_all_told: 0.68,
    };
    let names = |u: usize| ["1/23e Ligne", "1/64e Ligne", "2/64e Ligne", "Pirch I"][u].to_owned();
    let shown = FlightShown { preview: preview.clone(), name: "1/23e Ligne".into() };
    let words = legend_words(&shown, names);
    assert!(
        words.starts_with(
            "1/23e Ligne would flee 19 cm south-west, to the table's south edge, where it stops; would carry along \
             1/64e Ligne (fails 42%), then 2/64e Ligne (21% all told)."
        ),
        "{words}"
    );
    assert!(words.contains("From Pirch I, the nearest enemy, taken as the cause"), "{words}");
    assert!(words.contains("1/64e Ligne: fails 42%, else shaken into U 24%"), "{words}");
    assert!(words.contains("2/64e Ligne: then 21% (50%)"), "{words}");
    assert!(words.contains("Friends expected to flee all told: 0.68"), "{words}");
    let labels = flight_labels(&preview, names);
    assert_eq!(
        labels.iter().map(|l| l.2.as_str()).collect::<Vec<_>>(),
        ["fails 42%", "then 21% (50%)", "stopped: the table's edge"]
    );
    let fleeing = FlightShown { preview: FlightPreview { fleeing: true, ..preview }, name: "1/23e Ligne".into() };
    assert!(legend_words(&fleeing, names).contains("fleeing already"));
    assert_eq!(
        (compass(0.0), compass(100.0), compass(225.0), compass(350.0)),
        ("north", "east", "south-west", "north")
    );
}
