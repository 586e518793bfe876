//! Lines drawn afresh every frame (the hovered hex, the selected unit,
//! rout arrows, contagion links), as a pool of thin sprites reused from
//! frame to frame. Sprites rather than gizmos: widths in world units that
//! scale with the zoom like the rest of the map, and one drawing path for
//! everything the screenshot test looks at.

use bevy::prelude::*;

use super::map::stroke;
use super::sets::GameSet;

/// Lines asked for this frame: (from, to, width, colour, z).
#[derive(Resource, Default)]
pub struct Lines(Vec<(Vec2, Vec2, f32, Color, f32)>);

impl Lines {
    pub fn line(&mut self, a: Vec2, b: Vec2, width: f32, colour: Color, z: f32) {
        self.0.push((a, b, width, colour, z));
    }

    pub fn polyline(&mut self, pts: &[Vec2], width: f32, colour: Color, z: f32) {
        for w in pts.windows(2) {
            self.line(w[0], w[1], width, colour, z);
        }
    }

    /// A line with an arrowhead at `b`.
    pub fn arrow(&mut self, a: Vec2, b: Vec2, width: f32, colour: Color, z: f32) {
        self.line(a, b, width, colour, z);
        let back = (a - b).normalize_or_zero() * (4.0 * width + 6.0);
        for turn in [0.5f32, -0.5] {
            self.line(b, b + Vec2::from_angle(turn).rotate(back), width, colour, z);
        }
    }

    /// The colours asked for this frame (for tests).
    #[cfg(test)]
    pub fn colours(&self) -> Vec<Color> {
        self.0.iter().map(|l| l.3).collect()
    }

    pub fn circle(&mut self, c: Vec2, r: f32, width: f32, colour: Color, z: f32) {
        let pts: Vec<Vec2> =
            (0..=20).map(|k| c + Vec2::from_angle(k as f32 / 20.0 * std::f32::consts::TAU) * r).collect();
        self.polyline(&pts, width, colour, z);
    }

    /// A rectangle of `size` centred on `c`, turned by `angle` radians.
    pub fn rect(&mut self, c: Vec2, size: Vec2, angle: f32, width: f32, colour: Color, z: f32) {
        let h = size / 2.0;
        let rot = Vec2::from_angle(angle);
        let pts: Vec<Vec2> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)]
            .iter()
            .map(|&(x, y)| c + rot.rotate(Vec2::new(x * h.x, y * h.y)))
            .collect();
        self.polyline(&pts, width, colour, z);
    }
}

#[derive(Component)]
struct Pooled;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Lines>();
    app.add_systems(Update, show.after(GameSet::Draw).before(GameSet::Panels));
}

/// Moves the pool's sprites onto this frame's lines, spawning more when
/// needed and hiding the rest.
fn show(
    mut commands: Commands,
    mut lines: ResMut<Lines>,
    mut pool: Query<(&mut Sprite, &mut Transform, &mut Visibility), With<Pooled>>,
) {
    let mut wanted = std::mem::take(&mut lines.0).into_iter();
    for (mut sprite, mut t, mut vis) in &mut pool {
        match wanted.next() {
            Some((a, b, w, c, z)) => {
                let (s, tr) = stroke(a, b, w, c, z);
                *sprite = s;
                *t = tr;
                *vis = Visibility::Inherited;
            }
            None => *vis = Visibility::Hidden,
        }
    }
    for (a, b, w, c, z) in wanted {
        commands.spawn((stroke(a, b, w, c, z), Pooled));
    }
}
