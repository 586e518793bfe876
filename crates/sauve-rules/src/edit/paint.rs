//! Painting the ground of a scenario file: a terrain laid with a brush
//! (one hex or cell, a radius of 1 to 3, or a fill of the like ground
//! around it), streams and slopes on hex edges, and the free-space cell
//! size. The map stays rows of legend characters, as authors write them
//! (docs/scenario-format.md, The map).

use std::collections::{BTreeSet, VecDeque};

use crate::hex::{Dir, Offset};
use crate::scenario::{HexsideFile, MapFile, Mode};
use crate::terrain::{HexsideKind, Terrain};

/// What one stroke of the brush covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    /// The hex (or cell) under the pointer.
    One,
    /// Every hex within 1 to 3 of it (cells: a square of that half-width).
    Radius(u8),
    /// The connected ground of the same terrain as the one under it.
    Fill,
}

/// The map's size: the first row's length and the number of rows.
pub fn size(map: &MapFile) -> (i32, i32) {
    (map.rows.first().map_or(0, |r| r.chars().count()) as i32, map.rows.len() as i32)
}

/// The character the map writes `t` with: the legend's, else the default
/// legend's unless the legend gives that character to another terrain;
/// `None` if neither is free.
pub fn char_for(map: &MapFile, t: Terrain) -> Option<char> {
    if let Some((&c, _)) = map.legend.iter().find(|&(_, &x)| x == t) {
        return Some(c);
    }
    let c = t.default_char();
    (!map.legend.contains_key(&c)).then_some(c)
}

/// The terrain of a hex, read through the legend; `None` off the map or
/// for a character the legend does not know.
pub fn terrain_at(map: &MapFile, at: Offset) -> Option<Terrain> {
    let ch = map.rows.get(usize::try_from(at.r).ok()?)?.chars().nth(usize::try_from(at.c).ok()?)?;
    map.legend.get(&ch).copied().or_else(|| Terrain::from_default_char(ch))
}

fn set_char(map: &mut MapFile, at: Offset, ch: char) -> bool {
    let (Ok(r), Ok(c)) = (usize::try_from(at.r), usize::try_from(at.c)) else { return false };
    let Some(row) = map.rows.get_mut(r) else { return false };
    let mut chars: Vec<char> = row.chars().collect();
    match chars.get_mut(c) {
        Some(old) if *old != ch => {
            *old = ch;
            *row = chars.into_iter().collect();
            true
        }
        _ => false,
    }
}

/// The hexes (cells) a brush covers at `at`, in row then column order.
pub fn covered(map: &MapFile, mode: Mode, at: Offset, brush: Brush) -> Vec<Offset> {
    let (w, h) = size(map);
    let on = |o: Offset| o.c >= 0 && o.r >= 0 && o.c < w && o.r < h;
    if !on(at) {
        return Vec::new();
    }
    let mut out: BTreeSet<(i32, i32)> = BTreeSet::new();
    match brush {
        Brush::One => {
            out.insert((at.r, at.c));
        }
        Brush::Radius(r) => {
            let r = i32::from(r.clamp(1, 3));
            for row in at.r - r - 1..=at.r + r + 1 {
                for col in at.c - r..=at.c + r {
                    let o = Offset::new(col, row);
                    let within = match mode {
                        Mode::Hex => at.distance(o) <= r as u32,
                        Mode::FreeSpace => (o.r - at.r).abs() <= r,
                    };
                    if on(o) && within {
                        out.insert((row, col));
                    }
                }
            }
        }
        Brush::Fill => {
            let like = terrain_at(map, at);
            let mut todo = VecDeque::from([at]);
            out.insert((at.r, at.c));
            while let Some(o) = todo.pop_front() {
                let next: Vec<Offset> = match mode {
                    Mode::Hex => o.neighbours().to_vec(),
                    Mode::FreeSpace => [(0, -1), (1, 0), (0, 1), (-1, 0)]
                        .iter()
                        .map(|&(dc, dr)| Offset::new(o.c + dc, o.r + dr))
                        .collect(),
                };
                for n in next {
                    if on(n) && terrain_at(map, n) == like && out.insert((n.r, n.c)) {
                        todo.push_back(n);
                    }
                }
            }
        }
    }
    out.into_iter().map(|(row, col)| Offset::new(col, row)).collect()
}

/// Lays `t` under the brush at `at`; the hexes it changed (none if the
/// legend has no character for `t`: see [`char_for`]).
pub fn paint(map: &mut MapFile, mode: Mode, at: Offset, brush: Brush, t: Terrain) -> usize {
    let Some(ch) = char_for(map, t) else { return 0 };
    covered(map, mode, at, brush).into_iter().filter(|&o| set_char(map, o, ch)).count()
}

/// The hexside feature on the `side` edge of `at`, whichever of the two
/// hexes it was written from.
pub fn hexside_at(map: &MapFile, at: Offset, side: Dir) -> Option<HexsideKind> {
    let other = (at.neighbour(side), side.opposite());
    map.hexsides
        .iter()
        .find(|h| {
            let o = Offset::new(h.at.0, h.at.1);
            (o, h.side) == (at, side) || (o, h.side) == other
        })
        .map(|h| h.kind)
}

/// Puts `kind` on the `side` edge of `at` (`None` clears it), one entry
/// per edge whichever hex it is named from; whether anything changed.
pub fn set_hexside(map: &mut MapFile, at: Offset, side: Dir, kind: Option<HexsideKind>) -> bool {
    if hexside_at(map, at, side) == kind {
        return false;
    }
    let other = (at.neighbour(side), side.opposite());
    map.hexsides.retain(|h| {
        let o = Offset::new(h.at.0, h.at.1);
        (o, h.side) != (at, side) && (o, h.side) != other
    });
    if let Some(kind) = kind {
        map.hexsides.push(HexsideFile { at: (at.c, at.r), side, kind });
    }
    true
}

/// The free-space cell size, in cm, one step up or down (1 to 100): the
/// table grows or shrinks with it; the new size.
pub fn step_cell_cm(map: &mut MapFile, up: bool) -> f32 {
    let now = map.cell_cm.unwrap_or(crate::edit::blank::NEW_CELL_CM);
    let next = (now.round() + if up { 1.0 } else { -1.0 }).clamp(1.0, 100.0);
    map.cell_cm = Some(next);
    next
}

/// The map block as a terrain map to draw while it is edited: a character
/// the legend does not know reads as clear ground (the checker names it).
pub fn terrain_map(map: &MapFile, mode: Mode) -> crate::map::TerrainMap {
    let (w, h) = size(map);
    let mut t = crate::map::TerrainMap::filled(w, h, Terrain::Clear);
    for r in 0..h {
        for c in 0..w {
            let at = Offset::new(c, r);
            t.set(at, terrain_at(map, at).unwrap_or(Terrain::Clear));
        }
    }
    if mode == Mode::Hex {
        for hs in &map.hexsides {
            let at = Offset::new(hs.at.0, hs.at.1);
            if t.contains(at) && t.contains(at.neighbour(hs.side)) {
                t.add_hexside(at, hs.side, hs.kind);
            }
        }
    }
    t
}

/// The edge of hex `at` nearest a point `v` (in hex widths from its
/// centre, +x east, +y south): the side the pointer is over.
pub fn nearest_side(dx: f32, dy: f32) -> Dir {
    // Flat-top hexes: N is straight up, then clockwise every 60 degrees.
    let deg = dx.atan2(-dy).to_degrees().rem_euclid(360.0);
    Dir::from_degrees(deg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &[&str]) -> MapFile {
        MapFile { rows: rows.iter().map(|r| (*r).to_owned()).collect(), ..MapFile::default() }
    }

    #[test]
    fn one_hex_a_radius_and_a_fill_cover_what_they_say() {
        let mut m = map(&["......", "..ww..", "..ww..", "......", "......"]);
        assert_eq!(paint(&mut m, Mode::Hex, Offset::new(0, 0), Brush::One, Terrain::Town), 1);
        assert_eq!(m.rows[0], "t.....");
        // A radius 1 in hex mode: the hex and its six neighbours on the map.
        let c = Offset::new(3, 2);
        let r1 = covered(&m, Mode::Hex, c, Brush::Radius(1));
        assert_eq!(r1.len(), 7);
        assert!(r1.iter().all(|&o| o.distance(c) <= 1));
        // At a corner fewer are on the map.
        assert_eq!(covered(&m, Mode::Hex, Offset::new(5, 4), Brush::Radius(1)).len(), 3);
        // The fill takes the woods and nothing else.
        assert_eq!(paint(&mut m, Mode::Hex, Offset::new(2, 1), Brush::Fill, Terrain::Marsh), 4);
        assert_eq!(m.rows[1], "..mm..");
        assert_eq!(m.rows[2], "..mm..");
        // Painting what is there changes nothing.
        assert_eq!(paint(&mut m, Mode::Hex, Offset::new(2, 1), Brush::One, Terrain::Marsh), 0);
        // Off the map: nothing.
        assert_eq!(paint(&mut m, Mode::Hex, Offset::new(9, 9), Brush::Radius(3), Terrain::Road), 0);
    }

    #[test]
    fn the_legend_gives_the_character_and_a_taken_default_is_refused() {
        let mut m = map(&["...", "..."]);
        m.legend.insert('#', Terrain::Bridge);
        assert_eq!(char_for(&m, Terrain::Bridge), Some('#'));
        paint(&mut m, Mode::Hex, Offset::new(1, 1), Brush::One, Terrain::Bridge);
        assert_eq!(m.rows[1], ".#.");
        assert_eq!(terrain_at(&m, Offset::new(1, 1)), Some(Terrain::Bridge));
        m.legend.insert('w', Terrain::Marsh);
        assert_eq!(char_for(&m, Terrain::Woods), None, "'w' is the legend's marsh");
        assert_eq!(paint(&mut m, Mode::Hex, Offset::new(0, 0), Brush::One, Terrain::Woods), 0);
    }

    #[test]
    fn a_free_space_radius_is_a_square_and_a_fill_keeps_to_four_neighbours() {
        let m = map(&[".....", ".....", "....."]);
        assert_eq!(covered(&m, Mode::FreeSpace, Offset::new(2, 1), Brush::Radius(1)).len(), 9);
        let diag = map(&["w.", ".w"]);
        assert_eq!(covered(&diag, Mode::FreeSpace, Offset::new(0, 0), Brush::Fill).len(), 1);
    }

    #[test]
    fn one_edge_has_one_feature_whichever_hex_names_it() {
        let mut m = map(&["....", "....", "...."]);
        let (a, side) = (Offset::new(1, 1), Dir::SE);
        let (b, back) = (a.neighbour(side), side.opposite());
        assert!(set_hexside(&mut m, a, side, Some(HexsideKind::Stream)));
        assert_eq!(hexside_at(&m, b, back), Some(HexsideKind::Stream), "the same edge seen from the other hex");
        assert!(set_hexside(&mut m, b, back, Some(HexsideKind::Slope)));
        assert_eq!(m.hexsides.len(), 1, "replaced, not doubled");
        assert_eq!(hexside_at(&m, a, side), Some(HexsideKind::Slope));
        assert!(!set_hexside(&mut m, a, side, Some(HexsideKind::Slope)), "no change");
        assert!(set_hexside(&mut m, a, side, None));
        assert!(m.hexsides.is_empty());
    }

    #[test]
    fn the_cell_size_steps_within_its_bounds() {
        let mut m = map(&["..", ".."]);
        assert_eq!(step_cell_cm(&mut m, true), 11.0);
        m.cell_cm = Some(1.0);
        assert_eq!(step_cell_cm(&mut m, false), 1.0, "never below 1 cm");
    }

    #[test]
    fn the_pointer_picks_the_side_it_is_nearest() {
        assert_eq!(nearest_side(0.0, -0.5), Dir::N);
        assert_eq!(nearest_side(0.0, 0.5), Dir::S);
        assert_eq!(nearest_side(0.45, -0.25), Dir::NE);
        assert_eq!(nearest_side(-0.45, 0.25), Dir::SW);
    }
}
