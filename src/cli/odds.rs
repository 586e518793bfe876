//! `sauve odds`: the odds the window shows before an order is given, for
//! scripts and tests. A volley, a melee or a charge of the named units at
//! a target, on a scenario's opening board or a save's, every die counted
//! (the attackers' own checks, the defenders', a square, the table).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::{Value, json};

use super::exit::{fail, usage_error};
use crate::game::orders::words::{attack_odds_text, fire_odds_text, pct};
use crate::labataille::combat::AttackOdds;
use crate::scenario::{Mode, Scenario};
use crate::sim::{self, Seats, Simulation};
use crate::whatif::Start;

/// The arguments of `sauve odds`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("order").required(true).args(["fire", "melee", "charge"])))]
pub struct OddsArgs {
    /// A scenario (its opening board) or a save (the board as it was saved).
    pub file: PathBuf,
    /// The odds of a volley of these units (their ids).
    #[arg(long, value_name = "UNIT", num_args = 1..)]
    pub fire: Vec<String>,
    /// The odds of an order to attack with these units.
    #[arg(long, value_name = "UNIT", num_args = 1..)]
    pub melee: Vec<String>,
    /// The odds of a charge of this unit (from where it stands; hex mode
    /// rides the approach and counts from the hex of contact).
    #[arg(long, value_name = "UNIT")]
    pub charge: Option<String>,
    /// The enemy unit fired at, attacked or charged.
    #[arg(long, value_name = "UNIT")]
    pub target: String,
    /// Write JSON for scripts instead of sentences.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &OddsArgs) -> ExitCode {
    let start = match Start::load(&a.file, None) {
        Ok(s) => s,
        Err(e) => return fail(e.lines()),
    };
    let scenario = start.scenario().clone();
    let index = |id: &str| {
        scenario.unit_index(id).ok_or_else(|| format!("{}: error: unit '{id}': no such unit", a.file.display()))
    };
    let units: Vec<String> =
        if let Some(c) = &a.charge { vec![c.clone()] } else { [&a.fire[..], &a.melee[..]].concat() };
    if units.is_empty() {
        return usage_error("name the units that fire, attack or charge");
    }
    let mut who = Vec::new();
    for id in units.iter().chain([&a.target]) {
        match index(id) {
            Ok(i) => who.push(i),
            Err(e) => return fail(vec![e]),
        }
    }
    let target = who.pop().unwrap_or_default();
    let mut sim = match &start {
        Start::Opening { scenario, seed } => Simulation::new(scenario.clone(), *seed, Vec::new(), Seats::Nobody),
        Start::Saved { save, scenario } => crate::whatif::fork::original(save, scenario),
    };
    let world = sim.app.world_mut();
    let name = |i: usize| scenario.units.get(i).map_or_else(|| format!("unit {i}"), |u| u.name.clone());
    let order = if !a.fire.is_empty() {
        "fire"
    } else if a.melee.is_empty() {
        "charge"
    } else {
        "melee"
    };
    let answer: Result<(Value, String), String> = match (scenario.mode, order) {
        (Mode::Hex, "fire") => sim::fire_odds(world, &who, target).map_err(|e| e.to_string()).map(|o| {
            let outcomes: Vec<Value> =
                o.outcomes.iter().map(|(r, p)| json!({ "result": r.to_string(), "chance": p })).collect();
            let j = json!({
                "firepower": o.firepower, "column": o.column + 1, "outcomes": outcomes,
                "losses": o.loss_chance(), "check": o.check_chance(), "check_fails": o.check_fails,
            });
            (j, fire_odds_text(&o, &name(target)))
        }),
        (Mode::Hex, "melee") => {
            sim::attack_odds(world, &who, target).map_err(|e| e.to_string()).map(|o| {
                (attack_json(&o, &scenario, None), attack_odds_text(&o, &name(target), false, &name))
            })
        }
        (Mode::Hex, _) => sim::charge_odds(world, who[0], target).map_err(|e| e.to_string()).map(|(path, o)| {
            let path: Vec<[i32; 2]> = path.iter().map(|h| [h.c, h.r]).collect();
            (attack_json(&o, &scenario, Some(path)), attack_odds_text(&o, &name(target), true, &name))
        }),
        (Mode::FreeSpace, "fire") => sim::fs_fire_odds(world, &who, target).map(|o| {
            let (v, none, rows) = (o.volley, o.none, o.rows);
            let table = &scenario.rules.belle_alliance.fire.results;
            let each: Vec<Value> = table
                .iter()
                .zip(&rows)
                .map(|(r, p)| json!({ "figures": r.figures, "state": r.state, "chance": p }))
                .collect();
            let words: Vec<String> = table
                .iter()
                .zip(&rows)
                .map(|(r, p)| format!("{} figures and {:?} {}", r.figures, r.state, pct(*p)))
                .collect();
            let text = format!(
                "Fire at {}: {:.1} points, {:+}\n  no effect {}\n  {}\n  it flees {} (the valour tests its losses demand counted)",
                name(target),
                v.points,
                v.modifier,
                pct(none),
                words.join("\n  "),
                pct(o.flees)
            );
            let j = json!({ "points": v.points, "modifier": v.modifier, "no_effect": none, "results": each,
                "flees": o.flees });
            (j, text)
        }),
        (Mode::FreeSpace, "melee") => sim::fs_melee_odds(world, &who, target, false).map(|o| {
            let (f, w, d, l, tf, af) = (o.fight, o.win, o.draw, o.lose, o.target_flees, o.attacker_flees);
            let j = json!({ "attack": f.attack, "defence": f.defence, "aspect": format!("{:?}", f.aspect),
                "win": w, "draw": d, "lose": l, "target_flees": tf, "attacker_flees": af });
            let text = format!(
                "Attack {}: {:+} against {:+} ({:?})\n  win {}, draw {}, lose {}\n  it flees {}, the attacker {} \
                 (the valour tests of their losses counted)",
                name(target),
                f.attack,
                f.defence,
                f.aspect,
                pct(w),
                pct(d),
                pct(l),
                pct(tf),
                pct(af)
            );
            (j, text)
        }),
        (Mode::FreeSpace, _) => sim::fs_charge_odds(world, who[0], target).map(|o| {
            let fight = |f: &crate::belle_alliance::combat::Fight| {
                json!({ "attack": f.attack, "defence": f.defence, "aspect": format!("{:?}", f.aspect) })
            };
            let j = json!({
                "fight": fight(&o.fight), "square": o.square, "against_square": o.against_square.as_ref().map(fight),
                "win": o.win, "draw": o.draw, "lose": o.lose, "called_off": o.called_off,
                "target_flees": o.target_flees, "charger_flees": o.charger_flees,
            });
            let mut text = format!(
                "Charge {}: {:+} against {:+} ({:?})",
                name(target),
                o.fight.attack,
                o.fight.defence,
                o.fight.aspect
            );
            if let Some(p) = o.square {
                text += &format!("\n  it forms square {}", pct(p));
                if let Some(f) = &o.against_square {
                    text += &format!(" (then {:+} against {:+})", f.attack, f.defence);
                }
            }
            text += &format!("\n  win {}, draw {}, lose {}", pct(o.win), pct(o.draw), pct(o.lose));
            text += &format!("\n  it flees {}, the charger {}", pct(o.target_flees), pct(o.charger_flees));
            if o.called_off > 0.0 {
                text += &format!(", called off {}", pct(o.called_off));
            }
            (j, text)
        }),
    };
    match answer {
        Ok((mut j, text)) => {
            if a.json {
                if let Value::Object(m) = &mut j {
                    m.insert("order".into(), json!(order));
                    m.insert("units".into(), json!(units));
                    m.insert("target".into(), json!(a.target));
                }
                println!("{}", serde_json::to_string_pretty(&j).unwrap_or_default());
            } else {
                println!("{text}");
            }
            ExitCode::SUCCESS
        }
        Err(why) => fail(vec![format!("{}: error: {why}", a.file.display())]),
    }
}

/// A hex attack's odds as JSON: the table before any check, each check,
/// how often the table is rolled, and each result, all dice counted.
fn attack_json(o: &AttackOdds, s: &Scenario, path: Option<Vec<[i32; 2]>>) -> Value {
    let id = |i: usize| s.units.get(i).map_or_else(String::new, |u| u.id.clone());
    let results = |list: &[(crate::rules::combat::MeleeResult, f32)]| {
        Value::Object(list.iter().map(|(r, p)| (format!("{r:?}"), json!(p))).collect())
    };
    let checks: Vec<Value> = o
        .checks
        .iter()
        .map(|c| json!({ "unit": id(c.unit), "cause": c.cause, "rolled": c.rolled, "passes": c.passes }))
        .collect();
    let mut j = json!({
        "table": {
            "odds": o.table.label, "attack": o.table.attack, "defence": o.table.defence,
            "modifier": o.table.modifier, "walkover": o.table.walkover, "outcomes": results(&o.table.outcomes),
        },
        "checks": checks,
        "goes_in": o.goes_in,
        "cleared": o.cleared,
        "called_off": o.called_off,
        "win": o.win_chance(),
        "outcomes": results(&o.outcomes),
    });
    if let (Some(p), Value::Object(m)) = (path, &mut j) {
        m.insert("path".into(), json!(p));
    }
    j
}
