//! Routes on a table for the free-space AI at `Normal` (docs/rules.md
//! 2.12): the cheapest way over the table's cells from a unit to where it
//! makes for, round what its arm may not enter (a brook crossed at its
//! bridges and fords), each cell costed as the march rules cost it (2.7:
//! reducing terrain at `1 / terrain_reduction`); and the first point of
//! that way that a straight march can make for, the route pulled tight.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::belle_alliance::FsCtx;
use crate::belle_alliance::geometry::SAMPLE_INSET_CM;
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
            .flat_map(|r| (0..width).map(move |c| (c, r)))
            .map(|(c, r)| {
                let t = open_terrain(ctx, arm, c, r)?;
                let slow = if ctx.ba().reducing_terrain.contains(&t) { 1.0 / reduce } else { 1.0 };
                Some((SCALE * slow).round() as u32)
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

/// The terrain of cell `(c, r)` when it is on the table and `arm` may
/// enter it.
fn open_terrain(ctx: &FsCtx, arm: Arm, c: i32, r: i32) -> Option<crate::terrain::Terrain> {
    if c < 0 || r < 0 || c >= ctx.map.width || r >= ctx.map.height {
        return None;
    }
    ctx.map.terrain(Offset::new(c, r)).filter(|&t| ctx.passable(t, arm))
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
fn clear(ctx: &FsCtx, arm: Arm, a: (f32, f32), b: (f32, f32)) -> bool {
    clear_for(ctx, arm, a, b, 0.0)
}

/// Whether a footprint `half_width` cm either side of its centre, marching
/// straight from `a` to `b`, crosses only cells `arm` may enter: the centre
/// line and the two lines of its flanks, every quarter cell. (It reads the
/// map itself: most marches are straight, and need no grid of costs.)
fn clear_for(ctx: &FsCtx, arm: Arm, a: (f32, f32), b: (f32, f32), half_width: f32) -> bool {
    let d = (b.0 - a.0).hypot(b.1 - a.1);
    let steps = (d / (ctx.cell_cm / 4.0)).ceil().max(1.0) as usize;
    // The flanks, square to the line (none for a point or no width).
    let (nx, ny) = if d > 0.0 { (-(b.1 - a.1) / d, (b.0 - a.0) / d) } else { (0.0, 0.0) };
    let sides: &[f32] = if half_width > 0.0 && d > 0.0 { &[0.0, 1.0, -1.0] } else { &[0.0] };
    // A flank is looked at a hair inside the front, as the march's own
    // check looks at a footprint: one that runs exactly along a closed
    // cell's edge (a front led onto a bridge just wide enough) is on open
    // ground.
    let inset = (half_width - SAMPLE_INSET_CM).max(0.0);
    sides.iter().all(|&side| {
        let (ox, oy) = (nx * inset * side, ny * inset * side);
        (0..=steps).all(|k| {
            let t = k as f32 / steps as f32;
            let (c, r) = cell_of(ctx, (a.0 + (b.0 - a.0) * t + ox, a.1 + (b.1 - a.1) * t + oy));
            open_terrain(ctx, arm, c, r).is_some()
        })
    })
}

/// The point of the way's cell `k` a footprint `half_width` cm either side
/// of its centre makes for: the cell's centre, moved across the way's
/// direction there to keep that far from the closed cells either side of
/// it, and of the cells before and after it on the way when the way runs
/// on the same way (so it comes to a bridge or a ford lined up on it, and
/// leaves it straight); to the middle of a passage too narrow for that.
fn passage_point(ctx: &FsCtx, cells: &Cells, path: &[(i32, i32)], k: usize, half_width: f32) -> (f32, f32) {
    let mid = centre(ctx, path[k]);
    let Some(across_row) = across(path, k) else { return mid };
    if half_width <= 0.0 {
        return mid;
    }
    let (mut low, mut high) = span(ctx, cells, path[k], across_row);
    for j in [k.checked_sub(1), Some(k + 1)].into_iter().flatten() {
        if j < path.len() && across(path, j) == Some(across_row) {
            let (l, h) = span(ctx, cells, path[j], across_row);
            (low, high) = (low.max(l), high.min(h));
        }
    }
    let here = if across_row { mid.0 } else { mid.1 };
    let moved = if high - low <= 2.0 * half_width {
        (low + high) / 2.0
    } else {
        here.clamp(low + half_width, high - half_width)
    };
    if across_row { (moved, mid.1) } else { (mid.0, moved) }
}

/// Which way to look across the way at its cell `k`: along the row (`true`)
/// when the way runs up or down the table there, along the column when it
/// runs across; `None` on a diagonal.
fn across(path: &[(i32, i32)], k: usize) -> Option<bool> {
    let before = path[k.saturating_sub(1)];
    let after = path[(k + 1).min(path.len() - 1)];
    let (dc, dr) = (after.0 - before.0, after.1 - before.1);
    (dc.abs() != dr.abs()).then_some(dr.abs() > dc.abs())
}

/// The open run (cm) through `cell` along its row (`along_row`) or column,
/// at most eight cells either way.
fn span(ctx: &FsCtx, cells: &Cells, (c, r): (i32, i32), along_row: bool) -> (f32, f32) {
    let (lo, hi) = open_run((c, r), along_row, |c, r| cells.open(c, r));
    (lo as f32 * ctx.cell_cm, (hi + 1) as f32 * ctx.cell_cm)
}

/// The first and last cells of the open run through `(c, r)` along its
/// row (`along_row`) or column, at most eight cells either way.
fn open_run((c, r): (i32, i32), along_row: bool, open: impl Fn(i32, i32) -> bool) -> (i32, i32) {
    let open = |i: i32| if along_row { open(i, r) } else { open(c, i) };
    let at = if along_row { c } else { r };
    let (mut lo, mut hi) = (at, at);
    while open(lo - 1) && at - lo < 8 {
        lo -= 1;
    }
    while open(hi + 1) && hi - at < 8 {
        hi += 1;
    }
    (lo, hi)
}

/// Whether the ground `arm` may enter runs farther up and down the table
/// than across it through the cell at `p` (cm): which way a bridge there
/// runs, between the closed cells at either side of it.
pub fn runs_up_and_down(ctx: &FsCtx, arm: Arm, p: (f32, f32)) -> bool {
    let cell = cell_of(ctx, p);
    let open = |c, r| open_terrain(ctx, arm, c, r).is_some();
    let length = |along_row| {
        let (lo, hi) = open_run(cell, along_row, open);
        hi - lo
    };
    length(false) >= length(true)
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
    Ways::default().waypoints(ctx, arm, from, to, 0.0).first().copied()
}

/// Whether a footprint `half_width` cm either side of its centre, marching
/// straight from `from` to `to`, would cross ground `arm` may not enter (a
/// brook between them, or a bridge narrower than its front).
pub fn barred(ctx: &FsCtx, arm: Arm, from: (f32, f32), to: (f32, f32), half_width: f32) -> bool {
    !clear_for(ctx, arm, from, to, half_width)
}

/// The legs of a way ([`Ways::legs`]): the points the whole width
/// reaches, best first, and, when it reaches none, the first cell of the
/// way at its [`passage_point`] (`None` when it reaches some, or no way
/// leads there).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legs {
    pub reached: Vec<(f32, f32)>,
    pub first: Option<(f32, f32)>,
}

/// The table's cells as each arm may cross them, built the first time a
/// way round is looked for and kept while the ground stays the same (the
/// AI keeps one for a movement phase): a table of 1,000 units had built
/// the grid for every unit that marched, most of them straight.
#[derive(Default)]
pub struct Ways {
    cells: [std::cell::OnceCell<Cells>; 3],
}

impl Ways {
    fn cells(&self, ctx: &FsCtx, arm: Arm) -> &Cells {
        let slot = match arm {
            Arm::Infantry => 0,
            Arm::Cavalry => 1,
            Arm::Artillery => 2,
        };
        self.cells[slot].get_or_init(|| Cells::new(ctx, arm))
    }

    /// The points a footprint of `arm`, `half_width` cm either side of its
    /// centre at `from`, may march straight on along its way to `to`, best
    /// first: `to` when its whole width passes there, else the way's cells
    /// that it reaches, farthest first, each at its [`passage_point`]; the
    /// first cell of the way when it reaches none. Empty when no way leads
    /// there.
    pub fn waypoints(
        &self,
        ctx: &FsCtx,
        arm: Arm,
        from: (f32, f32),
        to: (f32, f32),
        half_width: f32,
    ) -> Vec<(f32, f32)> {
        let Legs { mut reached, first } = self.legs(ctx, arm, from, to, half_width);
        reached.extend(first);
        reached
    }

    /// [`Ways::waypoints`] in two parts ([`Legs`]).
    pub fn legs(&self, ctx: &FsCtx, arm: Arm, from: (f32, f32), to: (f32, f32), half_width: f32) -> Legs {
        if clear_for(ctx, arm, from, to, half_width) {
            return Legs { reached: vec![to], first: None };
        }
        let cells = self.cells(ctx, arm);
        let Some(path) = way(cells, cell_of(ctx, from), cell_of(ctx, to)) else { return Legs::default() };
        let point = |k: usize| if k + 1 == path.len() { to } else { passage_point(ctx, cells, &path, k, half_width) };
        let reached: Vec<(f32, f32)> = (1..path.len())
            .rev()
            .map(|k| (k, point(k)))
            .filter(|&(k, p)| {
                // The way's own cell centre must be in sight of the centre,
                // as before; the point must be in reach of the whole width.
                clear(ctx, arm, from, centre(ctx, path[k]))
                    && (half_width <= 0.0 || clear_for(ctx, arm, from, p, half_width))
            })
            .map(|(_, p)| p)
            .collect();
        let first = reached.is_empty().then(|| point(0));
        Legs { reached, first }
    }
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
    fn one_ways_builds_each_arms_cells_once_and_none_for_a_straight_march() {
        // A belt of woods with a gap at its right end: foot marches
        // straight through it, guns (which may not enter woods) go round.
        let rows = ["......", "......", "......", "......", "wwwww.", "......", "......", "......", "......"];
        let s = scenario(&rows);
        let ctx = FsCtx::new(&s);
        let (from, to) = ((15.0, 85.0), (15.0, 5.0));
        let ways = Ways::default();
        assert_eq!(ways.legs(&ctx, Arm::Infantry, from, to, 0.0), Legs { reached: vec![to], first: None });
        assert!(ways.cells.iter().all(|c| c.get().is_none()), "a straight march builds no grid");
        let guns = ways.legs(&ctx, Arm::Artillery, from, to, 0.0);
        assert!(guns.reached.first().is_some_and(|p| p.0 > 50.0), "the guns make for the gap: {guns:?}");
        assert!(ways.cells[2].get().is_some() && ways.cells[0].get().is_none(), "the guns' grid only");
        // The kept grid gives what a fresh one gives, and the foot's own
        // grid is its own (woods open to it).
        assert_eq!(ways.legs(&ctx, Arm::Artillery, from, to, 0.0), guns);
        assert_eq!(Ways::default().legs(&ctx, Arm::Artillery, from, to, 0.0), guns);
        assert!(ways.cells(&ctx, Arm::Infantry).open(0, 4) && !ways.cells(&ctx, Arm::Artillery).open(0, 4));
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
        assert!(clear(&ctx, Arm::Infantry, (15.0, 85.0), p), "a straight march reaches it");
        assert!(!clear(&ctx, Arm::Infantry, (15.0, 85.0), (15.0, 5.0)), "the straight line crosses the brook");
        // With no bridge, no way.
        rows[4] = "~~~~~~";
        let s = scenario(&rows);
        assert_eq!(waypoint(&FsCtx::new(&s), Arm::Infantry, (15.0, 85.0), (15.0, 5.0)), None);
    }

    #[test]
    fn a_front_wider_than_half_a_bridge_is_led_onto_its_middle_line() {
        // A bridge two cells wide (x 20-40 cm) on row 4: a front 16 cm
        // wide fits only within 2 cm of x = 30, which the middle of either
        // bridge cell (25 or 35) misses.
        let mut rows = vec!["......"; 9];
        rows[4] = "~~==~~";
        let s = scenario(&rows);
        let ctx = FsCtx::new(&s);
        let cells = Cells::new(&ctx, Arm::Infantry);
        let from = (15.0, 85.0);
        let legs = Ways::default().waypoints(&ctx, Arm::Infantry, from, (15.0, 5.0), 8.0);
        assert!(!legs.is_empty(), "a way");
        for &p in &legs {
            assert!(clear_for(&ctx, Arm::Infantry, from, p, 8.0), "the whole front reaches {p:?}");
        }
        // Every point of the way on the bridge's rows and beside it is on
        // its middle line.
        let path = way(&cells, cell_of(&ctx, from), cell_of(&ctx, (15.0, 5.0))).expect("a way");
        for k in 1..path.len() - 1 {
            if (3..=5).contains(&path[k].1) {
                let p = passage_point(&ctx, &cells, &path, k, 8.0);
                assert!((28.0..=32.0).contains(&p.0), "cell {:?} is made for at {p:?}", path[k]);
            }
        }
        // A point has no width: the way's cell centres, as before.
        assert_eq!(
            Ways::default().waypoints(&ctx, Arm::Infantry, from, (15.0, 5.0), 0.0).first().copied(),
            waypoint(&ctx, Arm::Infantry, from, (15.0, 5.0))
        );
    }

    #[test]
    fn a_front_exactly_as_wide_as_the_gap_beside_a_closed_cell_passes_along_its_edge() {
        // A bridge two cells wide (x 20-40 cm) on row 4; a front 16 cm wide
        // whose right flank runs exactly along the bridge's east edge (its
        // centre at x = 32) stays on the bridge, as the march's own check
        // has it: the way's passage points put flanks on such edges. A
        // centimetre farther east it is over the brook.
        let mut rows = vec!["......"; 9];
        rows[4] = "~~==~~";
        let s = scenario(&rows);
        let ctx = FsCtx::new(&s);
        assert!(clear_for(&ctx, Arm::Infantry, (32.0, 60.0), (32.0, 30.0), 8.0), "the flank on the edge passes");
        assert!(!barred(&ctx, Arm::Infantry, (32.0, 60.0), (32.0, 30.0), 8.0));
        assert!(!clear_for(&ctx, Arm::Infantry, (33.0, 60.0), (33.0, 30.0), 8.0), "a centimetre over does not");
        assert!(barred(&ctx, Arm::Infantry, (33.0, 60.0), (33.0, 30.0), 8.0));
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
