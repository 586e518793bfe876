//! Small free-space tables for the unit tests of this module: a scenario
//! read from text (so the loader's checks hold) and its table.

use crate::belle_alliance::{FsUnit, Table};
use crate::scenario::{Scenario, parse};
use crate::terrain::Arm;
use crate::vocab::{Formation, State};

/// A 24-figure unit of valour 0 in line, as a scenario line would give it.
pub fn unit(id: &str, side: usize, arm: Arm, x: f32, y: f32, facing: f32) -> FsUnit {
    FsUnit {
        id: id.into(),
        side,
        arm,
        figures: if arm == Arm::Artillery { 4 } else { 24 },
        valour: 0,
        state: State::Order,
        formation: Formation::Line,
        limbered: false,
        horse: false,
        x,
        y,
        facing,
        guns_left: None,
        shaken_in: None,
    }
}

/// A 200 x 200 cm open table with these units.
pub fn table_of(units: Vec<FsUnit>) -> (Scenario, Table) {
    table_on(vec![".".repeat(20); 20], units)
}

/// A table of these rows (10 cm cells), sides "a" (rear South) and "b"
/// (rear North), with these units.
pub fn table_on(rows: Vec<String>, units: Vec<FsUnit>) -> (Scenario, Table) {
    let lines: Vec<String> = units
        .iter()
        .map(|u| {
            format!(
                "(id: \"{}\", side: \"{}\", arm: {:?}, pos: ({:.2}, {:.2}), facing: {:.2}, figures: {}, valour: {}, formation: {:?}{})",
                u.id,
                ["a", "b"][u.side],
                u.arm,
                u.x,
                u.y,
                u.facing,
                u.figures,
                u.valour,
                if u.formation == Formation::Flight { Formation::Line } else { u.formation },
                if u.arm == Arm::Artillery {
                    format!(", limbered: {}, horse: {}", u.limbered, u.horse)
                } else {
                    String::new()
                }
            )
        })
        .collect();
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        "Scenario(format: 1, name: \"t\", mode: FreeSpace, seed: 7, turns: 4,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [{}])",
        rows.join(",\n "),
        lines.join(",\n ")
    );
    let s = match parse(&text, "test.ron") {
        Ok(s) => s,
        Err(e) => panic!("test table invalid:\n{e}\n{text}"),
    };
    let mut t = Table::from_scenario(&s);
    for (got, want) in t.units.iter_mut().zip(units) {
        *got = want;
    }
    (s, t)
}
