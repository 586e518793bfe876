//! What the why view draws, worked out from the log alone (pure): each
//! event of the chain as a numbered step at the place it happened, the
//! moves of the chain as paths, and an arrow from every cause to its effect
//! where the two are different units: a router passing a friend (contagion),
//! a volley or a melee, a stack's top unit failing before its stack-mate.

use crate::events::{Event, EventKind, MeleeRolls, MoveReason, Pos, Seq};
use crate::scenario::Scenario;
use crate::sentences::{self, Names};
use crate::why::Chain;

use super::super::shown::{ShownUnit, apply, initial};

/// What an arrow of the chain stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// A unit's move through a friend's hex made it check (rule 1.4), or a
    /// fleeing mass met it (free space, 2.3).
    Contagion,
    /// A volley.
    Fire,
    /// A melee or a charge.
    Melee,
    /// The top unit of a stack failed, so the one under it checked too.
    Stack,
}

/// One event of the chain, numbered in log order from 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub seq: Seq,
    pub number: usize,
    /// The unit it is about (scenario index), if any.
    pub unit: Option<usize>,
    /// Where that unit stood when it happened (a move: where it began).
    pub at: Option<Pos>,
    /// The event in words, as the battle log has it.
    pub text: String,
    /// It follows from nothing: where the chain begins.
    pub root: bool,
}

/// An arrow from a cause to its effect, numbered as the effect's step.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub from: Pos,
    pub to: Pos,
    pub link: Link,
    pub number: usize,
}

/// The whole picture of one chain.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Picture {
    pub target: Seq,
    pub steps: Vec<Step>,
    pub arrows: Vec<Arrow>,
    /// The chain's moves: path, why, and the step number.
    pub paths: Vec<(Vec<Pos>, MoveReason, usize)>,
}

fn pos_of(u: &ShownUnit) -> Option<Pos> {
    if u.gone {
        return None;
    }
    u.at.map(Pos::from).or(u.cm.map(|(x, y, _)| Pos::Cm([x, y])))
}

/// The units an event names as acting on the others (firers, attackers).
fn actors(e: &Event) -> &[String] {
    match &e.kind {
        EventKind::Fire { units, .. } => units,
        EventKind::Melee { attackers, .. } | EventKind::Attack { attackers, .. } => attackers,
        _ => &[],
    }
}

/// The units a free-space melee's result came from, for `unit` (its
/// loser or a winner's casualties): the other side of the fight.
fn against<'a>(e: &'a Event, unit: Option<&str>) -> &'a [String] {
    match &e.kind {
        EventKind::Melee { attackers, defenders, rolls: MeleeRolls::FreeSpace { .. } } => {
            if unit.is_some_and(|u| attackers.iter().any(|a| a == u)) { defenders } else { attackers }
        }
        _ => actors(e),
    }
}

/// The point of a move's path just before it entered `hex` (the start, if
/// it began there): where a contagion arrow comes from.
fn entering(path: &[Pos], at: &Pos) -> Pos {
    match path.iter().position(|p| p == at) {
        Some(0) | None => path.first().copied().unwrap_or(*at),
        Some(k) => path[k - 1],
    }
}

/// The picture of `chain` over `events` (the battle log, `seq` its index).
pub fn picture(scenario: &Scenario, events: &[Event], chain: &Chain, names: &dyn Names) -> Picture {
    let index = |id: &str| scenario.unit_index(id);
    let mut units = initial(scenario);
    let mut steps = Vec::with_capacity(chain.events.len());
    // Per chain event: where every unit it involves stood, before it.
    let mut placed: Vec<Vec<(usize, Pos)>> = Vec::with_capacity(chain.events.len());
    let mut next = chain.events.iter().peekable();
    let last = chain.target as usize;
    for (i, e) in events.iter().enumerate().take(last + 1) {
        if next.peek().is_some_and(|&&s| s as usize == i) {
            next.next();
            let unit = sentences::unit_id(e).as_deref().and_then(index);
            let mut involved: Vec<usize> = unit.into_iter().collect();
            involved.extend(actors(e).iter().filter_map(|a| index(a)));
            if let EventKind::Fire { target, .. } | EventKind::Attack { target, .. } = &e.kind {
                involved.extend(index(target));
            }
            if let EventKind::Melee { defenders, .. } = &e.kind {
                involved.extend(defenders.iter().filter_map(|d| index(d)));
            }
            let here: Vec<(usize, Pos)> =
                involved.iter().filter_map(|&u| units.get(u).and_then(pos_of).map(|p| (u, p))).collect();
            let at = unit.and_then(|u| here.iter().find(|(v, _)| *v == u).map(|(_, p)| *p));
            let text = sentences::sentence(e, names).map_or_else(|| format!("{:?}", e.kind), |(_, t)| t);
            steps.push(Step { seq: e.seq, number: steps.len() + 1, unit, at, text, root: e.because.is_empty() });
            placed.push(here);
        }
        apply(&mut units, index, e);
    }
    let step_of = |seq: Seq| chain.events.binary_search(&seq).ok();
    let mut arrows = Vec::new();
    let mut paths = Vec::new();
    for step in &steps {
        let e = &events[step.seq as usize];
        if let EventKind::Move { path, reason, .. } = &e.kind
            && path.len() > 1
        {
            paths.push((path.clone(), *reason, step.number));
        }
        let Some(to) = step.at else { continue };
        for &b in &e.because {
            let Some(c) = step_of(b) else { continue };
            let cause = &events[b as usize];
            let cause_unit = steps[c].unit;
            match &cause.kind {
                EventKind::Move { path, .. } if cause_unit != step.unit => {
                    arrows.push(Arrow { from: entering(path, &to), to, link: Link::Contagion, number: step.number });
                }
                EventKind::MoraleCheck { .. } if cause_unit.is_some() && cause_unit != step.unit => {
                    if let Some(from) = steps[c].at {
                        arrows.push(Arrow { from, to, link: Link::Stack, number: step.number });
                    }
                }
                EventKind::StateChange { .. } if cause_unit.is_some() && cause_unit != step.unit => {
                    // A fleeing mass's leader (free space): its flight met this unit.
                    if let Some(from) = steps[c].at {
                        arrows.push(Arrow { from, to, link: Link::Contagion, number: step.number });
                    }
                }
                EventKind::Fire { .. } | EventKind::Melee { .. } => {
                    let fire = matches!(cause.kind, EventKind::Fire { .. });
                    let link = if fire { Link::Fire } else { Link::Melee };
                    let id = step.unit.and_then(|u| scenario.units.get(u)).map(|u| u.id.as_str());
                    for (u, from) in &placed[c] {
                        let acting = against(cause, id).iter().any(|a| index(a) == Some(*u));
                        if acting && Some(*u) != step.unit {
                            arrows.push(Arrow { from: *from, to, link, number: step.number });
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Picture { target: chain.target, steps, arrows, paths }
}
