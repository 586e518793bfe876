//! The camera and the pointer on the map: the map fitted to the part of
//! the window the panels leave free when a battle opens (and on F), panned
//! by dragging or the arrow keys, zoomed by the wheel about the cursor; the
//! hex under the cursor, and the unit selected by clicking.
//!
//! The map is the window itself as Bevy's picking sees it: the window is
//! hit behind everything else, and every UI node over it (the bar, the side
//! panel, the orders banner, the menu, the cards) blocks what lies under
//! it. So the pointer events that reach the window itself, not propagated
//! up from a panel, are the map's; a panel keeps its clicks, drags and
//! wheel to itself without the map having to know it is there.

use bevy::input::mouse::MouseScrollUnit;
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::input::{MapButton, MapClick, MapPointer, PointSet};
use super::layout::fit_scale;
use super::opened::Opened;
use super::request::Request;
use super::screen::{BANNER_H, BAR_H, MainCamera, MapInset, PANEL_W};
use super::sets::GameSet;
use super::shown::Shown;
use super::turn::PlayerTurn;
use super::units::units_at;
use crate::sim::{Control, Controls};

/// How far (logical pixels) a press may move and still be a click.
const CLICK_SLOP: f32 = 4.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Camera2d, MainCamera));
    });
    app.init_resource::<MapInset>();
    app.add_systems(
        Update,
        fit.in_set(GameSet::Build)
            .run_if(resource_changed::<Opened>.or_else(resource_changed::<MapInset>).or_else(resized)),
    );
    app.add_systems(Update, (keys, point).chain().in_set(GameSet::Input).in_set(PointSet));
    observe_map(app);
}

/// The map's pointer observers: hover, press, drag, click and wheel on the
/// window itself.
pub(super) fn observe_map(app: &mut App) {
    app.add_observer(over)
        .add_observer(out)
        .add_observer(press)
        .add_observer(drag)
        .add_observer(click)
        .add_observer(wheel);
}

/// The event happened on the map: on the window itself, not on a panel
/// over it (whose events propagate up to the window too).
fn on_map<E: std::fmt::Debug + Clone + Reflect>(ev: &On<Pointer<E>>, windows: &Query<(), With<PrimaryWindow>>) -> bool {
    ev.original_event_target() == ev.entity && windows.contains(ev.entity)
}

/// Fits the map into the part of the window the panels leave free.
fn fit(
    opened: Res<Opened>,
    controls: Option<Res<Controls>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection), With<MainCamera>>,
    mut pointer: ResMut<MapPointer>,
    inset: Option<Res<MapInset>>,
) {
    pointer.selected = None;
    let Ok(window) = windows.single() else { return };
    let Ok((mut t, mut p)) = cam.single_mut() else { return };
    let (centre, scale) = fitted(&opened, controls.as_deref(), window, inset.map_or(0.0, |i| i.0));
    t.translation = centre.extend(t.translation.z);
    if let Projection::Orthographic(o) = p.as_mut() {
        o.scale = scale;
    }
}

/// The window was resized: the map is fitted to its new size (a map
/// fitted to the old one would run under the panels).
fn resized(mut sizes: MessageReader<bevy::window::WindowResized>) -> bool {
    sizes.read().count() > 0
}

/// The arrow keys pan (a third of the view per second); Home fits the map
/// again.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection), With<MainCamera>>,
    opened: Res<Opened>,
    controls: Option<Res<Controls>>,
    inset: Option<Res<MapInset>>,
) {
    let Ok(window) = windows.single() else { return };
    let Ok((mut t, mut p)) = cam.single_mut() else { return };
    let Projection::Orthographic(o) = p.as_mut() else { return };
    let mut dir = Vec2::ZERO;
    for (k, d) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(k) {
            dir += d;
        }
    }
    t.translation += (dir * 600.0 * o.scale * time.delta_secs()).extend(0.0);
    if keys.just_pressed(KeyCode::Home) {
        let (centre, scale) = fitted(&opened, controls.as_deref(), window, inset.map_or(0.0, |i| i.0));
        o.scale = scale;
        t.translation = centre.extend(t.translation.z);
    }
}

/// The camera's centre and scale that fit the open map into the part of
/// `window` the panels leave free: left of the side panel, below the bar,
/// and below the orders banner too when a player gives orders at this
/// window (hex mode with a human side), and right of `left` pixels taken
/// by a panel on the left (the editor's palette).
pub fn fitted(opened: &Opened, controls: Option<&Controls>, window: &Window, left: f32) -> (Vec2, f32) {
    // The orders banner is a battle's: the editor's map has none over it.
    let orders = opened.scenario.is_some() && controls.is_some_and(|c| c.0.contains(&Control::Player));
    let top = BAR_H + if orders { BANNER_H } else { 0.0 };
    let view = Vec2::new((window.width() - PANEL_W - left).max(100.0), (window.height() - top).max(100.0));
    let bounds = opened.layout.bounds();
    let scale = fit_scale(bounds, view, 16.0);
    let centre = (bounds.0 + bounds.1) / 2.0;
    // Shift the camera so the map's centre lands in the free area's middle.
    (centre + Vec2::new((PANEL_W - left) / 2.0, top / 2.0) * scale, scale)
}

fn over(ev: On<Pointer<Over>>, windows: Query<(), With<PrimaryWindow>>, mut pointer: ResMut<MapPointer>) {
    if on_map(&ev, &windows) {
        pointer.over_map = true;
    }
}

fn out(ev: On<Pointer<Out>>, windows: Query<(), With<PrimaryWindow>>, mut pointer: ResMut<MapPointer>) {
    if on_map(&ev, &windows) {
        pointer.over_map = false;
    }
}

/// A press on the map may become a click or a drag.
fn press(ev: On<Pointer<Press>>, windows: Query<(), With<PrimaryWindow>>, mut pointer: ResMut<MapPointer>) {
    if on_map(&ev, &windows) {
        pointer.dragged = false;
    }
}

/// Dragging with any button pans the map, once the press has moved more
/// than a click may.
fn drag(
    ev: On<Pointer<Drag>>,
    windows: Query<(), With<PrimaryWindow>>,
    mut pointer: ResMut<MapPointer>,
    mut cam: Query<(&mut Transform, &Projection), With<MainCamera>>,
) {
    if !on_map(&ev, &windows) {
        return;
    }
    if ev.distance.length() > CLICK_SLOP {
        pointer.dragged = true;
    }
    let Ok((mut t, Projection::Orthographic(o))) = cam.single_mut() else { return };
    if pointer.dragged && !pointer.grab {
        t.translation += Vec3::new(-ev.delta.x, ev.delta.y, 0.0) * o.scale;
    }
}

/// A click on the map: while a phase waits for orders it is the orders' to
/// read (and nothing while the player looks back at the log: the selection
/// and the units picked stay as they were on the present board); otherwise
/// the left button selects the unit there, again for the next one down
/// the stack.
fn click(
    ev: On<Pointer<Click>>,
    windows: Query<(), With<PrimaryWindow>>,
    cam: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    opened: Res<Opened>,
    shown: Res<Shown>,
    turn: Res<PlayerTurn>,
    mut pointer: ResMut<MapPointer>,
    mut clicks: MessageWriter<MapClick>,
) {
    if !on_map(&ev, &windows) || pointer.dragged {
        return;
    }
    let Ok((camera, gt)) = cam.single() else { return };
    let world = camera.viewport_to_world_2d(gt, ev.pointer_location.position).ok();
    let Some(hex) = world.and_then(|w| opened.layout.hex_at(w)) else { return };
    let button = match ev.button {
        PointerButton::Primary => MapButton::Primary,
        PointerButton::Secondary => MapButton::Secondary,
        PointerButton::Middle => return,
    };
    if turn.awaiting.is_some() {
        if !turn.reviewing {
            clicks.write(MapClick { hex, button });
        }
        return;
    }
    if button == MapButton::Primary {
        let here = units_at(&opened, &shown, world, Some(hex));
        pointer.selected = match pointer.selected.and_then(|s| here.iter().position(|&u| u == s)) {
            Some(k) => here.get((k + 1) % here.len()).copied(),
            None => here.first().copied(),
        };
    }
}

/// The wheel over the map zooms about the point under the cursor.
fn wheel(
    ev: On<Pointer<Scroll>>,
    windows: Query<(), With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection, &Camera, &GlobalTransform), With<MainCamera>>,
) {
    if !on_map(&ev, &windows) {
        return;
    }
    let Ok((mut t, mut p, camera, gt)) = cam.single_mut() else { return };
    let Projection::Orthographic(o) = p.as_mut() else { return };
    let lines = match ev.unit {
        MouseScrollUnit::Line => ev.y,
        MouseScrollUnit::Pixel => ev.y / 40.0,
    };
    if lines == 0.0 {
        return;
    }
    let before = camera.viewport_to_world_2d(gt, ev.pointer_location.position).ok();
    let new_scale = (o.scale * 0.85f32.powf(lines)).clamp(0.05, 50.0);
    if let Some(w) = before {
        let centre = t.translation.truncate();
        let kept = w + (centre - w) * (new_scale / o.scale);
        t.translation = kept.extend(t.translation.z);
    }
    o.scale = new_scale;
}

/// The hex under the cursor, while the cursor is on the map (no panel over
/// it). A screenshot is not about wherever the display's pointer happens
/// to be.
pub(super) fn point(
    windows: Query<&Window, With<PrimaryWindow>>,
    cam: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    opened: Res<Opened>,
    req: Res<Request>,
    mut pointer: ResMut<MapPointer>,
) {
    let Ok(window) = windows.single() else { return };
    let Ok((camera, gt)) = cam.single() else { return };
    let picture = req.0.shot.is_some() || req.0.edit.as_ref().is_some_and(|e| e.shot.is_some());
    let live = !picture && pointer.over_map;
    let world = window.cursor_position().filter(|_| live).and_then(|c| camera.viewport_to_world_2d(gt, c).ok());
    let hex = world.and_then(|w| opened.layout.hex_at(w));
    // Only a change is a change: what is drawn from the pointer is drawn
    // again only when it moved.
    if pointer.world != world {
        pointer.world = world;
    }
    if pointer.hex != hex {
        pointer.hex = hex;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use bevy::camera::{ComputedCameraValues, NormalizedRenderTarget, RenderTargetInfo};
    use bevy::picking::backend::HitData;
    use bevy::picking::pointer::{Location, PointerId};
    use bevy::window::{WindowRef, WindowResolution};

    use super::*;
    use crate::game::input;
    use crate::game::opened::{Source, layout_of};
    use crate::game::shown::initial;
    use crate::hex::Offset;
    use crate::turn::Phase;

    /// The map's observers and the pointer in an app without a window
    /// backend or renderer: a 1280 x 720 window with the cursor at its
    /// middle, over hex (3, 3) where a French battalion stands, and a panel
    /// with a line of text in it over the window.
    struct Map {
        app: App,
        window: Entity,
        text: Entity,
    }

    fn map() -> Map {
        let text = r#"Scenario(format: 1, name: "t", sides: [(id: "fr"), (id: "ru")],
            map: (rows: ["........", "........", "........", "........", "........", "........"]),
            units: [(id: "fr-a", side: "fr", arm: Infantry, at: (3, 3), morale: 44, strength: 4),
                    (id: "ru-a", side: "ru", arm: Infantry, at: (6, 0), morale: 44, strength: 4)])"#;
        let s = match crate::scenario::parse(text, "t.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        };
        let layout = layout_of(&s);
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        input::plugin(&mut app);
        app.init_resource::<PlayerTurn>()
            .insert_resource(Shown { units: initial(&s), ..default() })
            .insert_resource(Request(crate::cli::WindowRequest { file: None, shot: None, edit: None }))
            .insert_resource(Opened::battle(Source::Bundled(0), s));
        let mut w = Window { resolution: WindowResolution::new(1280, 720), ..default() };
        w.set_cursor_position(Some(Vec2::new(640.0, 360.0)));
        let window = app.world_mut().spawn((w, PrimaryWindow)).id();
        // An orthographic camera at scale 1 centred on the hex: the middle
        // of the window shows it.
        let centre = layout.world(Offset::new(3, 3)).extend(0.0);
        let camera = Camera {
            computed: ComputedCameraValues {
                clip_from_view: Mat4::orthographic_rh(-640.0, 640.0, -360.0, 360.0, -1000.0, 1000.0),
                target_info: Some(RenderTargetInfo { physical_size: UVec2::new(1280, 720), scale_factor: 1.0 }),
                ..default()
            },
            ..default()
        };
        app.world_mut().spawn((
            camera,
            Projection::Orthographic(OrthographicProjection::default_2d()),
            Transform::from_translation(centre),
            GlobalTransform::from_translation(centre),
            MainCamera,
        ));
        let panel = app.world_mut().spawn(Node::default()).id();
        let text = app.world_mut().spawn((Text::new("a panel"), ChildOf(panel))).id();
        observe_map(&mut app);
        app.add_systems(Update, point);
        Map { app, window, text }
    }

    impl Map {
        /// A pointer event `event` on `target`, at the middle of the window.
        fn send<E: std::fmt::Debug + Clone + Reflect>(&mut self, target: Entity, event: E) {
            let window = WindowRef::Entity(self.window).normalize(None).expect("a window");
            let at = Location { target: NormalizedRenderTarget::Window(window), position: Vec2::new(640.0, 360.0) };
            self.app.world_mut().trigger(Pointer::new(PointerId::Mouse, at, event, target));
        }

        fn hit(&self) -> HitData {
            HitData::new(self.window, 0.0, None, None)
        }

        fn click(&mut self, target: Entity) {
            let hit = self.hit();
            self.send(target, Press { button: PointerButton::Primary, hit: hit.clone(), count: 1 });
            self.send(target, Click { button: PointerButton::Primary, hit, duration: Duration::ZERO, count: 1 });
        }

        fn pointer(&self) -> &MapPointer {
            self.app.world().resource::<MapPointer>()
        }

        fn clicked(&self) -> Vec<MapClick> {
            self.app.world().resource::<Messages<MapClick>>().iter_current_update_messages().copied().collect()
        }
    }

    #[test]
    fn the_hex_under_the_cursor_is_read_only_while_the_pointer_is_on_the_map() {
        let mut m = map();
        m.app.update();
        assert_eq!(m.pointer().hex, None, "not on the map yet");
        let (window, hit) = (m.window, m.hit());
        m.send(window, Over { hit: hit.clone() });
        m.app.update();
        assert_eq!(m.pointer().hex, Some(Offset::new(3, 3)));
        // Onto a panel: the window is out (the panel blocks it), and the
        // panel's own Over, propagated up to the window, is not the map's.
        m.send(window, Out { hit: hit.clone() });
        let text = m.text;
        m.send(text, Over { hit });
        m.app.update();
        assert_eq!(m.pointer().hex, None, "over a panel");
    }

    #[test]
    fn a_click_on_the_map_selects_or_orders_and_one_on_a_panel_does_neither() {
        // Nobody's orders awaited: a click on the battalion selects it.
        let mut m = map();
        let window = m.window;
        m.click(window);
        assert_eq!(m.pointer().selected, Some(0));
        assert_eq!(m.clicked(), vec![]);

        // While a phase waits for orders it is the orders' click.
        let mut m = map();
        m.app.world_mut().resource_mut::<PlayerTurn>().awaiting = Some((Phase::Movement, 0));
        m.click(window);
        assert_eq!(m.pointer().selected, None);
        assert_eq!(m.clicked(), vec![MapClick { hex: Offset::new(3, 3), button: MapButton::Primary }]);

        // Looking back at the log, it is nobody's.
        m.app.world_mut().resource_mut::<PlayerTurn>().reviewing = true;
        m.app.world_mut().resource_mut::<Messages<MapClick>>().clear();
        m.click(window);
        assert_eq!(m.clicked(), vec![], "looking back");

        // A click on a panel over the map (the orders banner, a card)
        // reaches the window too, by propagation: either way, nothing.
        for awaiting in [None, Some((Phase::Movement, 0))] {
            let mut m = map();
            m.app.world_mut().resource_mut::<PlayerTurn>().awaiting = awaiting;
            let text = m.text;
            m.click(text);
            assert_eq!((m.pointer().selected, m.clicked()), (None, vec![]), "awaiting {awaiting:?}");
        }
    }

    #[test]
    fn a_drag_pans_the_map_and_is_no_click() {
        let mut m = map();
        let (window, hit) = (m.window, m.hit());
        let before =
            m.app.world_mut().query_filtered::<&Transform, With<MainCamera>>().single(m.app.world()).ok().copied();
        m.send(window, Press { button: PointerButton::Primary, hit: hit.clone(), count: 1 });
        let step = Vec2::new(30.0, 0.0);
        m.send(window, Drag { button: PointerButton::Primary, distance: step, delta: step });
        m.send(window, Click { button: PointerButton::Primary, hit, duration: Duration::ZERO, count: 1 });
        let after =
            m.app.world_mut().query_filtered::<&Transform, With<MainCamera>>().single(m.app.world()).ok().copied();
        let moved = before.zip(after).map(|(b, a)| a.translation.x - b.translation.x);
        assert_eq!(moved, Some(-30.0), "dragged right, the camera goes left");
        assert_eq!(m.pointer().selected, None, "a drag selects nothing");
    }

    /// With a player giving orders at the window the map is fitted below
    /// the orders banner (and beside the side panel), so the banner covers
    /// none of its hexes; a watched battle has the room under the bar.
    #[test]
    fn the_map_is_fitted_below_the_orders_banner_when_a_player_gives_orders() {
        let Ok(game) = crate::game::scenarios::read_game(&Source::Bundled(0)) else { panic!("the cascade opens") };
        let opened = Opened::battle(Source::Bundled(0), Arc::new(game.scenario));
        let window = Window { resolution: WindowResolution::new(1280, 720), ..default() };
        let (lo, hi) = opened.layout.bounds();
        let on_screen = |p: Vec2, (c, s): (Vec2, f32)| Vec2::new(640.0 + (p.x - c.x) / s, 360.0 - (p.y - c.y) / s);
        let human = Controls(vec![Control::Player, Control::Ai]);
        let watched = Controls(vec![Control::Ai, Control::Ai]);
        for (controls, top) in [(None, BAR_H), (Some(&watched), BAR_H), (Some(&human), BAR_H + BANNER_H)] {
            let f = fitted(&opened, controls, &window, 0.0);
            let (top_left, bottom_right) = (on_screen(Vec2::new(lo.x, hi.y), f), on_screen(Vec2::new(hi.x, lo.y), f));
            assert!(top_left.x >= 0.0 && top_left.y >= top - 0.01, "{top_left} below {top}");
            assert!(bottom_right.x <= 1280.0 - PANEL_W + 0.01 && bottom_right.y <= 720.01, "{bottom_right}");
            // As large as the free area allows: it touches one pair of its edges.
            let margin = 16.0;
            let touches = (top_left.y - top - margin).abs() < 0.5 || (top_left.x - margin).abs() < 0.5;
            assert!(touches, "fitted, not merely inside: {top_left}");
        }
        // The editor's palette on the left: the map's first column is right of it.
        let f = fitted(&opened, None, &window, 132.0);
        let top_left = on_screen(Vec2::new(lo.x, hi.y), f);
        assert!(top_left.x >= 132.0 - 0.01, "{top_left} right of the palette");
        assert!(on_screen(Vec2::new(hi.x, lo.y), f).x <= 1280.0 - PANEL_W + 0.01);
    }
}
