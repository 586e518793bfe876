//! The fire and melee tables as pure functions (docs/rules.md 2.8, 2.9):
//! fire points by weapon and range band, the modifiers of a volley and of
//! each side of a melee, the results they read, and the exact odds over
//! the 216 outcomes of 3d6 for the window and the AI.

use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::geometry::{OrientedRect, bearing_of};
use crate::belle_alliance::march::{Refusal, in_front_arc, turn_between};
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::rules::belle_play::{Band, ResultRow};
use crate::terrain::{Arm, Terrain};
use crate::vocab::{Formation, State};

/// Ways to roll each 3d6 total, 3 to 18 (216 in all).
pub const THREE_D6: [u32; 16] = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];

/// The chance that 3d6 rolls `n` or more.
pub fn at_least(n: i32) -> f32 {
    (3..=18).filter(|&t| t >= n).map(|t| THREE_D6[(t - 3) as usize]).sum::<u32>() as f32 / 216.0
}

/// The distance between two footprints (0 when they touch or overlap):
/// for disjoint convex shapes it is met at a corner of one of them.
pub fn gap(a: &OrientedRect, b: &OrientedRect) -> f32 {
    if a.intersects(b) {
        return 0.0;
    }
    let from_a = a.corners().iter().map(|&(x, y)| b.distance_to_point(x, y)).fold(f32::MAX, f32::min);
    let from_b = b.corners().iter().map(|&(x, y)| a.distance_to_point(x, y)).fold(f32::MAX, f32::min);
    from_a.min(from_b)
}

/// Whether any part of the footprint stands in cover: woods, town,
/// village or gardens.
pub fn in_cover(ctx: &FsCtx, r: &OrientedRect) -> bool {
    ctx.touches(r, |t| matches!(t, Terrain::Woods | Terrain::Town | Terrain::Village | Terrain::Garden))
}

fn band_points(bands: &[Band], dist: f32) -> Option<f32> {
    bands.iter().find(|b| dist <= b.max_cm).map(|b| b.points)
}

/// A unit's fire points at a target `dist` cm away (2.8), `None` if it
/// cannot fire there: out of range, fleeing, or guns it has not got or
/// that are limbered.
pub fn fire_points(unit: &FsUnit, dist: f32, ctx: &FsCtx) -> Option<f32> {
    let fire = &ctx.ba().fire;
    if unit.state == State::FU || unit.formation == Formation::Flight {
        return None;
    }
    let share = match unit.formation {
        Formation::Column => fire.column_share,
        Formation::Square => fire.square_share,
        _ => 1.0,
    };
    let per = match unit.arm {
        Arm::Artillery if unit.limbered || unit.guns_left.is_some() => return None,
        Arm::Artillery => band_points(&fire.artillery, dist)?,
        Arm::Cavalry => band_points(&fire.musketry, dist)? * fire.cavalry_share,
        Arm::Infantry => band_points(&fire.musketry, dist)?,
    };
    Some(unit.figures as f32 * per * share)
}

/// Why `unit` cannot fire `dist` cm (docs/rules.md 2.8): fleeing, guns
/// limbered or lost, or out of range; the words a player reads.
pub fn why_no_fire(unit: &FsUnit, dist: f32, ctx: &FsCtx) -> String {
    if unit.state == State::FU || unit.formation == Formation::Flight {
        return "is fleeing and cannot fire".into();
    }
    match unit.arm {
        Arm::Artillery if unit.guns_left.is_some() => return "has lost its guns".into(),
        Arm::Artillery if unit.limbered => return "is limbered: unlimber it first (K in its movement phase)".into(),
        _ => {}
    }
    format!("is {dist:.0} cm away, beyond its range of {:.0} cm", reach(unit, ctx))
}

/// The longest range at which `unit` fires at all, cm.
pub fn reach(unit: &FsUnit, ctx: &FsCtx) -> f32 {
    let fire = &ctx.ba().fire;
    let bands = if unit.arm == Arm::Artillery { &fire.artillery } else { &fire.musketry };
    bands.last().map_or(0.0, |b| b.max_cm)
}

/// A volley worked out before the dice: the fire points, the modifier and
/// where the fire came from (the firers' centres' mean: the flight's cause).
#[derive(Clone, Debug, PartialEq)]
pub struct Volley {
    pub points: f32,
    pub modifier: i32,
    pub from: (f32, f32),
}

/// The volley of `firers` at `target` (2.8): each must be able to fire,
/// have the target in its front arc and within reach; one modifier point
/// per `points_per_modifier`, at most `max_modifier`, plus cover and a
/// dense target under gunfire, less the target's valour.
pub fn volley(
    ctx: &FsCtx,
    engine: &FsEngine,
    table: &Table,
    firers: &[usize],
    target: usize,
) -> Result<Volley, Refusal> {
    let fire = &ctx.ba().fire;
    let t = &table.units[target];
    let tr = engine.rect(target);
    let mut points = 0.0;
    let mut guns = false;
    let (mut sx, mut sy) = (0.0, 0.0);
    for &f in firers {
        let u = &table.units[f];
        if u.side == t.side {
            return Err(format!("{} will not fire at a friend", u.id));
        }
        if !in_front_arc(u, (t.x, t.y), ctx) {
            return Err(format!("{}: {} is not in its front arc", u.id, t.id));
        }
        let dist = gap(&engine.rect(f), &tr);
        let Some(p) = fire_points(u, dist, ctx) else {
            return Err(format!("{}: {}", u.id, why_no_fire(u, dist, ctx)));
        };
        points += p;
        guns |= u.arm == Arm::Artillery;
        sx += u.x;
        sy += u.y;
    }
    if firers.is_empty() {
        return Err("nobody fires".into());
    }
    let n = firers.len() as f32;
    let mut modifier = ((points / fire.points_per_modifier).floor() as i32).min(fire.max_modifier);
    if in_cover(ctx, &tr) {
        modifier += fire.cover_modifier;
    }
    if guns && matches!(t.formation, Formation::Column | Formation::Square) {
        modifier += fire.dense_target_modifier;
    }
    modifier -= t.valour;
    Ok(Volley { points, modifier, from: (sx / n, sy / n) })
}

/// A unit's valour once it has `left` figures (docs/rules.md 2.10): its
/// scenario valour less one point per `valour_loss.share_per_point` of its
/// starting figures lost. `None` for a unit the scenario does not hold.
pub fn valour_with(ctx: &FsCtx, u: usize, left: u32) -> Option<i32> {
    let spec = ctx.units.get(u)?;
    let start = spec.strength.max(1) as f32;
    let gone = (start - left as f32).max(0.0) / start;
    let points = (gone / ctx.ba().valour_loss.share_per_point + 1e-3).floor() as i32;
    Some(spec.valour - points)
}

/// The chance a result of `figures` and `state` leaves unit `u` fleeing
/// (FU), the valour tests its losses demand counted (docs/rules.md 2.10,
/// 2.2): each point of valour lost is a test, 3d6 + the new
/// valour above `valour_loss.flight_max` to hold.
pub fn flight_chance(ctx: &FsCtx, table: &Table, u: usize, figures: u32, state: State) -> f32 {
    let Some(unit) = table.units.get(u) else { return 0.0 };
    if unit.state == State::FU || state == State::FU {
        return 1.0;
    }
    let left = unit.figures - figures.min(unit.figures.saturating_sub(1));
    let Some(valour) = valour_with(ctx, u, left) else { return 0.0 };
    let tests = (unit.valour - valour).max(0);
    let holds = at_least(ctx.ba().valour_loss.flight_max - valour + 1);
    1.0 - holds.powi(tests)
}

/// The chance a volley of `modifier` leaves `target` fleeing, both its dice
/// counted: the fire table's row (2.8), then the valour tests its losses
/// demand (2.10).
pub fn fire_flight(ctx: &FsCtx, table: &Table, target: usize, modifier: i32) -> f32 {
    let rows = &ctx.ba().fire.results;
    let (_, chances) = odds(rows, modifier);
    rows.iter().zip(&chances).map(|(r, p)| p * flight_chance(ctx, table, target, r.figures, r.state)).sum()
}

/// The row of a result table a total reads, if any (ascending `from`).
pub fn read(rows: &[ResultRow], total: i32) -> Option<ResultRow> {
    rows.iter().rev().find(|r| total >= r.from).copied()
}

/// The chance of each row of `rows` for 3d6 + `modifier`, and of nothing.
pub fn odds(rows: &[ResultRow], modifier: i32) -> (f32, Vec<f32>) {
    let mut out = vec![0.0; rows.len()];
    let mut none = 0.0;
    for t in 3..=18 {
        let p = THREE_D6[(t - 3) as usize] as f32 / 216.0;
        match rows.iter().rposition(|r| t + modifier >= r.from) {
            Some(i) => out[i] += p,
            None => none += p,
        }
    }
    (none, out)
}

/// Where an attacker stands against a defender (2.9): front, flank or
/// rear, from the bearing of the attacker's centre off the defender's
/// facing. Squares and fleeing units have front on all sides (2.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

pub fn aspect(defender: &FsUnit, attacker: (f32, f32), ctx: &FsCtx) -> Aspect {
    if matches!(defender.formation, Formation::Square | Formation::Flight) || defender.state == State::FU {
        return Aspect::Front;
    }
    let off = turn_between(defender.facing, bearing_of(attacker.0 - defender.x, attacker.1 - defender.y));
    let arc = ctx.ba().march_costs.front_arc_degrees;
    if off <= arc {
        Aspect::Front
    } else if off >= 180.0 - arc {
        Aspect::Rear
    } else {
        Aspect::Flank
    }
}

/// Both sides' modifiers in a melee, worked out before the dice.
#[derive(Clone, Debug, PartialEq)]
pub struct Fight {
    pub attack: i32,
    pub defence: i32,
    pub aspect: Aspect,
}

fn state_modifier(s: State, ctx: &FsCtx) -> i32 {
    let m = &ctx.ba().melee;
    match s {
        State::LU => m.lu_modifier,
        State::U | State::Disordered => m.u_modifier,
        State::FU | State::Routed => m.fu_modifier,
        _ => 0,
    }
}

/// A figure-ratio modifier: +r with half again the other's figures, +2r
/// with twice as many, and as much less the other way round.
fn ratio(mine: u32, theirs: u32, r: i32) -> i32 {
    let (a, b) = (mine as u64, theirs.max(1) as u64);
    if a >= 2 * b {
        2 * r
    } else if 2 * a >= 3 * b {
        r
    } else if b >= 2 * a {
        -2 * r
    } else if 2 * b >= 3 * a {
        -r
    } else {
        0
    }
}

/// The melee of `attackers` against `target` (2.9). Every attacker must be
/// in contact (its footprint within `contact_cm`), not fleeing and not in
/// U; the first attacker leads: its arm, formation, state and valour count.
pub fn fight(
    ctx: &FsCtx,
    engine: &FsEngine,
    table: &Table,
    attackers: &[usize],
    target: usize,
    charged: bool,
) -> Result<Fight, Refusal> {
    let m = &ctx.ba().melee;
    let d = &table.units[target];
    let Some(&lead) = attackers.first() else { return Err("nobody attacks".into()) };
    let mut figures = 0;
    for &a in attackers {
        let u = &table.units[a];
        if u.side == d.side {
            return Err(format!("{} will not attack a friend", u.id));
        }
        if matches!(u.state, State::U | State::FU) {
            return Err(format!("{} is in {:?} and cannot attack", u.id, u.state.free_space()));
        }
        let g = gap(&engine.rect(a), &engine.rect(target));
        if g > m.contact_cm {
            return Err(format!("{} is {g:.0} cm from {} and must touch it to attack", u.id, d.id));
        }
        figures += u.figures;
    }
    let a = &table.units[lead];
    let aspect = aspect(d, (a.x, a.y), ctx);
    let mut attack = ratio(figures, d.figures, m.ratio_modifier) + a.valour + state_modifier(a.state, ctx);
    attack += match aspect {
        Aspect::Front => 0,
        Aspect::Flank => m.flank_modifier,
        Aspect::Rear => m.rear_modifier,
    };
    let mut defence = d.valour + state_modifier(d.state, ctx);
    if a.arm == Arm::Cavalry && d.arm != Arm::Cavalry {
        attack += if d.formation == Formation::Square { m.cavalry_vs_square } else { m.cavalry_vs_foot };
        if charged {
            attack += m.charge_modifier;
        }
    }
    if d.arm == Arm::Cavalry && a.arm == Arm::Infantry && a.formation != Formation::Square {
        defence += m.cavalry_vs_foot;
    }
    if a.arm == Arm::Infantry && a.formation == Formation::Column {
        attack += m.column_modifier;
    }
    if a.arm == Arm::Artillery {
        attack += m.guns_modifier;
    }
    if d.arm == Arm::Artillery {
        defence += m.guns_modifier;
    }
    if in_cover(ctx, &engine.rect(target)) {
        defence += m.cover_modifier;
    }
    Ok(Fight { attack, defence, aspect })
}

/// A melee's result read from the difference of the totals: the loser (true
/// for the defender) and its row; `None` for a draw.
pub fn clash_result(diff: i32, rows: &[ResultRow]) -> Option<(bool, ResultRow)> {
    read(rows, diff.abs()).map(|r| (diff > 0, r))
}

/// Of the 216 x 216 pairs of rolls of melee `f`, how many end as `pick`
/// says: it is given each result ([`clash_result`], `None` a draw).
fn ways(f: &Fight, rows: &[ResultRow], pick: impl Fn(Option<(bool, ResultRow)>) -> bool) -> u32 {
    let mut n = 0;
    for a in 3..=18 {
        for d in 3..=18 {
            if pick(clash_result(a + f.attack - d - f.defence, rows)) {
                n += THREE_D6[(a - 3) as usize] * THREE_D6[(d - 3) as usize];
            }
        }
    }
    n
}

/// The chances a melee ends with the defender beaten, a draw, or the
/// attacker beaten, over all 216 x 216 pairs of rolls.
pub fn fight_odds(f: &Fight, rows: &[ResultRow]) -> (f32, f32, f32) {
    let win = ways(f, rows, |r| matches!(r, Some((true, _))));
    let lose = ways(f, rows, |r| matches!(r, Some((false, _))));
    let draw = 216 * 216 - win - lose;
    let all = 216.0 * 216.0;
    (win as f32 / all, draw as f32 / all, lose as f32 / all)
}

/// The chance the lead attacker loses melee `f` with a row that shakes it
/// (U or worse, 2.9): the rows after which it must give ground or flee.
pub fn shaken_loss(f: &Fight, rows: &[ResultRow]) -> f32 {
    let shaken = ways(f, rows, |r| matches!(r, Some((false, row)) if matches!(row.state, State::U | State::FU)));
    shaken as f32 / (216.0 * 216.0)
}

/// The chances a melee leaves the target and the lead attacker fleeing,
/// every die counted: both sides' 3d6 (2.9), then the valour tests the
/// losses demand (2.10), the loser's row, a winner's figure when it did
/// not win cleanly, a figure each in a draw.
pub fn fight_flight(ctx: &FsCtx, table: &Table, f: &Fight, lead: usize, target: usize) -> (f32, f32) {
    let m = &ctx.ba().melee;
    let (mut target_flees, mut lead_flees) = (0.0f64, 0.0f64);
    for a in 3..=18 {
        for d in 3..=18 {
            let n = f64::from(THREE_D6[(a - 3) as usize] * THREE_D6[(d - 3) as usize]) / (216.0 * 216.0);
            let diff = a + f.attack - d - f.defence;
            let (t, l) = match clash_result(diff, &m.results) {
                Some((defender_lost, row)) => {
                    let (loser, winner) = if defender_lost { (target, lead) } else { (lead, target) };
                    let lost = flight_chance(ctx, table, loser, row.figures, row.state);
                    let won = if diff.abs() >= m.clean_win {
                        0.0
                    } else {
                        flight_chance(ctx, table, winner, m.winner_figures, State::Order)
                    };
                    if defender_lost { (lost, won) } else { (won, lost) }
                }
                None => (
                    flight_chance(ctx, table, target, 1, State::Order),
                    flight_chance(ctx, table, lead, 1, State::Order),
                ),
            };
            target_flees += n * f64::from(t);
            lead_flees += n * f64::from(l);
        }
    }
    (target_flees as f32, lead_flees as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belle_alliance::broad::BroadPhaseKind;
    use crate::belle_alliance::testing::{table_of, table_on, unit};

    #[test]
    fn the_216_outcomes_of_3d6() {
        assert_eq!(THREE_D6.iter().sum::<u32>(), 216);
        assert_eq!(at_least(3), 1.0);
        assert!((at_least(18) - 1.0 / 216.0).abs() < 1e-6);
        assert!((at_least(11) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn a_battalion_at_close_range_fires_four_points_of_modifier_and_half_at_long_range() {
        // 24 figures at 5 cm: 24 points, three modifier points; at 12 cm half.
        let (s, t) = table_of(vec![
            unit("a", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            unit("b", 1, Arm::Infantry, 100.0, 91.0, 180.0),
        ]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let v = volley(&ctx, &e, &t, &[0], 1).expect("in range");
        assert_eq!((v.points, v.modifier), (24.0, 3));
        let (s, t) = table_of(vec![
            unit("a", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            unit("b", 1, Arm::Infantry, 100.0, 84.0, 180.0),
        ]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let v = volley(&ctx, &e, &t, &[0], 1).expect("long range");
        assert_eq!((v.points, v.modifier), (12.0, 1));
        let (s, t) = table_of(vec![
            unit("a", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            unit("b", 1, Arm::Infantry, 100.0, 70.0, 180.0),
        ]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        assert!(volley(&ctx, &e, &t, &[0], 1).is_err(), "out of musket range");
    }

    #[test]
    fn guns_at_a_column_in_a_village_count_the_dense_target_and_the_cover() {
        let mut rows = vec![".".repeat(20); 20];
        rows[6] = "v".repeat(20);
        let mut b = unit("b", 1, Arm::Infantry, 100.0, 65.0, 180.0);
        b.formation = Formation::Column;
        b.valour = 1;
        let (s, t) = table_on(rows, vec![unit("g", 0, Arm::Artillery, 100.0, 100.0, 0.0), b]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let v = volley(&ctx, &e, &t, &[0], 1).expect("canister range");
        // 4 guns x 3 points (20-50 cm) = 12 -> +1, dense +2, cover -2, valour -1.
        assert_eq!((v.points, v.modifier), (12.0, 0), "{v:?}");
    }

    #[test]
    fn the_fire_table_reads_its_rows_and_its_odds_add_up() {
        let r = crate::rules::BelleAllianceRules::default();
        assert_eq!(read(&r.fire.results, 10), None);
        assert_eq!(read(&r.fire.results, 15).map(|r| (r.figures, r.state)), Some((3, State::U)));
        assert_eq!(read(&r.fire.results, 25).map(|r| r.state), Some(State::FU));
        let (none, rows) = odds(&r.fire.results, 3);
        assert!((none + rows.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // FU needs 19: 16 or more on the dice with +3.
        assert!((rows[4] - at_least(16)).abs() < 1e-6);
    }

    #[test]
    fn cavalry_on_a_flank_beats_a_line_and_a_square_holds() {
        let (s, t) = table_of(vec![
            unit("c", 0, Arm::Cavalry, 113.0, 100.0, 270.0),
            unit("b", 1, Arm::Infantry, 100.0, 100.0, 0.0),
        ]);
        let mut t = t;
        t.units[0].figures = 12;
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        let f = fight(&ctx, &e, &t, &[0], 1, true);
        // The 24-figure line is 12 cm each side of its centre; the horse
        // stands 13 cm east, on its flank: within contact.
        let f = f.expect("in contact");
        assert_eq!(f.aspect, Aspect::Flank);
        // Ratio 12 v 24: -4; flank +2; cavalry against foot +3; charge +2.
        assert_eq!((f.attack, f.defence), (3, 0));
        let mut sq = t.clone();
        sq.units[1].formation = Formation::Square;
        let e2 = FsEngine::new(&ctx, &sq, BroadPhaseKind::Grid);
        let far = fight(&ctx, &e2, &sq, &[0], 1, true);
        assert!(far.is_err(), "the square is smaller: the horse no longer touches it");
        let (win, _, _) = fight_odds(&f, &ctx.ba().melee.results);
        assert!(win > 0.5, "{win}");
    }

    #[test]
    fn fleeing_or_shaken_units_cannot_attack_and_a_distant_one_must_close_first() {
        let (s, mut t) = table_of(vec![
            unit("a", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            unit("b", 1, Arm::Infantry, 100.0, 95.0, 180.0),
        ]);
        let ctx = FsCtx::new(&s);
        let e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
        assert!(fight(&ctx, &e, &t, &[0], 1, false).is_ok());
        t.units[0].state = State::U;
        assert!(fight(&ctx, &e, &t, &[0], 1, false).unwrap_err().contains("cannot attack"));
    }
}
