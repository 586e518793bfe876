//! The on-screen text, in bevy_ui: the bar along the top (scenario, turn,
//! phase, playback), the column on the right (the hex under the cursor, the
//! selected unit in words, the battle log with its filter), the help card,
//! and the located errors of a file that would not open.

use bevy::prelude::*;

use super::cards::{SideCard, SideColumn};
use super::input::MapPointer;
use super::opened::{Opened, Source};
use super::playback::{Playback, SPEEDS};
use super::screen::{BAR_H, PANEL_W, bar_node, side_panel_node};
use super::sets::GameSet;
use super::shown::{LogLine, Shown};
use super::state::Screen;
use super::theme::{self, button, text};
use super::turn::PlayerTurn;
use super::units::units_at;
use super::why::WhyButton;
use crate::hex::Dir;
use crate::scenario::Place;
use crate::sentences::{Category, state_words};
use crate::sim::Clock;
use crate::terrain::HexsideKind;

/// Height of the line under the pointer's place: four lines of text.
const HOVER_H: f32 = 68.0;

/// Units under the pointer named in the hover lines; more are counted.
const HOVER_UNITS: usize = 3;

/// Lines of the log shown at once.
const LOG_LINES: usize = 16;

/// Which lines the log shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LogFilter {
    #[default]
    All,
    /// Morale checks and their outcomes, no phase lines.
    Morale,
    /// Only failures, state changes and losses.
    Failures,
    /// Moves.
    Moves,
    /// Only the selected unit.
    Selected,
}

impl LogFilter {
    fn next(self) -> Self {
        match self {
            LogFilter::All => LogFilter::Morale,
            LogFilter::Morale => LogFilter::Failures,
            LogFilter::Failures => LogFilter::Moves,
            LogFilter::Moves => LogFilter::Selected,
            LogFilter::Selected => LogFilter::All,
        }
    }

    fn name(self) -> &'static str {
        match self {
            LogFilter::All => "everything",
            LogFilter::Morale => "morale checks",
            LogFilter::Failures => "failures and losses",
            LogFilter::Moves => "moves",
            LogFilter::Selected => "the selected unit",
        }
    }

    /// Whether a line passes the filter.
    pub fn keeps(self, category: Category, unit: Option<usize>, selected: Option<usize>) -> bool {
        match self {
            LogFilter::All => true,
            LogFilter::Morale => matches!(category, Category::Check | Category::Failure),
            LogFilter::Failures => matches!(category, Category::Failure | Category::Loss),
            LogFilter::Moves => category == Category::Move,
            LogFilter::Selected => selected.is_some() && unit == selected,
        }
    }
}

/// The log panel's state: filter and how many lines up from the newest.
#[derive(Resource, Default)]
pub struct LogView {
    pub filter: LogFilter,
    pub scroll: usize,
}

#[derive(Component)]
struct TopBar;
/// The battle's bar along the top (its words are [`TopBar`]'s).
#[derive(Component)]
struct BattleBar;
#[derive(Component)]
struct HoverText;
#[derive(Component)]
struct UnitText;
#[derive(Component)]
struct LogText;
#[derive(Component)]
struct LogTitle;
/// The room the log's lines are shown in.
#[derive(Component)]
struct LogBox;
#[derive(Component)]
struct ErrorCard;
#[derive(Component)]
struct ErrorText;

/// The keys, as the help card lists them.
pub const HELP: &str = "\
Space: play or pause
. (full stop), , (comma): show one event more, one fewer (step the log)
End: back to the present (the battle as it stands, the log at its newest line)
Enter or N: show the rest of this phase (or the next one with events)
+ and -: faster, slower
Drag or arrow keys: pan;  wheel: zoom;  Home: fit the map
Click: select a unit (again: the next one in the stack)
F2: hide or show the first battle's guide (Tab, the last battle: new players start there)
1: distance to the nearest enemy (the selected unit's side)
2: enemy zones of influence
3: the selected unit's movement range
4: this turn's rout moves as arrows
R: where the selected unit (either side) would rout now, and each friend's chance to fail contagion
W: why the selected unit broke: the chain of causes on the map, and in a panel (click a line to step there)
F: forecast: 500 continuations to the end of the turn; heat rings (chance to break), corps' and sides' odds; Esc cancels
D: fork the history: pick a roll before the moment shown and what it rolls instead;  B: the other branch
V: log filter;  PgUp, PgDn: scroll the log
Tab or M: scenarios (E there: edit this battle);  Shift+R: restart;  H: this help;  Esc: close the help, the menu or the end-of-battle card
Esc while the computer thinks (a hard side, the banner shows how far): it gives the best orders found so far
P: seats (you against the AI, hot-seat, watch);  F5: save (a new file in saves/);  F9: this battle's newest save

When a phase waits for your orders (the banner under the top bar):
Click your unit: select it; shift-click: add firers or attackers
Movement: click a blue hex to march (right-click: onto friends too);
  L line, C column, S square, G general order, K limber or unlimber
  T, Shift+T: turn one hexside clockwise, counter-clockwise (zone of influence)
  X: march the selected unit off the map by its side's exit edge
Fire, melee, charge: point at an enemy for the odds (and where it would rout), click it to commit
On a table: drag your unit to march it (Shift: face the march); L C S, K; T, Shift+T: wheel 15 degrees
U or Ctrl+Z: undo (until dice are rolled);  E or Enter: end the phase";

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogView>();
    app.add_systems(Startup, spawn);
    app.add_systems(OnEnter(Screen::Help), spawn_help);
    app.add_systems(Update, keys.in_set(GameSet::Input));
    app.add_systems(Update, (top_bar, hover, unit, log, errors).in_set(GameSet::Panels));
    // The editor has a bar and a side panel of its own in their places.
    app.add_systems(OnEnter(Screen::Editor), |q: Query<&mut Node, Or<(With<BattleBar>, With<SideColumn>)>>| {
        show_battle_panels(q, false);
    });
    app.add_systems(OnExit(Screen::Editor), |q: Query<&mut Node, Or<(With<BattleBar>, With<SideColumn>)>>| {
        show_battle_panels(q, true);
    });
}

fn spawn(mut commands: Commands) {
    let panel_bg = BackgroundColor(theme::PANEL);
    commands.spawn((BattleBar, bar_node(), panel_bg, children![(TopBar, text("", 15.0, theme::TEXT_BAR))]));
    commands
        .spawn((
            SideColumn,
            side_panel_node(10.0, 8.0),
            panel_bg,
            children![
                // Four lines high whatever it says, so that what lies under
                // it never moves as the pointer comes and goes.
                (
                    HoverText,
                    text("", 13.0, theme::TEXT_HOVER),
                    Node {
                        height: Val::Px(HOVER_H),
                        min_height: Val::Px(HOVER_H),
                        overflow: Overflow::clip(),
                        ..default()
                    },
                ),
                (UnitText, text("", 13.0, theme::TEXT_HEADING)),
                (
                    WhyButton,
                    button(
                        "Why did it break?  (W)",
                        13.0,
                        theme::BUTTON_WHY,
                        Node { display: Display::None, align_self: AlignSelf::FlexStart, ..theme::pad(8.0, 3.0) },
                    ),
                ),
                (LogTitle, text("", 13.0, theme::TEXT_LOG_TITLE)),
                // The newest lines at the foot of the room left: the
                // oldest give way at the top (PgUp and the wheel go back).
                (
                    LogBox,
                    Node {
                        flex_direction: FlexDirection::Column,
                        justify_content: JustifyContent::FlexEnd,
                        flex_grow: 1.0,
                        flex_shrink: 1.0,
                        min_height: Val::Px(0.0),
                        overflow: Overflow::clip(),
                        ..default()
                    },
                    children![(LogText, text("", 12.0, theme::TEXT_LOG), Node { flex_shrink: 0.0, ..default() })],
                ),
            ],
        ))
        .observe(scroll_log);
    commands.spawn((
        ErrorCard,
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(20.0),
            top: Val::Px(BAR_H + 20.0),
            right: Val::Px(PANEL_W + 20.0),
            padding: UiRect::all(Val::Px(14.0)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(theme::ERROR_CARD),
        GlobalZIndex(4),
        children![(ErrorText, text("", 14.0, theme::TEXT_ERROR))],
    ));
}

fn show_battle_panels(mut q: Query<&mut Node, Or<(With<BattleBar>, With<SideColumn>)>>, on: bool) {
    for mut n in &mut q {
        n.display = if on { Display::Flex } else { Display::None };
    }
}

fn keys(keys: Res<ButtonInput<KeyCode>>, mut view: ResMut<LogView>) {
    if keys.just_pressed(KeyCode::KeyV) {
        view.filter = view.filter.next();
        view.scroll = 0;
    }
    if keys.just_pressed(KeyCode::PageUp) {
        view.scroll += LOG_LINES / 2;
    }
    if keys.just_pressed(KeyCode::PageDown) {
        view.scroll = view.scroll.saturating_sub(LOG_LINES / 2);
    }
    if keys.just_pressed(KeyCode::End) {
        view.scroll = 0;
    }
}

/// The wheel over the side panel scrolls the log, three lines a notch
/// (over the map it zooms).
fn scroll_log(ev: On<Pointer<Scroll>>, mut view: ResMut<LogView>) {
    if ev.y != 0.0 {
        let lines = ev.y.signum() as i64 * 3;
        view.scroll = (view.scroll as i64 + lines).max(0) as usize;
    }
}

fn top_bar(
    opened: Res<Opened>,
    shown: Res<Shown>,
    pb: Res<Playback>,
    clock: Option<Res<Clock>>,
    turn: Res<PlayerTurn>,
    log: Option<Res<crate::sim::BattleLog>>,
    mut q: Query<&mut Text, With<TopBar>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
) {
    let Ok(mut t) = q.single_mut() else { return };
    let room = windows.single().map_or(f32::MAX, |w| w.width() - 20.0);
    let Some(s) = &opened.scenario else {
        t.0 = format!("{}: cannot open (see the errors)    Tab: scenarios    R: retry", opened.title());
        return;
    };
    let side = shown
        .side
        .as_deref()
        .and_then(|id| s.sides.iter().find(|x| x.id == id))
        .map(|x| format!("{}, ", x.name))
        .unwrap_or_default();
    let phase = shown.phase.map_or("before the battle", |p| p.words());
    let behind = log.as_ref().map_or(0, |l| l.events.len().saturating_sub(shown.cursor));
    let state = if behind > 0 && !pb.playing && turn.awaiting.is_some() {
        format!("looking back {behind} events (. forward, Space: to the present)")
    } else if clock.as_ref().is_some_and(|c| c.finished) && pb.speed() > 0.0 && !pb.playing {
        "finished".to_owned()
    } else if turn.awaiting.is_some() {
        "waiting for orders (E ends the phase)".to_owned()
    } else if pb.playing {
        format!("playing x{}", SPEEDS[pb.speed])
    } else {
        format!("paused (x{}; Space plays)", SPEEDS[pb.speed])
    };
    let from = match &opened.source {
        Source::Bundled(_) => String::new(),
        Source::File(p) => format!(" [{}]", p.display()),
    };
    let (turn, event) = (format!("Turn {} of {}", shown.turn.max(1), s.turns), format!("event {}", shown.cursor));
    // The fullest line that fits the window's width: the file's path, the
    // help key and the event's number go first when it is narrow.
    let lines = [
        format!("{}{from}    {turn}    {side}{phase}    {event}    {state}    H: help", s.name),
        format!("{}    {turn}    {side}{phase}    {event}    {state}    H: help", s.name),
        format!("{}    {turn}    {side}{phase}    {state}", s.name),
        format!("{turn}    {side}{phase}    {state}"),
    ];
    let fits = |l: &String| bar_width(l) <= room;
    let want = lines.iter().find(|l| fits(l)).unwrap_or(&lines[lines.len() - 1]);
    if t.0 != *want {
        t.0.clone_from(want);
    }
}

/// About how wide the bar's words are, in pixels (its font at 15 px is
/// about 7.2 px a character on average).
pub fn bar_width(words: &str) -> f32 {
    words.chars().count() as f32 * 7.2
}

fn hover(opened: Res<Opened>, shown: Res<Shown>, pointer: Res<MapPointer>, mut q: Query<&mut Text, With<HoverText>>) {
    let Ok(mut t) = q.single_mut() else { return };
    let Some(s) = &opened.scenario else {
        t.0.clear();
        return;
    };
    let Some(h) = pointer.hex else {
        t.0 = "Point at the map.".into();
        return;
    };
    let terrain = s.map.terrain(h).map_or("off the map".to_owned(), |x| format!("{x:?}").to_lowercase());
    let mut out = if opened.hex_mode() {
        format!("Hex {h}: {terrain}")
    } else {
        let w = pointer.world.map(|w| {
            let (lo, hi) = opened.layout.bounds();
            let ppc = opened.layout.px_per_cm();
            ((w.x - lo.x) / ppc, (hi.y - w.y) / ppc)
        });
        let (x, y) = w.unwrap_or_default();
        format!("Table ({x:.0}, {y:.0}) cm: {terrain}")
    };
    let sides: Vec<String> = Dir::ALL
        .into_iter()
        .flat_map(|d| HexsideKind::ALL.into_iter().filter(move |k| s.map.has_hexside(h, d, *k)).map(move |k| (d, k)))
        .map(|(d, k)| format!("{k:?} on {d:?}").to_lowercase())
        .collect();
    if opened.hex_mode() && !sides.is_empty() {
        out += &format!(" ({})", sides.join(", "));
    }
    let here = units_at(&opened, &shown, pointer.world, pointer.hex);
    for &i in here.iter().take(HOVER_UNITS) {
        let (Some(spec), Some(u)) = (s.units.get(i), shown.units.get(i)) else { continue };
        out += &format!("\n  {} ({}, {})", spec.name, format!("{:?}", spec.arm).to_lowercase(), state_words(u.state));
    }
    if here.len() > HOVER_UNITS {
        out += &format!("\n  and {} more (click to step through them)", here.len() - HOVER_UNITS);
    }
    if t.0 != out {
        t.0 = out;
    }
}

/// The selected unit, every component in words: what the log has shown,
/// then the simulation's own components (formation, facing, limbers, rest),
/// which no event reports.
fn unit(
    opened: Res<Opened>,
    shown: Res<Shown>,
    pointer: Res<MapPointer>,
    mut q: Query<&mut Text, With<UnitText>>,
    sim: Query<(
        &crate::sim::UnitIndex,
        &crate::sim::FormationOf,
        Option<&crate::sim::Facing>,
        &crate::sim::Limbered,
        &crate::sim::Rested,
        &crate::sim::Strength,
    )>,
) {
    let Ok(mut t) = q.single_mut() else { return };
    let (Some(s), Some(i)) = (&opened.scenario, pointer.selected) else {
        t.0 = if opened.scenario.is_some() { "Click a counter for its details.".into() } else { String::new() };
        return;
    };
    let (Some(spec), Some(u)) = (s.units.get(i), shown.units.get(i)) else { return };
    let side = s.sides.get(spec.side).map_or("?", |x| x.name.as_str());
    let mut out = format!("{}\n  id {}, {side}, {:?}\n", spec.name, spec.id, spec.arm).to_owned();
    match spec.place {
        Place::Hex(_) => {
            let at = u.at.map_or("off the board".to_owned(), |a| format!("hex {a}"));
            out += &format!(
                "  morale {}, strength {} increments\n  {}, {at}\n",
                spec.morale,
                spec.strength,
                state_words(u.state)
            );
        }
        Place::Table { .. } => {
            let at =
                u.cm.map_or("off the table".to_owned(), |(x, y, f)| format!("at ({x:.0}, {y:.0}) cm facing {f:.0}°"));
            out +=
                &format!("  valour {:+}, {} figures\n  {}, {at}\n", spec.valour, spec.strength, state_words(u.state));
        }
    }
    out += &format!("  readiness {:?}", u.readiness).to_lowercase();
    if let Some(m) = spec.movement {
        out += &format!(", movement {m} MP");
    }
    if let Some((_, formation, facing, limbered, rested, strength)) = sim.iter().find(|c| c.0.0 == i) {
        let formation = format!("{:?}", formation.0).to_lowercase();
        out += &format!("\n  in {formation}");
        if let (Some(f), true) = (facing, opened.hex_mode()) {
            out += &format!(", facing {:?}", f.0);
        }
        if spec.arm == crate::terrain::Arm::Artillery {
            out += if limbered.0 { ", limbered" } else { ", unlimbered" };
        }
        if opened.hex_mode() {
            out += if rested.0 { ", rested" } else { ", not rested" };
        }
        if strength.0 != spec.strength {
            out += &format!(", {} left", strength.0);
        }
    }
    t.0 = out;
}

fn log(
    shown: Res<Shown>,
    view: Res<LogView>,
    pointer: Res<MapPointer>,
    mut title: Query<&mut Text, (With<LogTitle>, Without<LogText>)>,
    mut q: Query<&mut Text, (With<LogText>, Without<LogTitle>)>,
    mut nodes: Query<&mut Node, Or<(With<LogTitle>, With<LogBox>)>>,
    cards: Query<&Node, (With<SideCard>, Without<LogTitle>, Without<LogBox>)>,
    mut was_carded: Local<bool>,
) {
    // A card of the column (the why view, the forecast, the fork) takes the
    // log's place while it shows.
    let carded = cards.iter().any(|n| n.display != Display::None);
    let want = if carded { Display::None } else { Display::Flex };
    for mut n in &mut nodes {
        if n.display != want {
            n.display = want;
        }
    }
    let back = std::mem::replace(&mut *was_carded, carded) && !carded;
    if carded || (!back && !shown.is_changed() && !view.is_changed() && !pointer.is_changed()) {
        return;
    }
    // A phase in which nothing happened is not worth a line.
    let eventful = |k: usize| {
        let l = &shown.log[k];
        l.category != Category::Phase || shown.log.get(k + 1).is_none_or(|n| n.category != Category::Phase)
    };
    let kept: Vec<&LogLine> = (0..shown.log.len())
        .filter(|&k| eventful(k))
        .map(|k| &shown.log[k])
        .filter(|l| view.filter.keeps(l.category, l.unit, pointer.selected))
        .collect();
    let end = kept.len().saturating_sub(view.scroll.min(kept.len()));
    let start = end.saturating_sub(LOG_LINES);
    if let Ok(mut t) = title.single_mut() {
        let scrolled =
            if view.scroll > 0 { format!(", {} lines up (End: newest)", kept.len() - end) } else { String::new() };
        t.0 = format!("Battle log: {} (V){scrolled}", view.filter.name());
    }
    if let Ok(mut t) = q.single_mut() {
        t.0 = kept[start..end]
            .iter()
            .map(|l| if l.category == Category::Phase { format!("— {}", l.text) } else { l.text.clone() })
            .collect::<Vec<_>>()
            .join("\n");
    }
}

/// The help card, up while the help screen is (H or F1; Esc closes it).
fn spawn_help(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Help),
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(20.0),
            top: Val::Px(BAR_H + 20.0),
            padding: UiRect::all(Val::Px(12.0)),
            ..default()
        },
        BackgroundColor(theme::HELP_CARD),
        GlobalZIndex(5),
        children![text(HELP, 14.0, theme::TEXT_HELP)],
    ));
}

fn errors(
    opened: Res<Opened>,
    mut card: Query<&mut Node, With<ErrorCard>>,
    mut text: Query<&mut Text, With<ErrorText>>,
) {
    if !opened.is_changed() {
        return;
    }
    if let Ok(mut n) = card.single_mut() {
        n.display = if opened.errors.is_empty() { Display::None } else { Display::Flex };
    }
    if let Ok(mut t) = text.single_mut() {
        t.0 = format!(
            "This scenario has problems; fix the file and it reloads by itself (R opens it again).\n\n{}",
            opened.errors.join("\n")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_filters_keep_what_they_say() {
        assert!(LogFilter::All.keeps(Category::Phase, None, None));
        assert!(!LogFilter::Morale.keeps(Category::Phase, None, None));
        assert!(LogFilter::Failures.keeps(Category::Loss, Some(1), None));
        assert!(!LogFilter::Failures.keeps(Category::Check, Some(1), None));
        assert!(LogFilter::Selected.keeps(Category::Move, Some(3), Some(3)));
        assert!(!LogFilter::Selected.keeps(Category::Move, Some(3), None));
        let mut f = LogFilter::All;
        for _ in 0..5 {
            f = f.next();
        }
        assert_eq!(f, LogFilter::All);
    }
}
