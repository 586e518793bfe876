//! Every field of a scenario file as a form the editor shows: the
//! scenario's own fields, the map's size and legend, each side, unit,
//! shock, staff figure, objective, exit, corps and leader, each field
//! read as the text an author would type and set from what they typed.
//! The rules block has its own form ([`crate::edit::rules_form`]).
//!
//! A field's place is named by the same path the checker's problems use
//! (`units[3].morale`, `sides[1].rear`, `turns`), so that a problem can
//! open the form that mends it ([`subject_of`]).

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use crate::edit::form::{FieldError, Kind, Row, Subject};
use crate::edit::reshape;
use crate::hex::{Dir, Edge};
use crate::scenario::{
    ExitFile, FacingFile, LeaderFile, Mode, ObjectiveFile, ScenarioFile, ShockFile, StaffFile, UnitFile,
};
use crate::terrain::{Arm, Terrain};
use crate::vocab::{AiLevel, Control, Formation, Readiness, State};

fn err<T>(msg: impl Into<String>) -> Result<T, FieldError> {
    Err(FieldError(msg.into()))
}

/// A value's name as a file writes it (`Infantry`, `NE`, `North`).
pub fn word<T: Serialize>(v: &T) -> String {
    ron::to_string(v).unwrap_or_default().trim_matches('"').to_owned()
}

/// A word typed for a field of type `T`, one of `choices`, any case.
fn parse_word<T: DeserializeOwned>(text: &str, choices: &[String]) -> Result<T, FieldError> {
    let t = text.trim();
    let Some(exact) = choices.iter().find(|c| c.eq_ignore_ascii_case(t)) else {
        return err(format!("'{t}' is not one of {}", choices.join(", ")));
    };
    crate::scenario::ron_options().from_str(exact).map_err(|e| FieldError(format!("'{t}': {e}")))
}

fn words<T: Serialize>(all: &[T]) -> Vec<String> {
    all.iter().map(word).collect()
}

/// `choices` with an empty first entry: the field left out.
fn or_default(mut choices: Vec<String>) -> Vec<String> {
    choices.insert(0, String::new());
    choices
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, FieldError> {
    text.trim().parse().map_err(|_| FieldError(format!("'{}' is not {what}", text.trim())))
}

fn opt_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<Option<T>, FieldError> {
    if text.trim().is_empty() { Ok(None) } else { number(text, what).map(Some) }
}

fn opt_text(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

fn show<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(String::new, ToString::to_string)
}

/// A pair typed as `5, 7`, `(5, 7)` or `5 7`.
fn pair<T: std::str::FromStr>(text: &str, what: &str) -> Result<(T, T), FieldError> {
    let inner = text.trim().trim_start_matches('(').trim_end_matches(')');
    let parts: Vec<&str> = inner.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [a, b] => Ok((number(a, what)?, number(b, what)?)),
        _ => err(format!("'{}' is not two numbers ({what}), such as 5, 7", text.trim())),
    }
}

/// A centimetre figure as the editor writes it: to a tenth of a cm.
fn cm(v: f32) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 { format!("{r:.0}") } else { format!("{r:.1}") }
}

fn row(subject: Subject, field: &str, label: &str, value: String, kind: Kind, hint: &str) -> Row {
    Row {
        field: field.to_owned(),
        label: label.to_owned(),
        value,
        kind,
        path: subject.field_path(field),
        hint: hint.to_owned(),
    }
}

fn side_ids(file: &ScenarioFile) -> Vec<String> {
    file.sides.iter().map(|s| s.id.clone()).collect()
}

fn states(mode: Mode) -> Vec<String> {
    let all: &[State] = match mode {
        Mode::Hex => &[State::GoodOrder, State::Disordered, State::Routed],
        Mode::FreeSpace => &[State::Order, State::LU, State::U, State::FU],
    };
    words(all)
}

fn formations(mode: Mode) -> Vec<String> {
    let all: &[Formation] = match mode {
        Mode::Hex => {
            &[Formation::Line, Formation::Column, Formation::Square, Formation::GeneralOrder, Formation::Skirmish]
        }
        Mode::FreeSpace => &[Formation::Line, Formation::Column, Formation::Square],
    };
    words(all)
}

const EDGES: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];
const READINESS: [Readiness; 3] = [Readiness::Fresh, Readiness::Tired, Readiness::Exhausted];
const CONTROLS: [Control; 3] = [Control::Player, Control::Ai, Control::Idle];

fn yes_no() -> Vec<String> {
    vec!["no".into(), "yes".into()]
}

/// The form of a subject: its fields in the order the file writes them.
/// Empty for a subject the file does not have (an index past its list).
pub fn rows(file: &ScenarioFile, subject: Subject) -> Vec<Row> {
    let s = subject;
    let hex = file.mode == Mode::Hex;
    match subject {
        Subject::Scenario => vec![
            row(s, "format", "format", file.format.to_string(), Kind::Fixed, "the only format this build reads"),
            row(s, "name", "name", file.name.clone(), Kind::Text, "the battle's name"),
            row(s, "description", "description", file.description.clone(), Kind::Text, "a few lines for the menu"),
            row(s, "mode", "mode", word(&file.mode), Kind::Choice(words(&[Mode::Hex, Mode::FreeSpace])), MODE_HINT),
            row(s, "turns", "turns", file.turns.to_string(), Kind::Number, "how many turns the battle lasts"),
            row(
                s,
                "seed",
                "seed",
                file.seed.to_string(),
                Kind::Number,
                "the dice's seed: the same seed, the same game",
            ),
        ],
        Subject::Map => {
            let (w, h) = crate::edit::paint::size(&file.map);
            let legend: Vec<String> = file.map.legend.iter().map(|(c, t)| format!("{c}={}", word(t))).collect();
            let mut out = vec![
                row(s, "width", "width", w.to_string(), Kind::Number, "columns: added or taken at the right edge"),
                row(s, "height", "height", h.to_string(), Kind::Number, "rows: added or taken at the bottom edge"),
                row(s, "legend", "legend", legend.join(", "), Kind::Text, "extra map letters: x=Woods, y=Road"),
            ];
            if !hex {
                let c = file.map.cell_cm.unwrap_or(crate::edit::blank::NEW_CELL_CM);
                out.push(row(s, "cell_cm", "cell (cm)", cm(c), Kind::Number, CELL_HINT));
            }
            out
        }
        Subject::Side(i) => {
            let Some(sd) = file.sides.get(i) else { return Vec::new() };
            vec![
                row(s, "id", "id", sd.id.clone(), Kind::Text, "short; units name their side by it"),
                row(s, "name", "name", show(&sd.name), Kind::Text, "as the window shows it"),
                row(s, "rear", "rear edge", sd.rear.as_ref().map(word).unwrap_or_default(), rear_kind(), REAR_HINT),
                row(s, "control", "played by", word(&sd.control), Kind::Choice(words(&CONTROLS)), CONTROL_HINT),
                row(s, "aggression", "aggression", show(&sd.aggression), Kind::Number, "0.0 holds .. 1.0 presses on"),
                row(s, "level", "AI level", sd.level.as_ref().map(word).unwrap_or_default(), level_kind(), LEVEL_HINT),
            ]
        }
        Subject::Unit(i) => file.units.get(i).map(|u| unit_rows(file, i, u)).unwrap_or_default(),
        Subject::Shock(i) => {
            let Some(sh) = file.shocks.get(i) else { return Vec::new() };
            vec![
                row(s, "turn", "turn", sh.turn.to_string(), Kind::Number, "the turn it strikes, before anything else"),
                row(s, "unit", "unit", sh.unit.clone(), Kind::Text, "the unit's id"),
                row(s, "to", "to", word(&sh.to), Kind::Choice(shock_states(file.mode)), "the state it is put in"),
                row(s, "cause", "cause", show(&sh.cause), Kind::Text, "the unit blamed (an id), or none"),
            ]
        }
        Subject::Staff(i) => {
            let Some(st) = file.staff.get(i) else { return Vec::new() };
            vec![
                row(s, "side", "side", st.side.clone(), Kind::Choice(side_ids(file)), "whose staff"),
                row(s, "pos", "at (cm)", format!("{}, {}", cm(st.pos.0), cm(st.pos.1)), Kind::Number, POS_HINT),
                row(s, "name", "name", show(&st.name), Kind::Text, "a commander's or orderly's name"),
            ]
        }
        Subject::Objective(i) => {
            let Some(o) = file.objectives.get(i) else { return Vec::new() };
            vec![
                row(s, "at", "at", format!("{}, {}", o.at.0, o.at.1), Kind::Number, "column, row of its hex or cell"),
                row(s, "points", "points", o.points.to_string(), Kind::Number, "what holding it at the end scores"),
                row(s, "name", "name", show(&o.name), Kind::Text, "the village or height"),
                row(s, "held_by", "held by", show(&o.held_by), Kind::Choice(or_default(side_ids(file))), HELD_HINT),
            ]
        }
        Subject::Exit(i) => {
            let Some(x) = file.exits.get(i) else { return Vec::new() };
            vec![
                row(s, "side", "side", x.side.clone(), Kind::Choice(side_ids(file)), "who scores for leaving"),
                row(s, "edge", "edge", word(&x.edge), Kind::Choice(words(&EDGES)), "the map edge to leave by"),
                row(s, "points", "points", x.points.to_string(), Kind::Number, "per increment taken off in order"),
            ]
        }
        Subject::Corps(i) => {
            let Some(c) = file.corps.get(i) else { return Vec::new() };
            vec![
                row(s, "id", "id", c.id.clone(), Kind::Text, "short and unique"),
                row(s, "side", "side", c.side.clone(), Kind::Choice(side_ids(file)), "whose corps"),
                row(s, "name", "name", show(&c.name), Kind::Text, "as the window shows it"),
                row(s, "units", "units", c.units.join(", "), Kind::Text, "its units' ids, with commas"),
                row(s, "breaks_at", "breaks at", show(&c.breaks_at), Kind::Number, BREAKS_HINT),
            ]
        }
        Subject::Leader(i) => {
            let Some(l) = file.leaders.get(i) else { return Vec::new() };
            vec![
                row(s, "id", "id", l.id.clone(), Kind::Text, "short and unique"),
                row(s, "side", "side", l.side.clone(), Kind::Choice(side_ids(file)), "whose leader"),
                row(s, "with", "rides with", l.with.clone(), Kind::Text, "the id of the unit he rides with"),
                row(s, "bonus", "bonus", l.bonus.to_string(), Kind::Number, "added to that unit's morale checks"),
                row(s, "name", "name", show(&l.name), Kind::Text, "the general's name"),
            ]
        }
        Subject::Rules => crate::edit::rules_form::rows(&file.rules),
    }
}

const MODE_HINT: &str = "Hex (La Bataille) or FreeSpace (Belle Alliance): units move to the other's places";
const CELL_HINT: &str = "a terrain cell's side; units and staff keep their ground";
const REAR_HINT: &str = "where its routs run; empty: South for the first side, North for the second";
const CONTROL_HINT: &str = "Player, Ai or Idle (nobody gives orders)";
const LEVEL_HINT: &str = "how well the AI plays it; empty: Normal";
const POS_HINT: &str = "x, y from the top-left corner";
const HELD_HINT: &str = "who holds it when the battle opens, or nobody";
const BREAKS_HINT: &str = "units lost that break it; empty: half its units";

fn rear_kind() -> Kind {
    Kind::Choice(or_default(words(&EDGES)))
}

fn level_kind() -> Kind {
    Kind::Choice(or_default(words(&AiLevel::ALL)))
}

fn shock_states(mode: Mode) -> Vec<String> {
    match mode {
        Mode::Hex => words(&[State::Disordered, State::Routed]),
        Mode::FreeSpace => words(&[State::LU, State::U, State::FU]),
    }
}

fn unit_rows(file: &ScenarioFile, i: usize, u: &UnitFile) -> Vec<Row> {
    let s = Subject::Unit(i);
    let hex = file.mode == Mode::Hex;
    let mut out = vec![
        row(s, "id", "id", u.id.clone(), Kind::Text, "short and unique; references follow a new id"),
        row(s, "name", "name", show(&u.name), Kind::Text, "as the window shows it"),
        row(s, "side", "side", u.side.clone(), Kind::Choice(side_ids(file)), "it leaves its corps and leader"),
        row(s, "arm", "arm", word(&u.arm), Kind::Choice(words(&Arm::ALL)), "infantry, cavalry or artillery"),
    ];
    if hex {
        let at = u.at.map(|(c, r)| format!("{c}, {r}")).unwrap_or_default();
        out.push(row(s, "at", "at", at, Kind::Number, "column, row"));
        out.push(row(s, "morale", "morale", show(&u.morale), Kind::Number, "a d66 value, 11 to 66"));
        out.push(row(s, "strength", "strength", show(&u.strength), Kind::Number, "increments"));
    } else {
        let pos = u.pos.map(|(x, y)| format!("{}, {}", cm(x), cm(y))).unwrap_or_default();
        out.push(row(s, "pos", "at (cm)", pos, Kind::Number, POS_HINT));
        out.push(row(s, "valour", "valour", show(&u.valour), Kind::Number, "-5 to +5"));
        out.push(row(s, "figures", "figures", show(&u.figures), Kind::Number, "how many figures"));
    }
    let state = u.state.as_ref().map(word).unwrap_or_default();
    out.push(row(s, "state", "starts", state, Kind::Choice(or_default(states(file.mode))), "empty: in good order"));
    let fm = u.formation.as_ref().map(word).unwrap_or_default();
    out.push(row(s, "formation", "formation", fm, Kind::Choice(or_default(formations(file.mode))), "empty: line"));
    let facing = match u.facing {
        Some(FacingFile::Hexside(d)) => word(&d),
        Some(FacingFile::Degrees(d)) if hex => word(&Dir::from_degrees(d)),
        Some(FacingFile::Degrees(d)) => cm(d),
        None => String::new(),
    };
    if hex {
        out.push(row(s, "facing", "facing", facing, Kind::Choice(or_default(words(&Dir::ALL))), "empty: N"));
    } else {
        out.push(row(s, "facing", "facing", facing, Kind::Number, "degrees clockwise from north; empty: 0"));
    }
    out.push(row(s, "movement", "movement", show(&u.movement), Kind::Number, "its own allowance; empty: its arm's"));
    let ready = u.readiness.as_ref().map(word).unwrap_or_default();
    out.push(row(s, "readiness", "readiness", ready, Kind::Choice(or_default(words(&READINESS))), "cavalry's"));
    if !hex && u.arm == Arm::Artillery {
        let yes = |v: Option<bool>| if v == Some(true) { "yes" } else { "no" }.to_owned();
        out.push(row(s, "limbered", "limbered", yes(u.limbered), Kind::Choice(yes_no()), "guns hooked up to move"));
        out.push(row(s, "horse", "horse", yes(u.horse), Kind::Choice(yes_no()), "horse artillery flees faster"));
    }
    out
}

/// Sets a subject's field from what was typed; what the field says now.
/// A value the file can hold but the rules refuse (a morale of 77) is
/// taken, and the checker names it, as it would in a file written by hand.
pub fn set(file: &mut ScenarioFile, subject: Subject, field: &str, text: &str) -> Result<String, FieldError> {
    let missing = || FieldError(format!("{} is not in the file any more", subject.path()));
    let t = text.trim();
    match subject {
        Subject::Scenario => set_scenario(file, field, t)?,
        Subject::Map => set_map(file, field, t)?,
        Subject::Side(i) => {
            if i >= file.sides.len() {
                return Err(missing());
            }
            set_side(file, i, field, t)?;
        }
        Subject::Unit(i) => {
            let u = file.units.get(i).cloned().ok_or_else(missing)?;
            set_unit(file, u, field, t)?;
        }
        Subject::Shock(i) => set_shock(file.mode, file.shocks.get_mut(i).ok_or_else(missing)?, field, t)?,
        Subject::Staff(i) => {
            let sides = side_ids(file);
            set_staff(&sides, file.staff.get_mut(i).ok_or_else(missing)?, field, t)?;
        }
        Subject::Objective(i) => {
            let sides = side_ids(file);
            set_objective(&sides, file.objectives.get_mut(i).ok_or_else(missing)?, field, t)?;
        }
        Subject::Exit(i) => {
            let sides = side_ids(file);
            set_exit(&sides, file.exits.get_mut(i).ok_or_else(missing)?, field, t)?;
        }
        Subject::Corps(i) => set_corps(file, i, field, t)?,
        Subject::Leader(i) => {
            let sides = side_ids(file);
            set_leader(&sides, file.leaders.get_mut(i).ok_or_else(missing)?, field, t)?;
        }
        Subject::Rules => crate::edit::rules_form::set(&mut file.rules, field, t)?,
    }
    let now = rows(file, subject).into_iter().find(|r| r.field == field).map(|r| r.value).unwrap_or_default();
    Ok(format!("{}: {}", subject.field_path(field), if now.is_empty() { "left out (its default)" } else { &now }))
}

fn no_field<T>(field: &str) -> Result<T, FieldError> {
    err(format!("no field '{field}' here"))
}

fn set_scenario(file: &mut ScenarioFile, field: &str, t: &str) -> Result<(), FieldError> {
    match field {
        "name" => file.name = t.to_owned(),
        "description" => file.description = t.to_owned(),
        "mode" => {
            let mode: Mode = parse_word(t, &words(&[Mode::Hex, Mode::FreeSpace]))?;
            reshape::convert_mode(file, mode);
        }
        "turns" => file.turns = number(t, "a whole number of turns")?,
        "seed" => file.seed = number(t, "a whole number")?,
        "format" => return err("this build reads format 1 only"),
        other => return no_field(other),
    }
    Ok(())
}

fn set_map(file: &mut ScenarioFile, field: &str, t: &str) -> Result<(), FieldError> {
    let (w, h) = crate::edit::paint::size(&file.map);
    match field {
        "width" => {
            let n: i32 = number(t, "a number of columns")?;
            reshape::resize(file, reshape::Margins { right: n - w, ..Default::default() })
                .map_err(|e| FieldError(e.to_string()))?;
        }
        "height" => {
            let n: i32 = number(t, "a number of rows")?;
            reshape::resize(file, reshape::Margins { bottom: n - h, ..Default::default() })
                .map_err(|e| FieldError(e.to_string()))?;
        }
        "cell_cm" => {
            let c: f32 = number(t, "a size in cm")?;
            if !(c.is_finite() && (1.0..=100.0).contains(&c)) {
                return err("a cell is 1 to 100 cm");
            }
            if c != file.map.cell_cm.unwrap_or(crate::edit::blank::NEW_CELL_CM) {
                reshape::set_cell_cm(file, c);
            }
        }
        "legend" => file.map.legend = legend(t)?,
        other => return no_field(other),
    }
    Ok(())
}

/// A legend typed as `x=Woods, #=Bridge`: a character (any, `=` and
/// `,` too), `=` or `:`, a terrain; entries apart by commas.
fn legend(t: &str) -> Result<std::collections::BTreeMap<char, Terrain>, FieldError> {
    let names = words(&Terrain::ALL);
    let mut out = std::collections::BTreeMap::new();
    let mut chars = t.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace() || *c == ',').is_some() {}
        let Some(ch) = chars.next() else { break };
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next_if(|c| *c == '=' || *c == ':').is_none() {
            return err(format!("after '{ch}': a legend entry is a character, =, a terrain (x=Woods)"));
        }
        let name: String = std::iter::from_fn(|| chars.next_if(|c| *c != ',')).collect();
        out.insert(ch, parse_word(&name, &names)?);
    }
    Ok(out)
}

fn set_side(file: &mut ScenarioFile, i: usize, field: &str, t: &str) -> Result<(), FieldError> {
    if field == "id" {
        return crate::edit::sides::rename(file, i, t).map_err(|e| FieldError(e.to_string()));
    }
    let sd = &mut file.sides[i];
    match field {
        "name" => sd.name = opt_text(t),
        "rear" => sd.rear = if t.is_empty() { None } else { Some(parse_word(t, &words(&EDGES))?) },
        "control" => sd.control = parse_word(t, &words(&CONTROLS))?,
        "aggression" => sd.aggression = opt_number(t, "a number from 0.0 to 1.0")?,
        "level" => sd.level = if t.is_empty() { None } else { Some(parse_word(t, &words(&AiLevel::ALL))?) },
        other => return no_field(other),
    }
    Ok(())
}

fn set_unit(file: &mut ScenarioFile, mut u: UnitFile, field: &str, t: &str) -> Result<(), FieldError> {
    let id = u.id.clone();
    let mode = file.mode;
    let choice_or_none = |t: &str, all: Vec<String>| -> Result<Option<String>, FieldError> {
        if t.is_empty() {
            return Ok(None);
        }
        all.iter()
            .find(|c| c.eq_ignore_ascii_case(t))
            .cloned()
            .map(Some)
            .ok_or_else(|| FieldError(format!("'{t}' is not one of {}", all.join(", "))))
    };
    match field {
        "id" => u.id = t.to_owned(),
        "name" => u.name = opt_text(t),
        "side" => {
            if u.side != t {
                if !file.sides.iter().any(|s| s.id == t) {
                    return err(format!("no side '{t}'"));
                }
                crate::edit::forces::switch_side(file, &id).map_err(|e| FieldError(e.to_string()))?;
                if let Some(x) = file.units.iter_mut().find(|x| x.id == id) {
                    t.clone_into(&mut x.side);
                }
            }
            return Ok(());
        }
        "arm" => {
            u.arm = parse_word(t, &words(&Arm::ALL))?;
            if u.arm == Arm::Cavalry && u.state == Some(State::Disordered) {
                u.state = None;
            }
        }
        "at" => u.at = if t.is_empty() { None } else { Some(pair(t, "column, row")?) },
        "pos" => {
            u.pos = if t.is_empty() {
                None
            } else {
                let (x, y): (f32, f32) = pair(t, "x, y in cm")?;
                Some((reshape::tenth(x), reshape::tenth(y)))
            }
        }
        "morale" => u.morale = opt_number(t, "a d66 value such as 44")?,
        "strength" => u.strength = opt_number(t, "a whole number of increments")?,
        "valour" => u.valour = opt_number(t, "a whole number from -5 to 5")?,
        "figures" => u.figures = opt_number(t, "a whole number of figures")?,
        "state" => {
            u.state = match choice_or_none(t, states(mode))? {
                Some(w) => Some(parse_word(&w, &states(mode))?),
                None => None,
            };
        }
        "formation" => {
            u.formation = match choice_or_none(t, formations(mode))? {
                Some(w) => Some(parse_word(&w, &formations(mode))?),
                None => None,
            };
        }
        "facing" => {
            u.facing = if t.is_empty() {
                None
            } else if mode == Mode::Hex {
                let d: Dir = parse_word(t, &words(&Dir::ALL))?;
                // Degrees a hand wrote that name this hexside stay as written.
                match u.facing {
                    Some(FacingFile::Degrees(now)) if Dir::from_degrees(now) == d => u.facing,
                    _ => Some(FacingFile::Hexside(d)),
                }
            } else {
                let d: f32 = number(t, "degrees clockwise from north")?;
                Some(FacingFile::Degrees(reshape::tenth(d.rem_euclid(360.0))))
            }
        }
        "movement" => u.movement = opt_number(t, "movement points")?,
        "readiness" => {
            u.readiness = match choice_or_none(t, words(&READINESS))? {
                Some(w) => Some(parse_word(&w, &words(&READINESS))?),
                None => None,
            }
        }
        "limbered" => u.limbered = flag(t, u.limbered)?,
        "horse" => u.horse = flag(t, u.horse)?,
        other => return no_field(other),
    }
    crate::edit::forces::update(file, &id, u).map_err(|e| FieldError(e.to_string()))
}

/// `yes` (written `true`) or `no` (left out, or `false` where the file
/// says so already).
fn flag(t: &str, now: Option<bool>) -> Result<Option<bool>, FieldError> {
    match t.to_ascii_lowercase().as_str() {
        "yes" | "true" => Ok(Some(true)),
        "no" | "false" | "" => Ok(now.filter(|on| !on)),
        other => err(format!("'{other}' is not yes or no")),
    }
}

fn set_shock(mode: Mode, sh: &mut ShockFile, field: &str, t: &str) -> Result<(), FieldError> {
    match field {
        "turn" => sh.turn = number(t, "a turn number")?,
        "unit" => sh.unit = t.to_owned(),
        "to" => sh.to = parse_word(t, &shock_states(mode))?,
        "cause" => sh.cause = opt_text(t),
        other => return no_field(other),
    }
    Ok(())
}

fn side_of(sides: &[String], t: &str) -> Result<String, FieldError> {
    sides
        .iter()
        .find(|s| s.eq_ignore_ascii_case(t))
        .cloned()
        .ok_or_else(|| FieldError(format!("'{t}' is not a side ({})", sides.join(", "))))
}

fn set_staff(sides: &[String], st: &mut StaffFile, field: &str, t: &str) -> Result<(), FieldError> {
    match field {
        "side" => st.side = side_of(sides, t)?,
        "pos" => {
            let (x, y): (f32, f32) = pair(t, "x, y in cm")?;
            st.pos = (reshape::tenth(x), reshape::tenth(y));
        }
        "name" => st.name = opt_text(t),
        other => return no_field(other),
    }
    Ok(())
}

fn set_objective(sides: &[String], o: &mut ObjectiveFile, field: &str, t: &str) -> Result<(), FieldError> {
    match field {
        "at" => o.at = pair(t, "column, row")?,
        "points" => o.points = number(t, "a whole number of points")?,
        "name" => o.name = opt_text(t),
        "held_by" => o.held_by = if t.is_empty() { None } else { Some(side_of(sides, t)?) },
        other => return no_field(other),
    }
    Ok(())
}

fn set_exit(sides: &[String], x: &mut ExitFile, field: &str, t: &str) -> Result<(), FieldError> {
    match field {
        "side" => x.side = side_of(sides, t)?,
        "edge" => x.edge = parse_word(t, &words(&EDGES))?,
        "points" => x.points = number(t, "a whole number of points")?,
        other => return no_field(other),
    }
    Ok(())
}

fn set_corps(file: &mut ScenarioFile, i: usize, field: &str, t: &str) -> Result<(), FieldError> {
    let sides = side_ids(file);
    if field == "id" && file.corps.iter().enumerate().any(|(k, c)| k != i && c.id == t) {
        return err(format!("the id '{t}' is taken already"));
    }
    let Some(c) = file.corps.get_mut(i) else { return err(format!("corps[{i}] is not in the file any more")) };
    match field {
        "id" => c.id = t.to_owned(),
        "side" => c.side = side_of(&sides, t)?,
        "name" => c.name = opt_text(t),
        "units" => {
            c.units = t.split([',', ' ']).map(str::trim).filter(|x| !x.is_empty()).map(str::to_owned).collect();
        }
        "breaks_at" => c.breaks_at = opt_number(t, "a whole number of units")?,
        other => return no_field(other),
    }
    Ok(())
}

fn set_leader(sides: &[String], l: &mut LeaderFile, field: &str, t: &str) -> Result<(), FieldError> {
    match field {
        "id" => l.id = t.to_owned(),
        "side" => l.side = side_of(sides, t)?,
        "with" => l.with = t.to_owned(),
        "bonus" => l.bonus = number(t, "a whole number")?,
        "name" => l.name = opt_text(t),
        other => return no_field(other),
    }
    Ok(())
}

/// The subject and field a checker's path is about: `units[3].facing`
/// gives the unit's form and its facing; `turns` the scenario's;
/// `rules.rout_hexes` the rules form's `rout_hexes`. `None` for a path
/// no form shows (a hexside, a map row: those are painted).
pub fn subject_of(path: &str) -> Option<(Subject, Option<String>)> {
    if let Some(rest) = path.strip_prefix("rules") {
        let field = rest.strip_prefix('.').filter(|f| !f.is_empty()).map(str::to_owned);
        return Some((Subject::Rules, field));
    }
    if let Some(rest) = path.strip_prefix("map") {
        let field = rest.strip_prefix('.').map(|f| f.split(['[', '.']).next().unwrap_or(f).to_owned());
        return match field.as_deref() {
            Some("rows" | "hexsides") => None,
            _ => Some((Subject::Map, field)),
        };
    }
    let Some(open) = path.find('[') else {
        let top = path.split('.').next().unwrap_or(path);
        return match top {
            "format" | "name" | "description" | "mode" | "turns" | "seed" => {
                Some((Subject::Scenario, Some(top.to_owned())))
            }
            _ => None,
        };
    };
    let close = open + path[open..].find(']')?;
    let i: usize = path[open + 1..close].parse().ok()?;
    let subject = match &path[..open] {
        "sides" => Subject::Side(i),
        "units" => Subject::Unit(i),
        "shocks" => Subject::Shock(i),
        "staff" => Subject::Staff(i),
        "objectives" => Subject::Objective(i),
        "exits" => Subject::Exit(i),
        "corps" => Subject::Corps(i),
        "leaders" => Subject::Leader(i),
        _ => return None,
    };
    let field = path[close + 1..].strip_prefix('.').map(|f| f.split(['[', '.']).next().unwrap_or(f).to_owned());
    Some((subject, field))
}

/// Lists a form can add an entry to, or delete one from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Shocks,
    Staff,
    Objectives,
    Exits,
    Corps,
    Leaders,
}

impl List {
    pub const ALL: [List; 6] = [List::Shocks, List::Staff, List::Objectives, List::Exits, List::Corps, List::Leaders];

    /// How many entries the file has.
    pub fn len(self, file: &ScenarioFile) -> usize {
        match self {
            List::Shocks => file.shocks.len(),
            List::Staff => file.staff.len(),
            List::Objectives => file.objectives.len(),
            List::Exits => file.exits.len(),
            List::Corps => file.corps.len(),
            List::Leaders => file.leaders.len(),
        }
    }

    pub fn is_empty(self, file: &ScenarioFile) -> bool {
        self.len(file) == 0
    }

    /// The subject of entry `i`.
    pub fn subject(self, i: usize) -> Subject {
        match self {
            List::Shocks => Subject::Shock(i),
            List::Staff => Subject::Staff(i),
            List::Objectives => Subject::Objective(i),
            List::Exits => Subject::Exit(i),
            List::Corps => Subject::Corps(i),
            List::Leaders => Subject::Leader(i),
        }
    }

    /// The list a subject is an entry of.
    pub fn of(subject: Subject) -> Option<(List, usize)> {
        match subject {
            Subject::Shock(i) => Some((List::Shocks, i)),
            Subject::Staff(i) => Some((List::Staff, i)),
            Subject::Objective(i) => Some((List::Objectives, i)),
            Subject::Exit(i) => Some((List::Exits, i)),
            Subject::Corps(i) => Some((List::Corps, i)),
            Subject::Leader(i) => Some((List::Leaders, i)),
            _ => None,
        }
    }

    /// The list's name as the file writes it.
    pub fn name(self) -> &'static str {
        match self {
            List::Shocks => "shocks",
            List::Staff => "staff",
            List::Objectives => "objectives",
            List::Exits => "exits",
            List::Corps => "corps",
            List::Leaders => "leaders",
        }
    }
}

/// One line naming an entry of a list, for the form's list of them.
pub fn entry_words(file: &ScenarioFile, list: List, i: usize) -> String {
    let named = |n: &Option<String>| n.as_deref().map(|n| format!(" \"{n}\"")).unwrap_or_default();
    match list {
        List::Shocks => file.shocks.get(i).map(|s| format!("turn {}: {} {}", s.turn, s.unit, word(&s.to))),
        List::Staff => {
            file.staff.get(i).map(|s| format!("{}{} at {}, {}", s.side, named(&s.name), cm(s.pos.0), cm(s.pos.1)))
        }
        List::Objectives => {
            file.objectives.get(i).map(|o| format!("{}, {}{}: {} pt", o.at.0, o.at.1, named(&o.name), o.points))
        }
        List::Exits => file.exits.get(i).map(|x| format!("{} by the {} edge", x.side, word(&x.edge))),
        List::Corps => file.corps.get(i).map(|c| format!("{}{}: {} units", c.id, named(&c.name), c.units.len())),
        List::Leaders => file.leaders.get(i).map(|l| format!("{}{} with {}", l.id, named(&l.name), l.with)),
    }
    .unwrap_or_default()
}

/// A new entry of `list`, with what a designer would start from: a
/// shock on `unit` (or the first unit), an objective or staff figure at
/// the map's middle, an exit and a corps of the first side, a leader
/// riding with `unit`. Its subject.
pub fn add(file: &mut ScenarioFile, list: List, unit: Option<&str>) -> Result<Subject, FieldError> {
    let first_side = file.sides.first().map(|s| s.id.clone()).ok_or_else(|| FieldError("no sides yet".into()))?;
    let unit = unit.map(str::to_owned).or_else(|| file.units.first().map(|u| u.id.clone()));
    let (w, h) = crate::edit::paint::size(&file.map);
    match list {
        List::Shocks => {
            let Some(unit) = unit else { return err("a shock needs a unit: place one first") };
            let to = if file.mode == Mode::Hex { State::Routed } else { State::FU };
            file.shocks.push(ShockFile { turn: 1, unit, to, cause: None });
        }
        List::Staff => {
            let c = file.map.cell_cm.unwrap_or(crate::edit::blank::NEW_CELL_CM);
            let pos = (reshape::tenth(w as f32 * c / 2.0), reshape::tenth(h as f32 * c / 2.0));
            file.staff.push(StaffFile { side: first_side, pos, name: None });
        }
        List::Objectives => {
            let at = (i64::from(w / 2), i64::from(h / 2));
            file.objectives.push(ObjectiveFile { at, points: 1, name: None, held_by: None });
        }
        List::Exits => file.exits.push(ExitFile { side: first_side, edge: Edge::North, points: 1 }),
        List::Corps => {
            crate::edit::forces::add_corps(file, &first_side).map_err(|e| FieldError(e.to_string()))?;
        }
        List::Leaders => {
            let Some(unit) = unit else { return err("a leader rides with a unit: place one first") };
            let side = file.units.iter().find(|u| u.id == unit).map_or(first_side, |u| u.side.clone());
            let id = (1..)
                .map(|n| format!("{side}-leader-{n}"))
                .find(|l| file.leaders.iter().all(|x| x.id != *l))
                .unwrap_or_default();
            file.leaders.push(LeaderFile { id, side, with: unit, bonus: 1, name: None });
        }
    }
    Ok(list.subject(list.len(file) - 1))
}

/// Deletes entry `i` of `list`; what it was.
pub fn remove(file: &mut ScenarioFile, list: List, i: usize) -> Result<String, FieldError> {
    if i >= list.len(file) {
        return err(format!("{}[{i}] is not in the file any more", list.name()));
    }
    let said = entry_words(file, list, i);
    match list {
        List::Shocks => drop(file.shocks.remove(i)),
        List::Staff => drop(file.staff.remove(i)),
        List::Objectives => drop(file.objectives.remove(i)),
        List::Exits => drop(file.exits.remove(i)),
        List::Corps => drop(file.corps.remove(i)),
        List::Leaders => drop(file.leaders.remove(i)),
    }
    Ok(said)
}

#[cfg(test)]
mod tests;
