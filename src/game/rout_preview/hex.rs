//! The rout preview of a hex battle drawn and told (rules 1.3, 1.4): a
//! mark on every hex of the path, a label on each hex of friends with
//! their chances to fail contagion, the path as a cased line with an
//! arrowhead, and the legend's words.

use bevy::prelude::*;

use super::paint::{cased_path, spawn_label};
use super::view::{Previewed, RiskLabel, RoutMark, Why};
use crate::game::layout::Layout;
use crate::game::lines::Lines;
use crate::game::map::z;
use crate::game::opened::OnBattle;
use crate::game::orders::words::pct;
use crate::game::theme::ROUT_PATH;
use crate::hex::{Edge, Offset};
use crate::labataille::rout_preview::{ContagionRisk, RoutEnd, RoutPreview};

/// A friend's chance in words: a stack top or a lone unit's chance to fail
/// its check; another unit of a stack "then" its chance all told, with
/// its chance if it does check.
fn risk_words(r: &ContagionRisk) -> String {
    if r.after_top {
        format!("then {} ({})", pct(r.overall.fraction() as f32), pct(r.fails.fraction() as f32))
    } else {
        pct(r.fails.fraction() as f32)
    }
}

/// The labels of a preview, one per hex of friends: their chances, one
/// line each, in the order they would check.
pub fn risk_labels(p: &RoutPreview) -> Vec<(Offset, String)> {
    let mut out: Vec<(Offset, String)> = Vec::new();
    for r in &p.risks {
        match out.iter_mut().find(|(h, _)| *h == r.hex) {
            Some((_, text)) => {
                text.push('\n');
                text.push_str(&risk_words(r));
            }
            None => out.push((r.hex, risk_words(r))),
        }
    }
    out
}

/// How the move ends, in words.
fn end_words(p: &RoutPreview) -> String {
    let hexes = p.path.len().saturating_sub(1);
    match p.end {
        RoutEnd::Full => format!("runs {hexes} hexes to {}", p.path.last().map_or_else(String::new, |h| h.to_string())),
        RoutEnd::OffMap { edge, recovers } => format!(
            "runs {hexes} hexes and off the map by the {} edge: {}",
            format!("{edge:?}").to_lowercase(),
            if recovers { "it may recover there" } else { "eliminated" }
        ),
        RoutEnd::Surrender => "has no full rout move: it surrenders where it stands".into(),
    }
}

/// The legend's text for a hex preview.
pub(super) fn legend_words(shown: &Previewed, names: impl Fn(usize) -> String) -> String {
    let p = &shown.preview;
    let whose = match shown.why {
        Why::Selected => "selected; R hides it",
        Why::Target => "the target under the pointer",
        Why::Charged(_) => "the target under the pointer, as it will stand when the charge makes contact",
    };
    let mut out = format!("Rout preview of {} ({whose}): it {}.", shown.name, end_words(p));
    match p.risks.len() {
        0 => out += "\nIt passes no friend in good order.",
        n => {
            let friends = if n == 1 { "1 friend".to_owned() } else { format!("{n} friends") };
            out += &format!(
                "\nIt passes {friends} in good order; each label is a friend's chance to fail its contagion check."
            );
        }
    }
    if p.risks.iter().any(|r| r.after_top) {
        out += "\n\"then\": another unit of a stack checks only if the top one fails (its chance all told, and \
                if it checks).";
    }
    for r in p.risks.iter().take(8) {
        out += &format!("\n  {} at {}: {}", names(r.unit), r.hex, risk_words(r));
    }
    if p.risks.len() > 8 {
        out += &format!("\n  and {} more", p.risks.len() - 8);
    }
    out += "\nThe engine's own rout planner on the board as it stands; no dice rolled.";
    out
}

/// The path's hexes and the friends' labels.
pub(super) fn spawn_marks(commands: &mut Commands, p: &RoutPreview, layout: Layout) {
    for &hex in &p.path {
        commands.spawn((
            RoutMark { hex },
            Sprite::from_color(ROUT_PATH, Vec2::splat(9.0)),
            Transform::from_translation(layout.world(hex).extend(z::FLASH - 1.5))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
            OnBattle,
        ));
    }
    let mut labels = risk_labels(p);
    let end_label = match p.end {
        RoutEnd::Full => None,
        RoutEnd::OffMap { recovers: true, .. } => Some("off the map: may recover"),
        RoutEnd::OffMap { recovers: false, .. } => Some("off the map: eliminated"),
        RoutEnd::Surrender => Some("surrenders"),
    };
    if let (Some(words), Some(&last)) = (end_label, p.path.last()) {
        labels.push((last, words.to_owned()));
    }
    for (hex, words) in labels {
        let at = layout.world(hex);
        spawn_label(commands, RiskLabel { hex, text: words.clone() }, at, &words);
    }
}

/// The hex just past `edge` from the edge hex `at`, where an off-map
/// rout's arrow points.
fn beyond(at: Offset, edge: Edge) -> Offset {
    match edge {
        Edge::North => Offset::new(at.c, at.r - 1),
        Edge::South => Offset::new(at.c, at.r + 1),
        Edge::West => Offset::new(at.c - 1, at.r),
        Edge::East => Offset::new(at.c + 1, at.r),
    }
}

/// The path as a cased line with an arrowhead; the end hex ringed, a
/// surrender crossed out.
pub(super) fn draw(p: &RoutPreview, layout: Layout, lines: &mut Lines) {
    let mut pts: Vec<Vec2> = p.path.iter().map(|&o| layout.world(o)).collect();
    if let (RoutEnd::OffMap { edge, .. }, Some(&last)) = (p.end, p.path.last()) {
        pts.push(layout.world(beyond(last, edge)));
    }
    let z = z::FLASH - 2.0;
    cased_path(lines, &pts, z);
    match (p.end, pts.first()) {
        (RoutEnd::Full, _) => {
            if let Some(&end) = p.path.last() {
                lines.circle(layout.world(end), 26.0, 3.5, ROUT_PATH, z);
            }
        }
        (RoutEnd::Surrender, Some(&at)) => {
            for d in [Vec2::new(18.0, 18.0), Vec2::new(18.0, -18.0)] {
                lines.line(at - d, at + d, 5.0, ROUT_PATH, z);
            }
        }
        _ => {}
    }
}
