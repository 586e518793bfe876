//! The banner of a phase waiting for orders, a band under the top bar:
//! whose orders, what to do, the movement points left, the odds, what
//! became of the last order, and the End phase and Undo buttons (which send
//! the same [`Intent`]s as their keys).

use bevy::prelude::*;
use bevy::ui_widgets::Activate;

use super::decide::{edge_words, hint};
use super::keys::Intent;
use super::words::{REVIEWING_HINT, mp_words};
use crate::game::opened::Opened;
use crate::game::screen::{BANNER_H, BAR_H, PANEL_W};
use crate::game::seats::Seats;
use crate::game::theme::{self, pad};
use crate::game::thinking::{self, Mind};
use crate::game::turn::PlayerTurn;
use crate::hex::Edge;
use crate::sim;
use crate::turn::Phase;

/// The order buttons of the banner.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
pub(super) enum OrderButton {
    EndPhase,
    Undo,
}

#[derive(Component)]
pub(super) struct Card;
#[derive(Component)]
pub(super) struct CardTitle;
#[derive(Component)]
pub(super) struct CardHint;
#[derive(Component)]
pub(super) struct CardOdds;
#[derive(Component)]
pub(super) struct CardMessage;
#[derive(Component)]
pub(super) struct CardButtons;

/// A banner button pressed: the intent of its key.
pub(super) fn press(activate: On<Activate>, buttons: Query<&OrderButton>, mut out: MessageWriter<Intent>) {
    if let Ok(b) = buttons.get(activate.entity) {
        out.write(match b {
            OrderButton::EndPhase => Intent::EndPhase,
            OrderButton::Undo => Intent::Undo,
        });
    }
}

pub(super) fn spawn_card(mut commands: Commands) {
    // Every text as wide as its column, so it wraps inside it.
    let text =
        |size: f32, colour: Color| (theme::text("", size, colour), Node { width: Val::Percent(100.0), ..default() });
    let button =
        |label: &str, which: OrderButton| (which, theme::button(label, 14.0, theme::BUTTON_ACTION, pad(10.0, 4.0)));
    // A column scrolls (with the wheel) what it cannot hold, so a long
    // result is never cut off.
    let column = |width: Val| {
        (
            Node {
                flex_direction: FlexDirection::Column,
                width,
                height: Val::Percent(100.0),
                min_height: Val::Px(0.0),
                row_gap: Val::Px(4.0),
                overflow: Overflow::scroll_y(),
                ..default()
            },
            crate::game::scroll::Scrolls,
            ScrollPosition::default(),
        )
    };
    // A band of its own under the bar, as wide as the map's part of the
    // window and as high as the map leaves free for it when a player sits
    // at the window (camera fit): what to do on the left; on the right the
    // buttons first (a long result is cut at the bottom, never they), the
    // odds and what became of the last order.
    commands.spawn((
        Card,
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(0.0),
            right: Val::Px(PANEL_W),
            top: Val::Px(BAR_H),
            height: Val::Px(BANNER_H),
            padding: UiRect::axes(Val::Px(10.0), Val::Px(8.0)),
            column_gap: Val::Px(16.0),
            overflow: Overflow::clip(),
            display: Display::None,
            ..default()
        },
        BackgroundColor(theme::BANNER),
        GlobalZIndex(3),
        children![
            (
                column(Val::Percent(52.0)),
                children![(CardTitle, text(17.0, theme::TEXT_TITLE)), (CardHint, text(13.0, theme::TEXT_HINT))],
            ),
            (
                {
                    let (node, scrolls, at) = column(Val::Auto);
                    (Node { flex_grow: 1.0, flex_basis: Val::Px(0.0), ..node }, scrolls, at)
                },
                children![
                    (
                        CardButtons,
                        Node { column_gap: Val::Px(8.0), align_items: AlignItems::Center, ..default() },
                        children![
                            button("End phase (E)", OrderButton::EndPhase),
                            button("Undo (U)", OrderButton::Undo),
                            theme::text(", and .: step the log (End: the present)", 12.0, theme::TEXT_SMALL),
                        ],
                    ),
                    (CardOdds, text(13.0, theme::TEXT_ODDS)),
                    (CardMessage, text(13.0, theme::TEXT_REFUSED)),
                ],
            ),
        ],
    ));
}

/// The banner of a phase waiting for orders: whose orders, what to do, the
/// odds, and what became of the last order.
pub(super) fn show_card(
    turn: Res<PlayerTurn>,
    opened: Res<Opened>,
    seats: Res<Seats>,
    clock: Option<Res<sim::Clock>>,
    mind: Option<Res<Mind>>,
    guide: Option<Res<crate::game::guide::Guide>>,
    mut card: Query<&mut Node, (With<Card>, Without<CardButtons>)>,
    mut buttons: Query<&mut Node, (With<CardButtons>, Without<Card>)>,
    mut texts: ParamSet<(
        Query<&mut Text, With<CardTitle>>,
        Query<&mut Text, With<CardHint>>,
        Query<&mut Text, With<CardOdds>>,
        Query<(&mut Text, &mut TextColor), With<CardMessage>>,
    )>,
) {
    let guided = guide.as_ref().is_some_and(|g| g.is_changed());
    if !turn.is_changed()
        && !seats.is_changed()
        && !guided
        && mind.as_ref().is_none_or(|m| !m.is_changed() && m.job.is_none())
    {
        return;
    }
    let Ok(mut node) = card.single_mut() else { return };
    // Names, not ids, in every sentence the banner says (a refusal the
    // rules word with ids included).
    let named = |text: &str| match &opened.scenario {
        Some(s) => {
            let ids: Vec<&str> = s.units.iter().map(|u| u.id.as_str()).collect();
            crate::sentences::named(text, &crate::sentences::ScenarioNames(s), &ids)
        }
        None => text.to_owned(),
    };
    if let Ok((mut t, mut c)) = texts.p3().single_mut() {
        match &turn.message {
            Some(m) => {
                t.0 = named(&m.text);
                c.0 = if m.error { theme::TEXT_REFUSED } else { theme::TEXT_MESSAGE };
            }
            None => t.0.clear(),
        }
    }
    let (Some((phase, side)), Some(s), Some(clock)) = (turn.awaiting, &opened.scenario, clock) else {
        // Outside a waiting phase the card only carries a message (saved,
        // seats changed) for a few seconds, or how far the computer's
        // thinking has gone.
        let thinking = opened.scenario.as_ref().zip(mind.as_deref()).and_then(|(s, m)| thinking::words(m, &s.sides));
        node.display = if turn.message.is_some() || thinking.is_some() { Display::Flex } else { Display::None };
        for mut b in &mut buttons {
            b.display = Display::None;
        }
        let (title, line) = thinking.unwrap_or_default();
        if let Ok(mut t) = texts.p0().single_mut() {
            t.0 = title;
        }
        if let Ok(mut t) = texts.p1().single_mut() {
            t.0 = line;
        }
        if let Ok(mut t) = texts.p2().single_mut() {
            t.0.clear();
        }
        return;
    };
    node.display = Display::Flex;
    // Looking back, End phase and Undo would do nothing: hidden.
    for mut b in &mut buttons {
        b.display = if turn.reviewing { Display::None } else { Display::Flex };
    }
    let side_name = s.sides.get(side).map_or("?", |x| x.name.as_str());
    let whose = if *seats == Seats::HotSeat { "Orders for" } else { "Your orders:" };
    let title = format!("{whose} {side_name} — {}, turn {}", clock.phase.words(), clock.turn);
    if let Ok(mut t) = texts.p0().single_mut() {
        t.0 = title;
    }
    if let Ok(mut t) = texts.p1().single_mut()
        && turn.reviewing
    {
        t.0 = REVIEWING_HINT.to_owned();
    } else if let Ok(mut t) = texts.p1().single_mut() {
        let mut out = String::new();
        // The first battle's guide leads the hint.
        if let Some(line) = guide.as_ref().and_then(|g| g.banner_line()) {
            out += &line;
            out.push('\n');
        }
        if phase == Phase::Movement
            && let Some((i, left)) = turn.mp_left
        {
            let name = s.units.get(i).map_or("?", |u| u.name.as_str());
            out += &format!("{name}: {} left\n", mp_words(left));
        }
        out += if s.mode == crate::scenario::Mode::FreeSpace {
            super::table::hint(phase)
        } else {
            hint(phase, turn.group.len())
        };
        let edges: Vec<Edge> = s.exits.iter().filter(|x| x.side == side).map(|x| x.edge).collect();
        if phase == Phase::Movement && !edges.is_empty() {
            out += &format!("\nX: march the selected unit off the map (it must stand on the {}).", edge_words(&edges));
        }
        t.0 = out;
    }
    if let Ok(mut t) = texts.p2().single_mut() {
        t.0 = named(turn.odds.as_deref().unwrap_or_default());
    }
}
