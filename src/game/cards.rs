//! The cards of the right-hand column: the why view, the forecast's
//! legend, the fork and the rout preview take the battle log's place
//! there, one under another and laid out by the column itself, so that
//! none covers the map or another panel; short notes (the overlays'
//! legend, the first battle's guide) stand above the log, which keeps the
//! room left. Each scrolls with the wheel when it is long, and each
//! has a button that closes it (beside its key).

use bevy::prelude::*;

use super::scroll::Scrolls;
use super::theme::{self, button, pad, text};

/// The right-hand column (its cards are its children).
#[derive(Component)]
pub struct SideColumn;

/// A card of the right-hand column: while one shows, the log steps aside.
#[derive(Component)]
pub struct SideCard;

/// The node of a card: a column as wide as the panel, that shrinks to the
/// room left and scrolls what does not fit.
pub fn card_node() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        width: Val::Percent(100.0),
        flex_shrink: 1.0,
        min_height: Val::Px(0.0),
        padding: UiRect::all(Val::Px(8.0)),
        row_gap: Val::Px(4.0),
        overflow: Overflow::scroll_y(),
        ..default()
    }
}

/// What every card is besides its own marker and colour.
pub fn card(back: Color) -> (SideCard, Node, BackgroundColor, Scrolls, ScrollPosition) {
    (SideCard, card_node(), BackgroundColor(back), Scrolls, ScrollPosition::default())
}

/// What a note is: a card that leaves the log beside it (the overlays'
/// legend, the first battle's guide), for it is short.
pub fn note(back: Color) -> (Node, BackgroundColor, Scrolls, ScrollPosition) {
    (Node { flex_shrink: 0.0, ..card_node() }, BackgroundColor(back), Scrolls, ScrollPosition::default())
}

/// A card's title with its close button (`close` is the marker the
/// card's feature closes it by, `words` what the button says).
/// Returns the title's entity, for a card whose title changes.
pub fn title_row(
    commands: &mut Commands,
    card: Entity,
    title: impl Into<String>,
    close: impl Bundle,
    words: &str,
) -> Entity {
    let row = commands
        .spawn((
            Node {
                width: Val::Percent(100.0),
                column_gap: Val::Px(8.0),
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexStart,
                ..default()
            },
            ChildOf(card),
        ))
        .id();
    let title = commands
        .spawn((text(title, 14.0, theme::TEXT_HEADING), Node { flex_grow: 1.0, ..default() }, ChildOf(row)))
        .id();
    commands.entity(row).with_child((close, button(words, 12.0, theme::BUTTON_ACTION, pad(6.0, 2.0))));
    title
}

/// The column cards go in, if it is up (an app without the side panel
/// has none; its cards then stand on their own).
pub fn column(columns: &Query<Entity, With<SideColumn>>) -> Option<Entity> {
    columns.iter().next()
}
