//! Table geometry for Belle Alliance: units as oriented rectangles, bearings
//! in the table's frame, and the swept (time-of-impact) and overlap queries,
//! all from parry2d rather than hand-rolled.
//!
//! The table frame: x to the right, y down the table, centimetres from the
//! top-left corner. Bearings are degrees clockwise from north (the top edge),
//! so bearing 0 is `(0, -1)` and bearing 90 is `(1, 0)`.

use parry2d::math::{Pose, Vector};
use parry2d::query::{ShapeCastOptions, cast_shapes, intersection_test};
use parry2d::shape::Cuboid;

/// How far inside its edges a footprint is looked at for the ground under
/// it (cm): a side that lies exactly on a cell border does not count the
/// next cell ([`OrientedRect::sample_points`], and the routes' check of a
/// front's flanks).
pub const SAMPLE_INSET_CM: f32 = 1e-3;

/// The unit vector of a bearing (degrees clockwise from north) on the table.
pub fn bearing_vector(deg: f32) -> (f32, f32) {
    let r = deg.to_radians();
    (r.sin(), -r.cos())
}

/// The bearing (degrees clockwise from north, 0..360) of the vector `(dx, dy)`.
pub fn bearing_of(dx: f32, dy: f32) -> f32 {
    let b = dx.atan2(-dy).to_degrees();
    if b < 0.0 { b + 360.0 } else { b }
}

/// A unit on the table: a rectangle of figure bases centred on `(x, y)`,
/// `width` along its front and `depth` front to back, its front facing the
/// bearing `facing`. This is what the drawing code outlines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedRect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub depth: f32,
    /// Degrees clockwise from north.
    pub facing: f32,
}

impl OrientedRect {
    pub fn new(x: f32, y: f32, width: f32, depth: f32, facing: f32) -> Self {
        Self { x, y, width, depth, facing }
    }

    /// Unit vectors of the width axis (to the right of the front) and of the
    /// front (the facing).
    pub fn axes(&self) -> ((f32, f32), (f32, f32)) {
        let front = bearing_vector(self.facing);
        let right = (-front.1, front.0);
        (right, front)
    }

    /// The four corners: front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [(f32, f32); 4] {
        let (r, f) = self.axes();
        let (hw, hd) = (self.width / 2.0, self.depth / 2.0);
        let at = |sr: f32, sf: f32| (self.x + r.0 * hw * sr + f.0 * hd * sf, self.y + r.1 * hw * sr + f.1 * hd * sf);
        [at(-1.0, 1.0), at(1.0, 1.0), at(1.0, -1.0), at(-1.0, -1.0)]
    }

    /// Axis-aligned bounds `(min_x, min_y, max_x, max_y)`.
    pub fn aabb(&self) -> (f32, f32, f32, f32) {
        let c = self.corners();
        let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for (x, y) in c {
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        b
    }

    /// The same rectangle slid by `(dx, dy)` (a parallel displacement).
    pub fn shifted(&self, dx: f32, dy: f32) -> Self {
        Self { x: self.x + dx, y: self.y + dy, ..*self }
    }

    /// Points spread over the rectangle no further than `spacing` apart,
    /// edges included but pulled in by a hair, so that a rectangle whose
    /// side lies on a cell border does not count the next cell.
    pub fn sample_points(&self, spacing: f32, out: &mut Vec<(f32, f32)>) {
        out.clear();
        let (r, f) = self.axes();
        let (hw, hd) = ((self.width / 2.0 - SAMPLE_INSET_CM).max(0.0), (self.depth / 2.0 - SAMPLE_INSET_CM).max(0.0));
        let nw = ((2.0 * hw / spacing).ceil() as usize).max(1);
        let nd = ((2.0 * hd / spacing).ceil() as usize).max(1);
        for i in 0..=nw {
            let a = -hw + 2.0 * hw * i as f32 / nw as f32;
            for j in 0..=nd {
                let b = -hd + 2.0 * hd * j as f32 / nd as f32;
                out.push((self.x + r.0 * a + f.0 * b, self.y + r.1 * a + f.1 * b));
            }
        }
    }

    fn shape(&self) -> (Pose, Cuboid) {
        // Local x is the width axis; the width axis of facing 0 is +x, and a
        // positive angle turns +x towards +y, i.e. clockwise on the table.
        let pose = Pose::new(Vector::new(self.x, self.y), self.facing.to_radians());
        (pose, Cuboid::new(Vector::new(self.width / 2.0, self.depth / 2.0)))
    }

    /// How far this rectangle can slide along the unit vector `dir` (at most
    /// `max`) before it touches `other`; `None` if it never does. Touching or
    /// overlapping at the start does not stop a move that separates them.
    ///
    /// The sweep is cast as `other` moving the opposite way while this one
    /// stands: the same relative motion, the same time of impact. parry2d
    /// 0.27 turns only the second shape's velocity into the first shape's
    /// frame (dimforge/parry#423, fixed upstream by #424), so a velocity on
    /// the first shape would be read as if it faced north; with the first
    /// shape still, the answer is right whatever the facing.
    pub fn time_of_impact(&self, dir: (f32, f32), max: f32, other: &OrientedRect) -> Option<f32> {
        let (p1, s1) = self.shape();
        let (p2, s2) = other.shape();
        let opts = ShapeCastOptions {
            max_time_of_impact: max,
            target_distance: 0.0,
            stop_at_penetration: false,
            compute_impact_geometry_on_penetration: false,
        };
        match cast_shapes(&p1, Vector::ZERO, &s1, &p2, Vector::new(-dir.0, -dir.1), &s2, opts) {
            Ok(Some(hit)) => Some(hit.time_of_impact),
            _ => None,
        }
    }

    /// Whether the two rectangles overlap (touching counts).
    pub fn intersects(&self, other: &OrientedRect) -> bool {
        let (p1, s1) = self.shape();
        let (p2, s2) = other.shape();
        intersection_test(&p1, &s1, &p2, &s2).unwrap_or(false)
    }

    /// Distance from a point to the rectangle (0 inside).
    pub fn distance_to_point(&self, px: f32, py: f32) -> f32 {
        let (r, f) = self.axes();
        let (dx, dy) = (px - self.x, py - self.y);
        let a = (dx * r.0 + dy * r.1).abs() - self.width / 2.0;
        let b = (dx * f.0 + dy * f.1).abs() - self.depth / 2.0;
        (a.max(0.0).powi(2) + b.max(0.0).powi(2)).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn bearings_run_clockwise_from_the_top_edge() {
        let (x, y) = bearing_vector(90.0);
        assert!(close(x, 1.0) && close(y, 0.0));
        let (x, y) = bearing_vector(180.0);
        assert!(close(x, 0.0) && close(y, 1.0), "south is down the table");
        assert!(close(bearing_of(0.0, -1.0), 0.0));
        assert!(close(bearing_of(-1.0, 0.0), 270.0));
    }

    #[test]
    fn a_line_facing_east_is_tall_on_the_table() {
        let r = OrientedRect::new(50.0, 50.0, 24.0, 4.0, 90.0);
        let (x0, y0, x1, y1) = r.aabb();
        assert!(close(x1 - x0, 4.0) && close(y1 - y0, 24.0));
        let c = r.corners();
        assert!(close(c[0].0, 52.0) && close(c[0].1, 38.0), "front-left of an east-facing line is up-right: {c:?}");
    }

    #[test]
    fn time_of_impact_matches_the_gap() {
        let a = OrientedRect::new(0.0, 0.0, 10.0, 4.0, 0.0);
        let b = OrientedRect::new(0.0, 20.0, 10.0, 4.0, 45.0);
        let toi = a.time_of_impact((0.0, 1.0), 50.0, &b).expect("hits");
        // b's corner reaches up to 20 - (5 + 2) / sqrt 2.
        let want = 20.0 - 7.0 / 2f32.sqrt() - 2.0;
        assert!((toi - want).abs() < 0.05, "{toi} vs {want}");
        assert_eq!(a.time_of_impact((0.0, -1.0), 50.0, &b), None, "moving away never touches");
        let touching = OrientedRect::new(0.0, 4.0, 10.0, 4.0, 0.0);
        assert_eq!(a.time_of_impact((0.0, -1.0), 50.0, &touching), None, "contact does not hold a unit back");
    }

    /// The sweep does not depend on how the moving rectangle faces: turning
    /// both rectangles and the motion together about a point keeps the
    /// gap, and a square mover gives the same answer at every facing.
    #[test]
    fn time_of_impact_is_the_same_at_every_facing() {
        for k in 0..24 {
            let turn = k as f32 * 15.0;
            // A 20 x 5 line behind a 24 x 4 line 25 cm ahead, both facing
            // the motion, turned together: the gap is 25 - 2.5 - 2.
            let f = bearing_vector(turn);
            let a = OrientedRect::new(100.0, 100.0, 20.0, 5.0, turn);
            let b = OrientedRect::new(100.0 + f.0 * 25.0, 100.0 + f.1 * 25.0, 24.0, 4.0, turn);
            let toi = a.time_of_impact(f, 40.0, &b).unwrap_or(f32::NAN);
            assert!(close(toi, 20.5), "facing {turn}: {toi}");
            // A square mover at any facing meets an axis-aligned wall after
            // the same distance.
            let sq = OrientedRect::new(0.0, 0.0, 4.0, 4.0, turn);
            let wall = OrientedRect::new(0.0, -30.0, 40.0, 2.0, 0.0);
            let half = sq.aabb().3;
            let toi = sq.time_of_impact((0.0, -1.0), 50.0, &wall).unwrap_or(f32::NAN);
            assert!((toi - (29.0 - half)).abs() < 1e-2, "facing {turn}: {toi}");
        }
    }
}
