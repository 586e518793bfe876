//! The U retreat (house default): straight away from the cause, or into
//! FU and flight when anything blocks it.

use crate::belle_alliance::engine::{EPS, FsEngine, Job, cm};
use crate::belle_alliance::geometry::{bearing_of, bearing_vector};
use crate::belle_alliance::{FsCtx, Table};
use crate::events::{Cause, EventKind, EventLog, MoveReason, Seq};
use crate::vocab::State;

impl FsEngine {
    /// A unit in U retreats `u_retreat_cm` straight away from the cause,
    /// keeping formation and facing. Any unit, friend or foe, impassable
    /// ground or the table edge in the way blocks it: it then enters FU and
    /// flees in a free direction (2.2.4); a fleeing friend that blocked it
    /// may be carried along in turn (2.3).
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    pub(super) fn retreat(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        log: &mut EventLog,
        turn: u32,
        u: usize,
        from: Option<(f32, f32)>,
        cause: Cause,
        by: Option<Seq>,
    ) {
        let by: Vec<Seq> = by.into_iter().collect();
        if table.units[u].state != State::U {
            return;
        }
        let (way, first) = self.retreat_way(ctx, table, u, from);
        if let Some(dir) = way {
            let d = ctx.ba().u_retreat_cm;
            let unit = &mut table.units[u];
            let start = (unit.x, unit.y);
            unit.x += dir.0 * d;
            unit.y += dir.1 * d;
            let end = (unit.x, unit.y);
            log.push_because(
                EventKind::Move {
                    unit: unit.id.clone(),
                    reason: MoveReason::Disorder,
                    from: cm(start),
                    to: cm(end),
                    path: vec![cm(start), cm(end)],
                },
                &by,
            );
            self.refile(ctx, table, u);
            return;
        }
        let side = table.units[u].side;
        let blocker = first.filter(|&j| table.units[j].side == side && table.units[j].state == State::FU);
        // Blocked: the flight follows from the same shake as the retreat.
        let fled = self.enter_fu(ctx, table, log, u, cause, turn, &by);
        self.queue.push_back(Job::Flight { unit: u, from: None, blocker, by: fled });
    }

    /// Whether unit `u`, shaken into U now by a cause standing at `from`
    /// (its own rear when none), would find its retreat blocked and flee
    /// instead: the rule the retreat itself follows ([`FsEngine::retreat`]),
    /// asked without moving anything (docs/rules.md 2.3). The AI weighs a
    /// melee by it.
    pub fn retreat_blocked(&mut self, ctx: &FsCtx, table: &Table, u: usize, from: Option<(f32, f32)>) -> bool {
        self.retreat_way(ctx, table, u, from).0.is_none()
    }

    /// The way unit `u`'s U retreat from `from` goes (`None` when anything
    /// blocks it), and the first unit in that way, if any.
    fn retreat_way(
        &mut self,
        ctx: &FsCtx,
        table: &Table,
        u: usize,
        from: Option<(f32, f32)>,
    ) -> (Option<(f32, f32)>, Option<usize>) {
        let unit = &table.units[u];
        let base = match from {
            Some((cx, cy)) if (unit.x - cx).hypot(unit.y - cy) > EPS => bearing_of(unit.x - cx, unit.y - cy),
            _ => ctx.rear_bearing(unit.side),
        };
        let dir = bearing_vector(base);
        let d = ctx.ba().u_retreat_cm;
        let rect = self.rects[u];
        let a = rect.aabb();
        let mut near = std::mem::take(&mut self.near);
        self.broad.query((a.0 - d, a.1 - d, a.2 + d, a.3 + d), &mut near);
        self.near = near;
        let mut first: Option<(usize, f32)> = None;
        for &j in &self.near {
            if j != u
                && let Some(t) = rect.time_of_impact(dir, d, &self.rects[j])
                && first.is_none_or(|f| t < f.1)
            {
                first = Some((j, t));
            }
        }
        let walk = self.walk(ctx, table, &[u], dir, d, d, false).0;
        let way = (first.is_none() && walk >= d - EPS).then_some(dir);
        (way, first.map(|f| f.0))
    }
}
