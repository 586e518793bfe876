//! What differs between two versions of a scenario file, in words: for
//! the editor to show what an autosave holds that the file does not
//! before the author restores or discards it. One line per difference,
//! units by id, ground by hex (cell), at most a few lines of each kind.

use crate::edit::fields::{List, Subject, entry_words, rows};
use crate::edit::paint::{size, terrain_at};
use crate::hex::Offset;
use crate::scenario::ScenarioFile;

/// Lines of one kind shown before "and N more".
const SHOWN: usize = 6;

fn capped(out: &mut Vec<String>, lines: Vec<String>) {
    let n = lines.len();
    out.extend(lines.into_iter().take(SHOWN));
    if n > SHOWN {
        out.push(format!("  ... and {} more", n - SHOWN));
    }
}

/// The fields of a subject that differ, as `label: before -> after`.
fn fields(a: &ScenarioFile, b: &ScenarioFile, subject: Subject, name: &str) -> Vec<String> {
    let (ra, rb) = (rows(a, subject), rows(b, subject));
    rb.iter()
        .filter_map(|y| {
            let before = ra.iter().find(|x| x.field == y.field).map_or("", |x| x.value.as_str());
            (before != y.value).then(|| format!("{name}{}: {} -> {}", y.label, shown(before), shown(&y.value)))
        })
        .collect()
}

fn shown(v: &str) -> &str {
    if v.is_empty() { "(default)" } else { v }
}

/// What `after` changes of `before`, one line each; empty when the two
/// are the same scenario.
pub fn differences(before: &ScenarioFile, after: &ScenarioFile) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(fields(before, after, Subject::Scenario, ""));
    out.extend(fields(before, after, Subject::Map, "map "));
    for i in 0..before.sides.len().max(after.sides.len()) {
        let name = after.sides.get(i).or(before.sides.get(i)).map_or(String::new(), |s| s.id.clone());
        out.extend(fields(before, after, Subject::Side(i), &format!("side {name} ")));
    }
    // The ground, hex by hex where both maps have it.
    let (w, h) = size(&after.map);
    let mut ground = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let at = Offset::new(c, r);
            let (x, y) = (terrain_at(&before.map, at), terrain_at(&after.map, at));
            if x != y && x.is_some() {
                let word = |t: Option<crate::terrain::Terrain>| t.map_or("?".into(), |t| crate::edit::fields::word(&t));
                ground.push(format!("ground at {c}, {r}: {} -> {}", word(x), word(y)));
            }
        }
    }
    capped(&mut out, ground);
    if before.map.hexsides != after.map.hexsides {
        let (x, y) = (before.map.hexsides.len(), after.map.hexsides.len());
        out.push(format!("hexsides: {x} -> {y} (streams and slopes changed)"));
    }
    // Units by id.
    let mut units = Vec::new();
    for u in &after.units {
        match before.units.iter().position(|x| x.id == u.id) {
            None => units.push(format!("unit {} added", u.id)),
            Some(i) => {
                let j = after.units.iter().position(|x| x.id == u.id).unwrap_or(i);
                let changed = fields(before, after, Subject::Unit(i), &format!("unit {} ", u.id));
                // Rows are read by index: compare the same unit on both sides.
                if i == j {
                    units.extend(changed);
                } else if before.units[i] != *u {
                    units.push(format!("unit {} changed", u.id));
                }
            }
        }
    }
    for u in &before.units {
        if !after.units.iter().any(|x| x.id == u.id) {
            units.push(format!("unit {} deleted", u.id));
        }
    }
    capped(&mut out, units);
    for list in List::ALL {
        let (x, y) = (list.len(before), list.len(after));
        let mut lines = Vec::new();
        for i in 0..y {
            let now = entry_words(after, list, i);
            if i >= x {
                lines.push(format!("{} added: {now}", list.name()));
            } else if entry_words(before, list, i) != now || !fields(before, after, list.subject(i), "").is_empty() {
                lines.push(format!("{} changed: {} -> {now}", list.name(), entry_words(before, list, i)));
            }
        }
        for i in y..x {
            lines.push(format!("{} deleted: {}", list.name(), entry_words(before, list, i)));
        }
        capped(&mut out, lines);
    }
    if before.rules != after.rules {
        let (ra, rb) = (rows(before, Subject::Rules), rows(after, Subject::Rules));
        let mut lines = Vec::new();
        for y in &rb {
            let was =
                ra.iter().find(|x| x.field == y.field).map_or("the house default".to_owned(), |x| x.value.clone());
            if was != y.value {
                lines.push(format!("rules.{}: {was} -> {}", y.field, y.value));
            }
        }
        for x in &ra {
            if !rb.iter().any(|y| y.field == x.field) {
                lines.push(format!("rules.{}: {} -> the house default", x.field, x.value));
            }
        }
        capped(&mut out, lines);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::forces::{Spot, new_unit, place};
    use crate::edit::paint::{Brush, paint};
    use crate::scenario::Mode;
    use crate::terrain::{Arm, Terrain};

    #[test]
    fn the_differences_name_each_change_and_none_for_the_same_file() {
        let mut a = blank(Mode::Hex, 8, 6, Terrain::Clear);
        let u = new_unit(&a, "blue", Arm::Infantry, Spot::Hex(Offset::new(2, 2)));
        place(&mut a, u).expect("placed");
        assert!(differences(&a, &a.clone()).is_empty());
        let mut b = a.clone();
        b.name = "Another".into();
        b.units[0].morale = Some(36);
        let u = new_unit(&b, "red", Arm::Cavalry, Spot::Hex(Offset::new(5, 1)));
        place(&mut b, u).expect("placed");
        paint(&mut b.map, Mode::Hex, Offset::new(3, 3), Brush::One, Terrain::Woods);
        b.rules.rout_hexes = 7;
        let d = differences(&a, &b);
        let all = d.join("\n");
        for want in [
            "name: A new battle -> Another",
            "unit blue-1 morale: 44 -> 36",
            "unit red-1 added",
            "ground at 3, 3: Clear -> Woods",
            "rules.rout_hexes: the house default -> 7",
        ] {
            assert!(all.contains(want), "{want} in\n{all}");
        }
        // Many changes of one kind are summed up.
        let mut c = a.clone();
        for col in 0..8 {
            paint(&mut c.map, Mode::Hex, Offset::new(col, 0), Brush::One, Terrain::Marsh);
        }
        let d = differences(&a, &c);
        assert!(d.iter().any(|l| l.contains("and 2 more")), "{d:?}");
    }
}
