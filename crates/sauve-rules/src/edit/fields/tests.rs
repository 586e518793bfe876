use super::*;
use crate::edit::blank::blank;
use crate::edit::forces::{Spot, new_unit, place, toggle_leader};
use crate::hex::Offset;

fn bundled(name: &str) -> ScenarioFile {
    let text = match name {
        "cascade" => include_str!("../../../../../scenarios/cascade.ron"),
        "dennewitz" => include_str!("../../../../../scenarios/dennewitz-1813.ron"),
        "ligny" => include_str!("../../../../../scenarios/ligny-1815.ron"),
        _ => include_str!("../../../../../scenarios/plancenoit-1815.ron"),
    };
    crate::scenario::read_file(text, name).unwrap_or_else(|e| panic!("{e}"))
}

fn subjects(f: &ScenarioFile) -> Vec<Subject> {
    let mut out = vec![Subject::Scenario, Subject::Map];
    out.extend((0..f.sides.len()).map(Subject::Side));
    out.extend((0..f.units.len()).map(Subject::Unit));
    for list in List::ALL {
        out.extend((0..list.len(f)).map(|i| list.subject(i)));
    }
    out
}

#[test]
fn every_field_of_every_bundled_battle_takes_back_the_value_it_shows() {
    for name in ["dennewitz", "ligny", "plancenoit", "cascade"] {
        let f = bundled(name);
        for subject in subjects(&f) {
            for row in rows(&f, subject) {
                if row.kind == Kind::Fixed {
                    continue;
                }
                let mut g = f.clone();
                let said = set(&mut g, subject, &row.field, &row.value);
                assert!(said.is_ok(), "{name} {}: {:?} from {:?}", row.path, said, row.value);
                assert_eq!(g, f, "{name} {}: setting {:?} changed the file", row.path, row.value);
            }
        }
    }
}

#[test]
fn fields_set_from_text_change_the_file_and_survive_a_save() {
    let mut f = blank(Mode::Hex, 10, 8, Terrain::Clear);
    for (side, at) in [("blue", (4, 6)), ("red", (4, 1))] {
        let u = new_unit(&f, side, Arm::Infantry, Spot::Hex(Offset::new(at.0, at.1)));
        place(&mut f, u).expect("placed");
    }
    toggle_leader(&mut f, "blue-1").expect("leader");
    set(&mut f, Subject::Scenario, "turns", "7").expect("turns");
    set(&mut f, Subject::Scenario, "description", "A test of every field.").expect("description");
    set(&mut f, Subject::Side(1), "rear", "east").expect("any case");
    set(&mut f, Subject::Side(1), "level", "Hard").expect("level");
    set(&mut f, Subject::Side(0), "aggression", "0.2").expect("aggression");
    set(&mut f, Subject::Unit(0), "morale", "36").expect("morale");
    set(&mut f, Subject::Unit(0), "facing", "SE").expect("facing");
    set(&mut f, Subject::Unit(0), "readiness", "Tired").expect("readiness");
    set(&mut f, Subject::Unit(0), "movement", "5").expect("movement");
    set(&mut f, Subject::Unit(0), "id", "fr-1").expect("a new id");
    set(&mut f, Subject::Leader(0), "bonus", "2").expect("bonus");
    set(&mut f, Subject::Leader(0), "name", "Ney").expect("leader's name");
    let shock = add(&mut f, List::Shocks, Some("fr-1")).expect("a shock");
    set(&mut f, shock, "cause", "red-1").expect("cause");
    set(&mut f, shock, "turn", "2").expect("turn");
    let obj = add(&mut f, List::Objectives, None).expect("an objective");
    set(&mut f, obj, "name", "The mill").expect("name");
    set(&mut f, obj, "points", "3").expect("points");
    set(&mut f, obj, "held_by", "red").expect("holder");
    let corps = add(&mut f, List::Corps, None).expect("a corps");
    set(&mut f, corps, "units", "fr-1").expect("members");
    set(&mut f, corps, "name", "I Corps").expect("corps name");
    set(&mut f, corps, "breaks_at", "1").expect("breaks");
    let exit = add(&mut f, List::Exits, None).expect("an exit");
    set(&mut f, exit, "points", "2").expect("points");
    set(&mut f, Subject::Rules, "rout_hexes", "9").expect("a rule");
    assert_eq!(f.leaders[0].with, "fr-1", "the new id is carried into the leader");
    assert_eq!(f.shocks[0].unit, "fr-1");
    assert_eq!(f.sides[1].level, Some(AiLevel::Hard));
    assert!(crate::scenario::validate(f.clone()).is_ok(), "{:?}", crate::scenario::validate(f.clone()).err());
    let text = crate::edit::write::to_ron(&f);
    let back = crate::scenario::read_file(&text, "t.ron").expect("reads back");
    assert_eq!(back, f, "every field set is written and read back\n{text}");

    // What cannot be is refused, and nothing changes.
    let before = f.clone();
    assert!(set(&mut f, Subject::Side(0), "id", "red").is_err(), "taken");
    assert!(set(&mut f, Subject::Unit(0), "arm", "Dragoons").is_err());
    assert!(set(&mut f, Subject::Unit(0), "at", "3").is_err(), "two numbers");
    assert!(set(&mut f, Subject::Scenario, "turns", "many").is_err());
    assert!(set(&mut f, Subject::Map, "width", "0").is_err());
    assert!(set(&mut f, Subject::Objective(5), "points", "1").is_err(), "no such objective");
    assert_eq!(f, before);
    let said = remove(&mut f, List::Objectives, 0).expect("removed");
    assert!(said.contains("The mill"), "{said}");
}

#[test]
fn a_problem_of_the_checker_opens_the_form_with_the_field_that_mends_it() {
    let mut f = blank(Mode::Hex, 10, 8, Terrain::Clear);
    for (side, at) in [("blue", (4, 6)), ("red", (4, 1))] {
        let u = new_unit(&f, side, Arm::Infantry, Spot::Hex(Offset::new(at.0, at.1)));
        place(&mut f, u).expect("placed");
    }
    toggle_leader(&mut f, "blue-1").expect("leader");
    f.turns = 0;
    f.sides[0].aggression = Some(3.0);
    f.units[1].morale = Some(77);
    f.leaders[0].with = "nobody".into();
    f.shocks.push(ShockFile { turn: 1, unit: "ghost".into(), to: State::Routed, cause: None });
    f.objectives.push(ObjectiveFile { at: (40, 1), points: 1, name: None, held_by: None });
    f.rules.rout_hexes = 500;
    let problems = crate::scenario::validate(f.clone()).err().unwrap_or_default();
    assert!(problems.len() >= 7, "{problems:?}");
    for p in &problems {
        let path = p.path.as_deref().unwrap_or_default();
        let Some((subject, field)) = subject_of(path) else { panic!("{p}: no form for {path}") };
        let form = rows(&f, subject);
        assert!(!form.is_empty(), "{p}: the form of {subject:?} is empty");
        if let Some(field) = field {
            assert!(form.iter().any(|r| r.field == field), "{p}: no field {field} in {subject:?}");
        }
    }
    assert_eq!(subject_of("units[1].morale"), Some((Subject::Unit(1), Some("morale".into()))));
    assert_eq!(subject_of("turns"), Some((Subject::Scenario, Some("turns".into()))));
    assert_eq!(subject_of("rules.combat.fire_table[2]"), Some((Subject::Rules, Some("combat.fire_table[2]".into()))));
    assert_eq!(subject_of("map.rows[3]"), None, "rows are painted, not typed");
    assert_eq!(subject_of("shocks[0]"), Some((Subject::Shock(0), None)));
}

#[test]
fn a_table_units_form_offers_its_own_fields_and_rounds_its_centimetres() {
    let mut f = blank(Mode::FreeSpace, 10, 8, Terrain::Clear);
    let u = new_unit(&f, "blue", Arm::Artillery, Spot::Cm(20.0, 30.0));
    place(&mut f, u).expect("placed");
    let fields: Vec<String> = rows(&f, Subject::Unit(0)).into_iter().map(|r| r.field).collect();
    for want in ["pos", "valour", "figures", "limbered", "horse"] {
        assert!(fields.iter().any(|x| x == want), "{want} in {fields:?}");
    }
    assert!(!fields.iter().any(|x| x == "morale"));
    set(&mut f, Subject::Unit(0), "pos", "(119.77397, 139.67169)").expect("pos");
    assert_eq!(f.units[0].pos, Some((119.8, 139.7)));
    set(&mut f, Subject::Unit(0), "limbered", "yes").expect("limbered");
    set(&mut f, Subject::Unit(0), "facing", "390").expect("facing");
    assert_eq!((f.units[0].limbered, f.units[0].facing), (Some(true), Some(FacingFile::Degrees(30.0))));
    let staff = add(&mut f, List::Staff, None).expect("staff");
    set(&mut f, staff, "name", "Blücher").expect("name");
    set(&mut f, staff, "side", "red").expect("side");
    assert_eq!(f.staff[0].pos, (50.0, 40.0), "the table's middle");
    set(&mut f, Subject::Map, "cell_cm", "20").expect("cell");
    assert_eq!(f.units[0].pos, Some((239.6, 279.4)), "the unit keeps its cell");
    assert_eq!(f.staff[0].pos, (100.0, 80.0));
}
