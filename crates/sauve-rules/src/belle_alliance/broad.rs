//! Broad phase: which units are near enough to a flight to be worth a
//! time-of-impact test. A uniform grid of buckets over the table, each
//! holding the units whose bounding box touches it; kept up to date as units
//! move. `AllPairs` (no broad phase) exists for the benchmark's comparison
//! and for tests that check both give the same battle.

/// How flights find the units they might meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseKind {
    /// A uniform grid of buckets (the default).
    Grid,
    /// Every unit is a candidate: the baseline the grid is measured against.
    AllPairs,
}

/// The uniform grid. Bucket lists hold unit indices in insertion order;
/// queries return a sorted, de-duplicated list so that every rule sees its
/// candidates in unit order, whichever broad phase found them.
#[derive(Clone, Debug)]
pub struct BroadPhase {
    pub kind: BroadPhaseKind,
    bucket_cm: f32,
    cols: i32,
    rows: i32,
    buckets: Vec<Vec<usize>>,
    /// The bucket range each unit is filed under.
    filed: Vec<Option<(i32, i32, i32, i32)>>,
    units: usize,
}

impl BroadPhase {
    /// An empty grid over a `w` x `h` cm table with buckets of `bucket_cm`.
    pub fn new(kind: BroadPhaseKind, w: f32, h: f32, bucket_cm: f32) -> Self {
        let bucket_cm = bucket_cm.max(1.0);
        let cols = ((w / bucket_cm).ceil() as i32).max(1);
        let rows = ((h / bucket_cm).ceil() as i32).max(1);
        Self {
            kind,
            bucket_cm,
            cols,
            rows,
            buckets: vec![Vec::new(); (cols * rows) as usize],
            filed: Vec::new(),
            units: 0,
        }
    }

    fn range(&self, b: (f32, f32, f32, f32)) -> (i32, i32, i32, i32) {
        let cell = |v: f32, n: i32| ((v / self.bucket_cm).floor() as i32).clamp(0, n - 1);
        (cell(b.0, self.cols), cell(b.1, self.rows), cell(b.2, self.cols), cell(b.3, self.rows))
    }

    /// Files unit `i` under its bounding box `(min_x, min_y, max_x, max_y)`,
    /// replacing where it was filed before.
    pub fn update(&mut self, i: usize, aabb: (f32, f32, f32, f32)) {
        self.units = self.units.max(i + 1);
        if self.kind == BroadPhaseKind::AllPairs {
            return;
        }
        let new = self.range(aabb);
        if self.filed.len() <= i {
            self.filed.resize(i + 1, None);
        }
        if let Some(old) = self.filed[i] {
            if old == new {
                return;
            }
            for r in old.1..=old.3 {
                for c in old.0..=old.2 {
                    let b = &mut self.buckets[(r * self.cols + c) as usize];
                    b.retain(|&u| u != i);
                }
            }
        }
        for r in new.1..=new.3 {
            for c in new.0..=new.2 {
                self.buckets[(r * self.cols + c) as usize].push(i);
            }
        }
        self.filed[i] = Some(new);
    }

    /// The units whose boxes may touch `aabb`, sorted, into `out`.
    pub fn query(&self, aabb: (f32, f32, f32, f32), out: &mut Vec<usize>) {
        out.clear();
        if self.kind == BroadPhaseKind::AllPairs {
            out.extend(0..self.units);
            return;
        }
        let q = self.range(aabb);
        for r in q.1..=q.3 {
            for c in q.0..=q.2 {
                out.extend_from_slice(&self.buckets[(r * self.cols + c) as usize]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_finds_near_units_and_forgets_where_they_were() {
        let mut g = BroadPhase::new(BroadPhaseKind::Grid, 100.0, 100.0, 10.0);
        g.update(0, (1.0, 1.0, 5.0, 5.0));
        g.update(1, (80.0, 80.0, 90.0, 90.0));
        let mut out = Vec::new();
        g.query((0.0, 0.0, 15.0, 15.0), &mut out);
        assert_eq!(out, vec![0]);
        g.update(0, (81.0, 81.0, 85.0, 85.0));
        g.query((0.0, 0.0, 15.0, 15.0), &mut out);
        assert!(out.is_empty());
        g.query((75.0, 75.0, 99.0, 99.0), &mut out);
        assert_eq!(out, vec![0, 1]);
    }
}
