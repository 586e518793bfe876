//! Routes on a table for the free-space AI at `Normal` (docs/rules.md
//! 2.12): the cheapest way over the table's cells from a unit to where it
//! makes for, round what its arm may not enter (a brook crossed at its
//! bridges and fords), each cell costed as the march rules cost it (2.7:
//! reducing terrain at `1 / terrain_reduction`); and the first point of
//! that way that a straight march can make for, the route pulled tight.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::belle_alliance::FsCtx;
use crate::hex::Offset;
use crate::terrain::Arm;

/// A cell's cost in thousandths of a cell's width, so the search works in
/// whole numbers (and breaks ties the same way on every machine).
const SCALE: f32 = 1000.0;

/// The cells of the table, with what entering each costs `arm` (`None`:
/// it may not).
struct Cells {
    width: i32,
    height: i32,
    cost: Vec<Option<u32>>,
}

impl Cells {
    fn new(ctx: &FsCtx, arm: Arm) -> Self {
        let (width, height) = (ctx.map.width.max(0), ctx.map.height.max(0));
        let reduce = ctx.ba().terrain_reduction.max(0.01);
        let cost = (0..height)
            .flat_map(|r| (0..width).map(move |c| Offset::new(c, r)))
            .map(|at| {
                let t = ctx.map.terrain(at)?;
                ctx.passable(t, arm).then(|| {
                    let slow = if ctx.ba().reducing_terrain.contains(&t) { 1.0 / reduce } else { 1.0 };
                    (SCALE * slow).round() as u32
                })
            })
            .collect();
        Self { width, height, cost }
    }

    fn index(&self, c: i32, r: i32) -> Option<usize> {
        (c >= 0 && r >= 0 && c < self.width && r < self.height).then(|| (r * self.width + c) as usize)
    }

    fn open(&self, c: i32, r: i32) -> bool {
        self.index(c, r).is_some_and(|i| self.cost[i].is_some())
    }
}

/// The cell a point (cm) lies in.
fn cell_of(ctx: &FsCtx, p: (f32, f32)) -> (i32, i32) {
    ((p.0 / ctx.cell_cm).floor() as i32, (p.1 / ctx.cell_cm).floor() as i32)
}

fn centre(ctx: &FsCtx, c: (i32, i32)) -> (f32, f32) {
    ((c.0 as f32 + 0.5) * ctx.cell_cm, (c.1 as f32 + 0.5) * ctx.cell_cm)
}

/// Whether the straight line from `a` to `b` (cm) crosses only cells
/// `arm` may enter, looked at every quarter cell.
fn clear(ctx: &FsCtx, cells: &Cells, a: (f32, f32), b: (f32, f32)) -> bool {
    let d = (b.0 - a.0).hypot(b.1 - a.1);
    let steps = (d / (ctx.cell_cm / 4.0)).ceil().max(1.0) as usize;
    (0..=steps).all(|k| {
        let t = k as f32 / steps as f32;
        let (c, r) = cell_of(ctx, (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
        cells.open(c, r)
    })
}

/// The cheapest way of cells from `from` to `to` for `arm` (8 neighbours,
/// a diagonal only between two open sides), start first; `None` when no
/// way leads there.
fn way(cells: &Cells, from: (i32, i32), to: (i32, i32)) -> Option<Vec<(i32, i32)>> {
    let start = cells.index(from.0, from.1)?;
    let goal = cells.index(to.0, to.1)?;
    cells.cost[goal]?;
    let mut dist = vec![u32::MAX; cells.cost.len()];
    let mut came = vec![usize::MAX; cells.cost.len()];
    let mut heap = BinaryHeap::new();
    dist[start] = 0;
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((d, i))) = heap.pop() {
        if i == goal {
            break;
        }
        if d > dist[i] {
            continue;
        }
        let (c, r) = ((i as i32) % cells.width, (i as i32) / cells.width);
        for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let (nc, nr) = (c + dc, r + dr);
            let Some(n) = cells.index(nc, nr) else { continue };
            let Some(step) = cells.cost[n] else { continue };
            let diagonal = dc != 0 && dr != 0;
            if diagonal && !(cells.open(c + dc, r) && cells.open(c, r + dr)) {
                continue;
            }
            let step = if diagonal { (step as f32 * std::f32::consts::SQRT_2).round() as u32 } else { step };
            let nd = d.saturating_add(step);
            if nd < dist[n] {
                dist[n] = nd;
                came[n] = i;
                heap.push(Reverse((nd, n)));
            }
        }
    }
    if dist[goal] == u32::MAX {
        return None;
    }
    let mut out = vec![to];
    let mut i = goal;
    while i != start {
        i = came[i];
        out.push(((i as i32) % cells.width, (i as i32) / cells.width));
    }
    out.reverse();
    Some(out)
}

/// Where a unit of `arm` at `from` should march on its way to `to` (cm):
/// `to` itself when the straight line there is open, else the farthest
/// point of the cheapest way round that a straight march from `from`
/// reaches over open cells. `None` when no way leads there (or `from` is
/// off the table), so the caller marches straight as before.
pub fn waypoint(ctx: &FsCtx, arm: Arm, from: (f32, f32), to: (f32, f32)) -> Option<(f32, f32)> {
    let cells = Cells::new(ctx, arm);
    if clear(ctx, &cells, from, to) {
        return Some(to);
    }
    let path = way(&cells, cell_of(ctx, from), cell_of(ctx, to))?;
    // The farthest cell of the way a straight line reaches (the first
    // always does: it is the unit's own).
    let far = (1..path.len()).rev().find(|&k| clear(ctx, &cells, from, centre(ctx, path[k]))).unwrap_or(0);
    Some(if far + 1 == path.len() { to } else { centre(ctx, path[far]) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of 10 cm cells from rows in the default legend (`.` clear,
    /// `~` river, `=` bridge, `w` woods).
    fn scenario(rows: &[&str]) -> crate::scenario::Scenario {
        let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\",")).collect();
        let text = format!(
            r#"(format: 1, name: "t", mode: FreeSpace, turns: 2,
            map: (rows: [{}], cell_cm: 10.0),
            sides: [(id: "a", rear: South), (id: "b", rear: North)],
            units: [(id: "a1", side: "a", arm: Infantry, pos: (15.0, 85.0), figures: 12, valour: 0),
                    (id: "b1", side: "b", arm: Infantry, pos: (15.0, 5.0), figures: 12, valour: 0)])"#,
            rows.join("")
        );
        crate::scenario::parse(&text, "t.ron").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn an_open_table_is_marched_straight_across() {
        let s = scenario(&["......"; 9]);
        let ctx = FsCtx::new(&s);
        assert_eq!(waypoint(&ctx, Arm::Infantry, (15.0, 85.0), (45.0, 5.0)), Some((45.0, 5.0)));
    }

    #[test]
    fn a_brook_is_crossed_at_its_bridge() {
        // The brook across row 4, its bridge in column 5: from the bottom
        // left to the top left the way goes by the bridge.
        let mut rows = vec!["......"; 9];
        rows[4] = "~~~~~=";
        let s = scenario(&rows);
        let ctx = FsCtx::new(&s);
        let p = waypoint(&ctx, Arm::Infantry, (15.0, 85.0), (15.0, 5.0)).expect("a way by the bridge");
        // The first leg makes for the bridge's side of the table, short of
        // the brook: the straight line there crosses no river cell.
        assert!(p.0 > 30.0 && p.1 >= 40.0, "heads for the bridge: {p:?}");
        let s2 = scenario(&rows);
        let cells = Cells::new(&FsCtx::new(&s2), Arm::Infantry);
        assert!(clear(&ctx, &cells, (15.0, 85.0), p), "a straight march reaches it");
        assert!(!clear(&ctx, &cells, (15.0, 85.0), (15.0, 5.0)), "the straight line crosses the brook");
        // With no bridge, no way.
        rows[4] = "~~~~~~";
        let s = scenario(&rows);
        assert_eq!(waypoint(&FsCtx::new(&s), Arm::Infantry, (15.0, 85.0), (15.0, 5.0)), None);
    }

    #[test]
    fn woods_cost_as_the_march_rules_cost_them() {
        // A belt of woods with a gap at its right end, two cells round:
        // at half rate the woods cost twice as much, so the cheapest way
        // goes round by the gap rather than through.
        let mut rows = vec!["......"; 9];
        rows[4] = "wwwww.";
        rows[5] = "wwwww.";
        let s = scenario(&rows);
        let ctx = FsCtx::new(&s);
        let cells = Cells::new(&ctx, Arm::Infantry);
        assert_eq!(cells.cost[cells.index(0, 4).expect("a cell")], Some(2000), "woods at half rate");
        let path = way(&cells, (4, 8), (4, 0)).expect("a way");
        assert!(path.iter().all(|&(c, r)| !(4..=5).contains(&r) || c == 5), "round by the gap: {path:?}");
    }
}
