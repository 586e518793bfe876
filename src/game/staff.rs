//! Commanders and orderlies on a free-space table (docs/rules.md 2.4): a staff
//! figure is drawn as a small diamond in its side's colour, ringed in
//! black, with its name beneath, where reorganising units look for it.

use bevy::prelude::*;

use super::layout::Layout;
use super::map::z;
use super::opened::{OnBattle, Opened};
use super::sets::GameSet;
use super::theme;

/// Side of a staff figure's diamond in world units: a little larger than
/// one figure's base at the table scale, so that it reads as a marker.
const DIAMOND: f32 = 12.0;

/// A staff figure drawn on the table.
#[derive(Component)]
pub struct StaffFigure;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, spawn_staff.in_set(GameSet::Build).run_if(resource_changed::<Opened>));
}

fn spawn_staff(mut commands: Commands, opened: Res<Opened>) {
    let Some(s) = &opened.scenario else { return };
    if !matches!(opened.layout, Layout::Table { .. }) {
        return;
    }
    for st in &s.staff {
        let side = &s.sides[st.side.min(s.sides.len().saturating_sub(1))];
        let colour = theme::side_colour(&side.id, &side.name, st.side);
        let at = opened.layout.table_world(st.x, st.y).extend(z::COUNTER + 2.0);
        let e = spawn_figure(&mut commands, at, colour, &st.name);
        commands.entity(e).insert((StaffFigure, OnBattle));
    }
}

/// A staff figure's diamond in `colour` with its name beneath, at `at`
/// (the battle's and the editor's); the figure's entity.
pub fn spawn_figure(commands: &mut Commands, at: Vec3, colour: Color, name: &str) -> Entity {
    let turned = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    commands
        .spawn((Transform::from_translation(at), Visibility::default()))
        .with_children(|p| {
            p.spawn((
                Sprite::from_color(theme::STAFF_INK, Vec2::splat(DIAMOND + 3.0)),
                Transform::from_rotation(turned),
            ));
            p.spawn((
                Sprite::from_color(colour, Vec2::splat(DIAMOND)),
                Transform::from_xyz(0.0, 0.0, 0.1).with_rotation(turned),
            ));
            p.spawn((
                Text2d::new(name),
                TextFont::from_font_size(11.0),
                TextColor(theme::STAFF_INK),
                Transform::from_xyz(0.0, -DIAMOND - 2.0, 0.2),
            ));
        })
        .id()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// Every staff figure of a free-space table is drawn where it stands,
    /// a diamond in its side's colour with its name; a hex map has none.
    #[test]
    fn staff_figures_are_drawn_where_they_stand() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace, sides: [(id: "fr"), (id: "pr")],
            map: (rows: ["..........", "..........", ".........."], cell_cm: 10.0),
            units: [(id: "a", side: "fr", arm: Infantry, pos: (20.0, 15.0), figures: 12)],
            staff: [(side: "fr", pos: (50.0, 12.0), name: "Duhesme"), (side: "pr", pos: (80.0, 25.0))])"#;
        let s = match crate::scenario::parse(text, "t.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        };
        let layout = super::super::opened::layout_of(&s);
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        app.insert_resource(Opened {
            source: super::super::opened::Source::Bundled(0),
            scenario: Some(s.clone()),
            errors: Vec::new(),
            layout,
            ids: Default::default(),
        });
        app.add_systems(Update, spawn_staff);
        app.update();
        let mut q = app.world_mut().query_filtered::<(&Transform, &Children), With<StaffFigure>>();
        let mut drawn: Vec<(Vec2, usize)> =
            q.iter(app.world()).map(|(t, c)| (t.translation.truncate(), c.len())).collect();
        drawn.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
        assert_eq!(drawn.len(), 2);
        for ((at, parts), st) in drawn.iter().zip(&s.staff) {
            assert!(at.distance(layout.table_world(st.x, st.y)) < 1e-3, "{at} for {}", st.name);
            assert_eq!(*parts, 3, "ring, diamond and name");
        }
        let mut names = app.world_mut().query::<&Text2d>();
        let names: Vec<String> = names.iter(app.world()).map(|t| t.0.clone()).collect();
        assert!(names.contains(&"Duhesme".to_owned()), "{names:?}");
    }
}
