//! `sauve odds` through the real binary: it prints the odds the rules
//! crate counts (every die of the attack, crates/sauve-rules/tests/
//! attack_odds.rs checks them against the dice), on a scenario's opening
//! board, in both modes; and it refuses what it cannot answer.

use std::path::PathBuf;
use std::process::Command;

use sauve::labataille::Board;
use sauve::labataille::combat::{Battlefield, attack_odds};
use sauve::labataille::engine::{Ctx, Engine};
use sauve::labataille::grid::Grid;
use serde_json::Value;

const FIELD: &str = r#"Scenario(format: 1, name: "odds", turns: 2, seed: 7,
 sides: [(id: "fr", rear: South), (id: "ru", rear: North)],
 map: (rows: ["..........", "..........", "..........", "..........", "..........", "..........", "..........", "..........", "..........", ".........."]),
 units: [
  (id: "fr-a", side: "fr", arm: Infantry, at: (4, 5), morale: 34, strength: 5, name: "1er Bn 132e"),
  (id: "fr-h", side: "fr", arm: Cavalry, at: (4, 8), morale: 45, strength: 4),
  (id: "ru-a", side: "ru", arm: Infantry, at: (4, 4), morale: 36, strength: 3, name: "Pavlov Grenadiers"),
 ])"#;

fn file(name: &str, text: &str) -> PathBuf {
    // The build's own scratch folder: one folder, shared by every test
    // here and written over by the next run, rather than one more in /tmp
    // each run.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sauve-odds");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

fn sauve(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sauve")).args(args).output().expect("the sauve binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = sauve(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn sauve_odds_prints_the_counted_odds_of_an_attack() {
    let path = file("field.ron", FIELD);
    let p = path.to_str().expect("a UTF-8 path");
    let j = json(&["odds", p, "--melee", "fr-a", "--target", "ru-a", "--json"]);
    // The same numbers, worked out here from the rules crate.
    let s = sauve::scenario::parse(FIELD, "field.ron").expect("valid");
    let grid = Grid::new(&s.map, &s.rules);
    let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
    let tables = s.rules.combat.tables();
    let movement = vec![None; s.units.len()];
    let bf = Battlefield { ctx: &ctx, map: &s.map, tables: &tables, movement: &movement };
    let board = Board::from_scenario(&s);
    let engine = Engine::new(&grid, &board);
    let o = attack_odds(&bf, &engine, &board, &[0], 2).expect("a legal attack");
    let near = |v: &Value, x: f32| (v.as_f64().unwrap_or(-1.0) - f64::from(x)).abs() < 1e-6;
    assert!(near(&j["win"], o.win_chance()) && near(&j["goes_in"], o.goes_in), "{j}");
    assert!(near(&j["outcomes"]["DR"], o.chance_of(sauve::rules::combat::MeleeResult::DR)), "{j}");
    assert_eq!(j["checks"][0]["unit"], "fr-a", "the attacker's own check comes first: {j}");
    assert!(near(&j["checks"][0]["passes"], o.checks[0].passes));
    assert!(o.goes_in < 0.5, "both checks must pass for the melee to go in");

    // The sentences say the same, with names.
    let out = sauve(&["odds", p, "--melee", "fr-a", "--target", "ru-a"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("checks: 1er Bn 132e passes 56%"), "{text}");

    // A distant charge: its path and the target's square test.
    let j = json(&["odds", p, "--charge", "fr-h", "--target", "ru-a", "--json"]);
    assert_eq!(j["path"][0], serde_json::json!([4, 8]), "{j}");
    assert_eq!(j["checks"][0]["cause"], "Charge", "{j}");
    // And a volley's chance the target fails its check.
    let j = json(&["odds", p, "--fire", "fr-a", "--target", "ru-a", "--json"]);
    assert!(j["check_fails"].as_f64().is_some_and(|x| x > 0.0 && x < 1.0), "{j}");
}

#[test]
fn sauve_odds_works_on_a_table_and_refuses_what_it_cannot_answer() {
    let ligny = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/ligny-1815.ron");
    let l = ligny.to_str().expect("a UTF-8 path");
    let s = sauve::scenario::load(&ligny).expect("the bundled battle");
    let fr = s.units.iter().find(|u| s.sides[u.side].id == "fr").expect("a French unit");
    let pr = s.units.iter().find(|u| s.sides[u.side].id != "fr").expect("a Prussian unit");
    // At the opening the armies stand apart: the refusal says why.
    let out = sauve(&["odds", l, "--fire", &fr.id, "--target", &pr.id]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ligny-1815.ron: error:"), "{err}");
    let out = sauve(&["odds", l, "--melee", "nobody", "--target", &pr.id]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unit 'nobody': no such unit"));
    let out = sauve(&["odds", l, "--target", &pr.id]);
    assert_eq!(out.status.code(), Some(2), "no order named is a usage error");

    // Horse 30 cm from a line's flank: the charge's odds count its square.
    let rows: Vec<String> = (0..20).map(|_| format!("\"{}\"", ".".repeat(20))).collect();
    let table = format!(
        "Scenario(format: 1, name: \"t\", mode: FreeSpace, seed: 7, turns: 4,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [(id: \"h\", side: \"a\", arm: Cavalry, pos: (140.0, 100.0), facing: 270.0, figures: 12), (id: \"b\", side: \"b\", arm: Infantry, pos: (100.0, 100.0), facing: 180.0, figures: 24)])",
        rows.join(",\n ")
    );
    let path = file("table.ron", &table);
    let j = json(&["odds", path.to_str().expect("UTF-8"), "--charge", "h", "--target", "b", "--json"]);
    assert_eq!(j["square"].as_f64(), Some(0.5), "3d6 reaching 11: {j}");
    let sum: f64 = ["win", "draw", "lose", "called_off"].iter().filter_map(|k| j[*k].as_f64()).sum();
    assert!((sum - 1.0).abs() < 1e-4, "{j}");
}
