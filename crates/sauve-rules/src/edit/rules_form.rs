//! The rules block as a form: every number, switch and table row of the
//! house rules (docs/rules.md) named by its path in the block
//! (`rout_hexes`, `combat.leader_radius`, `terrain.Woods.cavalry`,
//! `belle_alliance.victory.figures_per_point`), the values a scenario
//! changes listed beside their defaults, and any of them set from what
//! was typed. The block in the file says only what differs, as
//! [`crate::edit::write`] writes it, so setting a value back to its
//! default takes it out of the file.
//!
//! The block is walked as JSON (serde's own picture of it), so a field
//! added to the rules is in the form without a line here.

use serde_json::{Map, Value};

use crate::edit::form::{FieldError, Kind, Row, Subject};
use crate::rules::{Rules, default_hexside_costs, default_terrain_costs};
use crate::terrain::{HexsideKind, Terrain};

fn to_json(rules: &Rules) -> Value {
    serde_json::to_value(rules).unwrap_or(Value::Null)
}

/// The block as JSON with every terrain's and hexside's costs written
/// out (the file lists only those it changes), so that each cost has a
/// path of its own.
fn full(rules: &Rules) -> Value {
    let mut v = to_json(rules);
    if let Value::Object(o) = &mut v {
        fill(o, "terrain", Terrain::ALL.iter().map(|&t| (key(&t), default_terrain_costs(t))));
        fill(o, "hexsides", HexsideKind::ALL.iter().map(|&k| (key(&k), default_hexside_costs(k))));
    }
    v
}

fn key<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn fill<C: serde::Serialize>(o: &mut Map<String, Value>, name: &str, all: impl Iterator<Item = (String, C)>) {
    let Some(Value::Object(m)) = o.get_mut(name) else { return };
    for (k, costs) in all {
        if !m.contains_key(&k) {
            m.insert(k, serde_json::to_value(costs).unwrap_or(Value::Null));
        }
    }
}

/// Every leaf of a JSON value with its path: objects by key, arrays of
/// numbers as one leaf (`[1, 2, 3]`), other arrays by index.
fn leaves(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    let join = |k: &str| if path.is_empty() { k.to_owned() } else { format!("{path}.{k}") };
    match v {
        Value::Object(o) => o.iter().for_each(|(k, x)| leaves(x, &join(k), out)),
        Value::Array(a) if !a.is_empty() && !a.iter().all(Value::is_number) => {
            a.iter().enumerate().for_each(|(i, x)| leaves(x, &format!("{path}[{i}]"), out));
        }
        other => out.push((path.to_owned(), other.clone())),
    }
}

fn all_leaves(rules: &Rules) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    leaves(&full(rules), "", &mut out);
    out
}

/// A value as an author types it: `0.3` (not the f64 the f32 widens
/// to), `true`, `TieBreak`, `none`, `[1, 2, 3]`.
pub fn show(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if (f as f32) as f64 == f => (f as f32).to_string(),
            (None, Some(f)) => f.to_string(),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(show).collect::<Vec<_>>().join(", ")),
        Value::Object(_) => "(...)".into(),
    }
}

/// Every field of the block, by path, in the order the block lists them
/// (for the form's chooser of what to change).
pub fn all_fields() -> Vec<String> {
    all_leaves(&Rules::default()).into_iter().map(|(p, _)| p).collect()
}

/// The house default of a field, as typed.
pub fn default_of(field: &str) -> Option<String> {
    all_leaves(&Rules::default()).into_iter().find(|(p, _)| p == field).map(|(_, v)| show(&v))
}

/// A field's value in `rules`, as typed; `None` for no such field.
pub fn value_of(rules: &Rules, field: &str) -> Option<String> {
    all_leaves(rules).into_iter().find(|(p, _)| p == field).map(|(_, v)| show(&v))
}

/// The row of one field, whether it differs from the house's or not.
pub fn row_of(rules: &Rules, field: &str) -> Option<Row> {
    let value = value_of(rules, field)?;
    let default = default_of(field).unwrap_or_else(|| "none".into());
    Some(Row {
        field: field.to_owned(),
        label: field.to_owned(),
        value,
        kind: Kind::Number,
        path: Subject::Rules.field_path(field),
        hint: format!("house default {default}"),
    })
}

/// The form: each value the scenario changes, with its default beside it.
pub fn rows(rules: &Rules) -> Vec<Row> {
    let house = all_leaves(&Rules::default());
    all_leaves(rules)
        .into_iter()
        .filter(|(p, v)| house.iter().find(|(q, _)| q == p).is_none_or(|(_, d)| d != v))
        .map(|(p, v)| {
            let default = house.iter().find(|(q, _)| *q == p).map_or_else(|| "none".into(), |(_, d)| show(d));
            Row {
                label: p.clone(),
                path: Subject::Rules.field_path(&p),
                field: p,
                value: show(&v),
                kind: Kind::Number,
                hint: format!("house default {default}"),
            }
        })
        .collect()
}

/// One step of a path: a key or an index.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn steps(path: &str) -> Option<Vec<Step<'_>>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (name, rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if !name.is_empty() {
            out.push(Step::Key(name));
        }
        for ix in rest.split('[').filter(|s| !s.is_empty()) {
            out.push(Step::Index(ix.trim_end_matches(']').parse().ok()?));
        }
    }
    (!out.is_empty()).then_some(out)
}

fn at_mut<'v>(v: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    let mut here = v;
    for s in steps {
        here = match s {
            Step::Key(k) => here.as_object_mut()?.get_mut(*k)?,
            Step::Index(i) => here.as_array_mut()?.get_mut(*i)?,
        };
    }
    Some(here)
}

/// What was typed, read as a value of the kind `like` is.
fn typed(text: &str, like: &Value) -> Result<Value, FieldError> {
    let t = text.trim();
    let bad = |what: &str| FieldError(format!("'{t}' is not {what}"));
    let number = |t: &str| -> Result<Value, FieldError> {
        if let Ok(i) = t.parse::<i64>() {
            return Ok(Value::from(i));
        }
        t.parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::from).ok_or_else(|| bad("a number"))
    };
    match like {
        Value::Bool(_) => match t.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Ok(Value::Bool(true)),
            "false" | "no" | "off" => Ok(Value::Bool(false)),
            _ => Err(bad("true or false")),
        },
        Value::Number(_) => number(t),
        Value::Null => match t.to_ascii_lowercase().as_str() {
            "none" | "no" | "-" => Ok(Value::Null),
            _ => number(t),
        },
        Value::String(_) => Ok(Value::String(t.trim_matches('"').to_owned())),
        Value::Array(_) => {
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            let items: Result<Vec<Value>, FieldError> =
                inner.split(',').map(str::trim).filter(|s| !s.is_empty()).map(number).collect();
            Ok(Value::Array(items?))
        }
        Value::Object(_) => Err(FieldError("a group of values: set its fields one by one".into())),
    }
}

/// Sets one field of the block from what was typed; an empty text puts
/// the house default back. A value of the wrong kind is refused here;
/// one out of its range is taken, and the checker names it.
pub fn set(rules: &mut Rules, field: &str, text: &str) -> Result<(), FieldError> {
    let unknown = || FieldError(format!("the rules block has no field '{field}'"));
    let path = steps(field).ok_or_else(unknown)?;
    let mut json = full(rules);
    let value = if text.trim().is_empty() {
        let mut house = full(&Rules::default());
        at_mut(&mut house, &path).map(|v| v.take()).ok_or_else(unknown)?
    } else {
        let now = at_mut(&mut json, &path).ok_or_else(unknown)?;
        typed(text, now)?
    };
    *at_mut(&mut json, &path).ok_or_else(unknown)? = value;
    let mut next: Rules =
        serde_json::from_value(json).map_err(|e| FieldError(format!("{field}: {}", e.to_string().replace('`', ""))))?;
    // Terrain and hexside entries the block need not list: those it did
    // not list before, equal to the house's costs.
    next.terrain.retain(|t, c| rules.terrain.contains_key(t) || *c != default_terrain_costs(*t));
    next.hexsides.retain(|k, c| rules.hexsides.contains_key(k) || *c != default_hexside_costs(*k));
    *rules = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_rules_have_no_rows_and_every_field_has_a_path() {
        assert!(rows(&Rules::default()).is_empty());
        let all = all_fields();
        for want in ["rout_hexes", "natural_extremes", "combat.leader_radius", "terrain.Woods.cavalry"] {
            assert!(all.iter().any(|f| f == want), "{want} in {all:?}");
        }
        assert!(all.iter().any(|f| f.starts_with("belle_alliance.victory.")), "the tables' rules too");
    }

    #[test]
    fn a_value_set_is_listed_with_its_default_and_an_empty_one_goes_back() {
        let mut r = Rules::default();
        set(&mut r, "rout_hexes", "8").expect("a number");
        set(&mut r, "natural_extremes", "no").expect("a switch");
        set(&mut r, "terrain.Woods.cavalry", "6").expect("a terrain cost");
        set(&mut r, "terrain.Marsh.artillery", "none").expect("prohibited stays prohibited");
        assert_eq!(r.rout_hexes, 8);
        assert!(!r.natural_extremes);
        assert_eq!(r.terrain.get(&Terrain::Woods).and_then(|c| c.cavalry), Some(6.0));
        assert!(!r.terrain.contains_key(&Terrain::Marsh), "a cost equal to the house's is not written");
        let listed = rows(&r);
        let mut fields: Vec<&str> = listed.iter().map(|r| r.field.as_str()).collect();
        fields.sort_unstable();
        assert_eq!(fields, ["natural_extremes", "rout_hexes", "terrain.Woods.cavalry"]);
        let hexes = listed.iter().find(|r| r.field == "rout_hexes").expect("row");
        assert_eq!((hexes.value.as_str(), hexes.path.as_str()), ("8", "rules.rout_hexes"));
        assert!(hexes.hint.contains("10"), "{}", hexes.hint);
        assert_eq!(row_of(&r, "rout_hexes").map(|x| x.value), Some("8".into()));
        assert_eq!(
            row_of(&Rules::default(), "combat.leader_radius").map(|x| x.value),
            value_of(&r, "combat.leader_radius")
        );
        set(&mut r, "rout_hexes", "").expect("back to the default");
        assert_eq!(r.rout_hexes, Rules::default().rout_hexes);
        assert_eq!(rows(&r).len(), 2);
    }

    #[test]
    fn a_float_shows_as_typed_and_the_wrong_kind_is_refused() {
        let mut r = Rules::default();
        let field = all_fields().into_iter().find(|f| f == "ai.normal_bias_share").expect("a float field");
        set(&mut r, &field, "0.3").expect("a float");
        let row = rows(&r).into_iter().find(|x| x.field == field).expect("listed");
        assert_eq!(row.value, "0.3");
        assert!(set(&mut r, "rout_hexes", "many").is_err());
        assert!(set(&mut r, "rout_hexes", "-3").is_err(), "a u32 cannot be negative");
        assert!(set(&mut r, "no_such_rule", "1").is_err());
        assert!(set(&mut r, "rout_refuge", "Nowhere").is_err(), "not a variant");
        set(&mut r, "rout_refuge", "TieBreak").expect("a variant");
        assert_eq!(r.rout_refuge, crate::rules::RoutRefuge::TieBreak);
    }

    #[test]
    fn a_written_block_reads_back_with_the_values_set() {
        let mut f = crate::edit::blank::blank(crate::scenario::Mode::Hex, 4, 3, Terrain::Clear);
        set(&mut f.rules, "combat.leader_radius", "3").expect("set");
        let text = crate::edit::write::to_ron(&f);
        let back = crate::scenario::read_file(&text, "x.ron").expect("reads");
        assert_eq!(back.rules.combat.leader_radius, 3);
    }
}
