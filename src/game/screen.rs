//! The window's frame: its size, the bar along the top and the panel column
//! on the right (which the map is fitted beside), the main camera, and the
//! font every text uses.

use bevy::prelude::*;

/// Size of the window, and of every `sauve shot` picture.
pub const WINDOW_PX: (u32, u32) = (1280, 720);
/// Width of the panel column on the right, which the map is fitted beside.
pub const PANEL_W: f32 = 340.0;
/// Height of the bar along the top.
pub const BAR_H: f32 = 30.0;
/// Height of the orders banner, a band under the bar while a phase waits
/// for a player's orders; when a player sits at the window the map is
/// fitted below it, so the banner covers none of it.
pub const BANNER_H: f32 = 150.0;

/// Room taken on the map's left by a panel there (the editor's palette),
/// which the map is fitted beside as it is beside the right-hand column.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct MapInset(pub f32);

/// The bar along the top, over the whole width: the battle's, or the
/// editor's in its place.
pub fn bar_node() -> Node {
    Node {
        position_type: PositionType::Absolute,
        left: Val::Px(0.0),
        top: Val::Px(0.0),
        width: Val::Percent(100.0),
        height: Val::Px(BAR_H),
        padding: UiRect::axes(Val::Px(10.0), Val::Px(6.0)),
        // One line, never wrapping down over the banner.
        overflow: Overflow::clip(),
        ..default()
    }
}

/// The column down the right-hand side under the bar, `PANEL_W` wide: the
/// battle's details and log, or the editor's side panel in its place.
pub fn side_panel_node(padding: f32, row_gap: f32) -> Node {
    Node {
        position_type: PositionType::Absolute,
        right: Val::Px(0.0),
        top: Val::Px(BAR_H),
        bottom: Val::Px(0.0),
        width: Val::Px(PANEL_W),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(padding)),
        row_gap: Val::Px(row_gap),
        overflow: Overflow::clip(),
        ..default()
    }
}

/// The camera that looks at the map (the UI draws through it too).
#[derive(Component)]
pub struct MainCamera;

/// DejaVu Sans Condensed (free licence, see assets/fonts/), embedded: the
/// unit names need accented letters (9e Léger) that Bevy's built-in ASCII
/// subset of Fira Mono lacks, and condensed letters fit more log per line.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf");

/// Makes our font the default one, so every `TextFont::default()` uses it.
fn use_our_font(mut fonts: ResMut<Assets<Font>>) {
    if fonts.insert(AssetId::default(), Font::from_bytes(FONT.to_vec())).is_err() {
        warn!("cannot install the game's font; text falls back to Bevy's own");
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, use_our_font).insert_resource(ClearColor(super::theme::BACKGROUND));
}
