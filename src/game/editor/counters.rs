//! The editor's counters, drawn as the battle draws them: the side's
//! colour and the arm's symbol, morale and strength (valour on a table),
//! the front bar towards the facing, the formation mark, the band of a
//! starting state, and on a table the unit's real footprint turned to
//! its facing. Besides, what only a designer sets: a gold star for a
//! leader riding with it, a red bolt for a scripted shock, the number of
//! its corps. A stack is fanned out so that each counter shows and can be
//! picked; staff figures are drawn as in the battle.

use bevy::prelude::*;

use crate::edit::forces::{self, Spot};
use crate::game::art::SYMBOL_PX;
use crate::game::layout::Layout;
use crate::game::map::z;
use crate::game::opened::OnBattle;
use crate::game::theme;
use crate::game::units::{COUNTER, band, formation_mark, front_mark};
use crate::hex::{Dir, Offset};
use crate::scenario::{FacingFile, Mode, ScenarioFile, UnitFile};
use crate::terrain::Arm;
use crate::vocab::{Formation, State};

/// A unit's counter in the editor.
#[derive(Component)]
pub struct EditorCounter;

/// A staff figure in the editor.
#[derive(Component)]
pub struct EditorStaff;

/// How far apart the counters of a stack are fanned (world units, up and
/// to the right), at most.
const FAN: f32 = 9.0;

/// Where each unit's counter is drawn: its hex (fanned by its place in
/// the stack) or its point on the table; `None` for a unit with no place.
pub fn drawn_at(file: &ScenarioFile, layout: Layout) -> Vec<Option<(Vec2, f32)>> {
    let mut seen: std::collections::HashMap<Offset, usize> = std::collections::HashMap::new();
    let ranks: Vec<usize> = file
        .units
        .iter()
        .map(|u| match forces::spot(u) {
            Some(Spot::Hex(o)) => {
                let n = seen.entry(o).or_insert(0);
                *n += 1;
                *n - 1
            }
            _ => 0,
        })
        .collect();
    file.units
        .iter()
        .zip(ranks)
        .map(|(u, k)| match forces::spot(u)? {
            Spot::Hex(o) => {
                let n = seen.get(&o).copied().unwrap_or(1).max(2) - 1;
                let step = FAN.min(24.0 / n as f32);
                Some((layout.world(o) + Vec2::splat(step * k as f32), z::COUNTER - k as f32))
            }
            Spot::Cm(x, y) => Some((layout.table_world(x, y), z::COUNTER)),
        })
        .collect()
}

/// A unit's facing in degrees clockwise from north (north if none).
fn degrees(u: &UnitFile) -> f32 {
    match u.facing {
        Some(FacingFile::Degrees(d)) => d,
        Some(FacingFile::Hexside(d)) => d.degrees(),
        None => 0.0,
    }
}

/// Draws every unit's counter and staff figure of `file` over `layout`.
pub fn spawn_all(commands: &mut Commands, file: &ScenarioFile, layout: Layout, symbols: Option<&Handle<Image>>) {
    let at = drawn_at(file, layout);
    for (i, u) in file.units.iter().enumerate() {
        let Some((pos, zz)) = at[i] else { continue };
        let side = file.sides.iter().position(|s| s.id == u.side).unwrap_or(0);
        let (id, name) = file.sides.get(side).map_or(("", ""), |s| (s.id.as_str(), s.name.as_deref().unwrap_or(&s.id)));
        let (colour, ink) = (theme::side_colour(id, name, side), theme::side_ink(id, name, side));
        let marks = Marks {
            leader: file.leaders.iter().any(|l| l.with == u.id),
            shock: file.shocks.iter().any(|s| s.unit == u.id),
            corps: file.corps.iter().position(|c| c.units.contains(&u.id)).map(|k| k + 1),
        };
        let parent = match layout {
            Layout::Hex { .. } => hex_counter(commands, u, colour, ink, symbols, &marks),
            Layout::Table { .. } => table_counter(commands, file, layout, u, colour, ink, symbols, &marks),
        };
        let turn = if matches!(layout, Layout::Table { .. }) { -degrees(u).to_radians() } else { 0.0 };
        commands.entity(parent).insert((
            EditorCounter,
            OnBattle,
            Transform::from_translation(pos.extend(zz)).with_rotation(Quat::from_rotation_z(turn)),
            Visibility::default(),
        ));
    }
    if file.mode == Mode::FreeSpace {
        for st in &file.staff {
            let side = file.sides.iter().position(|s| s.id == st.side).unwrap_or(0);
            let (id, name) =
                file.sides.get(side).map_or(("", ""), |s| (s.id.as_str(), s.name.as_deref().unwrap_or(&s.id)));
            let at = layout.table_world(st.pos.0, st.pos.1).extend(z::COUNTER + 2.0);
            let e = crate::game::staff::spawn_figure(
                commands,
                at,
                theme::side_colour(id, name, side),
                st.name.as_deref().unwrap_or(""),
            );
            commands.entity(e).insert((EditorStaff, OnBattle));
        }
    }
}

/// What the editor marks on a counter besides what the battle shows.
struct Marks {
    leader: bool,
    shock: bool,
    /// The corps' number (1 for the file's first), if in one.
    corps: Option<usize>,
}

fn symbol(symbols: Option<&Handle<Image>>, arm: Arm, ink: Color, size: Vec2, at: Vec2) -> Option<(Sprite, Transform)> {
    let image = symbols?.clone();
    let k = arm.index() as f32;
    let (sw, sh) = (SYMBOL_PX.0 as f32, SYMBOL_PX.1 as f32);
    let rect = Rect::new(k * sw, 0.0, (k + 1.0) * sw, sh);
    Some((
        Sprite { image, rect: Some(rect), custom_size: Some(size), color: ink, ..default() },
        Transform::from_translation(at.extend(0.2)),
    ))
}

fn words(s: impl Into<String>, size: f32, colour: Color, at: Vec3) -> (Text2d, TextFont, TextColor, Transform) {
    (Text2d::new(s), TextFont::from_font_size(size), TextColor(colour), Transform::from_translation(at))
}

fn border_of(state: Option<State>) -> Color {
    match state {
        Some(State::Routed | State::FU) => theme::ROUTED,
        Some(State::Disordered | State::U | State::LU) => theme::DISORDERED,
        _ => theme::COUNTER_BORDER,
    }
}

/// The star, bolt and corps number, at the corners of a `w` x `h` counter.
fn marks(p: &mut ChildSpawnerCommands, m: &Marks, w: f32, h: f32, size: f32) {
    if m.leader {
        p.spawn(words("★", size + 3.0, theme::GOLD, Vec3::new(-w / 2.0 + 5.0, h / 2.0 - 5.0, 0.8)));
    }
    if m.shock {
        p.spawn((
            Sprite::from_color(theme::ROUTED, Vec2::splat(size)),
            Transform::from_xyz(w / 2.0 - 5.0, h / 2.0 - 5.0, 0.8),
        ));
        p.spawn(words("!", size, Color::WHITE, Vec3::new(w / 2.0 - 5.0, h / 2.0 - 5.0, 0.85)));
    }
    if let Some(k) = m.corps {
        p.spawn(words(format!("c{k}"), size - 1.0, theme::TEXT_HEADING, Vec3::new(w / 2.0 - 6.0, 0.0, 0.8)));
    }
}

fn hex_counter(
    commands: &mut Commands,
    u: &UnitFile,
    colour: Color,
    ink: Color,
    symbols: Option<&Handle<Image>>,
    m: &Marks,
) -> Entity {
    let formation = u.formation.unwrap_or(Formation::Line);
    let facing = match u.facing {
        Some(FacingFile::Hexside(d)) => Some(d),
        Some(FacingFile::Degrees(d)) => Some(Dir::from_degrees(d)),
        None => Some(Dir::N),
    };
    let state = u.state;
    commands
        .spawn_empty()
        .with_children(|p| {
            p.spawn((Sprite::from_color(border_of(state), Vec2::splat(COUNTER + 3.0)), Transform::default()));
            p.spawn((Sprite::from_color(colour, Vec2::splat(COUNTER)), Transform::from_xyz(0.0, 0.0, 0.1)));
            if let Some(s) = symbol(symbols, u.arm, ink, Vec2::new(24.0, 16.0), Vec2::new(4.0, 4.0)) {
                p.spawn(s);
            }
            if let Some(d) = facing.filter(|_| formation != Formation::Square) {
                let (at, angle) = front_mark(d);
                let turn = Quat::from_rotation_z(angle);
                p.spawn((
                    Sprite::from_color(theme::COUNTER_BORDER, Vec2::new(16.0, 5.0)),
                    Transform::from_translation(at.extend(0.7)).with_rotation(turn),
                ));
                p.spawn((
                    Sprite::from_color(theme::FRONT_FILL, Vec2::new(14.0, 3.0)),
                    Transform::from_translation(at.extend(0.75)).with_rotation(turn),
                ));
            }
            if let Some((c, w)) = state.and_then(band) {
                let y = COUNTER / 2.0 - 4.5;
                p.spawn((Sprite::from_color(c, Vec2::new(COUNTER, 9.0)), Transform::from_xyz(0.0, y, 0.3)));
                let text = if state == Some(State::Routed) { Color::WHITE } else { Color::BLACK };
                p.spawn(words(w, 8.0, text, Vec3::new(0.0, y, 0.4)));
            }
            let morale = u.morale.map_or("?".into(), |m| m.to_string());
            let strength = u.strength.map_or("?".into(), |s| s.to_string());
            p.spawn(words(morale, 14.0, ink, Vec3::new(-10.0, -13.0, 0.3)));
            p.spawn(words(strength, 14.0, ink, Vec3::new(10.0, -13.0, 0.3)));
            let mark = formation_mark(formation, u.arm, u.limbered == Some(true));
            p.spawn(words(mark, 11.0, ink, Vec3::new(-14.0, 4.0, 0.3)));
            marks(p, m, COUNTER, COUNTER, 10.0);
        })
        .id()
}

fn table_counter(
    commands: &mut Commands,
    file: &ScenarioFile,
    layout: Layout,
    u: &UnitFile,
    colour: Color,
    ink: Color,
    symbols: Option<&Handle<Image>>,
    m: &Marks,
) -> Entity {
    let formation = u.formation.unwrap_or(Formation::Line);
    let figures = u.figures.unwrap_or(1).clamp(1, 1000) as u32;
    let (fw, fd) = crate::belle_alliance::footprint(u.arm, figures, formation, &file.rules.belle_alliance);
    let ppc = layout.px_per_cm();
    let (w, h) = ((fw * ppc).max(6.0), (fd * ppc).max(4.0));
    let state = u.state;
    commands
        .spawn_empty()
        .with_children(|p| {
            p.spawn((Sprite::from_color(border_of(state), Vec2::new(w + 3.0, h + 3.0)), Transform::default()));
            p.spawn((Sprite::from_color(colour, Vec2::new(w, h)), Transform::from_xyz(0.0, 0.0, 0.1)));
            let k = (w / 36.0).min(h / 24.0).min(1.2);
            if let Some(s) = symbol(symbols, u.arm, ink, Vec2::new(36.0, 24.0) * k * 0.8, Vec2::ZERO) {
                p.spawn(s);
            }
            p.spawn((
                Sprite::from_color(theme::TABLE_FRONT, Vec2::new(w, 1.5)),
                Transform::from_xyz(0.0, h / 2.0 - 0.75, 0.25),
            ));
            if let Some((c, words_)) = state.and_then(band) {
                let y = h / 2.0 + 4.5;
                p.spawn((Sprite::from_color(c, Vec2::new(w.max(18.0), 7.0)), Transform::from_xyz(0.0, y, 0.3)));
                p.spawn(words(words_, 6.0, Color::BLACK, Vec3::new(0.0, y, 0.4)));
            }
            if h > 12.0 {
                let v = u.valour.map_or("?".into(), |v| format!("{v:+}"));
                p.spawn(words(v, 8.0, ink, Vec3::new(-w / 2.0 + 7.0, 0.0, 0.3)));
            }
            marks(p, m, w, h, 7.0);
        })
        .id()
}
