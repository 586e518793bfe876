//! The player's orders in hex mode: who sits at the window (the scenario's
//! player against the AI, both sides at one window, or nobody), the banner
//! of a phase that waits for orders, clicks and keys turned into
//! [`Order`]s, the movement range and path preview (a distant charge's
//! approach too), the odds of a volley, melee or charge before it is
//! committed, undo and end of phase.
//!
//! The decisions are plain functions ([`order_for_click`],
//! [`order_for_key`], [`fire_odds_text`], ...) over [`UnitView`]s read from
//! the simulation's components, so a player's turn can be driven and tested
//! without a window; the Bevy systems only gather input and show results.

use bevy::prelude::*;

use super::input::{MapButton, PointSet, Pointer};
use super::layout::Layout;
use super::lines::Lines;
use super::opened::{Opened, Source};
use super::playback::Playback;
use super::screen::BAR_H;
use super::seats::{Seats, seat};
use super::sets::GameSet;
use super::shown::{ScenarioNames, Shown};
use super::turn::{CacheKey, MESSAGE_SECONDS, Message, PlayerTurn};
use crate::hex::{Dir, Edge, Offset};
use crate::labataille::HexState;
use crate::labataille::combat::{FireOdds, MeleeOdds};
use crate::labataille::movement::Centi;
use crate::labataille::orders::{Order, OrderPhase};
use crate::scenario::{Exit, Formation};
use crate::sentences::phase_words;
use crate::sim;
use crate::terrain::Arm;

/// A unit as the orders see it, read from the simulation's components.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitView {
    pub index: usize,
    pub id: String,
    pub name: String,
    pub side: usize,
    pub arm: Arm,
    /// On the board and able to be ordered or targeted.
    pub at: Option<Offset>,
    pub limbered: bool,
    pub formation: Formation,
    pub facing: Dir,
    pub state: HexState,
}

/// Every hex unit of the world, in scenario order.
pub fn unit_views(world: &mut World) -> Vec<UnitView> {
    let mut q = world.query::<(
        &sim::UnitIndex,
        &sim::UnitName,
        &sim::SideIndex,
        &sim::ArmOf,
        &sim::HexPosition,
        &sim::Limbered,
        &sim::FormationOf,
        &sim::Facing,
        &sim::MoraleState,
    )>();
    let mut out: Vec<UnitView> = q
        .iter(world)
        .map(|(i, name, side, arm, at, limbered, formation, facing, state)| UnitView {
            index: i.0,
            id: name.id.clone(),
            name: name.name.clone(),
            side: side.0,
            arm: arm.0,
            at: at.0.filter(|_| !matches!(state.0, HexState::Surrendered | HexState::Eliminated)),
            limbered: limbered.0,
            formation: formation.0,
            facing: facing.0,
            state: state.0,
        })
        .collect();
    out.sort_by_key(|u| u.index);
    out
}

/// What a click on the map means while a phase waits for orders.
#[derive(Clone, Debug, PartialEq)]
pub enum Click {
    /// Select `unit` (details, range) with `group` the units that will give
    /// the next order together (empty for an enemy picked to look at).
    Select {
        unit: usize,
        group: Vec<usize>,
    },
    Order(Order),
    /// Select nothing.
    Clear,
    /// Nothing to do but tell the player why.
    Say(String),
}

/// The phase's instruction to the player.
pub fn hint(phase: OrderPhase, group: usize) -> &'static str {
    match (phase, group > 0) {
        (OrderPhase::Movement, false) => "Click one of your units to see where it can march.",
        (OrderPhase::Movement, true) => {
            "Click a blue hex to march (right-click: onto friends too).\nL line, C column, S square, G general order, \
             K limber or unlimber.\nT turn clockwise, Shift+T counter-clockwise."
        }
        (OrderPhase::DefensiveFire | OrderPhase::OffensiveFire, false) => {
            "Click a unit of yours to fire with it (shift-click adds more firers)."
        }
        (OrderPhase::DefensiveFire | OrderPhase::OffensiveFire, true) => {
            "Point at an enemy for the odds; click it to fire.  Shift-click adds or removes firers."
        }
        (OrderPhase::Melee, false) => "Click a unit of yours next to the enemy (shift-click adds attackers).",
        (OrderPhase::Melee, true) => "Point at an adjacent enemy for the odds; click it to attack.",
        (OrderPhase::Charge, false) => "Click a cavalry unit of yours to charge with it.",
        (OrderPhase::Charge, true) => "Point at an enemy for the odds; click it to charge.",
    }
}

/// What a click on `hex` means for `side` in `phase`, with `group` the
/// units already picked and `selected` the one whose details are shown.
pub fn order_for_click(
    units: &[UnitView],
    phase: OrderPhase,
    side: usize,
    group: &[usize],
    selected: Option<usize>,
    hex: Offset,
    button: MapButton,
    shift: bool,
) -> Click {
    let here: Vec<&UnitView> = units.iter().filter(|u| u.at == Some(hex)).collect();
    let own: Vec<usize> = here.iter().filter(|u| u.side == side).map(|u| u.index).collect();
    let enemy = here.iter().find(|u| u.side != side);
    let ids = |g: &[usize]| -> Vec<String> { g.iter().filter_map(|&i| units.get(i)).map(|u| u.id.clone()).collect() };
    let several = matches!(phase, OrderPhase::DefensiveFire | OrderPhase::OffensiveFire | OrderPhase::Melee);
    if !own.is_empty() && button == MapButton::Primary {
        if shift && several {
            // Shift adds the next unit of the stack not yet picked, or
            // drops the whole stack once all of it is.
            let mut g = group.to_vec();
            let unit = match own.iter().find(|u| !g.contains(u)) {
                Some(&u) => {
                    g.push(u);
                    u
                }
                None => {
                    g.retain(|u| !own.contains(u));
                    own[0]
                }
            };
            return Click::Select { unit, group: g };
        }
        // Again on the same stack: the next unit down.
        let unit = match selected.and_then(|s| own.iter().position(|&u| u == s)) {
            Some(k) => own[(k + 1) % own.len()],
            None => own[0],
        };
        return Click::Select { unit, group: vec![unit] };
    }
    if let Some(target) = enemy {
        if group.is_empty() {
            return Click::Select { unit: target.index, group: Vec::new() };
        }
        let target_id = target.id.clone();
        return match phase {
            OrderPhase::DefensiveFire | OrderPhase::OffensiveFire => {
                Click::Order(Order::Fire { units: ids(group), target: target_id })
            }
            OrderPhase::Melee => Click::Order(Order::Melee { units: ids(group), target: target_id }),
            OrderPhase::Charge => match units.get(group[0]) {
                Some(u) => Click::Order(Order::Charge { unit: u.id.clone(), target: target_id }),
                None => Click::Clear,
            },
            OrderPhase::Movement => Click::Say("Enemy units are attacked in the fire, charge and melee phases.".into()),
        };
    }
    match (phase, group.first().and_then(|&g| units.get(g))) {
        (OrderPhase::Movement, Some(u)) if u.at != Some(hex) => {
            Click::Order(Order::Move { unit: u.id.clone(), to: (hex.c, hex.r) })
        }
        _ => Click::Clear,
    }
}

/// The formation keys of the movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderKey {
    Line,
    Column,
    Square,
    GeneralOrder,
    /// Limber if unlimbered, unlimber if limbered.
    Limber,
}

pub fn order_key(key: KeyCode) -> Option<OrderKey> {
    Some(match key {
        KeyCode::KeyL => OrderKey::Line,
        KeyCode::KeyC => OrderKey::Column,
        KeyCode::KeyS => OrderKey::Square,
        KeyCode::KeyG => OrderKey::GeneralOrder,
        KeyCode::KeyK => OrderKey::Limber,
        _ => return None,
    })
}

/// The order a formation key gives `unit`. The simulation judges whether it
/// is allowed (and says why not).
pub fn order_for_key(key: OrderKey, unit: &UnitView) -> Order {
    let to = match key {
        OrderKey::Line => Formation::Line,
        OrderKey::Column => Formation::Column,
        OrderKey::Square => Formation::Square,
        OrderKey::GeneralOrder => Formation::GeneralOrder,
        OrderKey::Limber => return Order::Limber { unit: unit.id.clone(), limbered: !unit.limbered },
    };
    Order::Formation { unit: unit.id.clone(), to }
}

/// The order the turn key gives `unit`: one hexside clockwise, or
/// counter-clockwise with shift (rule 1.7).
pub fn turn_order(unit: &UnitView, counter_clockwise: bool) -> Order {
    let step = if counter_clockwise { 5 } else { 1 };
    Order::Face { unit: unit.id.clone(), facing: Dir::ALL[(unit.facing.index() + step) % 6] }
}

/// The edge a unit of `side` at `at` marches off by: the first of the
/// side's exits (in scenario order) whose edge it stands on; otherwise what
/// to tell the player.
pub fn exit_edge(exits: &[Exit], side: usize, at: Option<Offset>, width: i32, height: i32) -> Result<Edge, String> {
    let edges: Vec<Edge> = exits.iter().filter(|x| x.side == side).map(|x| x.edge).collect();
    if edges.is_empty() {
        return Err("The scenario gives your side no exit from the map.".into());
    }
    let Some(at) = at else { return Err("That unit is not on the map.".into()) };
    edges
        .iter()
        .copied()
        .find(|e| e.distance(at, width, height) == 0)
        .ok_or_else(|| format!("To march off the map, a unit must stand on the {} first.", edge_words(&edges)))
}

/// Edges in words: "north edge", "north or east edge".
pub fn edge_words(edges: &[Edge]) -> String {
    let mut names: Vec<String> = Vec::new();
    for e in edges {
        let n = format!("{e:?}").to_lowercase();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    format!("{} edge", names.join(" or "))
}

/// Movement points (hundredths) in words: 350 -> "3.5 MP", 300 -> "3 MP".
pub fn mp_words(centi: u32) -> String {
    let text = format!("{}.{:02}", centi / 100, centi % 100);
    format!("{} MP", text.trim_end_matches('0').trim_end_matches('.'))
}

/// A chance in words: whole percents, "under 1%" for the rare ones.
pub fn pct(p: f32) -> String {
    let p = p.clamp(0.0, 1.0) * 100.0;
    if p > 0.0 && p < 1.0 { "under 1%".into() } else { format!("{p:.0}%") }
}

/// The odds of a volley before it is fired.
pub fn fire_odds_text(o: &FireOdds, target: &str) -> String {
    format!(
        "Fire at {target}: firepower {}, column {}\n  losses {} (expected {:.1} increments), morale check {}",
        o.firepower,
        o.column + 1,
        pct(o.loss_chance()),
        o.expected_losses(),
        pct(o.check_chance())
    )
}

/// The odds of a melee (or a charge's melee) before it is fought.
pub fn melee_odds_text(o: &MeleeOdds, target: &str, charge: bool) -> String {
    let what = if charge { "Charge" } else { "Melee with" };
    if o.walkover {
        return format!("{what} {target}: every defender is routed and surrenders without a fight");
    }
    let mut out = format!(
        "{what} {target} at {} ({} against {}, modifier {:+}): you win {}",
        o.label,
        o.attack,
        o.defence,
        o.modifier,
        pct(o.win_chance())
    );
    for (r, p) in &o.outcomes {
        if *p > 0.0 {
            out += &format!("\n  {:>8}  {}", pct(*p), r.words());
        }
    }
    out
}

/// A march before it is ordered.
pub fn move_text(to: Offset, cost: Centi) -> String {
    format!("March to {to}: {:.1} MP", cost as f32 / 100.0)
}

/// The banner's words while the player looks back at the log.
pub const REVIEWING_HINT: &str = "Looking back at the log: the counters stand where they stood then, and no order \
                                  can be given.\n. steps forward, Space plays on, End returns to the present.";

/// The order buttons of the banner.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum OrderButton {
    EndPhase,
    Undo,
}

#[derive(Component)]
struct Card;
#[derive(Component)]
struct CardTitle;
#[derive(Component)]
struct CardHint;
#[derive(Component)]
struct CardOdds;
#[derive(Component)]
struct CardMessage;
#[derive(Component)]
struct CardButtons;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayerTurn>().init_resource::<Seats>().init_resource::<HeldButtons>();
    app.add_systems(Startup, spawn_card);
    app.add_systems(Update, player_input.in_set(GameSet::Input).after(PointSet));
    app.add_systems(Update, draw_orders.in_set(GameSet::Draw));
    app.add_systems(Update, show_card.in_set(GameSet::Panels));
}

/// Where F5 saves and F9 loads.
pub const QUICK_SAVE: &str = "saves/quick.save.ron";

/// Saves the game to [`QUICK_SAVE`] and says so.
fn quick_save(world: &mut World) -> Message {
    let text = world.resource::<super::scenarios::ScenarioText>().0.clone();
    let Some(save) = crate::save::capture(world, &text) else {
        return Message { text: "Nothing to save.".into(), error: true };
    };
    match save.write(std::path::Path::new(QUICK_SAVE)) {
        Ok(()) => Message { text: format!("Saved to {QUICK_SAVE} (F9 loads it)."), error: false },
        Err(e) => Message { text: format!("Cannot save to {QUICK_SAVE}: {e}"), error: true },
    }
}

/// Carries out an order and says how it went: the battle log's sentences
/// for what it did, or the simulation's reason for refusing it.
pub fn give(world: &mut World, order: &Order) -> Message {
    let before = world.resource::<crate::sim::BattleLog>().events.len();
    match sim::issue_order(world, order) {
        Ok(()) => {
            let scenario = world.resource::<sim::Battle>().scenario.clone();
            let names = ScenarioNames(&scenario);
            let log = world.resource::<crate::sim::BattleLog>();
            let said: Vec<String> = log.events[before.min(log.events.len())..]
                .iter()
                .filter_map(|e| crate::sentences::sentence(e, &names))
                .map(|(_, text)| text)
                .collect();
            let undo = if order.rolls_dice() { "" } else { "  (U: undo)" };
            // A long melee is told in full in the battle log.
            const LINES: usize = 6;
            let more = said.len().saturating_sub(LINES);
            let mut said: Vec<String> = said.into_iter().take(LINES).collect();
            if more > 0 {
                said.push(format!("and {more} more in the battle log"));
            }
            let text = if said.is_empty() { "Done.".to_owned() } else { said.join(".\n") + "." };
            Message { text: format!("{text}{undo}"), error: false }
        }
        Err(e) => Message { text: e.to_string(), error: true },
    }
}

/// Reads the keys, buttons and clicks of a phase waiting for orders and
/// works out the range, path and odds to show. Exclusive: orders and odds
/// are asked of the simulation in the same world.
fn player_input(world: &mut World) {
    if world.resource::<Opened>().scenario.is_none() || world.get_resource::<sim::Battle>().is_none() {
        world.insert_resource(PlayerTurn::default());
        return;
    }
    let awaiting = sim::awaiting_orders(world);
    let menu_open = world.resource::<super::scenarios::Menu>().open;
    let keys = world.resource::<ButtonInput<KeyCode>>().clone();
    let mut turn = std::mem::take(world.resource_mut::<PlayerTurn>().bypass_change_detection());
    let before = turn.summary();
    if turn.awaiting != awaiting {
        turn.group.clear();
        if awaiting.is_some() {
            turn.message = None;
        }
    }
    turn.awaiting = awaiting;
    let mut pressed: Vec<OrderButton> = Vec::new();
    let mut buttons = world.query::<(&Interaction, &OrderButton)>();
    for (i, b) in buttons.iter(world) {
        if *i == Interaction::Pressed {
            pressed.push(*b);
        }
    }
    // Buttons report Pressed for as long as they are held: act once.
    let was = std::mem::replace(&mut *world.resource_mut::<HeldButtons>(), HeldButtons(pressed.clone()));
    pressed.retain(|b| !was.0.contains(b));

    if keys.just_pressed(KeyCode::F5) {
        turn.message = Some(quick_save(world));
    }
    if keys.just_pressed(KeyCode::F9) {
        let path = std::path::PathBuf::from(QUICK_SAVE);
        turn.message = Some(if path.exists() {
            world.resource_mut::<super::scenarios::Pending>().0 = Some(Source::File(path));
            Message { text: format!("Loading {QUICK_SAVE}"), error: false }
        } else {
            Message { text: "No quick save yet (F5 saves).".into(), error: true }
        });
    }
    if keys.just_pressed(KeyCode::KeyP) {
        let seats = world.resource::<Seats>().next();
        world.insert_resource(seats);
        seat(world, seats);
        turn.message = Some(Message { text: format!("Seats: {} (P to change)", seats.words()), error: false });
        turn.awaiting = sim::awaiting_orders(world);
        turn.group.clear();
        world.resource_mut::<Playback>().playing = true;
    }
    let len = world.resource::<crate::sim::BattleLog>().events.len();
    let cursor = world.get_resource::<Shown>().map_or(len, |s| s.cursor);
    // The present board cannot change while the player looks back (no
    // order can be given): what was picked stays picked for the return.
    turn.reviewing = turn.awaiting.is_some() && world.resource::<Playback>().reviewing(cursor, len);

    if let Some((phase, side)) = turn.awaiting
        && !menu_open
        && !turn.reviewing
    {
        let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
        let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        if keys.just_pressed(KeyCode::KeyU)
            || (ctrl && keys.just_pressed(KeyCode::KeyZ))
            || pressed.contains(&OrderButton::Undo)
        {
            turn.message = Some(if sim::undo(world) {
                Message { text: "Order taken back.".into(), error: false }
            } else {
                Message { text: "Nothing to take back: no order yet, or dice were rolled since.".into(), error: true }
            });
        } else if keys.any_just_pressed([KeyCode::KeyE, KeyCode::Enter, KeyCode::NumpadEnter])
            || pressed.contains(&OrderButton::EndPhase)
        {
            sim::end_phase(world);
            turn.group.clear();
            turn.message = None;
            let mut pb = world.resource_mut::<Playback>();
            pb.playing = true;
            pb.follow = false;
        } else {
            let units = unit_views(world);
            let selected = world.resource::<Pointer>().selected;
            let own_selected = selected.and_then(|i| units.get(i)).filter(|u| u.side == side);
            if let Some(k) = keys.get_just_pressed().find_map(|k| order_key(*k)).filter(|_| !ctrl) {
                turn.message = Some(match (phase, own_selected) {
                    (OrderPhase::Movement, Some(u)) => give(world, &order_for_key(k, u)),
                    (OrderPhase::Movement, None) => {
                        Message { text: "Select one of your units first.".into(), error: true }
                    }
                    _ => Message { text: "Formations change in your movement phase.".into(), error: true },
                });
                world.resource_mut::<Playback>().follow = true;
            }
            if keys.just_pressed(KeyCode::KeyT) && !ctrl {
                turn.message = Some(match (phase, own_selected) {
                    (OrderPhase::Movement, Some(u)) => give(world, &turn_order(u, shift)),
                    (OrderPhase::Movement, None) => {
                        Message { text: "Select one of your units first.".into(), error: true }
                    }
                    _ => Message { text: "Units turn in your movement phase.".into(), error: true },
                });
                world.resource_mut::<Playback>().follow = true;
            }
            if keys.just_pressed(KeyCode::KeyX) && !ctrl {
                turn.message = Some(match (phase, own_selected) {
                    (OrderPhase::Movement, Some(u)) => {
                        let s = world.resource::<sim::Battle>().scenario.clone();
                        match exit_edge(&s.exits, side, u.at, s.map.width, s.map.height) {
                            Ok(edge) => give(world, &Order::Exit { unit: u.id.clone(), edge }),
                            Err(text) => Message { text, error: true },
                        }
                    }
                    (OrderPhase::Movement, None) => {
                        Message { text: "Select one of your units first.".into(), error: true }
                    }
                    _ => Message { text: "Units march off the map in your movement phase.".into(), error: true },
                });
                world.resource_mut::<Playback>().follow = true;
            }
            let click = world.resource_mut::<Pointer>().clicked.take();
            if let Some((hex, button)) = click {
                match order_for_click(&units, phase, side, &turn.group, selected, hex, button, shift) {
                    Click::Select { unit, group } => {
                        world.resource_mut::<Pointer>().selected = Some(unit);
                        turn.group = group;
                    }
                    Click::Clear => {
                        world.resource_mut::<Pointer>().selected = None;
                        turn.group.clear();
                    }
                    Click::Say(text) => turn.message = Some(Message { text, error: true }),
                    Click::Order(order) => {
                        let m = give(world, &order);
                        if !m.error && order.rolls_dice() {
                            turn.group.clear();
                        }
                        turn.message = Some(m);
                        world.resource_mut::<Playback>().follow = true;
                    }
                }
            }
        }
    }
    // A click while nobody's orders are awaited only selects (camera), and
    // one while looking back gives no order.
    world.resource_mut::<Pointer>().clicked = None;
    if turn.message != before.3 {
        turn.message_age = 0.0;
    } else if turn.message.is_some() && turn.awaiting.is_none() {
        turn.message_age += world.resource::<Time>().delta_secs();
        if turn.message_age > MESSAGE_SECONDS {
            turn.message = None;
        }
    }
    refresh(world, &mut turn);
    let changed = turn.summary() != before;
    let mut r = world.resource_mut::<PlayerTurn>();
    *r.bypass_change_detection() = turn;
    if changed {
        r.set_changed();
    }
}

/// Which order buttons were down last frame.
#[derive(Resource, Default)]
struct HeldButtons(Vec<OrderButton>);

/// Works out the range, path and odds again when what they depend on
/// changed.
fn refresh(world: &mut World, turn: &mut PlayerTurn) {
    let pointer = world.resource::<Pointer>();
    let key = CacheKey {
        awaiting: turn.awaiting,
        reviewing: turn.reviewing,
        selected: pointer.selected,
        group: turn.group.clone(),
        hex: pointer.hex,
        events: world.resource::<crate::sim::BattleLog>().events.len(),
    };
    if turn.key.as_ref() == Some(&key) {
        return;
    }
    let reach_key = turn.key.as_ref().map(|k| (k.awaiting, k.reviewing, k.selected, k.events));
    let same_reach = reach_key == Some((key.awaiting, key.reviewing, key.selected, key.events));
    turn.key = Some(key.clone());
    turn.preview = None;
    turn.odds = None;
    let Some((phase, side)) = key.awaiting.filter(|_| !key.reviewing) else {
        turn.reach = None;
        turn.mp_left = None;
        return;
    };
    let units = unit_views(world);
    let own = |i: usize| units.get(i).is_some_and(|u| u.side == side && u.at.is_some());
    if !same_reach {
        turn.reach = match key.selected {
            Some(i) if phase == OrderPhase::Movement && own(i) => Some((i, sim::movement_range(world, i))),
            _ => None,
        };
        turn.mp_left = turn.reach.as_ref().map(|(i, _)| (*i, sim::mp_left(world, *i)));
    }
    let Some(hex) = key.hex else { return };
    if let Some((_, reach)) = &turn.reach
        && hex != reach.start
        && let Some(cost) = reach.cost_to(hex)
    {
        let grid = &world.resource::<sim::Battle>().grid;
        turn.preview = reach.path_to(grid, hex);
        turn.odds = Some(move_text(hex, cost));
        return;
    }
    let Some(target) = units.iter().find(|u| u.at == Some(hex) && u.side != side) else { return };
    if turn.group.is_empty() {
        return;
    }
    let name = target.name.clone();
    turn.odds = Some(match phase {
        OrderPhase::DefensiveFire | OrderPhase::OffensiveFire => {
            match sim::fire_odds(world, &turn.group, target.index) {
                Ok(o) => fire_odds_text(&o, &name),
                Err(e) => format!("Cannot fire at {name}: {e}"),
            }
        }
        OrderPhase::Melee => match sim::melee_odds(world, &turn.group, target.index, false) {
            Ok(o) => melee_odds_text(&o, &name, false),
            Err(e) => format!("Cannot attack {name}: {e}"),
        },
        OrderPhase::Charge => {
            let from = units.get(turn.group[0]).and_then(|u| u.at);
            let adjacent = from.zip(target.at).is_some_and(|(a, b)| a.distance(b) == 1);
            if adjacent {
                match sim::melee_odds(world, &turn.group, target.index, true) {
                    Ok(o) => melee_odds_text(&o, &name, true),
                    Err(e) => format!("Cannot charge {name}: {e}"),
                }
            } else {
                // The approach the charge would ride, drawn like a march.
                match sim::charge_path(world, turn.group[0], target.index) {
                    Ok(path) => {
                        let d = from.zip(target.at).map_or(0, |(a, b)| a.distance(b));
                        let text = format!(
                            "Charge {name} ({:?}, {}, {d} hexes away) by the path drawn: the odds are worked out \
                             on contact",
                            target.arm,
                            format!("{:?}", target.formation).to_lowercase()
                        );
                        turn.preview = Some(path);
                        text
                    }
                    Err(e) => format!("Cannot charge {name}: {e}"),
                }
            }
        }
        OrderPhase::Movement => return,
    });
}

/// The march (or a charge's approach) under the pointer, the picked units
/// and the line to the enemy they would fire at or charge.
fn draw_orders(
    turn: Res<PlayerTurn>,
    opened: Res<Opened>,
    pointer: Res<Pointer>,
    counters: Query<(&super::units::Counter, &GlobalTransform)>,
    mut lines: ResMut<Lines>,
) {
    let Some((phase, _)) = turn.awaiting.filter(|_| !turn.reviewing) else { return };
    let layout: Layout = opened.layout;
    let z = super::map::z::FLASH - 3.0;
    if let Some(path) = &turn.preview
        && path.len() > 1
    {
        let pts: Vec<Vec2> = path.iter().map(|&o| layout.world(o)).collect();
        // A light casing under a dark line reads on the blue range and on
        // every terrain.
        for (width, colour, dz) in [(9.0, Color::srgb(1.0, 1.0, 0.9), 0.0), (4.5, Color::srgb(0.05, 0.15, 0.6), 0.1)] {
            lines.polyline(&pts[..pts.len() - 1], width, colour, z + dz);
            lines.arrow(pts[pts.len() - 2], pts[pts.len() - 1], width, colour, z + dz);
        }
    }
    let pos = |u: usize| counters.iter().find(|(c, _)| c.unit == u).map(|(_, t)| t.translation().truncate());
    for &g in &turn.group {
        if Some(g) != pointer.selected
            && let Some(p) = pos(g)
        {
            lines.rect(p, Vec2::splat(super::units::COUNTER + 8.0), 0.0, 2.5, Color::srgb(0.2, 0.9, 0.9), z);
        }
    }
    if turn.odds.is_some()
        && phase != OrderPhase::Movement
        && let Some(h) = pointer.hex
    {
        let to = layout.world(h);
        // A charge's approach ends next to the target: the arrow goes on
        // from there.
        let approach = turn.preview.as_ref().filter(|p| phase == OrderPhase::Charge && p.len() > 1);
        for &g in &turn.group {
            let from = match approach.and_then(|p| p.last()) {
                Some(&stop) => Some(layout.world(stop)),
                None => pos(g),
            };
            if let Some(p) = from {
                lines.arrow(p, to, 2.5, Color::srgba(1.0, 0.8, 0.2, 0.9), z);
            }
        }
    }
}

fn spawn_card(mut commands: Commands) {
    let text = |size: f32, colour: Color| (Text::new(""), TextFont::from_font_size(size), TextColor(colour));
    let button = |label: &str, which: OrderButton| {
        (
            Button,
            which,
            Node { padding: UiRect::axes(Val::Px(10.0), Val::Px(4.0)), ..default() },
            BackgroundColor(Color::srgb(0.24, 0.3, 0.42)),
            children![(Text::new(label), TextFont::from_font_size(14.0))],
        )
    };
    commands.spawn((
        Card,
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(10.0),
            top: Val::Px(BAR_H + 8.0),
            max_width: Val::Px(560.0),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(Val::Px(10.0)),
            row_gap: Val::Px(5.0),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.06, 0.08, 0.9)),
        GlobalZIndex(3),
        // Its End phase and Undo buttons are not clicks on the map.
        super::input::ShieldsMap,
        children![
            (CardTitle, text(17.0, Color::srgb(1.0, 0.85, 0.4))),
            (CardHint, text(13.0, Color::srgb(0.85, 0.88, 0.9))),
            (CardOdds, text(13.0, Color::srgb(0.75, 0.95, 0.75))),
            (CardMessage, text(13.0, Color::srgb(1.0, 0.5, 0.45))),
            (
                CardButtons,
                Node { column_gap: Val::Px(8.0), ..default() },
                children![button("End phase (E)", OrderButton::EndPhase), button("Undo (U)", OrderButton::Undo)],
            ),
        ],
    ));
}

/// The banner of a phase waiting for orders: whose orders, what to do, the
/// odds, and what became of the last order.
fn show_card(
    turn: Res<PlayerTurn>,
    opened: Res<Opened>,
    seats: Res<Seats>,
    clock: Option<Res<sim::Clock>>,
    mut card: Query<&mut Node, (With<Card>, Without<CardButtons>)>,
    mut buttons: Query<&mut Node, (With<CardButtons>, Without<Card>)>,
    mut texts: ParamSet<(
        Query<&mut Text, With<CardTitle>>,
        Query<&mut Text, With<CardHint>>,
        Query<&mut Text, With<CardOdds>>,
        Query<(&mut Text, &mut TextColor), With<CardMessage>>,
    )>,
) {
    if !turn.is_changed() && !seats.is_changed() {
        return;
    }
    let Ok(mut node) = card.single_mut() else { return };
    if let Ok((mut t, mut c)) = texts.p3().single_mut() {
        match &turn.message {
            Some(m) => {
                t.0.clone_from(&m.text);
                c.0 = if m.error { Color::srgb(1.0, 0.5, 0.45) } else { Color::srgb(0.6, 0.9, 1.0) };
            }
            None => t.0.clear(),
        }
    }
    let (Some((phase, side)), Some(s), Some(clock)) = (turn.awaiting, &opened.scenario, clock) else {
        // Outside a waiting phase the card only carries a message (saved,
        // seats changed) for a few seconds.
        node.display = if turn.message.is_some() { Display::Flex } else { Display::None };
        for mut b in &mut buttons {
            b.display = Display::None;
        }
        if let Ok(mut t) = texts.p0().single_mut() {
            t.0.clear();
        }
        if let Ok(mut t) = texts.p1().single_mut() {
            t.0.clear();
        }
        if let Ok(mut t) = texts.p2().single_mut() {
            t.0.clear();
        }
        return;
    };
    node.display = Display::Flex;
    // Looking back, End phase and Undo would do nothing: hidden.
    for mut b in &mut buttons {
        b.display = if turn.reviewing { Display::None } else { Display::Flex };
    }
    let side_name = s.sides.get(side).map_or("?", |x| x.name.as_str());
    let whose = if *seats == Seats::HotSeat { "Orders for" } else { "Your orders:" };
    let title = format!("{whose} {side_name} — {}, turn {}", phase_words(clock.phase.name()), clock.turn);
    if let Ok(mut t) = texts.p0().single_mut() {
        t.0 = title;
    }
    if let Ok(mut t) = texts.p1().single_mut()
        && turn.reviewing
    {
        t.0 = REVIEWING_HINT.to_owned();
    } else if let Ok(mut t) = texts.p1().single_mut() {
        let mut out = String::new();
        if phase == OrderPhase::Movement
            && let Some((i, left)) = turn.mp_left
        {
            let name = s.units.get(i).map_or("?", |u| u.name.as_str());
            out += &format!("{name}: {} left\n", mp_words(left));
        }
        out += hint(phase, turn.group.len());
        let edges: Vec<Edge> = s.exits.iter().filter(|x| x.side == side).map(|x| x.edge).collect();
        if phase == OrderPhase::Movement && !edges.is_empty() {
            out += &format!("\nX: march the selected unit off the map (it must stand on the {}).", edge_words(&edges));
        }
        out +=
            "\nE or Enter: end the phase;  U: undo (until dice are rolled);  , and .: step the log (End: the present)";
        t.0 = out;
    }
    if let Ok(mut t) = texts.p2().single_mut() {
        t.0 = turn.odds.clone().unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::scenario::Scenario;
    use crate::sim::{AiMode, Simulation};

    fn view(index: usize, side: usize, arm: Arm, at: (i32, i32)) -> UnitView {
        UnitView {
            index,
            id: format!("u{index}"),
            name: format!("Unit {index}"),
            side,
            arm,
            at: Some(Offset::new(at.0, at.1)),
            limbered: false,
            formation: Formation::Line,
            facing: Dir::N,
            state: HexState::GoodOrder,
        }
    }

    fn board() -> Vec<UnitView> {
        vec![
            view(0, 0, Arm::Infantry, (3, 5)),
            view(1, 0, Arm::Infantry, (3, 5)),
            view(2, 0, Arm::Cavalry, (4, 5)),
            view(3, 1, Arm::Infantry, (3, 3)),
        ]
    }

    const HERE: Offset = Offset { c: 3, r: 5 };
    const ENEMY: Offset = Offset { c: 3, r: 3 };

    #[test]
    fn clicking_your_stack_selects_its_units_in_turn() {
        let u = board();
        let first = order_for_click(&u, OrderPhase::Movement, 0, &[], None, HERE, MapButton::Primary, false);
        assert_eq!(first, Click::Select { unit: 0, group: vec![0] });
        let again = order_for_click(&u, OrderPhase::Movement, 0, &[0], Some(0), HERE, MapButton::Primary, false);
        assert_eq!(again, Click::Select { unit: 1, group: vec![1] });
    }

    #[test]
    fn a_click_on_open_ground_marches_the_selected_unit_there() {
        let u = board();
        let to = Offset::new(2, 4);
        let c = order_for_click(&u, OrderPhase::Movement, 0, &[0], Some(0), to, MapButton::Primary, false);
        assert_eq!(c, Click::Order(Order::Move { unit: "u0".into(), to: (2, 4) }));
        // A right click marches onto friends instead of selecting them.
        let onto = Offset::new(4, 5);
        let c = order_for_click(&u, OrderPhase::Movement, 0, &[0], Some(0), onto, MapButton::Secondary, false);
        assert_eq!(c, Click::Order(Order::Move { unit: "u0".into(), to: (4, 5) }));
        let nothing = order_for_click(&u, OrderPhase::Movement, 0, &[], None, to, MapButton::Primary, false);
        assert_eq!(nothing, Click::Clear);
    }

    #[test]
    fn shift_click_gathers_firers_and_a_click_on_the_enemy_fires() {
        let u = board();
        let p = OrderPhase::OffensiveFire;
        let c = order_for_click(&u, p, 0, &[2], Some(2), HERE, MapButton::Primary, true);
        assert_eq!(c, Click::Select { unit: 0, group: vec![2, 0] });
        let c = order_for_click(&u, p, 0, &[2, 0], Some(0), ENEMY, MapButton::Primary, false);
        assert_eq!(c, Click::Order(Order::Fire { units: vec!["u2".into(), "u0".into()], target: "u3".into() }));
        let m = order_for_click(&u, OrderPhase::Melee, 0, &[0], Some(0), ENEMY, MapButton::Primary, false);
        assert_eq!(m, Click::Order(Order::Melee { units: vec!["u0".into()], target: "u3".into() }));
        let ch = order_for_click(&u, OrderPhase::Charge, 0, &[2], Some(2), ENEMY, MapButton::Primary, false);
        assert_eq!(ch, Click::Order(Order::Charge { unit: "u2".into(), target: "u3".into() }));
        // Without firers, a click on the enemy only shows it.
        let look = order_for_click(&u, p, 0, &[], None, ENEMY, MapButton::Primary, false);
        assert_eq!(look, Click::Select { unit: 3, group: vec![] });
    }

    #[test]
    fn formation_keys_name_their_orders() {
        let mut gun = view(5, 0, Arm::Artillery, (1, 1));
        assert_eq!(order_key(KeyCode::KeyS), Some(OrderKey::Square));
        assert_eq!(order_key(KeyCode::KeyQ), None);
        assert_eq!(
            order_for_key(OrderKey::Column, &gun),
            Order::Formation { unit: "u5".into(), to: Formation::Column }
        );
        assert_eq!(order_for_key(OrderKey::Limber, &gun), Order::Limber { unit: "u5".into(), limbered: true });
        gun.limbered = true;
        assert_eq!(order_for_key(OrderKey::Limber, &gun), Order::Limber { unit: "u5".into(), limbered: false });
    }

    #[test]
    fn the_turn_key_steps_one_hexside_either_way() {
        let mut u = view(1, 0, Arm::Infantry, (1, 1));
        assert_eq!(turn_order(&u, false), Order::Face { unit: "u1".into(), facing: Dir::NE });
        assert_eq!(turn_order(&u, true), Order::Face { unit: "u1".into(), facing: Dir::NW });
        u.facing = Dir::NW;
        assert_eq!(turn_order(&u, false), Order::Face { unit: "u1".into(), facing: Dir::N });
    }

    #[test]
    fn the_exit_key_picks_the_first_exit_edge_the_unit_stands_on() {
        let exits = [
            Exit { side: 1, edge: Edge::South, points: 1 },
            Exit { side: 0, edge: Edge::North, points: 2 },
            Exit { side: 0, edge: Edge::East, points: 1 },
        ];
        let (w, h) = (8, 9);
        assert_eq!(exit_edge(&exits, 0, Some(Offset::new(3, 0)), w, h), Ok(Edge::North));
        assert_eq!(exit_edge(&exits, 0, Some(Offset::new(7, 4)), w, h), Ok(Edge::East));
        // The north-east corner is on both: the first listed wins.
        assert_eq!(exit_edge(&exits, 0, Some(Offset::new(7, 0)), w, h), Ok(Edge::North));
        assert_eq!(exit_edge(&exits, 1, Some(Offset::new(2, 8)), w, h), Ok(Edge::South));
        let off = exit_edge(&exits, 0, Some(Offset::new(3, 8)), w, h);
        assert_eq!(off, Err("To march off the map, a unit must stand on the north or east edge first.".into()));
        assert!(exit_edge(&exits[..1], 0, Some(Offset::new(3, 0)), w, h).is_err_and(|e| e.contains("no exit")));
        assert!(exit_edge(&exits, 0, None, w, h).is_err());
    }

    #[test]
    fn movement_points_read_without_trailing_zeros() {
        assert_eq!(mp_words(350), "3.5 MP");
        assert_eq!(mp_words(300), "3 MP");
        assert_eq!(mp_words(333), "3.33 MP");
        assert_eq!(mp_words(5), "0.05 MP");
        assert_eq!(mp_words(0), "0 MP");
    }

    #[test]
    fn odds_read_as_percentages() {
        use crate::rules::combat::{FireResult, MeleeResult};
        assert_eq!(pct(0.4166), "42%");
        assert_eq!(pct(0.001), "under 1%");
        assert_eq!(pct(0.0), "0%");
        let fire = FireOdds {
            firepower: 6.0,
            column: 3,
            outcomes: vec![
                (FireResult { losses: 1, check: Some(0) }, 0.25),
                (FireResult { losses: 0, check: Some(-1) }, 0.25),
                (FireResult::default(), 0.5),
            ],
        };
        let t = fire_odds_text(&fire, "2e Ligne");
        assert!(t.starts_with("Fire at 2e Ligne: firepower 6, column 4"), "{t}");
        assert!(t.contains("losses 25% (expected 0.2 increments), morale check 50%"), "{t}");
        let melee = MeleeOdds {
            attack: 6,
            defence: 4,
            column: 3,
            label: "3:2".into(),
            modifier: 1,
            outcomes: vec![(MeleeResult::AR, 0.25), (MeleeResult::DR, 0.75)],
            walkover: false,
        };
        let t = melee_odds_text(&melee, "the Guard", false);
        assert!(t.starts_with("Melee with the Guard at 3:2 (6 against 4, modifier +1): you win 75%"), "{t}");
        assert!(t.contains("25%  attackers repulsed"), "{t}");
        assert!(move_text(Offset::new(2, 4), 350).ends_with("3.5 MP"));
    }

    fn parse(text: &str) -> Arc<Scenario> {
        match crate::scenario::parse_bytes(text.as_bytes(), "test.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        }
    }

    /// A French battalion at (3, 5) and a Russian one at `ru`, both sides at
    /// the window.
    fn duel() -> Simulation {
        duel_at((3, 1), vec![])
    }

    /// `dice`: scripted d66 rolls first (66 passes every check).
    fn duel_at(ru: (i32, i32), dice: Vec<u32>) -> Simulation {
        duel_with((3, 5), ru, dice, "")
    }

    /// The duel with the French at `fr` and `extra` top-level fields.
    fn duel_with(fr: (i32, i32), ru: (i32, i32), dice: Vec<u32>, extra: &str) -> Simulation {
        let rows: Vec<String> = (0..9).map(|_| format!("\"{}\"", ".".repeat(8))).collect();
        let text = format!(
            "Scenario(format: 1, name: \"duel\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [(id: \"fr-a\", side: \"fr\", arm: Infantry, at: ({}, {}), morale: 32, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: ({}, {}), morale: 32, strength: 4)],\n shocks: [],{extra}\n rules: ())",
            rows.join(",\n "),
            fr.0,
            fr.1,
            ru.0,
            ru.1
        );
        let mut sim = Simulation::new(parse(&text), 7, dice, AiMode::None);
        let w = sim.app.world_mut();
        seat(w, Seats::HotSeat);
        sim
    }

    /// Steps the battle, ending other order phases, until `phase` waits.
    fn go_to(w: &mut World, phase: OrderPhase) -> usize {
        for _ in 0..100 {
            if let Some((p, side)) = sim::awaiting_orders(w) {
                if p == phase {
                    return side;
                }
                sim::end_phase(w);
            }
            sim::step_phase(w);
        }
        panic!("never reached {phase:?}");
    }

    fn click(w: &mut World, group: &[usize], selected: Option<usize>, hex: Offset, shift: bool) -> Click {
        let (phase, side) = sim::awaiting_orders(w).expect("a phase waits");
        let units = unit_views(w);
        order_for_click(&units, phase, side, group, selected, hex, MapButton::Primary, shift)
    }

    #[test]
    fn a_player_turn_selects_marches_takes_back_and_fires_through_the_window_helpers() {
        let mut sim = duel();
        let w = sim.app.world_mut();
        assert_eq!(go_to(w, OrderPhase::Movement), 0);
        let Click::Select { unit, group } = click(w, &[], None, Offset::new(3, 5), false) else { panic!("select") };
        assert_eq!((unit, group.clone()), (0, vec![0]));
        // Into column first (a key of the movement phase), then march.
        let key = order_for_key(OrderKey::Column, &unit_views(w)[0]);
        assert!(!give(w, &key).error);
        assert_eq!(unit_views(w)[0].formation, Formation::Column);
        let reach = sim::movement_range(w, unit);
        let to = Offset::new(3, 3);
        assert!(reach.cost_to(to).is_some(), "two hexes north is in range");
        let Click::Order(order) = click(w, &group, Some(unit), to, false) else { panic!("an order") };
        assert!(!give(w, &order).error);
        assert_eq!(unit_views(w)[0].at, Some(to));
        // Too far: the simulation's words reach the player.
        let far = click(w, &group, Some(unit), Offset::new(3, 0), false);
        let Click::Order(far) = far else { panic!("an order") };
        let m = give(w, &far);
        assert!(m.error && m.text.contains("fr-a"), "{}", m.text);
        assert!(sim::undo(w), "the march is taken back");
        assert_eq!(unit_views(w)[0].at, Some(Offset::new(3, 5)));
        assert!(!give(w, &order).error);
        let limber = order_for_key(OrderKey::Limber, &unit_views(w)[0]);
        let refused = give(w, &limber);
        assert!(refused.error && refused.text.contains("artillery"), "{}", refused.text);
        // Fire at the Russians, two hexes away, with the odds first.
        assert_eq!(go_to(w, OrderPhase::OffensiveFire), 0);
        let odds = sim::fire_odds(w, &group, 1).map(|o| fire_odds_text(&o, "ru-a"));
        assert!(odds.as_ref().is_ok_and(|t| t.contains("firepower")), "{odds:?}");
        let Click::Order(fire) = click(w, &group, Some(0), Offset::new(3, 1), false) else { panic!("fire") };
        let before = w.resource::<crate::sim::BattleLog>().events.len();
        assert!(!give(w, &fire).error);
        let log = &w.resource::<crate::sim::BattleLog>().events[before..];
        assert!(log.iter().any(|e| matches!(e.kind, crate::events::EventKind::Fire { .. })));
        assert!(!sim::undo(w), "no undo once the dice rolled");
    }

    #[test]
    fn a_melee_shows_its_odds_then_is_fought_on_a_click() {
        let mut sim = duel_at((3, 4), vec![66, 66, 66, 66]);
        let w = sim.app.world_mut();
        assert_eq!(go_to(w, OrderPhase::Melee), 0);
        let Click::Select { group, .. } = click(w, &[], None, Offset::new(3, 5), false) else { panic!("select") };
        let odds = sim::melee_odds(w, &group, 1, false).map(|o| melee_odds_text(&o, "ru-a", false));
        assert!(odds.as_ref().is_ok_and(|t| t.starts_with("Melee with ru-a at ") && t.contains("you win")), "{odds:?}");
        let Click::Order(order) = click(w, &group, Some(0), Offset::new(3, 4), false) else { panic!("melee") };
        assert!(matches!(order, Order::Melee { .. }));
        let m = give(w, &order);
        assert!(!m.error, "{}", m.text);
        assert!(m.text.contains("close with"), "the player reads what happened: {}", m.text);
    }

    #[test]
    fn a_distant_charge_shows_the_approach_it_then_rides() {
        // French hussars five hexes south of a Russian battalion.
        let rows: Vec<String> = (0..9).map(|_| format!("\"{}\"", ".".repeat(8))).collect();
        let text = format!(
            "Scenario(format: 1, name: \"charge\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [(id: \"fr-hus\", side: \"fr\", arm: Cavalry, at: (3, 7), morale: 44, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: (3, 2), morale: 32, strength: 4)])",
            rows.join(",\n ")
        );
        let mut sim = Simulation::new(parse(&text), 7, vec![], AiMode::None);
        let w = sim.app.world_mut();
        seat(w, Seats::HotSeat);
        assert_eq!(go_to(w, OrderPhase::Charge), 0);
        let target = Offset::new(3, 2);
        let mut pointer = Pointer::default();
        (pointer.hex, pointer.selected) = (Some(target), Some(0));
        w.insert_resource(pointer);
        let mut turn = PlayerTurn { awaiting: sim::awaiting_orders(w), group: vec![0], ..default() };
        refresh(w, &mut turn);
        let path = turn.preview.clone().expect("the approach is drawn");
        assert_eq!(path.first(), Some(&Offset::new(3, 7)), "{path:?}");
        assert_eq!(path.last().map(|h| h.distance(target)), Some(1), "it stops next to the target: {path:?}");
        assert!(path.windows(2).all(|p| p[0].distance(p[1]) == 1), "hex by hex: {path:?}");
        assert!(turn.odds.as_ref().is_some_and(|t| t.contains("5 hexes away) by the path drawn")), "{:?}", turn.odds);

        // The charge rides exactly that path.
        let before = w.resource::<crate::sim::BattleLog>().events.len();
        let m = give(w, &Order::Charge { unit: "fr-hus".into(), target: "ru-a".into() });
        assert!(!m.error, "{}", m.text);
        let ridden = w.resource::<crate::sim::BattleLog>().events[before..].iter().find_map(|e| match &e.kind {
            crate::events::EventKind::Move { reason: crate::events::MoveReason::Charge, path, .. } => {
                Some(path.clone())
            }
            _ => None,
        });
        let drawn: Vec<crate::events::Pos> = path.iter().map(|h| crate::events::Pos::Hex([h.c, h.r])).collect();
        assert_eq!(ridden, Some(drawn));

        // Next to the target there is no approach to draw: the odds say it all.
        let mut sim = Simulation::new(parse(&text.replace("at: (3, 7)", "at: (3, 3)")), 7, vec![], AiMode::None);
        let w = sim.app.world_mut();
        seat(w, Seats::HotSeat);
        go_to(w, OrderPhase::Charge);
        let mut pointer = Pointer::default();
        (pointer.hex, pointer.selected) = (Some(target), Some(0));
        w.insert_resource(pointer);
        let mut turn = PlayerTurn { awaiting: sim::awaiting_orders(w), group: vec![0], ..default() };
        refresh(w, &mut turn);
        assert_eq!(turn.preview, None);
        assert!(turn.odds.as_ref().is_some_and(|t| t.starts_with("Charge ")), "{:?}", turn.odds);
    }

    /// The battle at the window: its world with the playback's systems and
    /// the orders' input, in the game's order (no window or renderer).
    fn window_app(sim: Simulation) -> App {
        let mut app = sim.app;
        let s = app.world().resource::<sim::Battle>().scenario.clone();
        let ids = s.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
        let layout = super::super::opened::layout_of(&s);
        app.configure_sets(Update, (GameSet::Build, GameSet::Input, GameSet::Playback).chain());
        app.init_resource::<ButtonInput<KeyCode>>()
            .init_resource::<Pointer>()
            .init_resource::<PlayerTurn>()
            .init_resource::<HeldButtons>()
            .init_resource::<super::super::scenarios::Menu>()
            .insert_resource(super::super::request::Request(crate::cli::WindowRequest { file: None, shot: None }))
            .insert_resource(Opened { source: Source::Bundled(0), scenario: Some(s), errors: Vec::new(), layout, ids });
        super::super::playback::plugin(&mut app);
        app.add_systems(Update, player_input.in_set(GameSet::Input));
        app
    }

    /// One frame with `key` down, then one with it up.
    fn press(app: &mut App, key: KeyCode) {
        app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(key);
        app.update();
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.release(key);
        keys.clear();
        app.update();
    }

    fn click_at(app: &mut App, hex: Offset) {
        app.world_mut().resource_mut::<Pointer>().clicked = Some((hex, MapButton::Primary));
        app.update();
    }

    #[test]
    fn looking_back_at_the_log_shows_no_odds_and_gives_no_orders_until_back_at_the_present() {
        let mut sim = duel();
        assert_eq!(go_to(sim.app.world_mut(), OrderPhase::Movement), 0);
        let mut app = window_app(sim);
        app.update();
        let len = |app: &App| app.world().resource::<crate::sim::BattleLog>().events.len();
        let cursor = |app: &App| app.world().resource::<Shown>().cursor;
        let french = |app: &mut App| unit_views(app.world_mut())[0].clone();
        assert_eq!(cursor(&app), len(&app), "the log so far is shown at once");

        // In the present: select the battalion, form column, point at a hex
        // in range for the path and its cost.
        let home = Offset::new(3, 5);
        click_at(&mut app, home);
        assert_eq!(app.world().resource::<Pointer>().selected, Some(0));
        press(&mut app, KeyCode::KeyC);
        assert_eq!(french(&mut app).formation, Formation::Column);
        assert_eq!(cursor(&app), len(&app), "the order is shown as it happens");
        let to = Offset::new(3, 3);
        app.world_mut().resource_mut::<Pointer>().hex = Some(to);
        app.update();
        let t = app.world().resource::<PlayerTurn>();
        assert!(!t.reviewing && t.reach.is_some() && t.preview.is_some() && t.odds.is_some());

        // One event back: the counter is in line again on the screen, and
        // nothing is worked out on the present board.
        press(&mut app, KeyCode::Comma);
        assert!(cursor(&app) < len(&app), "the shown log is behind");
        assert_eq!(app.world().resource::<Shown>().units[0].formation, "Line");
        let t = app.world().resource::<PlayerTurn>();
        assert!(t.reviewing, "looking back");
        assert_eq!((t.reach.is_none(), &t.preview, &t.odds, t.mp_left), (true, &None, &None, None));

        // Order keys, undo, end of phase and a click on the map do nothing.
        let events = len(&app);
        for key in [KeyCode::KeyL, KeyCode::KeyK, KeyCode::KeyX, KeyCode::KeyU, KeyCode::KeyE, KeyCode::Enter] {
            press(&mut app, key);
        }
        click_at(&mut app, to);
        assert_eq!(len(&app), events, "no order given, taken back or ended");
        let u = french(&mut app);
        assert_eq!((u.formation, u.at), (Formation::Column, Some(home)));
        assert_eq!(sim::awaiting_orders(app.world_mut()), Some((OrderPhase::Movement, 0)));
        assert!(app.world().resource::<PlayerTurn>().reviewing, "still looking back");

        // End: back to the present, where the same click marches.
        press(&mut app, KeyCode::End);
        assert_eq!(cursor(&app), len(&app));
        let t = app.world().resource::<PlayerTurn>();
        assert!(!t.reviewing && t.preview.is_some() && t.odds.is_some(), "the path and cost are back");
        click_at(&mut app, to);
        assert_eq!(french(&mut app).at, Some(to), "the march is ordered");
        assert!(len(&app) > events);
        assert!(!app.world().resource::<PlayerTurn>().reviewing, "showing the march is no looking back");

        // Stepping forward to the end is a return to the present too.
        press(&mut app, KeyCode::Comma);
        assert!(app.world().resource::<PlayerTurn>().reviewing);
        while cursor(&app) < len(&app) {
            press(&mut app, KeyCode::Period);
        }
        app.update();
        assert!(!app.world().resource::<PlayerTurn>().reviewing);
        press(&mut app, KeyCode::KeyU);
        assert_eq!(french(&mut app).at, Some(home), "the march is taken back");
    }

    #[test]
    fn a_march_spends_movement_points_and_x_exits_by_the_sides_edge() {
        let extra = "\n exits: [(side: \"fr\", edge: North, points: 2)],";
        let mut sim = duel_with((3, 2), (7, 8), vec![], extra);
        let w = sim.app.world_mut();
        assert_eq!(go_to(w, OrderPhase::Movement), 0);
        let full = sim::mp_left(w, 0);
        assert!(full > 0);
        let s = w.resource::<sim::Battle>().scenario.clone();
        let u = unit_views(w)[0].clone();
        let (width, height) = (s.map.width, s.map.height);
        assert!(exit_edge(&s.exits, 0, u.at, width, height).is_err_and(|e| e.contains("north edge")), "not on it yet");
        assert!(!give(w, &Order::Move { unit: u.id.clone(), to: (3, 1) }).error);
        let left = sim::mp_left(w, 0);
        assert!(left < full, "the banner's MP left goes down: {left} of {full}");
        assert!(!give(w, &Order::Move { unit: u.id.clone(), to: (3, 0) }).error);
        let u = unit_views(w)[0].clone();
        let edge = exit_edge(&s.exits, 0, u.at, width, height);
        assert_eq!(edge, Ok(Edge::North));
        let Ok(edge) = edge else { return };
        let m = give(w, &Order::Exit { unit: u.id.clone(), edge });
        assert!(!m.error && m.text.contains("marches off the map by the north edge"), "{}", m.text);
        assert_eq!(unit_views(w)[0].at, None, "gone from the board");
        assert!(exit_edge(&s.exits, 1, Some(Offset::new(3, 8)), width, height).is_err_and(|e| e.contains("no exit")));
    }
}
