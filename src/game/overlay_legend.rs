//! The overlays' legend: while any of the overlays 1-4 is on, a card of the
//! right-hand column says which are shown and how to read them, and how to
//! hide each (its key again), so a newcomer never wonders what the tints
//! and arrows on the map are.

use bevy::prelude::*;

use super::cards::{self, SideColumn};
use super::opened::Opened;
use super::overlays::Overlays;
use super::sets::GameSet;
use super::theme::{self, text};

#[derive(Component)]
struct LegendCard;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, card.in_set(GameSet::Panels));
}

/// The legend's lines for the overlays that are on, in key order; `table`
/// for a free-space battle, where the hex overlays say they show nothing.
pub fn lines(o: &Overlays, table: bool) -> Vec<String> {
    let hex_only = if table { " (hex maps only: nothing on a table)" } else { "" };
    let mut out = Vec::new();
    if o.heat {
        out.push(format!(
            "1  Distance to the nearest enemy of the selected unit's side: red next to it, fading to yellow and \
             clear far off{hex_only}."
        ));
    }
    if o.zones {
        out.push(format!("2  Enemy zones of influence: red tint, purple where cavalry's reach{hex_only}."));
    }
    if o.range {
        out.push(format!(
            "3  Where the selected unit can march this phase, as the rules reach it: blue tint{hex_only}."
        ));
    }
    if o.arrows {
        out.push("4  This turn's rout moves: red arrows from where each router stood.".into());
    }
    out
}

/// The card, drawn again when the overlays change.
fn card(
    mut commands: Commands,
    overlays: Res<Overlays>,
    opened: Res<Opened>,
    old: Query<Entity, With<LegendCard>>,
    columns: Query<Entity, With<SideColumn>>,
) {
    if !overlays.is_changed() && !opened.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let table = matches!(opened.layout, super::layout::Layout::Table { .. });
    let shown = lines(&overlays, table);
    if shown.is_empty() || opened.scenario.is_none() {
        return;
    }
    let root = commands.spawn((LegendCard, cards::note(theme::PANEL))).id();
    if let Some(c) = cards::column(&columns) {
        commands.entity(root).insert(ChildOf(c));
    }
    commands.entity(root).with_child((
        text("Overlays shown (press a number again to hide it)", 13.0, theme::TEXT_HEADING),
        Node { width: Val::Percent(100.0), ..default() },
    ));
    for l in shown {
        commands
            .entity(root)
            .with_child((text(l, 12.0, theme::TEXT_BODY), Node { width: Val::Percent(100.0), ..default() }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_names_each_overlay_on_and_none_that_is_off() {
        assert!(lines(&Overlays::default(), false).is_empty());
        let o = Overlays { heat: false, zones: true, range: false, arrows: true };
        let l = lines(&o, false);
        assert_eq!(l.len(), 2);
        assert!(l[0].starts_with("2  Enemy zones") && l[1].starts_with("4  This turn's rout moves"), "{l:?}");
        assert!(lines(&o, true)[0].contains("nothing on a table"));
    }
}
