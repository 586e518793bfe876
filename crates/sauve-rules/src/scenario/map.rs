//! The `map` block read into a [`TerrainMap`]: rows of terrain characters
//! through the legend, and the hexsides (hex mode).

use crate::hex::Offset;
use crate::map::TerrainMap;
use crate::scenario::file::MapFile;
use crate::scenario::problem::Collector;
use crate::terrain::Terrain;
use crate::vocab::Mode;

/// The map block as a terrain map of its rows and hexsides, with its
/// problems; an empty map if it has no rows or too many.
pub(super) fn build_map(raw: &MapFile, mode: Mode, p: &mut Collector) -> TerrainMap {
    let height = raw.rows.len();
    let width = raw.rows.first().map_or(0, |r| r.chars().count());
    if height == 0 || width == 0 {
        p.add("map.rows", "the map needs at least one row of at least one hex");
        return TerrainMap::filled(0, 0, Terrain::Clear);
    }
    if height > 2000 || width > 2000 {
        p.add("map.rows", format!("{width}x{height} is larger than 2000x2000"));
        return TerrainMap::filled(0, 0, Terrain::Clear);
    }
    let mut map = TerrainMap::filled(width as i32, height as i32, Terrain::Clear);
    for (r, row) in raw.rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            p.add(
                format!("map.rows[{r}]"),
                format!("row {r} has {len} hexes, row 0 has {width}: all rows must be the same length"),
            );
        }
        let mut reported = 0;
        for (c, ch) in row.chars().enumerate().take(width) {
            let t = raw.legend.get(&ch).copied().or_else(|| Terrain::from_default_char(ch));
            match t {
                Some(t) => map.set(Offset::new(c as i32, r as i32), t),
                None => {
                    if reported < 5 {
                        p.add(
                            format!("map.rows[{r}]"),
                            format!("unknown terrain character {ch:?} at column {c} (not in the legend)"),
                        );
                    }
                    reported += 1;
                }
            }
        }
        if reported > 5 {
            p.add(format!("map.rows[{r}]"), format!("{} more unknown terrain characters", reported - 5));
        }
    }
    if mode == Mode::Hex {
        for (i, hs) in raw.hexsides.iter().enumerate() {
            let at = Offset::new(hs.at.0, hs.at.1);
            if !map.contains(at) {
                p.add(format!("map.hexsides[{i}]"), format!("at {at} is off the map"));
            } else if !map.contains(at.neighbour(hs.side)) {
                // A stream or slope between a hex and nothing is never crossed
                // by a move on the map: almost surely the wrong side or hex.
                p.add(
                    format!("map.hexsides[{i}]"),
                    format!(
                        "the {:?} side of {at} is on the map's edge: there is no hex on the other side of it",
                        hs.side
                    ),
                );
            } else {
                map.add_hexside(at, hs.side, hs.kind);
            }
        }
    }
    map
}
