//! La Bataille rules, clause by clause (docs/rules.md section 1), checked through
//! the event log of tiny scenarios with scripted dice.

mod common;

use common::*;

const FR_ROUTS: &str = "(turn: 1, unit: \"fr-a\", to: Routed, cause: \"ru-a\")";
const FR_DISORDERS: &str = "(turn: 1, unit: \"fr-a\", to: Disordered, cause: \"ru-a\")";

fn first_move<'a>(log: &'a [serde_json::Value], unit: &str) -> &'a serde_json::Value {
    for_unit(log, "Move", unit).into_iter().next().unwrap_or_else(|| panic!("{unit} never moved"))
}

fn assert_simple_adjacent(p: &[(i64, i64)]) {
    for w in p.windows(2) {
        assert_eq!(dist(w[0], w[1]), 1, "path steps must be adjacent: {p:?}");
    }
    let mut seen = p.to_vec();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), p.len(), "a path never revisits a hex: {p:?}");
}

// --- 1.3 The rout move -----------------------------------------------------

#[test]
fn rout_moves_ten_hexes_straight_back_on_open_ground() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[]);
    let mv = first_move(&log, "fr-a");
    assert_eq!(mv["reason"], "Rout");
    let want: Vec<(i64, i64)> = (5..=15).map(|r| (7, r)).collect();
    assert_eq!(path(mv), want);
    assert_eq!(mv["from"], serde_json::json!([7, 5]));
    assert_eq!(mv["to"], serde_json::json!([7, 15]));
}

#[test]
fn rout_never_steps_closer_and_ends_further_from_the_enemy() {
    // Enemies on a slant; the router must thread between them and the woods.
    let marks: Vec<(usize, usize, char)> = (0..15).map(|c| (c, 12, 'w')).chain([(4, 9, 'm'), (9, 8, 't')]).collect();
    let text = scenario_text(
        &rows(15, 30, &marks),
        &[
            unit("fr-a", "fr", "Infantry", 6, 6, 44, ""),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
            unit("ru-b", "ru", "Cavalry", 3, 4, 44, ""),
            unit("ru-c", "ru", "Infantry", 11, 3, 44, ""),
        ],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 11, "ten hexes: {p:?}");
    assert_simple_adjacent(&p);
    let enemies = [(7, 2), (3, 4), (11, 3)];
    let nearest = |h: (i64, i64)| enemies.iter().map(|&e| dist(h, e)).min().unwrap_or(0);
    for w in p.windows(2) {
        assert!(nearest(w[1]) >= nearest(w[0]), "step {w:?} comes closer to the enemy");
    }
    assert!(nearest(p[10]) > nearest(p[0]), "ends further than it began");
    for e in enemies {
        assert!(dist(p[10], e) >= dist(p[0], e), "no closer to any enemy within 15 hexes");
    }
}

#[test]
fn rout_takes_the_most_economical_terrain() {
    // A belt of marsh (dear, and no refuge to seek) across the line of
    // flight with one clear gap.
    let marks: Vec<(usize, usize, char)> =
        (0..15).filter(|&c| c != 9).flat_map(|c| [(c, 8, 'm'), (c, 9, 'm')]).collect();
    let text = scenario_text(
        &rows(15, 30, &marks),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 11);
    assert_simple_adjacent(&p);
    assert!(p.iter().all(|&(c, r)| !(marks.contains(&(c as usize, r as usize, 'm')))), "went through marsh: {p:?}");
    assert!(p.contains(&(9, 8)) && p.contains(&(9, 9)), "through the gap: {p:?}");
}

#[test]
fn rout_goes_around_friends_when_the_ground_is_equal() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[
            unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
            unit("fr-b", "fr", "Infantry", 7, 6, 44, ""),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
        ],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[66, 66, 66, 66]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 11);
    assert!(!p.contains(&(7, 6)), "should avoid the friendly hex: {p:?}");
    let contagion: Vec<_> =
        for_unit(&log, "MoraleCheck", "fr-b").into_iter().filter(|e| e["cause"] == "Contagion").collect();
    assert!(contagion.is_empty(), "fr-b was not passed, so it does not check");
}

#[test]
fn rout_passes_through_friends_rather_than_worse_ground() {
    // Woods everywhere but the router's own column: the friend is in the way.
    let marks: Vec<(usize, usize, char)> =
        (0..15).filter(|&c| c != 7).flat_map(|c| (0..30).map(move |r| (c, r, 'w'))).collect();
    let text = scenario_text(
        &rows(15, 30, &marks),
        &[
            unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
            unit("fr-b", "fr", "Infantry", 7, 8, 44, ""),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
        ],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    assert!(path(first_move(&log, "fr-a")).contains(&(7, 8)));
}

#[test]
fn rout_prefers_a_woods_end_hex_when_paths_cost_the_same() {
    let text = scenario_text(
        &rows(15, 30, &[(9, 14, 'w')]),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_ROUTS],
        "terrain: { Woods: (infantry: 1.0, cavalry: 1.0, artillery: None) }, rout_refuge: TieBreak",
        1,
    );
    let log = run(&text, &[]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.last(), Some(&(9, 14)), "{p:?}");
    // As a tie-break only, woods at their usual cost lose to the cheaper
    // clear end.
    let text = text.replace("terrain: { Woods: (infantry: 1.0, cavalry: 1.0, artillery: None) }, ", "");
    let log = run(&text, &[]);
    assert_eq!(path(first_move(&log, "fr-a")).last(), Some(&(7, 15)));
}

#[test]
fn rout_seeks_a_woods_or_town_destination_before_cheaper_ground() {
    // Open ground with a wood and a town among the legal ends: under the
    // house default (`rout_refuge: Destination`) the router ends in one of
    // them although clear ground all the way costs less.
    let text = scenario_text(
        &rows(15, 30, &[(9, 14, 'w'), (4, 13, 't')]),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 11);
    assert_simple_adjacent(&p);
    assert!(p.last() == Some(&(9, 14)) || p.last() == Some(&(4, 13)), "ends in the wood or the town: {p:?}");
    assert!(p[1..p.len() - 1].iter().all(|&(c, r)| (c, r) != (9, 14) && (c, r) != (4, 13)));
}

#[test]
fn a_router_that_cannot_make_its_full_move_surrenders() {
    // River on every side but the one towards the enemy.
    let marks = [(8, 8, '~'), (8, 9, '~'), (7, 9, '~'), (6, 9, '~'), (6, 8, '~')];
    let text = scenario_text(
        &rows(15, 20, &marks),
        &[unit("fr-a", "fr", "Infantry", 7, 8, 44, ""), unit("ru-a", "ru", "Infantry", 7, 3, 44, "")],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[]);
    assert_eq!(for_unit(&log, "Surrendered", "fr-a").len(), 1);
    assert!(for_unit(&log, "Move", "fr-a").is_empty());
    assert_eq!(final_of(&log, "fr-a"), ("Surrendered".to_owned(), None));
}

#[test]
fn a_bridge_is_a_way_out_but_a_river_is_not() {
    // Same pocket with a bridge to the south: now the unit gets away.
    let marks = [(8, 8, '~'), (8, 9, '~'), (7, 9, '='), (6, 9, '~'), (6, 8, '~')];
    let text = scenario_text(
        &rows(15, 25, &marks),
        &[unit("fr-a", "fr", "Infantry", 7, 8, 44, ""), unit("ru-a", "ru", "Infantry", 7, 3, 44, "")],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 11);
    assert_eq!(p[1], (7, 9), "over the bridge");
}

#[test]
fn a_router_pushed_to_the_map_edge_routs_off_and_is_eliminated() {
    let text = scenario_text(
        &rows(1, 20, &[]),
        &[unit("fr-a", "fr", "Infantry", 0, 15, 44, ""), unit("ru-a", "ru", "Infantry", 0, 10, 44, "")],
        &[FR_ROUTS],
        "",
        1,
    );
    let log = run(&text, &[]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p, (15..=19).map(|r| (0, r)).collect::<Vec<_>>());
    let elim = for_unit(&log, "Eliminated", "fr-a");
    assert_eq!(elim.len(), 1);
    assert_eq!(elim[0]["reason"], "OffMap");
    assert_eq!(final_of(&log, "fr-a"), ("Eliminated".to_owned(), None));
}

#[test]
fn off_map_recovery_edges_keep_the_router_in_the_record() {
    let text = scenario_text(
        &rows(1, 20, &[]),
        &[unit("fr-a", "fr", "Infantry", 0, 15, 44, ""), unit("ru-a", "ru", "Infantry", 0, 10, 44, "")],
        &[FR_ROUTS],
        "off_map_recovery: [South]",
        1,
    );
    let log = run(&text, &[]);
    assert_eq!(for_unit(&log, "LeftMap", "fr-a").len(), 1);
    assert!(for_unit(&log, "Eliminated", "fr-a").is_empty());
    assert_eq!(final_of(&log, "fr-a"), ("Routed".to_owned(), None));
}

// --- 1.3 The disorder retreat -----------------------------------------------

#[test]
fn disorder_retreat_spends_three_movement_points_away_from_the_enemy() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_DISORDERS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    let mv = first_move(&log, "fr-a");
    assert_eq!(mv["reason"], "Disorder");
    let p = path(mv);
    assert_eq!(p.len(), 4, "three clear hexes: {p:?}");
    assert_eq!(dist(*p.last().unwrap_or(&(0, 0)), (7, 2)), 6);
    let sc = for_unit(&log, "StateChange", "fr-a");
    assert_eq!(sc[0]["from"], "GoodOrder");
    assert_eq!(sc[0]["to"], "Disordered");
    assert_eq!(sc[0]["cause"], "Shock");
}

#[test]
fn disorder_retreat_moves_at_least_one_hex_whatever_it_costs() {
    let marks: Vec<(usize, usize, char)> =
        (0..15).flat_map(|c| (0..30).map(move |r| (c, r, 'm'))).filter(|&(c, r, _)| (c, r) != (7, 5)).collect();
    let text = scenario_text(
        &rows(15, 30, &marks),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_DISORDERS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 2, "one marsh hex (4 MP) although only 3 MP are allowed: {p:?}");
    assert_eq!(dist(p[1], (7, 2)), 4);
}

#[test]
fn disorder_retreat_takes_cheaper_ground_before_fewer_friends() {
    // The south edge caps how far it can get (6 hexes from the enemy, on
    // row 8). A road runs straight back through a friend at (7, 6); clear
    // ground beside it reaches the same distance past nobody but costs 3.
    let text = scenario_text(
        &rows(15, 9, &[(7, 6, 'r'), (7, 7, 'r'), (7, 8, 'r')]),
        &[
            unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
            unit("fr-b", "fr", "Infantry", 7, 6, 44, ""),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
        ],
        &[FR_DISORDERS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p, vec![(7, 5), (7, 6), (7, 7), (7, 8)], "down the road, past the friend: {p:?}");
    assert_eq!(for_unit(&log, "MoraleCheck", "fr-b")[0]["cause"], "Contagion");
    // Without the road the friend is avoided: equal ground, fewer friends.
    let open = scenario_text(
        &rows(15, 9, &[]),
        &[
            unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
            unit("fr-b", "fr", "Infantry", 7, 6, 44, ""),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
        ],
        &[FR_DISORDERS],
        "",
        1,
    );
    let log = run(&open, &[66]);
    let p = path(first_move(&log, "fr-a"));
    assert_eq!(p.len(), 4);
    assert!(!p.contains(&(7, 6)), "{p:?}");
}

#[test]
fn infantry_retreating_through_an_enemy_cavalry_zone_routs() {
    // The hussars face south: fr-a stands in their zone and must retreat.
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Cavalry", 7, 4, 44, "")],
        &[FR_DISORDERS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    let sc = for_unit(&log, "StateChange", "fr-a");
    assert_eq!(sc.len(), 3, "{sc:?}");
    assert_eq!(
        (sc[1]["from"].as_str(), sc[1]["to"].as_str(), sc[1]["cause"].as_str()),
        (Some("Disordered"), Some("Routed"), Some("CavalryZone"))
    );
    let moves = for_unit(&log, "Move", "fr-a");
    assert_eq!(moves[0]["reason"], "Disorder");
    assert_eq!(moves[1]["reason"], "Rout");
    assert_eq!(path(moves[1]).len(), 11);

    // Unlimbered artillery is not ridden down by the same zone.
    let guns = text.replace("arm: Infantry, at: (7, 5)", "arm: Artillery, at: (7, 5)");
    let log = run(&guns, &[66]);
    assert!(for_unit(&log, "StateChange", "fr-a").iter().all(|e| e["cause"] != "CavalryZone"));
}

// --- 1.4 Contagion ------------------------------------------------------------

fn corridor(units: &[String], rules: &str) -> String {
    // Marsh everywhere but column 7, so routers must pass through friends
    // (marsh, unlike woods, is no refuge to end in).
    let marks: Vec<(usize, usize, char)> =
        (0..15).filter(|&c| c != 7).flat_map(|c| (0..30).map(move |r| (c, r, 'm'))).collect();
    scenario_text(&rows(15, 30, &marks), units, &[FR_ROUTS], rules, 1)
}

#[test]
fn a_good_order_friend_passed_through_checks_and_disorders_on_a_failure() {
    let units = [
        unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
        unit("fr-b", "fr", "Infantry", 7, 8, 44, ""),
        unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
    ];
    let log = run(&corridor(&units, ""), &[11]);
    let chk = for_unit(&log, "MoraleCheck", "fr-b");
    assert_eq!(chk[0]["cause"], "Contagion");
    assert_eq!(chk[0]["source"], "fr-a");
    assert_eq!(chk[0]["roll"], 11);
    assert_eq!(chk[0]["passed"], false);
    let sc = for_unit(&log, "StateChange", "fr-b");
    assert_eq!((sc[0]["to"].as_str(), sc[0]["cause"].as_str()), (Some("Disordered"), Some("Contagion")));
    let mv = first_move(&log, "fr-b");
    assert_eq!(mv["reason"], "Disorder");
    assert_eq!(path(mv), vec![(7, 8), (7, 9), (7, 10), (7, 11)]);

    // A pass leaves it in good order where it stood.
    let log = run(&corridor(&units, ""), &[66]);
    assert_eq!(for_unit(&log, "MoraleCheck", "fr-b")[0]["passed"], true);
    assert!(for_unit(&log, "StateChange", "fr-b").is_empty());
}

#[test]
fn units_the_router_begins_or_ends_in_also_check() {
    let units = [
        unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
        unit("fr-start", "fr", "Infantry", 7, 5, 44, ""),
        unit("fr-end", "fr", "Infantry", 7, 15, 44, ""),
        unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
    ];
    let log = run(&corridor(&units, ""), &[66, 66]);
    let checks: Vec<&str> = of_kind(&log, "MoraleCheck").iter().filter_map(|e| e["unit"].as_str()).collect();
    assert_eq!(&checks[..2], &["fr-start", "fr-end"], "start hex first, then the end hex");
}

#[test]
fn a_stack_checks_together_when_its_top_unit_fails() {
    let units = [
        unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
        unit("fr-b", "fr", "Infantry", 7, 8, 44, ""),
        unit("fr-c", "fr", "Infantry", 7, 8, 44, ""),
        unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
    ];
    // Top unit passes: the rest of the stack does not check.
    let log = run(&corridor(&units, ""), &[66, 66]);
    assert_eq!(for_unit(&log, "MoraleCheck", "fr-b")[0]["passed"], true);
    assert!(for_unit(&log, "MoraleCheck", "fr-c").iter().all(|e| e["cause"] != "Contagion"));
    // Top unit fails: every other unit of the stack checks too.
    let log = run(&corridor(&units, ""), &[11, 11]);
    let c = for_unit(&log, "MoraleCheck", "fr-c");
    assert_eq!(c[0]["cause"], "Contagion");
    assert_eq!(c[0]["passed"], false);
    assert_eq!(for_unit(&log, "StateChange", "fr-c")[0]["to"], "Disordered");
    // With the EachUnit rule both check regardless.
    let log = run(&corridor(&units, "contagion_stack: EachUnit"), &[66, 66]);
    assert_eq!(for_unit(&log, "MoraleCheck", "fr-c")[0]["cause"], "Contagion");
}

#[test]
fn cavalry_is_never_disordered_a_failed_check_routs_it() {
    let units = [
        unit("fr-a", "fr", "Infantry", 7, 5, 44, ""),
        unit("fr-cav", "fr", "Cavalry", 7, 8, 44, ""),
        unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
    ];
    let log = run(&corridor(&units, ""), &[11]);
    let sc = for_unit(&log, "StateChange", "fr-cav");
    assert_eq!((sc[0]["from"].as_str(), sc[0]["to"].as_str()), (Some("GoodOrder"), Some("Routed")));
    let mv = first_move(&log, "fr-cav");
    assert_eq!(mv["reason"], "Rout");
    assert_eq!(path(mv).len(), 11);
}

#[test]
fn a_cascade_runs_down_a_column_of_friends() {
    let units = [
        unit("fr-a", "fr", "Cavalry", 7, 5, 44, ""),
        unit("fr-b", "fr", "Cavalry", 7, 9, 44, ""),
        unit("fr-c", "fr", "Cavalry", 7, 18, 44, ""),
        unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
    ];
    let text = corridor(&units, "");
    // fr-a routs through fr-b (fails) -> fr-b routs through fr-c (fails).
    let log = run(&text, &[11, 11]);
    let order: Vec<(String, String)> = log
        .iter()
        .filter(|e| e["kind"] == "Move" || e["kind"] == "MoraleCheck")
        .map(|e| (e["kind"].as_str().unwrap_or("").to_owned(), e["unit"].as_str().unwrap_or("").to_owned()))
        .take(5)
        .collect();
    let want = [("Move", "fr-a"), ("MoraleCheck", "fr-b"), ("Move", "fr-b"), ("MoraleCheck", "fr-c"), ("Move", "fr-c")];
    assert_eq!(order, want.map(|(a, b)| (a.to_owned(), b.to_owned())));
}

// --- 1.5 Morale Recovery Segment -----------------------------------------------

#[test]
fn a_routed_unit_that_passes_recovery_returns_to_good_order_in_column() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[unit("fr-a", "fr", "Infantry", 7, 9, 32, ", state: Routed"), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[],
        "",
        1,
    );
    let log = run(&text, &[43]);
    let chk = for_unit(&log, "MoraleCheck", "fr-a");
    assert_eq!(chk[0]["cause"], "Recovery");
    assert_eq!(chk[0]["modifier"], -6);
    assert_eq!(chk[0]["roll"], 43);
    assert_eq!(chk[0]["result"], 33);
    assert_eq!(chk[0]["passed"], true);
    assert_eq!(chk[0]["phase"], "MoraleRecovery");
    assert_eq!(chk[0]["side"], "fr");
    assert_eq!(final_of(&log, "fr-a"), ("GoodOrder".to_owned(), Some((7, 9))));
    // 42 is not enough for a routed 32.
    let log = run(&text, &[42]);
    assert_eq!(for_unit(&log, "MoraleCheck", "fr-a")[0]["passed"], false);
}

#[test]
fn a_routed_unit_within_fifteen_hexes_that_fails_routs_again() {
    let text = scenario_text(
        &rows(15, 40, &[]),
        &[unit("fr-a", "fr", "Infantry", 7, 9, 32, ", state: Routed"), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[],
        "",
        1,
    );
    let log = run(&text, &[11]);
    let mv = first_move(&log, "fr-a");
    assert_eq!(mv["reason"], "Rout");
    assert_eq!(path(mv).last(), Some(&(7, 19)));
}

#[test]
fn a_disordered_unit_that_fails_recovery_routs() {
    let text = scenario_text(
        &rows(15, 40, &[]),
        &[
            unit("fr-a", "fr", "Infantry", 7, 9, 32, ", state: Disordered"),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
        ],
        &[],
        "",
        1,
    );
    let log = run(&text, &[35]);
    let chk = for_unit(&log, "MoraleCheck", "fr-a");
    assert_eq!((chk[0]["modifier"].as_i64(), chk[0]["result"].as_i64()), (Some(-3), Some(32)));
    let sc = for_unit(&log, "StateChange", "fr-a");
    assert_eq!((sc[0]["to"].as_str(), sc[0]["cause"].as_str()), (Some("Routed"), Some("Recovery")));
    assert_eq!(first_move(&log, "fr-a")["reason"], "Rout");
    // And 36 recovers it (worked check of rule 1.1).
    let log = run(&text, &[36]);
    assert_eq!(final_of(&log, "fr-a").0, "GoodOrder");
}

#[test]
fn a_far_router_that_fails_heads_for_the_nearest_safe_woods() {
    // Woods at (7, 10) is too near the enemy; (10, 26) is safe.
    let text = scenario_text(
        &rows(15, 30, &[(7, 10, 'w'), (10, 26, 'w'), (2, 29, 't')]),
        &[unit("fr-a", "fr", "Infantry", 7, 24, 32, ", state: Routed"), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[],
        "",
        1,
    );
    let log = run(&text, &[11]);
    let mv = first_move(&log, "fr-a");
    assert_eq!(mv["reason"], "Recovery");
    assert_eq!(path(mv).last(), Some(&(10, 26)));
    assert!(for_unit(&log, "Move", "fr-a").len() == 1);
}

#[test]
fn a_far_router_never_steps_closer_to_the_enemy_on_its_way_to_refuge() {
    // The wood at (7, 21) is nearest (three hexes) and safe (19 hexes from
    // the enemy), but lies towards the enemy; the town at (5, 29) lies
    // away from it.
    let text = scenario_text(
        &rows(15, 30, &[(7, 21, 'w'), (5, 29, 't')]),
        &[unit("fr-a", "fr", "Infantry", 7, 24, 32, ", state: Routed"), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[],
        "",
        1,
    );
    let log = run(&text, &[11]);
    let mv = first_move(&log, "fr-a");
    assert_eq!(mv["reason"], "Recovery");
    let p = path(mv);
    assert_simple_adjacent(&p);
    for w in p.windows(2) {
        assert!(dist(w[1], (7, 2)) >= dist(w[0], (7, 2)), "step {w:?} comes closer to the enemy");
    }
    assert_eq!(p.last(), Some(&(5, 29)), "{p:?}");
}

#[test]
fn cavalry_that_recovers_from_rout_is_exhausted_then_rests_back() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[
            unit("fr-cav", "fr", "Cavalry", 7, 12, 32, ", state: Routed"),
            unit("fr-tired", "fr", "Cavalry", 3, 12, 32, ", readiness: Exhausted"),
            unit("ru-a", "ru", "Infantry", 7, 2, 44, ""),
        ],
        &[],
        "",
        2,
    );
    let log = run(&text, &[66]);
    let r = for_unit(&log, "Readiness", "fr-cav");
    assert_eq!(
        (r[0]["from"].as_str(), r[0]["to"].as_str(), r[0]["turn"].as_i64()),
        (Some("Fresh"), Some("Exhausted"), Some(1))
    );
    // Turn 2: it rested a whole turn and steps back to Tired.
    assert_eq!((r[1]["to"].as_str(), r[1]["turn"].as_i64()), (Some("Tired"), Some(2)));
    let t = for_unit(&log, "Readiness", "fr-tired");
    assert_eq!(t.iter().map(|e| e["to"].as_str().unwrap_or("")).collect::<Vec<_>>(), vec!["Tired", "Fresh"]);
}

// --- Shocks, determinism, the log -------------------------------------------------

#[test]
fn shocks_strike_at_the_start_of_their_turn() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[unit("fr-a", "fr", "Infantry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &["(turn: 2, unit: \"fr-a\", to: Routed, cause: \"ru-a\")"],
        "",
        2,
    );
    let log = run(&text, &[]);
    let sc = for_unit(&log, "StateChange", "fr-a");
    assert_eq!(sc[0]["turn"], 2);
    assert_eq!(sc[0]["phase"], "Shocks");
    assert_eq!(sc[0]["side"], serde_json::Value::Null);
    // Nothing happened before turn 2's shock.
    let first_non_phase = log.iter().find(|e| e["kind"] != "PhaseStart").expect("events");
    assert_eq!(first_non_phase["turn"], 2);
}

#[test]
fn same_scenario_seed_and_dice_give_a_byte_identical_log() {
    let units: Vec<String> = (0..10)
        .map(|i| {
            unit(&format!("fr-{i}"), "fr", if i % 3 == 0 { "Cavalry" } else { "Infantry" }, 2 + i, 6 + (i % 2), 43, "")
        })
        .chain((0..6).map(|i| unit(&format!("ru-{i}"), "ru", "Infantry", 3 + 2 * i, 2, 44, "")))
        .collect();
    let text = scenario_text(
        &rows(16, 30, &[(5, 12, 'w'), (9, 14, 'v')]),
        &units,
        &["(turn: 1, unit: \"fr-5\", to: Routed, cause: \"ru-2\")"],
        "",
        4,
    );
    let s = load(&text);
    let run_once = |seed: u64| {
        let mut sim = sauve::sim::Simulation::new(s.clone(), seed, vec![11, 22], sauve::sim::Seats::Nobody);
        sim.run();
        sim.log().to_jsonl()
    };
    let a = run_once(5);
    assert_eq!(a, run_once(5));
    assert_ne!(a, run_once(6));
    assert!(a.lines().count() > 20);
}

#[test]
fn a_disordering_shock_routs_cavalry() {
    let text = scenario_text(
        &rows(15, 30, &[]),
        &[unit("fr-a", "fr", "Cavalry", 7, 5, 44, ""), unit("ru-a", "ru", "Infantry", 7, 2, 44, "")],
        &[FR_DISORDERS],
        "",
        1,
    );
    let log = run(&text, &[66]);
    let sc = for_unit(&log, "StateChange", "fr-a");
    assert_eq!((sc[0]["to"].as_str(), sc[0]["cause"].as_str()), (Some("Routed"), Some("Shock")));
    let mv = first_move(&log, "fr-a");
    assert_eq!(mv["reason"], "Rout");
    assert_eq!(path(mv).len(), 11);
}
