//! Flight (docs/rules.md 2.2) and the spread of rout (2.3): the fleeing mass,
//! its direction within the cone, the friends it meets and carries along,
//! and the flight formation it ends in.

use crate::belle_alliance::engine::{EPS, FsEngine, Job, STEP_CM, clamp_u8, cm, overlap};
use crate::belle_alliance::geometry::{bearing_of, bearing_vector};
use crate::belle_alliance::tables::{CarryResult, carry_along, carry_ratio_modifier, severity};
use crate::belle_alliance::{FsCtx, Table};
use crate::dice::{Dice, Roll};
use crate::events::{Cause, EventKind, EventLog, MoveReason, Seq};
use crate::vocab::Formation;
use crate::vocab::State;

/// One unit's share of a flight: its move reason, waypoints, last
/// direction and the distance it slid.
struct Leg {
    unit: usize,
    reason: MoveReason,
    path: Vec<(f32, f32)>,
    dir: (f32, f32),
    moved: f32,
    /// What its move follows from: the leader's state change, a carried
    /// unit's failed carry-along test.
    because: Vec<Seq>,
}

impl FsEngine {
    /// One flight, with every unit it carries along. The mass is a list of
    /// units, its leader first: the last unit carried along leads, the ones
    /// it carried follow in base contact with the same displacement.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    pub(super) fn flight(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        dice: &mut Dice,
        log: &mut EventLog,
        turn: u32,
        leader: usize,
        from: Option<(f32, f32)>,
        blocker: Option<usize>,
        by: Option<Seq>,
    ) {
        if table.units[leader].state != State::FU {
            return;
        }
        let by: Vec<Seq> = by.into_iter().collect();
        self.flights += 1;
        let ba = ctx.ba();
        let start = (table.units[leader].x, table.units[leader].y);
        let mut legs = vec![Leg {
            unit: leader,
            reason: MoveReason::Flight,
            path: vec![start],
            dir: (0.0, 1.0),
            moved: 0.0,
            because: by.clone(),
        }];
        // What the mass's next carry-along test follows from: the flight's
        // cause, then the latest unit carried along, which leads it.
        let mut spreading = by;
        let mut mass = vec![leader];
        let mut origin = from;
        let mut testing = true;
        let mut tested: Vec<usize> = Vec::new();
        loop {
            let lead = &table.units[mass[0]];
            let march = lead.flight_march_cm(ba);
            let base = match origin {
                Some((cx, cy)) if (lead.x - cx).hypot(lead.y - cy) > EPS => bearing_of(lead.x - cx, lead.y - cy),
                _ => ctx.rear_bearing(lead.side),
            };
            let (dir, dist) = self.best_direction(ctx, table, &mass, base, march);
            for leg in legs.iter_mut().filter(|l| mass.contains(&l.unit)) {
                leg.dir = dir;
            }
            let mut travelled = dist;
            let mut carried = None;
            if testing
                && dist > EPS
                && let Some((f, toi)) = self.first_friend(table, &mass, &tested, dir, dist, blocker)
            {
                tested.push(f);
                let before = table.units[f].state;
                let (result, test, shaken) = self.carry_test(ctx, table, dice, log, f, &mass, turn, &spreading);
                match result {
                    CarryResult::Carried => {
                        travelled = toi;
                        carried = Some((f, test));
                    }
                    CarryResult::Shaken => {
                        testing = false;
                        let c = self.rects[mass[0]];
                        let contact = (c.x + dir.0 * toi, c.y + dir.1 * toi);
                        if before != State::U && table.units[f].state == State::U {
                            self.queue.push_back(Job::Retreat {
                                unit: f,
                                from: Some(contact),
                                cause: Cause::CarryAlong,
                                by: shaken,
                            });
                        }
                    }
                    CarryResult::Holds => testing = false,
                }
            }
            // A friend carried along stops the mass at contact; otherwise it
            // goes as far as its march takes it, which may be further than
            // `dist` if a follower drops off (2.3).
            let cap = if carried.is_some() { travelled } else { march };
            self.slide_mass(ctx, table, &mut mass, &mut legs, dir, march, cap);
            let Some((f, test)) = carried else { break };
            // 2.3: the carried unit flees anew, in a free direction (2.2.4),
            // at its own march length; the mass follows it in base contact.
            let mut because = vec![test];
            if table.units[f].state != State::FU
                && let Some(fled) = self.enter_fu(ctx, table, log, f, Cause::CarryAlong, turn, &[test])
            {
                because = vec![fled];
            }
            spreading.clone_from(&because);
            mass.insert(0, f);
            let p = (table.units[f].x, table.units[f].y);
            legs.push(Leg { unit: f, reason: MoveReason::CarriedAlong, path: vec![p], dir, moved: 0.0, because });
            origin = None;
        }
        // 2.2.5: the flight formation, shifted to fit (2.2.6), then the log.
        // The last unit carried along leads, so the squares form from the
        // front back: each follower settles behind the ones formed, in base
        // contact, and a follower not yet formed never pushes a leader back.
        let was: Vec<Formation> = legs.iter().map(|l| table.units[l.unit].formation).collect();
        for k in (0..legs.len()).rev() {
            let pending: Vec<usize> = legs[..k].iter().map(|l| l.unit).collect();
            let end = self.form_flight(ctx, table, legs[k].unit, legs[k].dir, legs[k].moved, &pending);
            let leg = &mut legs[k];
            if leg.path.last().is_none_or(|&p| (p.0 - end.0).hypot(p.1 - end.1) > EPS) {
                leg.path.push(end);
            }
        }
        for (leg, was) in legs.iter().zip(was) {
            let unit = &table.units[leg.unit];
            let (first, last) = (leg.path[0], leg.path[leg.path.len() - 1]);
            let moved = log.push_because(
                EventKind::Move {
                    unit: unit.id.clone(),
                    reason: leg.reason,
                    from: cm(first),
                    to: cm(last),
                    path: leg.path.iter().copied().map(cm).collect(),
                },
                &leg.because,
            );
            Self::log_formation(log, unit, was, &[moved]);
        }
    }

    /// Slides the mass along `dir` on a march of `march` cm, at most `cap`
    /// cm, with the march reduced for every figure of the mass (2.3: the
    /// followers use the leader's march length, reductions counted for all
    /// figures). A follower that cannot go where the leader goes (its own
    /// prohibited terrain, the table edge, an enemy) moves up to that
    /// obstacle and stops there; the rest flee on, the march left to them
    /// reduced for their own figures only.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn slide_mass(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        mass: &mut Vec<usize>,
        legs: &mut [Leg],
        dir: (f32, f32),
        march: f32,
        cap: f32,
    ) {
        let (mut moved, mut budget) = (0.0f32, march);
        while moved < cap - EPS && budget > EPS {
            let room = cap - moved;
            // Where each follower would have to stop on its own.
            let mut stops = Vec::with_capacity(mass.len());
            for &m in &mass[1..] {
                let hard = self.hard_stop(table, m, dir, room);
                stops.push(self.walk(ctx, table, &[m], dir, room, hard, false).0);
            }
            let drop = stops.iter().copied().fold(f32::MAX, f32::min);
            let hard = self.hard_stop(table, mass[0], dir, room).min(drop);
            let (go, left) = self.walk(ctx, table, mass, dir, budget, hard, true);
            if go <= EPS {
                break;
            }
            for &m in mass.iter() {
                let unit = &mut table.units[m];
                unit.x += dir.0 * go;
                unit.y += dir.1 * go;
                let p = (unit.x, unit.y);
                self.refile(ctx, table, m);
                if let Some(leg) = legs.iter_mut().rev().find(|l| l.unit == m) {
                    leg.path.push(p);
                    leg.moved += go;
                }
            }
            (moved, budget) = (moved + go, left);
            if go < drop - EPS || moved >= cap - EPS {
                break;
            }
            // The followers stopped by their ground drop off here.
            let lead = mass[0];
            let mut k = 0;
            mass.retain(|&m| {
                let keep = m == lead || stops[k - 1] > drop + EPS;
                k += 1;
                keep
            });
        }
    }

    /// 2.2.2: the straight line within the cone around `base` (degrees)
    /// that gives the longest move; ties go to the direction nearest
    /// `base`, clockwise before anticlockwise. Returns the direction and the
    /// distance.
    fn best_direction(
        &mut self,
        ctx: &FsCtx,
        table: &Table,
        mass: &[usize],
        base: f32,
        march: f32,
    ) -> ((f32, f32), f32) {
        let ba = ctx.ba();
        let mut bb = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &m in mass {
            let a = self.boxes[m];
            bb = (bb.0.min(a.0), bb.1.min(a.1), bb.2.max(a.2), bb.3.max(a.3));
        }
        let reach = (bb.0 - march, bb.1 - march, bb.2 + march, bb.3 + march);
        let mut near = std::mem::take(&mut self.near);
        self.broad.query(reach, &mut near);
        self.near = near;
        let step = ba.direction_step_degrees.max(0.5);
        let n = (ba.flight_cone_degrees / step + EPS).floor() as i32;
        let mut best = (bearing_vector(base), -1.0f32);
        for k in 0..=n {
            for sign in [1.0f32, -1.0] {
                if k == 0 && sign < 0.0 {
                    continue;
                }
                let dir = bearing_vector(base + sign * k as f32 * step);
                let hard = self.hard_stop(table, mass[0], dir, march);
                let d = self.walk(ctx, table, mass, dir, march, hard, true).0;
                if d > best.1 + EPS {
                    best = (dir, d);
                }
            }
        }
        (best.0, best.1.max(0.0))
    }

    /// The first friend the mass would meet along `dir` within `dist`: not
    /// of the mass, and not already fleeing unless it is the `blocker`.
    fn first_friend(
        &self,
        table: &Table,
        mass: &[usize],
        tested: &[usize],
        dir: (f32, f32),
        dist: f32,
        blocker: Option<usize>,
    ) -> Option<(usize, f32)> {
        let side = table.units[mass[0]].side;
        let mut best: Option<(usize, f32)> = None;
        for &j in &self.near {
            let f = &table.units[j];
            if f.side != side
                || mass.contains(&j)
                || tested.contains(&j)
                || (f.state == State::FU && blocker != Some(j))
            {
                continue;
            }
            for &m in mass {
                let max = best.map_or(dist, |b| b.1);
                if self.may_touch(j, self.swept_box(m, dir, max))
                    && let Some(t) = self.rects[m].time_of_impact(dir, max, &self.rects[j])
                    && best.is_none_or(|b| t < b.1)
                {
                    best = Some((j, t));
                }
            }
        }
        best
    }

    /// 2.3: the carry-along test of `f` met by the fleeing `mass` (its
    /// figures counted together, whatever their valour), following from
    /// `by` (what set the mass in flight). Returns the result, the test's
    /// `seq` and, if it shook the unit into U, that change's.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn carry_test(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        dice: &mut Dice,
        log: &mut EventLog,
        f: usize,
        mass: &[usize],
        turn: u32,
        by: &[Seq],
    ) -> (CarryResult, Seq, Option<Seq>) {
        self.carry_tests += 1;
        let ba = ctx.ba();
        let figures: u32 = mass.iter().map(|&m| table.units[m].figures).sum();
        let unit = &table.units[f];
        let modifier = carry_ratio_modifier(unit.figures, figures, ba);
        let roll = dice.three_d6_for(f, Roll::Check);
        let total = roll as i32 + unit.valour + modifier;
        let result = carry_along(total, ba);
        let after = match result {
            CarryResult::Carried => State::FU,
            CarryResult::Shaken if severity(unit.state) < severity(State::U) => State::U,
            _ => unit.state,
        };
        // The log's morale check, read the 3d6 way: `morale` is the highest
        // total that is carried along, `modifier` valour + size modifier,
        // `passed` false when carried along; `source` leads the mass.
        let test = log.push_because(
            EventKind::MoraleCheck {
                unit: unit.id.clone(),
                cause: Cause::CarryAlong,
                morale: clamp_u8(ba.carry_along_max),
                modifier: unit.valour + modifier,
                roll: roll as u8,
                result: clamp_u8(total),
                passed: result != CarryResult::Carried,
                source: Some(table.units[mass[0]].id.clone()),
            },
            by,
        );
        let mut shaken = None;
        if result == CarryResult::Shaken && after == State::U {
            shaken = self.set_state(table, log, f, State::U, Cause::CarryAlong, turn, &[test]);
        }
        (result, test, shaken)
    }

    /// 2.2.5-2.2.6: the unit forms the flight formation (as wide as deep)
    /// where it stopped; if the square would stand on impassable ground, off
    /// the table or on an enemy, it shifts back along its line of flight (at
    /// most the way it came plus the square's side, so never across ground
    /// it did not cross) until it fits, preferring a place clear of friends
    /// too. Returns its final centre.
    /// Friends in `pending` (units of the same flight still to form) are not
    /// looked at.
    fn form_flight(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        u: usize,
        dir: (f32, f32),
        moved: f32,
        pending: &[usize],
    ) -> (f32, f32) {
        table.units[u].formation = Formation::Flight;
        let square = table.units[u].rect(ctx.ba());
        let arm = table.units[u].moving_arm();
        let side = table.units[u].side;
        let max_back = moved + square.width;
        let a = square.aabb();
        let mut near = std::mem::take(&mut self.near);
        self.broad.query((a.0 - max_back, a.1 - max_back, a.2 + max_back, a.3 + max_back), &mut near);
        let (w, h) = ctx.table_cm();
        let mut found = None;
        'search: for strict in [true, false] {
            // Clear of friends too is looked for within one side of the
            // square; clear of obstacles, as far back as it came.
            let reach = if strict { square.width.min(max_back) } else { max_back };
            for k in 0..=(reach / STEP_CM) as i32 {
                let back = k as f32 * STEP_CM;
                let r = square.shifted(-dir.0 * back, -dir.1 * back);
                let b = r.aabb();
                if b.0 < 0.0 || b.1 < 0.0 || b.2 > w || b.3 > h || !self.rect_passable(ctx, &r, arm) {
                    continue;
                }
                let clash = near.iter().any(|&j| {
                    j != u
                        && (strict || table.units[j].side != side)
                        && !pending.contains(&j)
                        && overlap(b, self.boxes[j])
                        && r.intersects(&self.rects[j])
                });
                if !clash {
                    found = Some((r.x, r.y));
                    break 'search;
                }
            }
        }
        self.near = near;
        if let Some((x, y)) = found {
            table.units[u].x = x;
            table.units[u].y = y;
        }
        self.refile(ctx, table, u);
        (table.units[u].x, table.units[u].y)
    }
}
