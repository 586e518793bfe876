//! The counters, in the wargame tradition: the side's colour, the NATO arm
//! symbol (a cross for infantry, one diagonal for cavalry, a dot for
//! artillery), morale and strength printed on the counter, a coloured band
//! for disorder or rout, a badge for tired or exhausted cavalry; stacks
//! offset so each counter shows; units that surrender or are destroyed
//! fade away. Hex counters carry a light bar on the edge towards the
//! hexside they face (rule 1.7); squares, facing every way, carry none,
//! and routed units' bar is dimmed. In free space, rectangles of the unit's
//! real footprint in its shown formation, turned to its facing, with the
//! front edge marked (none in the flight formation, which faces every way).

use bevy::prelude::*;

use super::art::{self, SYMBOL_PX};
use super::layout::Layout;
use super::lines::Lines;
use super::map::z;
use super::opened::{OnBattle, Opened};
use super::playback::{Effects, FLASH_SECONDS, Playback};
use super::screen::MainCamera;
use super::sets::GameSet;
use super::shown::{Shown, ShownUnit};
use super::theme;
use crate::hex::{Dir, Offset};
use crate::rules::Rules;
use crate::scenario::{Formation, Readiness, UnitSpec};
use crate::vocab::State;

/// Side of a hex counter in world units (a hex is 55 high).
pub const COUNTER: f32 = 44.0;
/// How far each counter lower in a stack peeks out (up and to the right);
/// lower counters also sit a whole z unit lower, below the parts (0.1-0.6)
/// of the counter above.
const STACK_STEP: f32 = 5.0;
/// How far a hex counter's front bar sits from its centre: just outside
/// the counter's border (half of 44 + 3), inside the hex (half of 55.4).
pub const FRONT_R: f32 = 25.0;
/// The front bar's length along the hexside and its thickness; the dark
/// outline is this plus one on each side.
const FRONT_BAR: Vec2 = Vec2::new(14.0, 3.0);
/// Height of a free-space counter's state band, which sits just above it.
const TABLE_BAND_H: f32 = 7.0;

/// A unit's counter; its children are listed in `parts`.
#[derive(Component)]
pub struct Counter {
    pub unit: usize,
    parts: Parts,
}

#[derive(Clone, Copy)]
struct Parts {
    border: Entity,
    band: Entity,
    band_text: Entity,
    badge: Entity,
    badge_text: Entity,
    /// Hex counters: the strength printed on them, and the formation mark.
    strength: Option<Entity>,
    formation: Option<Entity>,
    /// Hex counters: the front bar, its dark outline and light fill.
    front: Option<(Entity, Entity)>,
    /// Free-space counters: the fill and the front edge, resized with the
    /// border and the band when the unit changes formation.
    table: Option<(Entity, Entity)>,
}

/// Fading away after surrender or elimination: seconds left.
#[derive(Component)]
struct Fading(f32);

/// A dice result floating above a counter.
#[derive(Component)]
pub struct FlashText {
    ttl: f32,
    total: f32,
}

/// The arm symbols image.
#[derive(Resource)]
pub struct Symbols(pub Handle<Image>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, |mut commands: Commands, mut images: ResMut<Assets<Image>>| {
        commands.insert_resource(Symbols(images.add(art::symbol_strip().into_image())));
    });
    app.add_systems(Update, spawn_counters.in_set(GameSet::Build).run_if(resource_changed::<Opened>));
    app.add_systems(Update, (restyle, place, fade, flashes, draw_links).chain().in_set(GameSet::Draw));
}

/// A free-space unit's footprint in cm (width along its front, depth), as
/// the scenario sets it up.
pub fn footprint_cm(spec: &UnitSpec, rules: &Rules) -> (f32, f32) {
    crate::belle_alliance::footprint(
        spec.arm,
        spec.strength,
        spec.formation.unwrap_or(Formation::Line),
        &rules.belle_alliance,
    )
}

/// A free-space counter's size in world units for the shown figures and
/// formation, never smaller than a readable sliver.
pub fn table_size(spec: &UnitSpec, figures: u32, formation: Formation, rules: &Rules, px_per_cm: f32) -> Vec2 {
    let (w, d) = crate::belle_alliance::footprint(spec.arm, figures, formation, &rules.belle_alliance);
    Vec2::new((w * px_per_cm).max(6.0), (d * px_per_cm).max(4.0))
}

/// Where a hex counter's front bar sits, from the counter's centre, and
/// how far it is turned (radians, counter-clockwise): on the line to the
/// neighbour across the hexside `facing`, lying along that hexside. The
/// world is y-up and hexside N is at the top of the screen, so a bearing
/// `b` clockwise from north is the direction `(sin b, cos b)`.
pub fn front_mark(facing: Dir) -> (Vec2, f32) {
    let b = facing.degrees().to_radians();
    (Vec2::new(b.sin(), b.cos()) * FRONT_R, -b)
}

/// The band's colour and words for a state; `None` in good order.
pub fn band(state: State) -> Option<(Color, &'static str)> {
    match state {
        State::Disordered => Some((theme::DISORDERED, "DISORD")),
        State::Routed => Some((theme::ROUTED, "ROUTED")),
        State::Surrendered => Some((theme::SURRENDERED, "SURR.")),
        State::Eliminated => Some((theme::ELIMINATED, "ELIM.")),
        State::LU => Some((theme::LIGHTLY_UNSTEADY, "LU")),
        State::U => Some((theme::UNSTEADY, "U")),
        State::FU => Some((theme::ROUTED, "FU")),
        State::GoodOrder | State::Order => None,
    }
}

fn spawn_counters(mut commands: Commands, opened: Res<Opened>, symbols: Res<Symbols>) {
    let Some(s) = &opened.scenario else { return };
    for (i, u) in s.units.iter().enumerate() {
        let side = &s.sides[u.side.min(s.sides.len().saturating_sub(1))];
        let colour = theme::side_colour(&side.id, &side.name, u.side);
        let ink = theme::side_ink(&side.id, &side.name, u.side);
        let (w, h) = match opened.layout {
            Layout::Hex { .. } => (COUNTER, COUNTER),
            Layout::Table { .. } => {
                let (fw, fd) = footprint_cm(u, &s.rules);
                let ppc = opened.layout.px_per_cm();
                ((fw * ppc).max(6.0), (fd * ppc).max(4.0))
            }
        };
        let symbol_rect = {
            let k = u.arm.index() as f32;
            let (sw, sh) = (SYMBOL_PX.0 as f32, SYMBOL_PX.1 as f32);
            Rect::new(k * sw, 0.0, (k + 1.0) * sw, sh)
        };
        let parent = commands.spawn((Transform::default(), Visibility::default(), OnBattle)).id();
        let mut child = |bundle: (Sprite, Transform)| {
            let e = commands.spawn(bundle).id();
            commands.entity(parent).add_child(e);
            e
        };
        let border =
            child((Sprite::from_color(theme::COUNTER_BORDER, Vec2::new(w + 3.0, h + 3.0)), Transform::default()));
        let fill = child((Sprite::from_color(colour, Vec2::new(w, h)), Transform::from_xyz(0.0, 0.0, 0.1)));
        let hex = matches!(opened.layout, Layout::Hex { .. });
        let (sym_size, sym_at) = if hex {
            // Room on the left for the formation mark.
            (Vec2::new(24.0, 16.0), Vec2::new(4.0, 4.0))
        } else {
            let k = (w / 36.0).min(h / 24.0).min(1.2);
            (Vec2::new(36.0, 24.0) * k * 0.8, Vec2::ZERO)
        };
        child((
            Sprite {
                image: symbols.0.clone(),
                rect: Some(symbol_rect),
                custom_size: Some(sym_size),
                color: ink,
                ..default()
            },
            Transform::from_translation(sym_at.extend(0.2)),
        ));
        // Free space: the front edge, a light bar along the side the unit
        // faces.
        let table = (!hex).then(|| {
            let edge = child((
                Sprite::from_color(theme::TABLE_FRONT, Vec2::new(w, 1.5)),
                Transform::from_xyz(0.0, h / 2.0 - 0.75, 0.25),
            ));
            (fill, edge)
        });
        // Hex counters: the front bar, placed and turned by `restyle` from
        // the shown facing.
        let front = hex.then(|| {
            let outline =
                child((Sprite::from_color(theme::COUNTER_BORDER, FRONT_BAR + 2.0), Transform::from_xyz(0.0, 0.0, 0.7)));
            let fill = child((Sprite::from_color(theme::FRONT_FILL, FRONT_BAR), Transform::from_xyz(0.0, 0.0, 0.75)));
            (outline, fill)
        });
        let band_h = if hex { 9.0 } else { TABLE_BAND_H };
        let band_y = h / 2.0 + if hex { -band_h / 2.0 } else { band_h / 2.0 + 1.0 };
        let band_e = child((
            Sprite::from_color(Color::NONE, Vec2::new(w.max(18.0), band_h)),
            Transform::from_xyz(0.0, band_y, 0.3),
        ));
        let text = |commands: &mut Commands, s: String, size: f32, at: Vec3, color: Color| {
            let e = commands
                .spawn((
                    Text2d::new(s),
                    TextFont::from_font_size(size),
                    TextColor(color),
                    Transform::from_translation(at),
                ))
                .id();
            commands.entity(parent).add_child(e);
            e
        };
        let band_text = text(&mut commands, String::new(), band_h - 1.0, Vec3::new(0.0, band_y, 0.4), Color::BLACK);
        let badge = commands
            .spawn((
                Sprite::from_color(Color::NONE, Vec2::splat(11.0)),
                Transform::from_xyz(w / 2.0 - 6.0, -h / 2.0 + 6.0, 0.5),
            ))
            .id();
        commands.entity(parent).add_child(badge);
        let badge_text =
            text(&mut commands, String::new(), 9.0, Vec3::new(w / 2.0 - 6.0, -h / 2.0 + 6.0, 0.6), Color::BLACK);
        let (mut strength, mut formation) = (None, None);
        if hex {
            text(&mut commands, u.morale.to_string(), 14.0, Vec3::new(-10.0, -13.0, 0.3), ink);
            strength = Some(text(&mut commands, u.strength.to_string(), 14.0, Vec3::new(10.0, -13.0, 0.3), ink));
            formation = Some(text(&mut commands, String::new(), 11.0, Vec3::new(-14.0, 4.0, 0.3), ink));
        } else if h > 12.0 {
            text(&mut commands, format!("{:+}", u.valour), 8.0, Vec3::new(-w / 2.0 + 7.0, 0.0, 0.3), ink);
        }
        let parts = Parts { border, band: band_e, band_text, badge, badge_text, strength, formation, front, table };
        commands.entity(parent).insert(Counter { unit: i, parts });
    }
}

/// The units under a point: those in the hex (hex mode, in stack order), or
/// whose footprint holds the point (free space).
pub fn units_at(opened: &Opened, shown: &Shown, world: Option<Vec2>, hex: Option<Offset>) -> Vec<usize> {
    let Some(s) = &opened.scenario else { return Vec::new() };
    match opened.layout {
        Layout::Hex { .. } => {
            let Some(h) = hex else { return Vec::new() };
            shown.units.iter().enumerate().filter(|(_, u)| !u.gone && u.at == Some(h)).map(|(i, _)| i).collect()
        }
        Layout::Table { .. } => {
            let Some(w) = world else { return Vec::new() };
            let ppc = opened.layout.px_per_cm();
            shown
                .units
                .iter()
                .enumerate()
                .filter(|(i, u)| {
                    let (Some((x, y, facing)), Some(spec)) = (u.cm, s.units.get(*i)) else { return false };
                    if u.gone {
                        return false;
                    }
                    let (fw, fd) = footprint_cm(spec, &s.rules);
                    let centre = opened.layout.table_world(x, y);
                    // Into the unit's frame: undo the clockwise facing.
                    let local = Vec2::from_angle(facing.to_radians()).rotate(w - centre);
                    local.x.abs() <= fw * ppc / 2.0 + 4.0 && local.y.abs() <= fd * ppc / 2.0 + 4.0
                })
                .map(|(i, _)| i)
                .collect()
        }
    }
}

/// The mark a hex counter carries for its formation: line, column, square,
/// general order, skirmish; guns show whether they are limbered.
pub fn formation_mark(formation: Formation, arm: crate::terrain::Arm, limbered: bool) -> &'static str {
    if arm == crate::terrain::Arm::Artillery {
        return if limbered { "Lb" } else { "" };
    }
    match formation {
        Formation::Column => "C",
        Formation::Square => "Sq",
        Formation::GeneralOrder => "GO",
        Formation::Skirmish => "Sk",
        Formation::Line | Formation::Flight => "",
    }
}

/// Bands, borders, badges, strength and formation follow the shown states.
fn restyle(
    shown: Res<Shown>,
    pb: Res<Playback>,
    opened: Res<Opened>,
    mut commands: Commands,
    counters: Query<(Entity, &Counter, Option<&Fading>)>,
    mut sprites: Query<&mut Sprite>,
    mut texts: Query<(&mut Text2d, &mut TextColor)>,
    mut vis: Query<&mut Visibility>,
    mut transforms: Query<&mut Transform>,
) {
    if !shown.is_changed() && !opened.is_changed() {
        return;
    }
    for (e, c, fading) in &counters {
        let Some(u) = shown.units.get(c.unit) else { continue };
        let b = band(u.state);
        if let Ok(mut s) = sprites.get_mut(c.parts.band) {
            s.color = b.map_or(Color::NONE, |x| x.0);
        }
        if let Ok((mut t, mut col)) = texts.get_mut(c.parts.band_text) {
            t.0 = b.map_or("", |x| x.1).to_owned();
            col.0 = if matches!(u.state, State::Routed | State::FU | State::Eliminated) {
                Color::WHITE
            } else {
                Color::BLACK
            };
        }
        if let Ok(mut s) = sprites.get_mut(c.parts.border) {
            s.color = match u.state {
                State::Routed | State::FU => theme::ROUTED,
                State::Disordered | State::U | State::LU => theme::DISORDERED,
                _ => theme::COUNTER_BORDER,
            };
        }
        let (badge, letter) = match u.readiness {
            Readiness::Fresh => (Color::NONE, ""),
            Readiness::Tired => (theme::TIRED, "T"),
            Readiness::Exhausted => (theme::EXHAUSTED, "E"),
        };
        if let Ok(mut s) = sprites.get_mut(c.parts.badge) {
            s.color = badge;
        }
        if let Ok((mut t, _)) = texts.get_mut(c.parts.badge_text) {
            t.0 = letter.to_owned();
        }
        if let (Some(s), Some((fill, edge))) = (opened.scenario.as_ref(), c.parts.table)
            && let Some(spec) = s.units.get(c.unit)
        {
            // Free space: the footprint of the shown formation (the flight
            // formation is as wide as deep, rule 2.2.5, and has no front).
            let size = table_size(spec, u.strength, u.formation, &s.rules, opened.layout.px_per_cm());
            let flight = u.formation == Formation::Flight;
            for (part, grow) in [(c.parts.border, 3.0), (fill, 0.0)] {
                if let Ok(mut sp) = sprites.get_mut(part)
                    && sp.custom_size != Some(size + grow)
                {
                    sp.custom_size = Some(size + grow);
                }
            }
            if let Ok(mut sp) = sprites.get_mut(edge) {
                sp.custom_size = Some(Vec2::new(size.x, 1.5));
            }
            if let Ok(mut tf) = transforms.get_mut(edge) {
                tf.translation.y = size.y / 2.0 - 0.75;
            }
            if let Ok(mut v) = vis.get_mut(edge) {
                v.set_if_neq(if flight { Visibility::Hidden } else { Visibility::Inherited });
            }
            for part in [c.parts.band, c.parts.band_text] {
                if let Ok(mut tf) = transforms.get_mut(part) {
                    tf.translation.y = size.y / 2.0 + TABLE_BAND_H / 2.0 + 1.0;
                }
            }
            if let Ok(mut sp) = sprites.get_mut(c.parts.band) {
                sp.custom_size = Some(Vec2::new(size.x.max(18.0), TABLE_BAND_H));
            }
        }
        if let Some(spec) = opened.scenario.as_ref().and_then(|s| s.units.get(c.unit)) {
            if let Some(Ok((mut t, _))) = c.parts.strength.map(|e| texts.get_mut(e)) {
                let now = u.strength.to_string();
                if t.0 != now {
                    t.0 = now;
                }
            }
            if let Some(Ok((mut t, _))) = c.parts.formation.map(|e| texts.get_mut(e)) {
                let mark = formation_mark(u.formation, spec.arm, u.limbered);
                if t.0 != mark {
                    t.0 = mark.to_owned();
                }
            }
        }
        if let Some((outline, fill)) = c.parts.front {
            // Squares face every way: no front. Routed units exert no zone:
            // their front is dimmed.
            let shown_front = u.facing.filter(|_| u.formation != Formation::Square && !u.gone);
            let alpha = if matches!(u.state, State::Routed | State::FU) { 0.35 } else { 1.0 };
            for (part, colour) in [(outline, theme::COUNTER_BORDER), (fill, theme::FRONT_FILL)] {
                if let Ok(mut v) = vis.get_mut(part) {
                    v.set_if_neq(if shown_front.is_some() { Visibility::Inherited } else { Visibility::Hidden });
                }
                let Some(facing) = shown_front else { continue };
                if let Ok(mut s) = sprites.get_mut(part) {
                    s.color = colour.with_alpha(alpha);
                }
                if let Ok(mut tf) = transforms.get_mut(part) {
                    let (at, angle) = front_mark(facing);
                    tf.translation = at.extend(tf.translation.z);
                    tf.rotation = Quat::from_rotation_z(angle);
                }
            }
        }
        if u.gone && fading.is_none() {
            if pb.instant || opened.is_changed() {
                if let Ok(mut v) = vis.get_mut(e) {
                    *v = Visibility::Hidden;
                }
            } else {
                commands.entity(e).insert(Fading(1.2));
            }
        }
    }
}

/// Each counter at its hex (offset by its place in the stack) or sliding
/// along the move being shown.
fn place(shown: Res<Shown>, opened: Res<Opened>, fx: Res<Effects>, mut q: Query<(&Counter, &mut Transform)>) {
    let layout = opened.layout;
    let mut rank = vec![0usize; shown.units.len()];
    let mut seen: std::collections::HashMap<Offset, usize> = std::collections::HashMap::new();
    for (i, u) in shown.units.iter().enumerate() {
        if let (Some(at), false) = (u.at, u.gone) {
            let n = seen.entry(at).or_insert(0);
            rank[i] = *n;
            *n += 1;
        }
    }
    // A tall stack squeezes its offsets so it stays within about a hex.
    let step = |u: &ShownUnit| {
        let n = u.at.and_then(|a| seen.get(&a)).copied().unwrap_or(1).max(2) - 1;
        STACK_STEP.min(18.0 / n as f32)
    };
    for (c, mut t) in &mut q {
        let Some(u) = shown.units.get(c.unit) else { continue };
        let k = rank[c.unit] as f32;
        let (mut pos, mut angle, mut zz) = match (u.at, u.cm) {
            (Some(at), _) => (layout.world(at) + Vec2::splat(step(u)) * k, 0.0, z::COUNTER - k),
            (None, Some((x, y, facing))) => (layout.table_world(x, y), -facing.to_radians(), z::COUNTER),
            _ => continue,
        };
        if let Some(s) = &fx.slide
            && s.unit == c.unit
            && s.path.len() > 1
        {
            let steps = (s.path.len() - 1) as f32;
            let f = (s.t / s.seconds_per_step).clamp(0.0, steps);
            let i = (f.floor() as usize).min(s.path.len() - 2);
            let a = layout.at(&s.path[i]);
            let b = layout.at(&s.path[i + 1]);
            pos = a.lerp(b, f - i as f32);
            zz = z::COUNTER + 5.0;
            if layout_is_table(layout) {
                angle = t.rotation.to_euler(EulerRot::XYZ).2;
            }
        }
        t.translation = pos.extend(zz);
        t.rotation = Quat::from_rotation_z(angle);
    }
}

fn layout_is_table(l: Layout) -> bool {
    matches!(l, Layout::Table { .. })
}

fn fade(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Fading, &Children, &mut Visibility)>,
    mut sprites: Query<&mut Sprite>,
    mut texts: Query<&mut TextColor>,
) {
    for (e, mut f, children, mut vis) in &mut q {
        f.0 -= time.delta_secs();
        let a = (f.0 / 1.2).clamp(0.0, 1.0);
        for &c in children {
            if let Ok(mut s) = sprites.get_mut(c) {
                // Parts already invisible (an empty band) stay so.
                let now = s.color.alpha();
                s.color.set_alpha(now.min(a));
            }
            if let Ok(mut t) = texts.get_mut(c) {
                t.0.set_alpha(a);
            }
        }
        if f.0 <= 0.0 {
            *vis = Visibility::Hidden;
            commands.entity(e).remove::<Fading>();
        }
    }
}

/// Dice results float up from the counter that rolled them.
fn flashes(
    time: Res<Time>,
    mut commands: Commands,
    mut fx: ResMut<Effects>,
    pb: Res<Playback>,
    counters: Query<(&Counter, &Transform)>,
    mut q: Query<(Entity, &mut FlashText, &mut Transform, &Children), Without<Counter>>,
    cam: Query<&Projection, With<MainCamera>>,
    mut sprites: Query<&mut Sprite>,
    mut texts: Query<&mut TextColor>,
) {
    let checks = std::mem::take(&mut fx.flashes);
    let total = FLASH_SECONDS / pb.speed().max(0.5);
    for (unit, roll, passed, need) in checks {
        let Some((_, t)) = counters.iter().find(|(c, _)| c.unit == unit) else { continue };
        let (text, colour) = match need {
            None if passed => (format!("{roll} pass"), theme::FLASH_PASS),
            Some(n) => (format!("{roll} fails ({n})"), theme::FLASH_FAIL),
            None => (format!("{roll} fails"), theme::FLASH_FAIL),
        };
        let at = t.translation.truncate() + Vec2::new(0.0, 30.0);
        commands.spawn((
            FlashText { ttl: total, total },
            Sprite::from_color(colour, Vec2::new(12.0 + 8.0 * text.len() as f32, 20.0)),
            Transform::from_translation(at.extend(z::FLASH)),
            OnBattle,
            children![(
                Text2d::new(text),
                TextFont::from_font_size(15.0),
                TextColor(Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1)
            )],
        ));
    }
    // Dice stay readable however far out the map is zoomed.
    let zoom = match cam.single() {
        Ok(Projection::Orthographic(o)) => o.scale.max(1.0),
        _ => 1.0,
    };
    for (e, mut f, mut t, children) in &mut q {
        f.ttl -= time.delta_secs();
        t.translation.y += 14.0 * zoom * time.delta_secs();
        t.scale = Vec3::splat(zoom);
        let a = (f.ttl / f.total * 2.0).clamp(0.0, 1.0);
        if let Ok(mut s) = sprites.get_mut(e) {
            s.color.set_alpha(a * 0.92);
        }
        for &c in children {
            if let Ok(mut tc) = texts.get_mut(c) {
                tc.0.set_alpha(a);
            }
        }
        if f.ttl <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

/// Contagion: a line from the unit whose passage caused the check to the
/// unit that checked, red if it failed. Fire and melee: lines from every
/// firer (attacker) to the target, amber for a volley, red for a melee.
fn draw_links(fx: Res<Effects>, counters: Query<(&Counter, &Transform)>, mut lines: ResMut<Lines>) {
    if fx.links.is_empty() && fx.strikes.is_empty() {
        return;
    }
    let pos = |u: usize| counters.iter().find(|(c, _)| c.unit == u).map(|(_, t)| t.translation.truncate());
    for s in &fx.strikes {
        let Some(b) = pos(s.to) else { continue };
        let colour = if s.melee { theme::STRIKE_MELEE } else { theme::STRIKE_FIRE };
        for &f in &s.from {
            if let Some(a) = pos(f) {
                lines.arrow(a, b, 4.0, colour, z::FLASH - 2.0);
            }
        }
        lines.circle(b, 28.0, 3.0, colour, z::FLASH - 2.0);
    }
    for l in &fx.links {
        let (Some(a), Some(b)) = (pos(l.from), pos(l.to)) else { continue };
        let colour = if l.passed { theme::CONTAGION_PASSED } else { theme::CONTAGION_FAILED };
        lines.arrow(a, b, 3.0, colour, z::FLASH - 2.0);
        lines.circle(b, 26.0, 2.5, colour, z::FLASH - 2.0);
    }
}

#[cfg(test)]
mod tests {

    /// A free-space counter takes the footprint of the shown formation: a
    /// line 24 cm by 4 for 24 figures, and in the flight formation (2.2.5) a
    /// square of the same area, as wide as deep.
    #[test]
    fn table_counters_take_the_shown_formations_footprint() {
        let text = r#"Scenario(format: 1, name: "t", mode: FreeSpace, sides: [(id: "a"), (id: "b")],
            map: (rows: ["....."], cell_cm: 10.0),
            units: [(id: "x", side: "a", arm: Infantry, pos: (20.0, 5.0), figures: 24)])"#;
        let s = match crate::scenario::parse(text, "t.ron") {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        let ppc = 4.0;
        assert_eq!(table_size(&s.units[0], 24, Formation::Line, &s.rules, ppc), Vec2::new(96.0, 16.0));
        let square = table_size(&s.units[0], 24, Formation::Flight, &s.rules, ppc);
        assert!((square.x - square.y).abs() < 1e-3 && (square.x * square.y - 96.0 * 16.0).abs() < 0.1, "{square}");
        let column = table_size(&s.units[0], 24, Formation::Column, &s.rules, ppc);
        assert_eq!(column, Vec2::new(64.0, 24.0), "8 files of 3");
    }

    use super::*;

    #[test]
    fn the_front_bar_points_at_the_neighbour_across_the_faced_hexside() {
        let l = Layout::Hex { width: 10, height: 8 };
        // An even and an odd column: their neighbours sit differently.
        for at in [Offset::new(4, 3), Offset::new(5, 3)] {
            let centre = l.world(at);
            for d in Dir::ALL {
                let (offset, angle) = front_mark(d);
                let towards = (l.world(at.neighbour(d)) - centre).normalize();
                assert!((offset.normalize() - towards).length() < 1e-4, "{at} {d:?}: {offset} vs {towards}");
                // Outside the counter's border, inside the hex.
                assert!(offset.length() - FRONT_BAR.y / 2.0 >= COUNTER / 2.0 + 1.5 - 1e-3);
                assert!(offset.length() + FRONT_BAR.y / 2.0 + 1.0 <= super::super::layout::HEX_H / 2.0);
                // The bar lies along the hexside: its long axis, turned,
                // is square to the line between the centres and parallel
                // to the hexside's two corners.
                let along = Quat::from_rotation_z(angle) * Vec3::X;
                assert!(along.truncate().dot(towards).abs() < 1e-4, "{d:?} bar is across the line");
                let (a, b) = l.hexside(at, d);
                assert!(along.truncate().perp_dot((b - a).normalize()).abs() < 1e-4, "{d:?} along its hexside");
            }
        }
        // North is straight up on screen, south straight down.
        let (n, _) = front_mark(Dir::N);
        assert!(n.x.abs() < 1e-4 && n.y > 0.0);
        let (s, _) = front_mark(Dir::S);
        assert!(s.x.abs() < 1e-4 && s.y < 0.0);
        let (ne, _) = front_mark(Dir::NE);
        assert!(ne.x > 0.0 && ne.y > 0.0, "north-east is up and to the right");
        let (sw, _) = front_mark(Dir::SW);
        assert!(sw.x < 0.0 && sw.y < 0.0, "south-west is down and to the left");
    }
}
