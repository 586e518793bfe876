//! Helpers shared by the integration tests: tiny scenarios from strings, and
//! the event log read back as JSON, the way a script would read it.

#![allow(dead_code)]

use std::sync::Arc;

use sauve::scenario::{Scenario, parse};
use sauve::sim::{Seats, Simulation};
use serde_json::Value;

/// A map of `w` x `h` clear hexes, with `marks` placed on it as (c, r, char).
pub fn rows(w: usize, h: usize, marks: &[(usize, usize, char)]) -> Vec<String> {
    let mut grid = vec![vec!['.'; w]; h];
    for &(c, r, ch) in marks {
        grid[r][c] = ch;
    }
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// One hex-mode unit line.
pub fn unit(id: &str, side: &str, arm: &str, c: i32, r: i32, morale: u32, extra: &str) -> String {
    format!("(id: \"{id}\", side: \"{side}\", arm: {arm}, at: ({c}, {r}), morale: {morale}, strength: 4{extra})")
}

/// A whole hex scenario: "fr" (rear South) against "ru" (rear North).
pub fn scenario_text(rows: &[String], units: &[String], shocks: &[&str], rules: &str, turns: u32) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        "Scenario(format: 1, name: \"test\", turns: {turns}, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [{}],\n shocks: [{}],\n rules: ({rules}))",
        rows.join(",\n "),
        units.join(",\n "),
        shocks.join(", ")
    )
}

pub fn load(text: &str) -> Arc<Scenario> {
    match parse(text, "test.ron") {
        Ok(s) => Arc::new(s),
        Err(e) => panic!("test scenario invalid:\n{e}\n{text}"),
    }
}

/// Runs a scenario with scripted dice and returns the event log as JSON.
pub fn run(text: &str, dice: &[u32]) -> Vec<Value> {
    let s = load(text);
    let seed = s.seed;
    let mut sim = Simulation::new(s, seed, dice.to_vec(), Seats::Nobody);
    sim.run();
    sim.log()
        .to_jsonl()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}")))
        .collect()
}

pub fn of_kind<'a>(log: &'a [Value], kind: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["kind"] == kind).collect()
}

pub fn for_unit<'a>(log: &'a [Value], kind: &str, unit: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["kind"] == kind && e["unit"] == unit).collect()
}

/// A path as (c, r) pairs.
pub fn path(e: &Value) -> Vec<(i64, i64)> {
    e["path"]
        .as_array()
        .map(|a| a.iter().map(|p| (p[0].as_i64().unwrap_or(-99), p[1].as_i64().unwrap_or(-99))).collect())
        .unwrap_or_default()
}

/// The final state and position of a unit.
pub fn final_of(log: &[Value], unit: &str) -> (String, Option<(i64, i64)>) {
    let fin = log.iter().rev().find(|e| e["kind"] == "Final").expect("a Final event");
    let u = fin["units"].as_array().and_then(|us| us.iter().find(|u| u["id"] == unit)).expect("unit in Final");
    let at = u["at"].as_array().map(|p| (p[0].as_i64().unwrap_or(-99), p[1].as_i64().unwrap_or(-99)));
    (u["state"].as_str().unwrap_or("").to_owned(), at)
}

/// Cube distance of docs/scenario-format.md, written out independently of the crate.
pub fn dist(a: (i64, i64), b: (i64, i64)) -> i64 {
    let cube = |(c, r): (i64, i64)| {
        let x = c;
        let z = r - (c - (c & 1)) / 2;
        (x, -x - z, z)
    };
    let (ax, ay, az) = cube(a);
    let (bx, by, bz) = cube(b);
    (ax - bx).abs().max((ay - by).abs()).max((az - bz).abs())
}

/// A table of `w` x `h` cells of 10 cm, "a" (rear South) against "b" (rear
/// North), one turn unless `extra` says otherwise.
pub fn table(rows: &[String], units: &[String], shocks: &[&str], extra: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        "Scenario(format: 1, name: \"t\", mode: FreeSpace, seed: 7, turns: 1,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [{}],\n shocks: [{}]{extra})",
        rows.join(",\n "),
        units.join(",\n "),
        shocks.join(", ")
    )
}

/// One free-space unit line (infantry of 24 figures in line by default).
pub fn fsu(id: &str, side: &str, arm: &str, x: f32, y: f32, figures: u32, extra: &str) -> String {
    format!("(id: \"{id}\", side: \"{side}\", arm: {arm}, pos: ({x:.1}, {y:.1}), figures: {figures}, valour: 0{extra})")
}
