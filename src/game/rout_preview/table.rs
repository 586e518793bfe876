//! The flight preview of a free-space table drawn and told (docs/rules.md
//! 2.2, 2.3): the way the unit's centre would go as a cased line with an
//! arrowhead, its flight square at the end, each friend the flight would
//! meet ringed and labelled with its chance to be carried along, the way
//! on if a friend is carried along as a thin line, and the legend's words.

use bevy::prelude::*;

use super::paint::{cased_path, spawn_label};
use super::view::{FlightLabel, FlightShown};
use crate::belle_alliance::flight_preview::{CarryRisk, FlightPreview, Obstacle, Whence};
use crate::belle_alliance::geometry::bearing_of;
use crate::belle_alliance::{FsCtx, Table};
use crate::game::layout::Layout;
use crate::game::lines::Lines;
use crate::game::map::z;
use crate::game::orders::words::pct;
use crate::game::theme::ROUT_PATH;
use crate::hex::Edge;
use crate::terrain::Terrain;

/// The eight points of the compass, clockwise from north (the table's top).
pub fn compass(bearing: f32) -> &'static str {
    const POINTS: [&str; 8] =
        ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"];
    POINTS[((bearing.rem_euclid(360.0) + 22.5) / 45.0) as usize % 8]
}

fn edge_words(edge: Edge) -> &'static str {
    match edge {
        Edge::North => "north",
        Edge::South => "south",
        Edge::East => "east",
        Edge::West => "west",
    }
}

fn ground_words(t: Terrain) -> &'static str {
    match t {
        Terrain::River => "the river",
        Terrain::Woods => "the woods",
        Terrain::Marsh => "the marsh",
        Terrain::Town => "the town",
        Terrain::Village => "the village",
        Terrain::Garden => "the gardens",
        Terrain::Bridge => "the bridge",
        Terrain::Road => "the road",
        Terrain::Clear => "the ground",
    }
}

/// What stopped the flight, in words.
fn stop_words(stop: Obstacle, names: &impl Fn(usize) -> String) -> String {
    match stop {
        Obstacle::Edge(e) => format!("to the table's {} edge, where it stops", edge_words(e)),
        Obstacle::Ground(t) => format!("stopped by {}", ground_words(t)),
        Obstacle::Enemy(j) => format!("stopped by {}", names(j)),
    }
}

/// A friend's chance in words: the first friend met, its chance to be
/// carried along; a later one, "then" its chance all told, with its
/// chance once met.
fn risk_words(k: usize, r: &CarryRisk) -> String {
    if k == 0 {
        format!("fails {}", pct(r.fails.fraction() as f32))
    } else {
        format!("then {} ({})", pct(r.overall as f32), pct(r.fails.fraction() as f32))
    }
}

/// The labels of a preview: one over each friend met, and one at the end
/// saying what stopped it, with where each stands (cm).
pub fn flight_labels(p: &FlightPreview, names: impl Fn(usize) -> String) -> Vec<(Option<usize>, (f32, f32), String)> {
    let mut out: Vec<_> = p.carried.iter().enumerate().map(|(k, r)| (Some(r.unit), r.at, risk_words(k, r))).collect();
    if let Some(stop) = p.stopped {
        let what = match stop {
            Obstacle::Edge(_) => "the table's edge".to_owned(),
            Obstacle::Ground(t) => ground_words(t).to_owned(),
            Obstacle::Enemy(j) => names(j),
        };
        out.push((None, p.end(), format!("stopped: {what}")));
    }
    out
}

/// The legend's text for a table's preview, names for ids throughout.
pub fn legend_words(shown: &FlightShown, names: impl Fn(usize) -> String) -> String {
    let p = &shown.preview;
    let name = &shown.name;
    if p.fleeing {
        return format!(
            "Flight preview of {name} (selected; R hides it): it is fleeing already. It stands in its flight \
             formation until it reorganises, and nothing puts it to flight again."
        );
    }
    let (a, b) = (p.start(), p.end());
    let mut out = format!("{name} would flee {:.0} cm", p.fled_cm());
    if p.fled_cm() >= 0.5 {
        out += &format!(" {}", compass(bearing_of(b.0 - a.0, b.1 - a.1)));
    }
    if let Some(stop) = p.stopped {
        out += &format!(", {}", stop_words(stop, &names));
    }
    for (k, r) in p.carried.iter().enumerate() {
        out += &match k {
            0 => format!("; would carry along {} (fails {})", names(r.unit), pct(r.fails.fraction() as f32)),
            _ => format!(", then {} ({} all told)", names(r.unit), pct(r.overall as f32)),
        };
    }
    out += ".";
    out += &match p.whence {
        Whence::Enemy { unit, nearest: true } => {
            format!(
                "\nFrom {}, the nearest enemy, taken as the cause: it flees within its cone about the line from it.",
                names(unit)
            )
        }
        Whence::Enemy { unit, nearest: false } => {
            format!("\nFrom {}, within its cone about the line from it.", names(unit))
        }
        Whence::Free => "\nNo enemy to flee from: it flees within its cone about the line to its own rear.".to_owned(),
    };
    out += &format!(" Its flight march is {:.0} cm.", p.march_cm);
    match p.carried.len() {
        0 => out += "\nIt meets no friend that is not fleeing.",
        n => {
            out += "\nEach ringed friend's label is its chance to be carried along, then to flee with it; a flight \
                    that meets a friend who stands tests no other.";
            if n > 1 {
                out += " \"then\": met only if the one before is carried along (its chance all told, and once met).";
            }
            out += "\nThe thin line: the way it would go if the friend is carried along.";
            out += &format!(
                "\nFriends expected to flee all told: {:.2} (a friend shaken into U with no room to retreat flees \
                 too, and carries others along).",
                p.fled_all_told
            );
        }
    }
    for (k, r) in p.carried.iter().enumerate().take(8) {
        out += &format!("\n  {}: {}", names(r.unit), risk_words(k, r));
        if r.shaken.ways > 0 {
            out += &format!(", else shaken into U {}", pct(r.shaken.fraction() as f32));
        }
    }
    if p.carried.len() > 8 {
        out += &format!("\n  and {} more", p.carried.len() - 8);
    }
    out += "\nThe engine's own flight on a copy of the table as it stands; no dice rolled.";
    out
}

/// The labels over the friends and at the end.
pub(super) fn spawn_marks(commands: &mut Commands, p: &FlightPreview, layout: Layout, names: impl Fn(usize) -> String) {
    for (unit, at, words) in flight_labels(p, names) {
        let world = layout.table_world(at.0, at.1);
        spawn_label(commands, FlightLabel { unit, text: words.clone() }, world, &words);
    }
}

/// The path as a cased line, the flight square at its end, each friend
/// met ringed about its footprint on `table`, and the way on if a friend
/// is carried along as a thin line.
pub(super) fn draw(p: &FlightPreview, ctx: &FsCtx, table: &Table, layout: Layout, lines: &mut Lines) {
    let z = z::FLASH - 2.0;
    let ppc = layout.px_per_cm();
    let world = |&(x, y): &(f32, f32)| layout.table_world(x, y);
    for r in &p.carried {
        let branch: Vec<Vec2> = r.path_if_carried.iter().map(world).collect();
        lines.polyline(&branch, 2.0, ROUT_PATH, z - 0.2);
        if let Some(f) = table.units.get(r.unit) {
            let rect = f.rect(ctx.ba());
            let radius = rect.width.hypot(rect.depth) / 2.0 * ppc + 6.0;
            lines.circle(layout.table_world(f.x, f.y), radius, 3.0, ROUT_PATH, z);
        }
    }
    if p.fleeing {
        return;
    }
    let pts: Vec<Vec2> = p.path.iter().map(world).collect();
    cased_path(lines, &pts, z);
    let s = &p.square;
    let size = Vec2::new(s.width, s.depth) * ppc;
    lines.rect(layout.table_world(s.x, s.y), size, -s.facing.to_radians(), 3.0, ROUT_PATH, z);
}
