//! Forking the history in the window (D). The panel lists the rolled
//! events of the log up to the moment shown (step the log with , and .
//! to reach older ones); click one, then the roll it makes instead (each
//! d66 result marked pass or fail for a morale check). The game as it
//! stands and its fork (`whatif::fork`: that one roll changed, the rest
//! of the dice as they would come, the players' orders replayed where
//! they still apply) are written as saves of their own under `saves/`,
//! and the fork opens at the changed roll. B switches between the two
//! branches, each shown at the same moment of the log; the panel then
//! holds their comparison (units whose fate differs, ringed on the map,
//! cascades that appear or vanish, the scores).

pub mod choices;

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::cards;
use super::layout::Layout;
use super::lines::Lines;
use super::map::z;
use super::opened::{OnBattle, Opened, Source};
use super::playback::Playback;
use super::scenarios::{Pending, ScenarioText};
use super::sets::GameSet;
use super::shown::Shown;
use super::state::{Screen, battle_keys};
use super::theme::{self, button, button_face, inked_button, pad, text};
use super::turn::{Notice, PlayerTurn};
use crate::events::Seq;
use crate::scenario::Scenario;
use crate::sim::{self, Battle};
use crate::whatif::compare::{Comparison, Words};
use crate::whatif::reroll::{RollAt, Which, roll_of};
use choices::{Choice, Rolled, roll_choices, rolled_before};

/// Rolled events the panel lists at once.
pub const LISTED: usize = 8;

/// Where forks are written, beside the window's other saves (`saves.rs`).
pub const FORK_DIR: &str = "saves";

/// The fork panel and the two branches of a fork made.
#[derive(Resource)]
pub struct ForkView {
    /// The panel is open (D): the rolled events to fork at.
    pub open: bool,
    /// The branches' comparison is shown (after a fork; D or Esc hides it,
    /// B still switches branch).
    pub compare: bool,
    /// The roll picked to roll otherwise.
    pub picked: Option<RollAt>,
    /// A new roll clicked for the picked one: the fork is made next frame.
    pub asked: Option<(RollAt, u32)>,
    pub branches: Option<Branches>,
    /// Where the saves of a fork go.
    pub dir: PathBuf,
    /// The moment of the log to show once the branch asked for is open.
    seek: Option<usize>,
}

impl Default for ForkView {
    fn default() -> Self {
        ForkView {
            open: false,
            compare: false,
            picked: None,
            asked: None,
            branches: None,
            dir: FORK_DIR.into(),
            seek: None,
        }
    }
}

/// A game and its fork, each in a save of its own.
#[derive(Clone, Debug)]
pub struct Branches {
    pub original: PathBuf,
    pub fork: PathBuf,
    pub at: Seq,
    /// Which of the event's rolls (a free-space melee has two).
    pub which: Which,
    pub roll: u32,
    /// What the event rolled in the original.
    pub was: u32,
    pub comparison: Comparison,
    /// The branch open now.
    pub on_fork: bool,
    /// Players' orders the fork no longer allowed, with why.
    pub dropped: Vec<String>,
}

impl Branches {
    fn path(&self, fork: bool) -> &Path {
        if fork { &self.fork } else { &self.original }
    }
}

#[derive(Component)]
struct ForkPanel;
/// A listed event: clicking it picks it.
#[derive(Component)]
struct EventLine(RollAt);
/// A roll of the picker: clicking it makes the fork.
#[derive(Component)]
struct RollButton(u32);
/// Opens the other branch.
#[derive(Component)]
struct SwitchButton;
/// The fork card's close button (as D).
#[derive(Component)]
struct ForkClose;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ForkView>();
    app.add_observer(activate);
    app.add_systems(Update, (keys, make, arrive).chain().in_set(GameSet::Input).run_if(battle_keys));
    app.add_systems(Update, rings.in_set(GameSet::Draw));
    app.add_systems(Update, panel.in_set(GameSet::Panels));
}

fn say(world: &mut World, n: Notice) {
    if let Some(mut t) = world.get_resource_mut::<PlayerTurn>() {
        t.say(n);
    }
}

/// D: the panel opens or closes; B: the other branch; Esc closes the
/// panel (unless it closes a card over the battle).
fn keys(world: &mut World) {
    let (d, b, esc) = {
        let k = world.resource::<ButtonInput<KeyCode>>();
        (k.just_pressed(KeyCode::KeyD), k.just_pressed(KeyCode::KeyB), k.just_pressed(KeyCode::Escape))
    };
    let shown = |v: &ForkView| v.open || (v.compare && v.branches.is_some());
    if d {
        let has_battle = world.get_resource::<sim::BattleLog>().is_some();
        let mut view = world.resource_mut::<ForkView>();
        // D closes whatever of the fork shows, else opens the picker.
        let open = !shown(&view) && has_battle;
        view.open = open;
        view.compare = false;
        view.picked = None;
    } else if esc && shown(world.resource::<ForkView>()) && *world.resource::<State<Screen>>().get() == Screen::Battle {
        let mut view = world.resource_mut::<ForkView>();
        view.open = false;
        view.compare = false;
        view.picked = None;
    }
    if b {
        let n = switch(world);
        say(world, n);
    }
}

/// A listed event picks it; a roll asks for the fork; the switch button
/// opens the other branch.
fn activate(
    activate: On<Activate>,
    lines: Query<&EventLine>,
    rolls: Query<&RollButton>,
    switches: Query<(), With<SwitchButton>>,
    closes: Query<(), With<ForkClose>>,
    mut view: ResMut<ForkView>,
    mut commands: Commands,
) {
    if closes.get(activate.entity).is_ok() {
        view.open = false;
        view.compare = false;
        view.picked = None;
    }
    if let Ok(line) = lines.get(activate.entity) {
        view.picked = Some(line.0);
    }
    if let (Ok(r), Some(at)) = (rolls.get(activate.entity), view.picked) {
        view.asked = Some((at, r.0));
    }
    if switches.get(activate.entity).is_ok() {
        commands.queue(|world: &mut World| {
            let n = switch(world);
            say(world, n);
        });
    }
}

/// Makes the fork a roll button asked for.
fn make(world: &mut World) {
    let Some((at, roll)) = world.resource_mut::<ForkView>().asked.take() else { return };
    let n = fork_here(world, at, roll).unwrap_or_else(|e| e);
    say(world, n);
}

/// Forks the game as it stands at the roll `at`, which reads `roll`
/// instead: writes the game and its fork as saves and opens the fork.
pub fn fork_here(world: &mut World, at: RollAt, roll: u32) -> Result<Notice, Notice> {
    let RollAt { seq: at, which } = at;
    let text = world.get_resource::<ScenarioText>().map(|t| t.0.clone()).unwrap_or_default();
    let Some(scenario) = world.get_resource::<Battle>().map(|b| b.scenario.clone()) else {
        return Err(Notice::error("No battle to fork."));
    };
    let Some(save) = crate::save::capture(world, &text) else { return Err(Notice::error("No battle to fork.")) };
    let forked = crate::whatif::fork::fork(&save, &scenario, at, Some(which), roll)
        .map_err(|e| Notice::error(format!("Cannot fork there: {e}")))?;
    let dir = world.resource::<ForkView>().dir.clone();
    let name = match which {
        Which::Roll => format!("fork-{at}-{roll}"),
        w => format!("fork-{at}-{w}-{roll}"),
    };
    let fork = dir.join(format!("{name}.save.ron"));
    let original = dir.join(format!("{name}.original.save.ron"));
    for (path, s) in [(&original, &save), (&fork, &forked.save)] {
        s.write(path).map_err(|e| Notice::error(format!("Cannot write {}: {e}", path.display())))?;
    }
    let was = forked.original.events.get(at as usize).and_then(|e| roll_of(e, which)).unwrap_or(0);
    let dropped = forked
        .dropped
        .iter()
        .map(|(o, why)| format!("turn {} {:?}: {} ({why})", o.at.turn, o.at.phase, o.order.units().join(", ")))
        .collect();
    let differ = match forked.comparison.fates.len() {
        0 => "no unit's fate differs".to_owned(),
        1 => "1 unit's fate differs".to_owned(),
        n => format!("{n} units' fates differ"),
    };
    let mut view = world.resource_mut::<ForkView>();
    view.branches = Some(Branches {
        original,
        fork: fork.clone(),
        at,
        which,
        roll,
        was,
        comparison: forked.comparison,
        on_fork: true,
        dropped,
    });
    view.open = false;
    view.compare = true;
    view.picked = None;
    // The fork opens at its changed roll.
    view.seek = Some(at as usize + 1);
    world.resource_mut::<Pending>().0 = Some(Source::File(fork.clone()));
    Ok(Notice::said(format!(
        "Forked: event {at} rolls {roll} instead of {was}; {differ}. The fork is open at that roll \
         (saved to {}); B: the original.",
        fork.display()
    )))
}

/// Opens the other branch at the moment shown now. The branch left is
/// saved again first, so that what was played on it since is kept.
fn switch(world: &mut World) -> Notice {
    let Some(b) = world.resource::<ForkView>().branches.clone() else {
        return Notice::error("No fork to switch to: D forks the history at a die roll.");
    };
    let text = world.get_resource::<ScenarioText>().map(|t| t.0.clone()).unwrap_or_default();
    if let Some(save) = crate::save::capture(world, &text)
        && let Err(e) = save.write(b.path(b.on_fork))
    {
        return Notice::error(format!("Cannot save this branch to {}: {e}", b.path(b.on_fork).display()));
    }
    let to = b.path(!b.on_fork).to_path_buf();
    let cursor = world.resource::<Shown>().cursor;
    let mut view = world.resource_mut::<ForkView>();
    view.seek = Some(cursor);
    if let Some(b) = view.branches.as_mut() {
        b.on_fork = !b.on_fork;
    }
    world.resource_mut::<Pending>().0 = Some(Source::File(to.clone()));
    let which = if b.on_fork { "the original" } else { "the fork" };
    Notice::said(format!("Showing {which} ({}); B switches back.", to.display()))
}

/// A battle opened: a branch of the fork is shown at the moment asked
/// for; any other file ends the fork.
fn arrive(opened: Res<Opened>, mut view: ResMut<ForkView>, mut pb: ResMut<Playback>) {
    if !opened.is_changed() {
        return;
    }
    let ours = view
        .branches
        .as_ref()
        .is_some_and(|b| matches!(&opened.source, Source::File(p) if *p == b.fork || *p == b.original));
    if !ours {
        if view.branches.is_some() || view.open || view.seek.is_some() {
            *view = ForkView { dir: view.dir.clone(), ..default() };
        }
        return;
    }
    if let Some(at) = view.seek.take() {
        pb.seek_to(at);
    }
}

/// The units whose fate differs between the branches, ringed where they
/// are shown.
fn rings(view: Res<ForkView>, opened: Res<Opened>, shown: Res<Shown>, mut lines: ResMut<Lines>) {
    let Some(b) = &view.branches else { return };
    let layout: Layout = opened.layout;
    for d in &b.comparison.fates {
        let Some(unit) = opened.ids.get(&d.unit).and_then(|&u| shown.units.get(u)) else { continue };
        if unit.gone {
            continue;
        }
        let Some(at) = unit.pos().map(|p| layout.at(&p)) else { continue };
        lines.circle(at, 34.0, 3.0, theme::DIFFER, z::FLASH - 2.0);
    }
}

/// What the panel says and offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    pub text: String,
    pub events: Vec<Rolled>,
    pub rolls: Vec<Choice>,
    pub switch: bool,
}

/// The panel's content: the branches' comparison, then (open) the rolled
/// events and the picked one's rolls.
pub fn content(view: &ForkView, scenario: &Scenario, events: &[crate::events::Event], cursor: usize) -> Content {
    let mut text = String::new();
    if let Some(b) = &view.branches {
        let (this, other) = if b.on_fork { ("the fork", "the original") } else { ("the original", "the fork") };
        text += &format!(
            "Two histories: event {}{} rolls {} in the fork, {} in the original. Showing {this}; B shows {other} at \
             the same moment.\nRinged: units whose fate differs.\n{}",
            b.at,
            match b.which {
                Which::Roll => String::new(),
                w => format!(" ({w})"),
            },
            b.roll,
            b.was,
            Words(&b.comparison, scenario)
        );
        for d in &b.dropped {
            text += &format!("The fork dropped the order of {d}\n");
        }
    }
    let mut out = Content { text, events: Vec::new(), rolls: Vec::new(), switch: view.branches.is_some() };
    if !view.open {
        return out;
    }
    let listed = rolled_before(scenario, events, cursor, LISTED);
    let picked = view.picked.and_then(|p| events.get(p.seq as usize).map(|e| (e, p.which)));
    out.text += &match (picked, listed.is_empty()) {
        (Some((e, which)), _) => format!(
            "Fork at event {}: {} {}. What does it roll instead? (green: the check passes, red: it fails)",
            e.seq,
            match which {
                Which::Roll => "it rolled".to_owned(),
                w => format!("the {w} rolled"),
            },
            roll_of(e, which).unwrap_or(0)
        ),
        (None, true) => "Fork the history: nothing has been rolled before the moment shown.".to_owned(),
        (None, false) => format!(
            "Fork the history: pick a roll to change. The {} latest rolls before the moment shown (, and . step the \
             log); D or Esc closes.",
            listed.len()
        ),
    };
    if let Some((e, which)) = picked {
        out.rolls = roll_choices(scenario, e, which);
    }
    out.events = listed;
    out
}

/// Rebuilds the panel when what it shows changes.
fn panel(
    mut commands: Commands,
    view: Res<ForkView>,
    shown: Res<Shown>,
    opened: Res<Opened>,
    log: Option<Res<sim::BattleLog>>,
    old: Query<Entity, With<ForkPanel>>,
    columns: Query<Entity, With<cards::SideColumn>>,
    mut last: Local<Option<Content>>,
) {
    let cursor_moved = view.open && shown.is_changed();
    if !view.is_changed() && !cursor_moved && !opened.is_changed() {
        return;
    }
    let (Some(s), Some(log)) = (opened.scenario.as_deref(), log) else { return };
    let showing = view.open || (view.compare && view.branches.is_some());
    let want = showing.then(|| content(&view, s, &log.events, shown.cursor));
    if *last == want && old.is_empty() != want.is_some() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    *last = want.clone();
    let Some(c) = want else { return };
    let picked = view.picked;
    // A card of the right-hand column, in the log's place.
    let root = commands.spawn((ForkPanel, OnBattle, cards::card(theme::FORK_PANEL))).id();
    if let Some(column) = cards::column(&columns) {
        commands.entity(root).insert(ChildOf(column));
    }
    let title = if view.open { "Fork the history at a die roll" } else { "The fork and the original" };
    cards::title_row(&mut commands, root, title, ForkClose, "Close (D)");
    commands.entity(root).with_children(|p| {
        p.spawn((text(c.text.trim_end(), 13.0, theme::TEXT_FORK), Node { width: Val::Percent(100.0), ..default() }));
        if c.switch {
            p.spawn((
                SwitchButton,
                button(
                    "Show the other branch (B)",
                    13.0,
                    theme::BUTTON_FORK,
                    Node { margin: UiRect::top(Val::Px(4.0)), ..pad(8.0, 2.0) },
                ),
            ));
        }
        let per_row = if c.rolls.len() == 36 { 6 } else { 8 };
        for row in c.rolls.chunks(per_row) {
            p.spawn(Node { column_gap: Val::Px(4.0), margin: UiRect::top(Val::Px(3.0)), ..default() }).with_children(
                |r| {
                    for ch in row {
                        let colour = match (ch.same, ch.passes) {
                            (true, _) => theme::ROLL_SAME,
                            (false, Some(true)) => theme::ROLL_PASSES,
                            (false, Some(false)) => theme::ROLL_FAILS,
                            (false, None) => theme::ROLL_OTHER,
                        };
                        let mut b = r.spawn(button_face(
                            ch.roll.to_string(),
                            14.0,
                            colour,
                            theme::TEXT,
                            Node { width: Val::Px(40.0), justify_content: JustifyContent::Center, ..default() },
                        ));
                        // The roll it made is no fork: not a button.
                        if !ch.same {
                            b.insert((theme::Pressable::default(), RollButton(ch.roll)));
                        }
                    }
                },
            );
        }
        for e in &c.events {
            let mark = if Some(e.at) == picked { ">" } else { " " };
            p.spawn((
                EventLine(e.at),
                inked_button(
                    format!("{mark} #{} {}", e.at.seq, e.text),
                    12.0,
                    if Some(e.at) == picked { theme::LINE_PICKED } else { Color::NONE },
                    theme::TEXT_FORK,
                    Node { width: Val::Percent(100.0), ..pad(4.0, 1.0) },
                ),
            ));
        }
    });
}

#[cfg(test)]
mod tests;
