//! How far a unit or a fleeing mass may slide along a line: the enemies in
//! the way (broad phase, then time of impact), the table's edge, ground it
//! may not enter and ground that slows it (2.2.3, 2.2.6, 2.6).

use crate::belle_alliance::broad::BroadPhaseKind;
use crate::belle_alliance::engine::{EPS, FsEngine, STEP_CM, overlap};
use crate::belle_alliance::geometry::OrientedRect;
use crate::belle_alliance::tables::pushed_back;
use crate::belle_alliance::{FsCtx, Table};
use crate::hex::Offset;
use crate::terrain::Arm;

impl FsEngine {
    /// How far unit `u` may slide along `dir` (at most `max`) before it
    /// touches an enemy (2.2.6: an enemy that is not pushed back stops it;
    /// one in U or FU has been, and the flight passes it). Candidates come
    /// from the last broad-phase query.
    pub(super) fn hard_stop(&self, table: &Table, u: usize, dir: (f32, f32), max: f32) -> f32 {
        let side = table.units[u].side;
        let rect = self.rects[u];
        let swept = self.swept_box(u, dir, max);
        let mut limit = max;
        for &j in &self.near {
            if table.units[j].side != side
                && !pushed_back(table.units[j].state)
                && self.may_touch(j, swept)
                && let Some(t) = rect.time_of_impact(dir, limit, &self.rects[j])
            {
                limit = limit.min(t);
            }
        }
        limit
    }

    /// The box swept by unit `u` sliding `dist` along `dir`.
    pub(super) fn swept_box(&self, u: usize, dir: (f32, f32), dist: f32) -> (f32, f32, f32, f32) {
        let a = self.boxes[u];
        let (dx, dy) = (dir.0 * dist, dir.1 * dist);
        (a.0 + dx.min(0.0), a.1 + dy.min(0.0), a.2 + dx.max(0.0), a.3 + dy.max(0.0))
    }

    /// Broad phase, last step: with the grid, a unit whose box misses the
    /// swept box cannot be touched and skips the time-of-impact test. Without
    /// a broad phase every pair goes to the narrow phase.
    pub(super) fn may_touch(&self, j: usize, swept: (f32, f32, f32, f32)) -> bool {
        self.broad.kind == BroadPhaseKind::AllPairs || overlap(self.boxes[j], swept)
    }

    /// Walks the mass along `dir` for a march of `march` cm, stopping at
    /// `limit`, at the table edge, or before the leader's prohibited terrain;
    /// with `reduce`, every centimetre in which any part of any unit of the
    /// mass is in reducing terrain costs `1 / terrain_reduction` (2.2.3,
    /// 2.6). Returns the distance made good and the march left.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    pub(super) fn walk(
        &mut self,
        ctx: &FsCtx,
        table: &Table,
        mass: &[usize],
        dir: (f32, f32),
        march: f32,
        limit: f32,
        reduce: bool,
    ) -> (f32, f32) {
        let ba = ctx.ba();
        let arm = table.units[mass[0]].moving_arm();
        let (w, h) = ctx.table_cm();
        // The table edge stops the leader where its box would leave the
        // table: found exactly, not by stepping.
        let a = self.boxes[mass[0]];
        let mut limit = limit;
        for (d, lo, hi, size) in [(dir.0, a.0, a.2, w), (dir.1, a.1, a.3, h)] {
            if d > EPS {
                limit = limit.min(((size - hi) / d).max(0.0));
            } else if d < -EPS {
                limit = limit.min((lo / -d).max(0.0));
            }
        }
        // Fast path: nothing but open, passable ground under the whole sweep.
        let mut bb = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &m in mass {
            let b = self.swept_box(m, dir, limit);
            bb = (bb.0.min(b.0), bb.1.min(b.1), bb.2.max(b.2), bb.3.max(b.3));
        }
        let inside = (bb.0.max(0.0), bb.1.max(0.0), bb.2.min(w), bb.3.min(h));
        if self.all_open(ctx, inside, arm) {
            let go = limit.min(march);
            return (go, march - go);
        }
        let lead = self.rects[mass[0]];
        let mut t = 0.0f32;
        let mut budget = march;
        while t < limit - EPS && budget > EPS {
            let step = STEP_CM.min(limit - t);
            let next = t + step;
            let r = lead.shifted(dir.0 * next, dir.1 * next);
            let a = r.aabb();
            if a.0 < -EPS || a.1 < -EPS || a.2 > w + EPS || a.3 > h + EPS || !self.rect_passable(ctx, &r, arm) {
                break;
            }
            let mut reducing = false;
            if reduce {
                for &m in mass {
                    let r = self.rects[m].shifted(dir.0 * next, dir.1 * next);
                    if self.rect_reducing(ctx, &r) {
                        reducing = true;
                        break;
                    }
                }
            }
            let rate = if reducing { ba.terrain_reduction } else { 1.0 };
            if rate <= 0.0 {
                break;
            }
            let cost = step / rate;
            if cost > budget {
                t += budget * rate;
                budget = 0.0;
                break;
            }
            budget -= cost;
            t = next;
        }
        (t, budget)
    }

    /// Every cell under the box is passable for `arm` and not reducing.
    fn all_open(&self, ctx: &FsCtx, bb: (f32, f32, f32, f32), arm: Arm) -> bool {
        let c = ctx.cell_cm;
        let (c0, r0) = ((bb.0 / c) as i32, (bb.1 / c) as i32);
        let (c1, r1) = (((bb.2 - EPS) / c) as i32, ((bb.3 - EPS) / c) as i32);
        for r in r0..=r1 {
            for col in c0..=c1 {
                match ctx.map.terrain(Offset::new(col, r)) {
                    Some(t) if ctx.passable(t, arm) && !ctx.ba().reducing_terrain.contains(&t) => {}
                    _ => return false,
                }
            }
        }
        true
    }

    pub(super) fn rect_passable(&mut self, ctx: &FsCtx, r: &OrientedRect, arm: Arm) -> bool {
        r.sample_points(ctx.cell_cm / 2.0, &mut self.pts);
        self.pts.iter().all(|&(x, y)| ctx.terrain_at(x, y).is_some_and(|t| ctx.passable(t, arm)))
    }

    fn rect_reducing(&mut self, ctx: &FsCtx, r: &OrientedRect) -> bool {
        r.sample_points(ctx.cell_cm / 2.0, &mut self.pts);
        self.pts.iter().any(|&(x, y)| ctx.terrain_at(x, y).is_some_and(|t| ctx.ba().reducing_terrain.contains(&t)))
    }
}
