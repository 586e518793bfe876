//! A scenario file written back as RON for people to read: a header
//! comment, then the fields in the order docs/scenario-format.md gives
//! them, one unit or side a line, defaults left out (the rules block only
//! says what differs from the house rules). Read back, it is the same
//! scenario. Also: whether a file holds comments a person wrote (which a
//! save would lose), and where the editor's autosave of a file goes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::rules::Rules;
use crate::scenario::{FacingFile, Mode, ScenarioFile, UnitFile};

/// The first line of every file the editor writes; a file that holds no
/// other comment has nothing a save would lose.
pub const HEADER: &str =
    "// Written by the sauve scenario editor (sauve edit); docs/scenario-format.md explains every field.";

/// One value as RON, compact (`"fr"`, `Infantry`, `(id: ..)`).
fn ron<T: Serialize + ?Sized>(v: &T) -> String {
    ron::to_string(v).unwrap_or_default()
}

/// `(a: x, b: y)` of the fields given.
fn record(fields: &[(&str, String)]) -> String {
    let inner: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("({})", inner.join(", "))
}

fn opt<T: Serialize>(out: &mut Vec<(&'static str, String)>, name: &'static str, v: &Option<T>) {
    if let Some(v) = v {
        out.push((name, ron(v)));
    }
}

fn pair_i(p: (i64, i64)) -> String {
    format!("({}, {})", p.0, p.1)
}

fn pair_f(p: (f32, f32)) -> String {
    format!("({}, {})", ron(&p.0), ron(&p.1))
}

fn unit(u: &UnitFile) -> String {
    let mut f: Vec<(&str, String)> = vec![("id", ron(&u.id)), ("side", ron(&u.side)), ("arm", ron(&u.arm))];
    if let Some(at) = u.at {
        f.push(("at", pair_i(at)));
    }
    if let Some(p) = u.pos {
        f.push(("pos", pair_f(p)));
    }
    opt(&mut f, "morale", &u.morale);
    opt(&mut f, "strength", &u.strength);
    opt(&mut f, "figures", &u.figures);
    opt(&mut f, "valour", &u.valour);
    opt(&mut f, "name", &u.name);
    opt(&mut f, "state", &u.state);
    opt(&mut f, "formation", &u.formation);
    match u.facing {
        Some(FacingFile::Hexside(d)) => f.push(("facing", ron(&d))),
        Some(FacingFile::Degrees(d)) => f.push(("facing", ron(&d))),
        None => {}
    }
    opt(&mut f, "movement", &u.movement);
    opt(&mut f, "readiness", &u.readiness);
    opt(&mut f, "limbered", &u.limbered);
    opt(&mut f, "horse", &u.horse);
    record(&f)
}

/// The rules block's fields that differ from the house rules.
fn rules(r: &Rules) -> Vec<(&'static str, String)> {
    let d = Rules::default();
    let mut out = Vec::new();
    macro_rules! differing {
        ($($field:ident),* $(,)?) => {
            // Every field of the block, so that a new one is not forgotten.
            let Rules { $($field: _),* } = r;
            $(if r.$field != d.$field { out.push((stringify!($field), ron(&r.$field))); })*
        };
    }
    differing!(
        terrain,
        hexsides,
        rout_hexes,
        rout_refuge,
        natural_extremes,
        retreat_mp,
        disordered_modifier,
        routed_modifier,
        safe_distance,
        rout_enemy_radius,
        far_router_hexes,
        contagion_stack,
        off_map_recovery,
        points_per_increment,
        first_command_turn,
        combat,
        belle_alliance,
        ai,
    );
    out
}

/// A list of records, one a line.
fn list(out: &mut String, name: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "    {name}: [");
    for i in items {
        let _ = writeln!(out, "        {i},");
    }
    let _ = writeln!(out, "    ],");
}

/// The file as RON text.
pub fn to_ron(f: &ScenarioFile) -> String {
    let mut out = format!("{HEADER}\n\nScenario(\n");
    let _ = writeln!(out, "    format: {},", f.format);
    let _ = writeln!(out, "    name: {},", ron(&f.name));
    if !f.description.is_empty() {
        let _ = writeln!(out, "    description: {},", ron(&f.description));
    }
    if f.mode != Mode::Hex {
        let _ = writeln!(out, "    mode: {},", ron(&f.mode));
    }
    let _ = writeln!(out, "    turns: {},", f.turns);
    let _ = writeln!(out, "    seed: {},", f.seed);
    let sides: Vec<String> = f
        .sides
        .iter()
        .map(|s| {
            let mut r = vec![("id", ron(&s.id))];
            opt(&mut r, "name", &s.name);
            opt(&mut r, "rear", &s.rear);
            r.push(("control", ron(&s.control)));
            opt(&mut r, "aggression", &s.aggression);
            opt(&mut r, "level", &s.level);
            record(&r)
        })
        .collect();
    list(&mut out, "sides", &sides);
    let _ = writeln!(out, "    map: (");
    let _ = writeln!(out, "        rows: [");
    for row in &f.map.rows {
        let _ = writeln!(out, "            {},", ron(row));
    }
    let _ = writeln!(out, "        ],");
    if !f.map.legend.is_empty() {
        let entries: Vec<String> = f.map.legend.iter().map(|(c, t)| format!("{}: {}", ron(c), ron(t))).collect();
        let _ = writeln!(out, "        legend: {{ {} }},", entries.join(", "));
    }
    if !f.map.hexsides.is_empty() {
        let _ = writeln!(out, "        hexsides: [");
        for h in &f.map.hexsides {
            let at = format!("({}, {})", h.at.0, h.at.1);
            let _ =
                writeln!(out, "            {},", record(&[("at", at), ("side", ron(&h.side)), ("kind", ron(&h.kind))]));
        }
        let _ = writeln!(out, "        ],");
    }
    if let Some(c) = f.map.cell_cm {
        let _ = writeln!(out, "        cell_cm: {},", ron(&c));
    }
    let _ = writeln!(out, "    ),");
    list(&mut out, "units", &f.units.iter().map(unit).collect::<Vec<_>>());
    let shocks: Vec<String> = f
        .shocks
        .iter()
        .map(|s| {
            let mut r = vec![("turn", s.turn.to_string()), ("unit", ron(&s.unit)), ("to", ron(&s.to))];
            opt(&mut r, "cause", &s.cause);
            record(&r)
        })
        .collect();
    list(&mut out, "shocks", &shocks);
    let staff: Vec<String> = f
        .staff
        .iter()
        .map(|s| {
            let mut r = vec![("side", ron(&s.side)), ("pos", pair_f(s.pos))];
            opt(&mut r, "name", &s.name);
            record(&r)
        })
        .collect();
    list(&mut out, "staff", &staff);
    let objectives: Vec<String> = f
        .objectives
        .iter()
        .map(|o| {
            let mut r = vec![("at", pair_i(o.at)), ("points", o.points.to_string())];
            opt(&mut r, "name", &o.name);
            opt(&mut r, "held_by", &o.held_by);
            record(&r)
        })
        .collect();
    list(&mut out, "objectives", &objectives);
    let exits: Vec<String> = f
        .exits
        .iter()
        .map(|e| record(&[("side", ron(&e.side)), ("edge", ron(&e.edge)), ("points", e.points.to_string())]))
        .collect();
    list(&mut out, "exits", &exits);
    let corps: Vec<String> = f
        .corps
        .iter()
        .map(|c| {
            let mut r = vec![("id", ron(&c.id)), ("side", ron(&c.side))];
            opt(&mut r, "name", &c.name);
            r.push(("units", ron(&c.units)));
            opt(&mut r, "breaks_at", &c.breaks_at);
            record(&r)
        })
        .collect();
    list(&mut out, "corps", &corps);
    let leaders: Vec<String> = f
        .leaders
        .iter()
        .map(|l| {
            let mut r = vec![("id", ron(&l.id)), ("side", ron(&l.side)), ("with", ron(&l.with))];
            r.push(("bonus", l.bonus.to_string()));
            opt(&mut r, "name", &l.name);
            record(&r)
        })
        .collect();
    list(&mut out, "leaders", &leaders);
    let r = rules(&f.rules);
    if !r.is_empty() {
        let _ = writeln!(out, "    rules: (");
        for (k, v) in r {
            let _ = writeln!(out, "        {k}: {v},");
        }
        let _ = writeln!(out, "    ),");
    }
    out.push_str(")\n");
    out
}

/// Whether RON text holds a comment other than the editor's header: a
/// person's words, which saving over the file would lose.
pub fn has_hand_comments(text: &str) -> bool {
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    let mut line = String::new();
    let mut found = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            // A character literal such as '"' or '/'.
            '\'' => {
                let _ = chars.next();
                if chars.peek() == Some(&'\'') {
                    chars.next();
                }
            }
            '/' if matches!(chars.peek(), Some('/') | Some('*')) => {
                line.clear();
                line.push('/');
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                    line.push(d);
                }
                if line.trim_end() != HEADER {
                    found = true;
                }
            }
            _ => {}
        }
    }
    found
}

/// Where the editor keeps its autosave of `file`: beside it, as
/// `NAME.autosave.ron`.
pub fn autosave_path(file: &Path) -> PathBuf {
    let stem = file.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned());
    file.with_file_name(format!("{stem}.autosave.ron"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::forces::{Spot, new_unit, place};
    use crate::hex::Offset;
    use crate::scenario::ron_options;
    use crate::terrain::{Arm, Terrain};

    fn read(text: &str) -> ScenarioFile {
        ron_options().from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn a_written_file_reads_back_the_same_with_its_header_and_defaults_left_out() {
        let mut f = blank(Mode::Hex, 6, 4, Terrain::Clear);
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(1, 1)));
        place(&mut f, u).expect("placed");
        f.rules.rout_hexes = 8;
        f.map.legend.insert('#', Terrain::Bridge);
        f.sides[1].level = Some(crate::vocab::AiLevel::Hard);
        let text = to_ron(&f);
        assert!(text.starts_with(HEADER), "{text}");
        assert!(text.contains("rout_hexes: 8") && !text.contains("natural_extremes"), "{text}");
        assert!(text.contains("level: Hard"), "a side's AI level is kept: {text}");
        assert!(text.contains("(id: \"blue-1\", side: \"blue\", arm: Infantry, at: (1, 1), morale: 44"), "{text}");
        assert_eq!(read(&text), f);
        assert!(!has_hand_comments(&text), "the header is not a person's comment");
        assert!(crate::scenario::parse(&text, "new.ron").is_ok());
    }

    #[test]
    fn comments_are_found_outside_strings_only() {
        assert!(has_hand_comments("// my notes\nScenario(format: 1)"));
        assert!(has_hand_comments("Scenario(format: 1, /* why */ name: \"x\")"));
        assert!(!has_hand_comments("Scenario(name: \"a // b\", legend: { '/': Road })"));
        assert!(!has_hand_comments(&format!("{HEADER}\nScenario()")));
    }

    #[test]
    fn the_autosave_sits_beside_the_file() {
        assert_eq!(autosave_path(Path::new("maps/ligny.ron")), PathBuf::from("maps/ligny.autosave.ron"));
    }
}
