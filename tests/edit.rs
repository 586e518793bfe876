//! The editor's file writing over every bundled battle: read as the file
//! model, written back as RON, read again, it is the same file; the
//! written text validates, and the same seed plays the same battle from
//! it, event for event.

use std::sync::Arc;

use sauve::edit::write::{has_hand_comments, to_ron};
use sauve::scenario::{parse, read_file};
use sauve::sim::{Seats, Simulation};

const BUNDLED: [(&str, &str); 6] = [
    ("cascade.ron", include_str!("../scenarios/cascade.ron")),
    ("grossbeeren-1813.ron", include_str!("../scenarios/grossbeeren-1813.ron")),
    ("hagelberg-1813.ron", include_str!("../scenarios/hagelberg-1813.ron")),
    ("dennewitz-1813.ron", include_str!("../scenarios/dennewitz-1813.ron")),
    ("ligny-1815.ron", include_str!("../scenarios/ligny-1815.ron")),
    ("plancenoit-1815.ron", include_str!("../scenarios/plancenoit-1815.ron")),
];

fn two_turns(text: &str, name: &str) -> String {
    let s = parse(text, name).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(Arc::new(s), 7, Vec::new(), Seats::Watch);
    while sim.clock().turn <= 2 && sim.step() {}
    sim.log().to_jsonl()
}

#[test]
fn every_bundled_battle_reads_writes_and_reads_back_the_same() {
    for (name, text) in BUNDLED {
        let file = read_file(text, name).unwrap_or_else(|e| panic!("{e}"));
        let written = to_ron(&file);
        let again = read_file(&written, name).unwrap_or_else(|e| panic!("{name} as written: {e}\n{written}"));
        assert_eq!(again, file, "{name}");
        assert_eq!(to_ron(&again), written, "{name}: writing is stable");
        assert!(has_hand_comments(text), "{name} has its author's comments, which a save would lose");
        assert!(!has_hand_comments(&written), "{name}: the editor's text has only its header");
        assert_eq!(two_turns(&written, name), two_turns(text, name), "{name}: the same battle");
    }
}
