//! A player's orders on a free-space table (docs/rules.md 2.7-2.9): drag
//! your unit to march it (its footprint and path follow the pointer, green
//! where it may stand, red with the reason where not; Shift turns it to
//! face the way it marches), L C S and K for formations and limbers, T and
//! Shift+T to wheel 15 degrees, click your units to pick firers or
//! attackers and point at an enemy for the odds, click it to fire, attack
//! or charge. Every check and every number is the rules crate's, asked
//! through the simulation.

use bevy::prelude::*;

use crate::belle_alliance::geometry::{OrientedRect, bearing_of};
use crate::belle_alliance::{FsCtx, Table};
use crate::game::input::MapPointer;
use crate::game::layout::Layout;
use crate::game::lines::Lines;
use crate::game::map::z;
use crate::game::opened::Opened;
use crate::game::theme;
use crate::game::turn::{Notice, PlayerTurn};
use crate::labataille::orders::Order;
use crate::scenario::Mode;
use crate::sim;
use crate::turn::Phase;
use crate::vocab::Formation;

use super::decide::OrderKey;
use super::give::give;
use super::keys::ready;

/// Degrees a T press wheels the selected unit.
pub const WHEEL_STEP: f32 = 15.0;

/// A march being dragged: the unit, where the pointer holds it (cm), the
/// facing it would end with, and what the rules say of it.
#[derive(Resource, Default, Clone, Debug)]
pub struct TableDrag {
    pub unit: Option<usize>,
    pub to: Option<(f32, f32)>,
    pub facing: f32,
    pub verdict: Option<Result<(f32, f32), String>>,
    /// The unit's footprint where it would stand.
    pub ghost: Option<OrientedRect>,
    /// What the odds shown were worked out for (the enemy pointed at, the
    /// units that would act, the log's length): asked again only when one
    /// of them changes, not every frame.
    pub odds_for: Option<(Option<usize>, Vec<usize>, usize)>,
}

/// Whether the open battle is a free-space table.
pub fn table_mode(world: &World) -> bool {
    world.get_resource::<Opened>().and_then(|o| o.scenario.as_ref()).is_some_and(|s| s.mode == Mode::FreeSpace)
}

/// The table as the rules see it now.
fn table(world: &mut World) -> Table {
    sim::view::table_scope(world, |_, t| t.clone()).unwrap_or_default()
}

/// The pointer's place on the table, cm.
pub fn pointer_cm(layout: Layout, world: Vec2) -> (f32, f32) {
    let origin = layout.table_world(0.0, 0.0);
    let d = (world - origin) / layout.px_per_cm();
    (d.x, -d.y)
}

/// The unit whose footprint is under `(x, y)` (the last drawn on top wins).
pub fn unit_at(world: &World, table: &Table, at: (f32, f32)) -> Option<usize> {
    let scenario = world.resource::<sim::Battle>().scenario.clone();
    let ctx = FsCtx::new(&scenario);
    (0..table.units.len()).rev().find(|&i| table.units[i].rect(ctx.ba()).distance_to_point(at.0, at.1) <= 0.5)
}

fn footprint_at(world: &World, table: &Table, u: usize, to: (f32, f32), facing: f32) -> OrientedRect {
    let scenario = world.resource::<sim::Battle>().scenario.clone();
    let ctx = FsCtx::new(&scenario);
    OrientedRect { x: to.0, y: to.1, facing, ..table.units[u].rect(ctx.ba()) }
}

/// Each frame while a free-space phase waits for the player: a press on
/// your unit in the movement phase grabs it, dragging shows the march, the
/// release gives it; elsewhere the enemy under the pointer gets the odds.
pub(super) fn table_pointer(world: &mut World) {
    if !table_mode(world) {
        return;
    }
    let Some((phase, side)) = ready(world) else {
        *world.resource_mut::<TableDrag>() = TableDrag::default();
        world.resource_mut::<MapPointer>().grab = false;
        return;
    };
    let layout = world.resource::<Opened>().layout;
    let Some(at) = world.resource::<MapPointer>().world.map(|w| pointer_cm(layout, w)) else { return };
    let mouse = world.resource::<ButtonInput<MouseButton>>();
    let (pressed, held, released) = (
        mouse.just_pressed(MouseButton::Left),
        mouse.pressed(MouseButton::Left),
        mouse.just_released(MouseButton::Left),
    );
    let shift = world.resource::<ButtonInput<KeyCode>>().any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let over_map = world.resource::<MapPointer>().over_map;
    let t = table(world);
    if phase == Phase::Movement {
        if pressed && over_map {
            let grabbed = unit_at(world, &t, at).filter(|&u| t.units[u].side == side);
            if let Some(u) = grabbed {
                world.resource_mut::<MapPointer>().selected = Some(u);
                world.resource_mut::<MapPointer>().grab = true;
                *world.resource_mut::<TableDrag>() =
                    TableDrag { unit: Some(u), facing: t.units[u].facing, ..default() };
            }
        }
        let drag = world.resource::<TableDrag>().clone();
        if drag.unit.is_none() && world.resource::<PlayerTurn>().odds.is_some() {
            // Odds of another phase say nothing of a march.
            world.resource_mut::<PlayerTurn>().odds = None;
        }
        if let Some(u) = drag.unit {
            let unit = &t.units[u];
            let moved = (at.0 - unit.x).hypot(at.1 - unit.y) > 0.5;
            let facing = if shift && moved { bearing_of(at.0 - unit.x, at.1 - unit.y) } else { unit.facing };
            if held && moved && (drag.to != Some(at) || drag.facing != facing) {
                let verdict = sim::fs_march_preview(world, u, at, facing);
                let ghost = footprint_at(world, &t, u, at, facing);
                let text = match &verdict {
                    Ok((cost, left)) => {
                        // The way marched, as the log will say it, and what
                        // it costs of the march left (rough ground costs more).
                        let way = crate::sentences::cm_words((at.0 - unit.x).hypot(at.1 - unit.y));
                        let (cost, left) = (crate::sentences::cm_words(*cost), crate::sentences::cm_words(*left));
                        format!("March {way}: it costs {cost} of the {left} left. Release to march.")
                    }
                    Err(why) => format!("Cannot march there: {why}."),
                };
                world.resource_mut::<PlayerTurn>().odds = Some(text);
                *world.resource_mut::<TableDrag>() = TableDrag {
                    unit: Some(u),
                    to: Some(at),
                    facing,
                    verdict: Some(verdict),
                    ghost: Some(ghost),
                    odds_for: None,
                };
            }
            if released {
                let order =
                    drag.to.map(|to| Order::March { unit: unit.id.clone(), to: (to.0, to.1), facing: drag.facing });
                *world.resource_mut::<TableDrag>() = TableDrag::default();
                world.resource_mut::<MapPointer>().grab = false;
                world.resource_mut::<PlayerTurn>().odds = None;
                if let Some(order) = order {
                    let notice = give(world, &order);
                    world.resource_mut::<PlayerTurn>().say(notice);
                }
            }
        }
        return;
    }
    // Fire, melee and charges: the odds against the enemy under the pointer.
    let target = unit_at(world, &t, at).filter(|&u| t.units[u].side != side);
    let key = Some((target, acting(world, side, &t), world.resource::<sim::BattleLog>().events.len()));
    if world.resource::<TableDrag>().odds_for == key {
        return;
    }
    let text = target.map(|e| odds_text(world, phase, side, e));
    world.resource_mut::<PlayerTurn>().odds = text;
    world.resource_mut::<TableDrag>().odds_for = key;
}

/// The phase's instruction to the player at a table.
pub fn hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Movement => {
            "Drag one of your units to march it (Shift: turn to face the march).\nL line, C column, S square, \
             K limber or unlimber the selected unit; T wheel 15 degrees clockwise, Shift+T counter-clockwise."
        }
        Phase::DefensiveFire | Phase::OffensiveFire => {
            "Click your units to fire with (shift-click adds firers), point at an enemy for the odds, click it to fire."
        }
        Phase::Melee => {
            "Click your units touching an enemy (shift-click adds), point at it for the odds, click to attack."
        }
        Phase::Charge => "Click a horse unit of yours, point at an enemy in its front for the odds, click to charge.",
        Phase::Shocks | Phase::MoraleRecovery | Phase::End => "No orders are given in this phase.",
    }
}

/// The units that act: the picked group, else the selected unit.
fn acting(world: &World, side: usize, t: &Table) -> Vec<usize> {
    let turn = world.resource::<PlayerTurn>();
    let mut group: Vec<usize> =
        turn.group.iter().copied().filter(|&u| t.units.get(u).is_some_and(|x| x.side == side)).collect();
    if group.is_empty()
        && let Some(s) =
            world.resource::<MapPointer>().selected.filter(|&u| t.units.get(u).is_some_and(|x| x.side == side))
    {
        group.push(s);
    }
    group
}

fn percent(p: f32) -> String {
    format!("{:.0}%", p * 100.0)
}

/// The odds of the order a click on enemy `e` would give, in words.
pub fn odds_text(world: &mut World, phase: Phase, side: usize, e: usize) -> String {
    let t = table(world);
    let who = acting(world, side, &t);
    let name = t.units[e].id.clone();
    if who.is_empty() {
        return format!("{name}: select your units first (shift-click adds more).");
    }
    // What the unit did this bound refuses the order before any odds.
    let play = &world.resource::<sim::FsState>().play;
    let done = |list: &[bool], why: &str| {
        who.iter().find(|&&u| list.get(u) == Some(&true)).map(|&u| format!("{}: {} {why}.", name, t.units[u].id))
    };
    let refused = match phase {
        Phase::DefensiveFire | Phase::OffensiveFire => done(&play.fired, "has already fired this phase"),
        Phase::Melee => done(&play.fought, "has already fought this bound"),
        Phase::Charge => {
            done(&play.charged, "has charged this bound").or_else(|| done(&play.fought, "has fought this bound"))
        }
        _ => None,
    };
    if let Some(text) = refused {
        return text;
    }
    match phase {
        Phase::DefensiveFire | Phase::OffensiveFire => match sim::fs_fire_odds(world, &who, e) {
            Ok(o) => {
                let table = world.resource::<sim::Battle>().scenario.rules.belle_alliance.fire.results.clone();
                let each: Vec<String> = table
                    .iter()
                    .zip(&o.rows)
                    .map(|(r, p)| format!("{} {}", loss_words(r.figures, r.state), percent(*p)))
                    .collect();
                format!(
                    "Fire at {name}: {:.1} fire points, modifier {:+}. No effect {}; {}. It flees {}. Click to fire.",
                    o.volley.points,
                    o.volley.modifier,
                    percent(o.none),
                    each.join(", "),
                    percent(o.flees)
                )
            }
            Err(why) => format!("Cannot fire at {name}: {why}."),
        },
        Phase::Charge => match sim::fs_charge_odds(world, who[0], e) {
            Ok(o) => {
                let square = match (o.square, &o.against_square) {
                    (Some(p), Some(f)) => format!(
                        " It forms square {} (then {:+} against {:+}{}).",
                        percent(p),
                        f.attack,
                        f.defence,
                        if o.called_off > 0.0 {
                            format!("; out of reach {}", percent(o.called_off))
                        } else {
                            String::new()
                        }
                    ),
                    (Some(_), None) => " It tries to form square, but no square can stand there.".to_owned(),
                    (None, _) => String::new(),
                };
                format!(
                    "Charge {name}: {:+} against {:+} (on its {}).{square} Win {}, draw {}, lose {}. It flees {}, \
                     yours {}. Click to charge.",
                    o.fight.attack,
                    o.fight.defence,
                    format!("{:?}", o.fight.aspect).to_lowercase(),
                    percent(o.win),
                    percent(o.draw),
                    percent(o.lose),
                    percent(o.target_flees),
                    percent(o.charger_flees),
                )
            }
            Err(why) => format!("Cannot charge {name}: {why}."),
        },
        Phase::Melee => match sim::fs_melee_odds(world, &who, e, false) {
            Ok(sim::FsMeleeOdds { fight: f, win, draw, lose, target_flees: they_flee, attacker_flees: you_flee }) => {
                format!(
                    "Attack {name}: {:+} against {:+} (on its {}). Win {}, draw {}, lose {}. It flees {}, yours {}. \
                     Click to attack.",
                    f.attack,
                    f.defence,
                    format!("{:?}", f.aspect).to_lowercase(),
                    percent(win),
                    percent(draw),
                    percent(lose),
                    percent(they_flee),
                    percent(you_flee),
                )
            }
            Err(why) => format!("Cannot attack {name}: {why}."),
        },
        _ => String::new(),
    }
}

/// A fire result in words: the figures lost and the state it leaves the
/// target in (`one figure lost`, `2 figures lost and lightly unformed`).
pub fn loss_words(figures: u32, state: crate::vocab::State) -> String {
    let lost = match figures {
        0 => "no figure lost".to_owned(),
        1 => "one figure lost".to_owned(),
        n => format!("{n} figures lost"),
    };
    match state {
        crate::vocab::State::LU => format!("{lost} and lightly unformed"),
        crate::vocab::State::U => format!("{lost} and unformed"),
        crate::vocab::State::FU => format!("{lost} and fleeing"),
        _ => lost,
    }
}

/// A click on the table while a phase waits (the movement phase's presses
/// are [`table_pointer`]'s): your unit selects (Shift adds it to the
/// group), an enemy takes the order of the phase.
pub(super) fn table_click(world: &mut World, world_point: Vec2, shift: bool) {
    let Some((phase, side)) = ready(world) else { return };
    let layout = world.resource::<Opened>().layout;
    let at = pointer_cm(layout, world_point);
    let t = table(world);
    let Some(u) = unit_at(world, &t, at) else {
        world.resource_mut::<MapPointer>().selected = None;
        world.resource_mut::<PlayerTurn>().group.clear();
        return;
    };
    if t.units[u].side == side {
        world.resource_mut::<MapPointer>().selected = Some(u);
        let mut turn = world.resource_mut::<PlayerTurn>();
        if shift {
            if !turn.group.contains(&u) {
                turn.group.push(u);
            }
        } else {
            turn.group = vec![u];
        }
        return;
    }
    let who = acting(world, side, &t);
    let ids: Vec<String> = who.iter().map(|&i| t.units[i].id.clone()).collect();
    let target = t.units[u].id.clone();
    let order = match phase {
        _ if ids.is_empty() => {
            world.resource_mut::<PlayerTurn>().say(Notice::error("Select one of your units first."));
            return;
        }
        Phase::DefensiveFire | Phase::OffensiveFire => Order::Fire { units: ids, target },
        Phase::Melee => Order::Melee { units: ids, target },
        Phase::Charge => Order::Charge { unit: ids[0].clone(), target },
        _ => return,
    };
    let notice = give(world, &order);
    let mut turn = world.resource_mut::<PlayerTurn>();
    if !notice.error {
        turn.group.clear();
    }
    turn.say(notice);
}

/// The movement phase's keys on a table: formations, limbers, a wheel of
/// [`WHEEL_STEP`] in place.
pub fn key_order(world: &mut World, key: Option<OrderKey>, wheel: Option<bool>) -> Result<Order, String> {
    let t = table(world);
    let Some((phase, side)) = ready(world) else { return Err("No orders are awaited.".into()) };
    if phase != Phase::Movement {
        return Err("Formations change and units wheel in your movement phase.".into());
    }
    let Some(u) = world.resource::<MapPointer>().selected.filter(|&u| t.units.get(u).is_some_and(|x| x.side == side))
    else {
        return Err("Select one of your units first.".into());
    };
    let unit = &t.units[u];
    if let Some(ccw) = wheel {
        let facing = (unit.facing + if ccw { -WHEEL_STEP } else { WHEEL_STEP }).rem_euclid(360.0);
        return Ok(Order::March { unit: unit.id.clone(), to: (unit.x, unit.y), facing });
    }
    let to = match key {
        Some(OrderKey::Line) => Formation::Line,
        Some(OrderKey::Column) => Formation::Column,
        Some(OrderKey::Square) => Formation::Square,
        Some(OrderKey::Limber) => return Ok(Order::Limber { unit: unit.id.clone(), limbered: !unit.limbered }),
        _ => return Err("A free-space unit forms line (L), column (C) or square (S); guns limber (K).".into()),
    };
    Ok(Order::Formation { unit: unit.id.clone(), to })
}

/// The dragged march: the path and the footprint where it would stand,
/// green where it may, red where not; and the picked units outlined.
pub(super) fn draw_table_orders(
    drag: Res<TableDrag>,
    turn: Res<PlayerTurn>,
    opened: Res<Opened>,
    view: Option<Res<sim::view::TableView>>,
    battle: Option<Res<sim::Battle>>,
    mut lines: ResMut<Lines>,
) {
    let (Some(view), Some(battle)) = (view, battle) else { return };
    if turn.awaiting.is_none() || opened.scenario.as_ref().is_none_or(|s| s.mode != Mode::FreeSpace) {
        return;
    }
    let layout = opened.layout;
    let z = z::FLASH - 3.0;
    let ppc = layout.px_per_cm();
    let outline = |lines: &mut Lines, r: &OrientedRect, colour: Color, width: f32| {
        let c = layout.table_world(r.x, r.y);
        lines.rect(c, Vec2::new(r.width, r.depth) * ppc, -r.facing.to_radians(), width, colour, z);
    };
    let ctx = FsCtx::new(&battle.scenario);
    for &g in &turn.group {
        if let Some(u) = view.table().units.get(g) {
            outline(&mut lines, &u.rect(ctx.ba()), theme::GROUP, 2.5);
        }
    }
    let (Some(u), Some(ghost), Some(verdict)) = (drag.unit, drag.ghost, drag.verdict.as_ref()) else { return };
    let Some(unit) = view.table().units.get(u) else { return };
    let colour = if verdict.is_ok() { theme::PASS } else { theme::FAIL };
    lines.arrow(layout.table_world(unit.x, unit.y), layout.table_world(ghost.x, ghost.y), 3.0, colour, z);
    outline(&mut lines, &ghost, colour, 3.0);
}
