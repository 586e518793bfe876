//! Victory in free space (docs/rules.md 2.11): objective areas, army
//! morale and the score. Pure functions of the scenario, the table and
//! what the battle recorded.

use crate::belle_alliance::{FsCtx, Table};
use crate::report::counted;
use crate::vocab::State;

/// The centre of each objective's area (cm): the middle of its cell.
pub fn objective_centres(ctx: &FsCtx) -> Vec<(f32, f32)> {
    ctx.objectives.iter().map(|o| ((o.at.c as f32 + 0.5) * ctx.cell_cm, (o.at.r as f32 + 0.5) * ctx.cell_cm)).collect()
}

/// Whether a unit's centre at `at` stands in the objective area about
/// `centre`: within `objective_radius_cm` of it (2.11).
pub fn in_area(ctx: &FsCtx, at: (f32, f32), centre: (f32, f32)) -> bool {
    (at.0 - centre.0).hypot(at.1 - centre.1) <= ctx.ba().victory.objective_radius_cm
}

/// Who stands in each objective's area: a side with a unit in order, LU or
/// U whose centre is inside it and no such enemy. An empty or contested
/// area, or one with only fleeing units, keeps its holder.
pub fn update_holders(ctx: &FsCtx, table: &Table, holders: &mut [Option<usize>]) {
    for (o, c) in objective_centres(ctx).into_iter().enumerate() {
        let mut there = [false; 2];
        for u in &table.units {
            if u.state != State::FU && in_area(ctx, (u.x, u.y), c) && u.side < 2 {
                there[u.side] = true;
            }
        }
        match there {
            [true, false] => holders[o] = Some(0),
            [false, true] => holders[o] = Some(1),
            _ => {}
        }
    }
}

/// Whether `side`'s army has broken: at least `army_breaks_at` of its units
/// in FU. A side with no units never breaks.
pub fn army_broken(ctx: &FsCtx, table: &Table, side: usize) -> bool {
    let (mut n, mut fled) = (0, 0);
    for u in table.units.iter().filter(|u| u.side == side) {
        n += 1;
        fled += usize::from(u.state == State::FU);
    }
    n > 0 && fled as f32 >= ctx.ba().victory.army_breaks_at * n as f32
}

/// Units of `side` in FU, and how many it has.
pub fn fled(table: &Table, side: usize) -> (u32, u32) {
    let of = table.units.iter().filter(|u| u.side == side);
    (of.clone().filter(|u| u.state == State::FU).count() as u32, of.count() as u32)
}

/// The score: objectives held, enemy figures lost, enemy guns captured;
/// who wins (an army broken loses outright to one that has not, else the
/// points; equal points are a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FsScore {
    pub points: Vec<u32>,
    pub detail: Vec<String>,
    pub winner: Option<usize>,
    pub decisive: bool,
}

impl FsScore {
    /// The score in words, as the end-of-battle summary prints it.
    pub fn words(&self, sides: &[crate::scenario::Side]) -> String {
        let name = |s: usize| sides.get(s).map_or("?", |x| x.name.as_str());
        let pts: Vec<String> = self.points.iter().enumerate().map(|(s, p)| format!("{} {p}", name(s))).collect();
        let mut out = format!("Score: {}\n", pts.join(", "));
        for d in &self.detail {
            out += &format!("  {d}\n");
        }
        out += &match (self.winner, self.decisive) {
            (Some(w), true) => format!("  winner: {}, outright (the enemy army has broken)\n", name(w)),
            (Some(w), false) => format!("  winner: {}, on points\n", name(w)),
            (None, _) => "  result: a draw\n".to_owned(),
        };
        out
    }
}

pub fn score(ctx: &FsCtx, table: &Table, holders: &[Option<usize>], captured: &[bool], broken: &[bool]) -> FsScore {
    let v = &ctx.ba().victory;
    let sides = ctx.sides.len();
    let mut points = vec![0u32; sides];
    let mut detail = Vec::new();
    for (o, h) in ctx.objectives.iter().zip(holders) {
        if let Some(s) = *h
            && s < sides
        {
            points[s] += o.points;
            detail.push(format!("{}: {} ({})", ctx.sides[s].id, o.name, counted(o.points, "point")));
        }
    }
    let mut lost = vec![0u32; sides];
    let mut guns = vec![0u32; sides];
    for (i, u) in table.units.iter().enumerate() {
        let start = ctx.units.get(i).map_or(u.figures, |s| s.strength);
        if u.side < sides {
            lost[u.side] += start.saturating_sub(u.figures);
            guns[u.side] += u32::from(captured.get(i) == Some(&true));
        }
    }
    for (s, side_points) in points.iter_mut().enumerate() {
        let other = 1 - s.min(1);
        if other >= sides {
            continue;
        }
        let fig = lost[other] / v.figures_per_point.max(1);
        let g = guns[other] * v.captured_guns_points;
        *side_points += fig + g;
        detail.push(format!(
            "{}: {} lost by the enemy ({})",
            ctx.sides[s].id,
            counted(lost[other], "figure"),
            counted(fig, "point")
        ));
        if guns[other] > 0 {
            detail.push(format!(
                "{}: {} taken ({})",
                ctx.sides[s].id,
                if guns[other] == 1 {
                    "1 enemy battery".to_owned()
                } else {
                    format!("{} enemy batteries", guns[other])
                },
                counted(g, "point")
            ));
        }
    }
    let is_broken = |s: usize| broken.get(s) == Some(&true);
    let (winner, decisive) = match (is_broken(0), is_broken(1)) {
        (true, false) => (Some(1), true),
        (false, true) => (Some(0), true),
        _ if sides == 2 && points[0] != points[1] => (Some(if points[0] > points[1] { 0 } else { 1 }), false),
        _ => (None, false),
    };
    FsScore { points, detail, winner, decisive }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belle_alliance::testing::{table_of, unit};
    use crate::terrain::Arm;

    #[test]
    fn an_army_with_half_its_units_fleeing_has_broken() {
        let (s, mut t) = table_of(vec![
            unit("a1", 0, Arm::Infantry, 50.0, 150.0, 0.0),
            unit("a2", 0, Arm::Infantry, 100.0, 150.0, 0.0),
            unit("b1", 1, Arm::Infantry, 50.0, 50.0, 180.0),
        ]);
        let ctx = FsCtx::new(&s);
        assert!(!army_broken(&ctx, &t, 0));
        t.units[0].state = State::FU;
        assert!(army_broken(&ctx, &t, 0), "one of two is half");
        assert!(!army_broken(&ctx, &t, 1));
        let sc = score(&ctx, &t, &[], &[false; 3], &[true, false]);
        assert_eq!((sc.winner, sc.decisive), (Some(1), true));
    }

    #[test]
    fn figures_lost_and_guns_taken_score_for_the_enemy() {
        let (s, mut t) = table_of(vec![
            unit("a1", 0, Arm::Infantry, 50.0, 150.0, 0.0),
            unit("g", 0, Arm::Artillery, 100.0, 150.0, 0.0),
            unit("b1", 1, Arm::Infantry, 50.0, 50.0, 180.0),
        ]);
        let ctx = FsCtx::new(&s);
        t.units[0].figures = 4; // 20 of 24 lost: 2 points
        let sc = score(&ctx, &t, &[], &[false, true, false], &[false, false]);
        assert_eq!(sc.points, vec![0, 2 + 5]);
        assert_eq!((sc.winner, sc.decisive), (Some(1), false));
    }
}
