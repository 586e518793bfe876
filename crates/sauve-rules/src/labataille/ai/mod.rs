//! The AI opponent (hex mode): decides a side's orders one phase at a time
//! and carries each out through [`Orders::apply`], so it plays by the same
//! rules, odds and dice as a player. It may play either side; its temper is
//! the scenario's `aggression` (0 cautious ..= 1 reckless). docs/rules.md,
//! "The AI", describes its behaviour for players.
//!
//! - **Charge phase:** cavalry in good order and not exhausted charges the
//!   target it can reach with the best chance of a favourable melee (the
//!   form-square check counted in), if that chance clears a threshold that
//!   falls with aggression. Disordered targets and guns score a little more.
//! - **Movement:** one multi-source Dijkstra field per side and phase, over
//!   the grid's infantry step costs, from the objectives to take (not held,
//!   or held but threatened) and, a little behind them, the enemy. Each unit
//!   takes the hex of its `orders.reach` nearest that field, keeping its
//!   arm's stand-off from the enemy, out of enemy cavalry zones if it is
//!   infantry, and preferring cover. A share of the rearmost units stays
//!   back as a reserve; a unit on an objective holds it. Infantry forms
//!   square near enemy cavalry, marches in column far from the enemy and
//!   deploys into line near it; guns limber to move and unlimber in range.
//!   Disordered units and units of a broken corps fall back instead. When
//!   the scenario gives the side exits, a share of the attackers makes for
//!   them, and attackers standing on a paying exit's edge leave by it.
//! - **Fire phases:** concentrated fire: the target with the best expected
//!   effect for the volley all its firers could make goes first, then the
//!   next (a lazy greedy over a heap, rescoring a target only when its turn
//!   comes).
//! - **Melee:** routed and disordered targets are always attacked; others
//!   when the combined attack's chance clears a threshold falling with
//!   aggression. Every adjacent eligible unit joins in.
//!
//! Deterministic: no randomness of its own, units in index order, ordered
//! maps only. Cheap: shared fields rather than per-unit global searches;
//! odds are computed only for the few candidates that pass a quick screen.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use crate::dice::{Dice, pass_chance};
use crate::events::EventLog;
use crate::hex::{Dir, Edge, Offset};
use crate::labataille::combat::{Battlefield, FireOdds, charge_reach, fire_odds, line_of_sight, melee_odds};
use crate::labataille::engine::Engine;
use crate::labataille::fields::{FAR, SideFields, front_sides};
use crate::labataille::grid::{BLOCKED, Centi, Grid, centi};
use crate::labataille::movement;
use crate::labataille::orders::{Order, OrderPhase, Orders};
use crate::labataille::{Board, HexState};
use crate::rules::ai::{AiRules, Standoff};
use crate::terrain::Arm;
use crate::vocab::{Formation, Readiness};

/// What the AI plays for, from the scenario and the state of the battle.
#[derive(Clone, Debug, PartialEq)]
pub struct AiGoals {
    /// Objective hexes with their victory points and current holder (side index) if any.
    pub objectives: Vec<(Offset, u32, Option<usize>)>,
    /// 0.0 (cautious) ..= 1.0 (reckless); the scenario's side aggression, default 0.5.
    pub aggression: f32,
    /// Units whose corps has broken: they should withdraw, not attack.
    pub broken: Vec<bool>,
    /// The side's exits (scenario `exits`): the edge and its points per
    /// increment that leaves the map across it.
    pub exits: Vec<(Edge, u32)>,
}

impl Default for AiGoals {
    fn default() -> Self {
        Self { objectives: Vec::new(), aggression: 0.5, broken: Vec::new(), exits: Vec::new() }
    }
}

impl AiGoals {
    fn broken(&self, unit: usize) -> bool {
        self.broken.get(unit).copied().unwrap_or(false)
    }
}

/// The AI's thresholds for one side: the scenario's `rules.ai` numbers
/// (distances, weights and the thresholds' ranges, docs/rules.md "The AI")
/// at the side's aggression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Least chance of a favourable result for a charge: 0.65 - 0.4 a by default.
    pub charge_threshold: f32,
    /// Least chance of a favourable result for a melee: 0.6 - 0.3 a by default.
    pub melee_threshold: f32,
    /// Share of the good-order units kept in reserve: 0.5 (1 - a) by default.
    pub reserve_share: f32,
    /// How far behind the objectives (hundredths of MP) the enemy counts as
    /// a goal: 200 + 1000 (1 - a) by default, so the cautious keep to the
    /// objectives.
    pub objective_bias: u32,
    /// Hexes kept from the nearest enemy, per arm (by default infantry 1
    /// from a = 0.5, else 2; cavalry 2 from a = 0.75, else 3; artillery 3).
    pub standoff: [u16; 3],
}

impl Tuning {
    pub fn new(aggression: f32, r: &AiRules) -> Self {
        let a = if aggression.is_finite() { aggression.clamp(0.0, 1.0) } else { 0.5 };
        let s = &r.standoff;
        let standoff = |arm: &Standoff| if a >= arm.bold_from { arm.bold } else { arm.cautious };
        Self {
            charge_threshold: r.charge_threshold - r.charge_threshold_drop * a,
            melee_threshold: r.melee_threshold - r.melee_threshold_drop * a,
            reserve_share: r.reserve_share * (1.0 - a),
            objective_bias: r.objective_bias + (r.objective_bias_span * (1.0 - a)).round() as u32,
            standoff: [standoff(&s.infantry), standoff(&s.cavalry), standoff(&s.artillery)],
        }
    }

    fn standoff(&self, arm: Arm) -> u16 {
        self.standoff[arm.index()]
    }
}

/// Decides and carries out the side's orders for one phase, one order at a time
/// (each applied through `orders.apply`, so later decisions see earlier results).
/// Returns the orders applied, in order (the simulation records them for replays).
#[allow(clippy::too_many_arguments)] // the phase's inputs, as `Orders::apply` takes them
pub fn play_phase(
    orders: &mut Orders,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    phase: OrderPhase,
    side: usize,
    goals: &AiGoals,
) -> Vec<Order> {
    let bf = orders.bf;
    let mut ai = Ai {
        bf,
        orders,
        engine,
        board,
        dice,
        log,
        phase,
        side,
        goals,
        tuning: Tuning::new(goals.aggression, &bf.ctx.rules.ai),
        done: Vec::new(),
    };
    match phase {
        OrderPhase::Charge => ai.charge(),
        OrderPhase::Movement => ai.movement(),
        OrderPhase::DefensiveFire | OrderPhase::OffensiveFire => ai.fire(),
        OrderPhase::Melee => ai.melee(),
    }
    ai.done
}

/// Sentinel of a goal field: no goal reachable from here.
pub const UNREACHED: u32 = u32::MAX;

/// Ring size of the bucket queue; step costs are clamped below it (a field
/// is a guide, and no real step costs 40 MP).
const RING: usize = 4096;

/// Multi-source Dijkstra over the grid's step costs for `arm`, towards the
/// sources: `field[cell]` is the least MP (hundredths) to walk from `cell`
/// to any source, counting each source's start cost. Steps are read in the
/// walking direction (from the cell towards the source), so hexsides and
/// entry costs count as a unit would pay them. A bucket queue (Dial's
/// algorithm): costs are small integers, so this is linear in the map.
pub fn goal_field(grid: &Grid, arm: Arm, sources: &[(usize, u32)]) -> Vec<u32> {
    // The field depends only on the terrain, the arm and the sources, which
    // change seldom (an objective taken or lost): the last few are kept.
    type Known = Vec<((u64, Arm, Vec<(usize, u32)>), std::sync::Arc<Vec<u32>>)>;
    thread_local! {
        static KNOWN: std::cell::RefCell<Known> = const { std::cell::RefCell::new(Vec::new()) };
    }
    const KEEP: usize = 4;
    let found = KNOWN.with_borrow(|known| {
        known.iter().find(|(k, _)| k.0 == grid.uid() && k.1 == arm && k.2 == sources).map(|(_, f)| f.clone())
    });
    if let Some(field) = found {
        return field.to_vec();
    }
    let field = std::sync::Arc::new(walk_field(grid, arm, sources));
    KNOWN.with_borrow_mut(|known| {
        if known.len() == KEEP {
            known.remove(0);
        }
        known.push(((grid.uid(), arm, sources.to_vec()), field.clone()));
    });
    field.to_vec()
}

/// [`goal_field`] worked out afresh.
fn walk_field(grid: &Grid, arm: Arm, sources: &[(usize, u32)]) -> Vec<u32> {
    let mut dist = vec![UNREACHED; grid.len()];
    let mut ring: Vec<Vec<u32>> = vec![Vec::new(); RING];
    let mut pending = 0usize;
    let mut cur = u32::MAX;
    for &(cell, start) in sources {
        // Start costs must fit in the ring's window with the steps.
        let start = start.min(RING as u32 / 2);
        if start < dist[cell] {
            dist[cell] = start;
            ring[start as usize % RING].push(cell as u32);
            pending += 1;
            cur = cur.min(start);
        }
    }
    while pending > 0 {
        let slot = cur as usize % RING;
        let bucket = std::mem::take(&mut ring[slot]);
        for &cell in &bucket {
            pending -= 1;
            let cell = cell as usize;
            if dist[cell] != cur {
                continue;
            }
            for dir in Dir::ALL {
                let Some(from) = grid.neighbour(cell, dir) else { continue };
                if !grid.on_map[from] {
                    continue;
                }
                let step = grid.step_cost(arm, from, dir.opposite());
                if step == BLOCKED {
                    continue;
                }
                let next = cur + (step as u32).min(RING as u32 - 1);
                if next < dist[from] {
                    dist[from] = next;
                    ring[next as usize % RING].push(from as u32);
                    pending += 1;
                }
            }
        }
        let mut bucket = bucket;
        bucket.clear();
        if ring[slot].is_empty() {
            ring[slot] = bucket;
        }
        cur += 1;
    }
    dist
}

/// What a unit does in the movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Stands on an objective and holds it.
    Garrison,
    /// Kept back, unless an objective is threatened.
    Reserve,
    /// Goes for the objectives and the enemy.
    Attack,
    /// Makes for an exit (index into [`Plan::exits`]) and leaves by it.
    Exit(usize),
}

/// One of the side's exits the AI may use, with the goal field towards its edge.
struct ExitRoute {
    edge: Edge,
    points: u32,
    field: Vec<u32>,
}

/// The movement phase's shared facts for one side.
struct Plan {
    /// The side's fields, shared with the engine: the side's own moves do
    /// not change them.
    sight: std::sync::Arc<SideFields>,
    /// Goal field of the attackers.
    attack: Vec<u32>,
    /// Goal field towards the threatened objectives we hold, if any.
    defend: Option<Vec<u32>>,
    /// Cells of every objective, sorted.
    objectives: Vec<usize>,
    /// The exits the side may leave by, best paying first.
    exits: Vec<ExitRoute>,
}

struct Ai<'x, 'a, 'b> {
    bf: &'a Battlefield<'b>,
    orders: &'x mut Orders<'a, 'b>,
    engine: &'x mut Engine,
    board: &'x mut Board,
    dice: &'x mut Dice,
    log: &'x mut EventLog,
    phase: OrderPhase,
    side: usize,
    goals: &'x AiGoals,
    tuning: Tuning,
    done: Vec<Order>,
}

impl Ai<'_, '_, '_> {
    /// Applies one order; a refused one is skipped.
    fn give(&mut self, order: Order) -> bool {
        let ok = self.orders.apply(self.engine, self.board, self.dice, self.log, self.phase, self.side, &order).is_ok();
        if ok {
            self.done.push(order);
        }
        ok
    }

    fn id(&self, unit: usize) -> String {
        self.board.units[unit].id.clone()
    }

    fn ours(&self, unit: usize) -> bool {
        let u = &self.board.units[unit];
        u.side == self.side && u.at.is_some()
    }

    /// The first enemy unit in a cell (the top of its stack).
    fn enemy_at(&self, cell: usize) -> Option<usize> {
        self.engine.occupancy.at(cell).iter().map(|&v| v as usize).find(|&v| self.board.units[v].side != self.side)
    }

    // --- Charge phase -----------------------------------------------------

    fn charge(&mut self) {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        for i in 0..self.board.units.len() {
            let u = &self.board.units[i];
            if !self.ours(i)
                || u.arm != Arm::Cavalry
                || u.state != HexState::GoodOrder
                || u.readiness == Readiness::Exhausted
                || self.orders.activity.fought[i]
                || self.goals.broken(i)
            {
                continue;
            }
            let Some(at) = u.at else { continue };
            // Half-point roads can double the reach in hexes.
            let radius = self.orders.budget(self.board, i) / 50 + 1;
            // Read from where the enemy units stand, not the side's fields:
            // every charge moves units, and a field rebuild per charger
            // would cost more than the whole phase. (A pass over the units
            // is cheaper than looking at every hex of so wide a circle.)
            let side = self.side;
            let near = |e: Offset| at.distance(e) <= radius;
            if !self.board.units.iter().any(|e| e.side != side && e.at.is_some_and(near)) {
                continue;
            }
            // The targets: enemy hexes next to the charger, which it charges
            // from where it stands, and enemy hexes next to a hex it can
            // reach and cross from, which it charges from the cheapest such
            // hex (as `charge_path` chooses: cost, then cell). Found from
            // the reach's ends, so no list of every enemy in range is made.
            let reach = charge_reach(self.bf, self.engine, self.board, self.orders.search, i);
            let occupancy = &self.engine.occupancy;
            let enemy_in = |e: Offset| {
                let c = grid.idx(e);
                occupancy.others_may_stand(c, side) && self.enemy_at(c).is_some()
            };
            let mut stops: Vec<(usize, Centi, usize, Offset)> = Vec::new();
            for e in at.neighbours() {
                if grid.in_padded(e) && enemy_in(e) {
                    stops.push((grid.idx(e), 0, 0, at));
                }
            }
            let adjacent = stops.len();
            for &(h, cost) in &reach.ends {
                let hc = grid.idx(h);
                for dir in Dir::ALL {
                    let e = h.neighbour(dir);
                    if near(e) && at.distance(e) > 1 && enemy_in(e) && grid.step_cost(Arm::Cavalry, hc, dir) != BLOCKED
                    {
                        stops.push((grid.idx(e), cost, hc, h));
                    }
                }
            }
            stops[adjacent..].sort_unstable();
            // Screen: a quick score from strengths and the target's state.
            let mut screened: Vec<(i64, usize, Offset)> = Vec::new();
            let mut last = None;
            for &(e, _, _, stop) in &stops {
                if last == Some(e) {
                    continue;
                }
                last = Some(e);
                let Some(t) = self.enemy_at(e) else { continue };
                screened.push((self.charge_screen(i, e), t, stop));
            }
            screened.sort_by_key(|&(s, t, _)| (Reverse(s), t));
            screened.truncate(ctx.rules.ai.charge_candidates as usize);
            let mut best: Option<(i64, usize)> = None;
            for (_, t, stop) in screened {
                let win = self.charge_win(i, stop, t);
                if win < self.tuning.charge_threshold {
                    continue;
                }
                let tu = &self.board.units[t];
                let mut score = win;
                if tu.state == HexState::Disordered {
                    score += ctx.rules.ai.charge_disordered_bonus;
                }
                if tu.arm == Arm::Artillery {
                    score += ctx.rules.ai.charge_guns_bonus;
                }
                let key = (score * 10_000.0) as i64;
                if best.is_none_or(|(k, _)| key > k) {
                    best = Some((key, t));
                }
            }
            if let Some((_, t)) = best {
                let order = Order::Charge { unit: self.id(i), target: self.id(t) };
                self.give(order);
            }
        }
    }

    /// A cheap ranking of charge targets before their odds: strength ratio,
    /// with bonuses for shaken, gun and open-ground targets, and a large
    /// penalty for squares (the `rules.ai.charge_screen_*` points).
    fn charge_screen(&self, unit: usize, cell: usize) -> i64 {
        let grid = self.bf.ctx.grid;
        let ai = &self.bf.ctx.rules.ai;
        let mut defence = 0;
        let mut score = 0i64;
        for &v in self.engine.occupancy.at(cell) {
            let v = &self.board.units[v as usize];
            if v.side == self.side {
                continue;
            }
            match v.state {
                HexState::Routed => score += ai.charge_screen_routed as i64,
                HexState::Disordered => score += ai.charge_screen_disordered as i64,
                _ => {}
            }
            if v.state != HexState::Routed {
                defence += v.strength;
            }
            if v.formation == Formation::Square {
                score -= ai.charge_screen_square as i64;
            }
            if v.arm == Arm::Artillery {
                score += ai.charge_screen_guns as i64;
            }
        }
        if !grid.close[cell] {
            score += ai.charge_screen_open as i64;
        }
        let attack = self.board.units[unit].strength as i64;
        score + attack * ai.charge_screen_ratio as i64 / (defence as i64).max(1)
    }

    /// Chance a charge from `stop` at `target` ends favourably: infantry in
    /// good order in the open first tries to form square (rule 1.9), so its
    /// two outcomes are weighed by the chance of the check.
    fn charge_win(&mut self, unit: usize, stop: Offset, target: usize) -> f32 {
        let grid = self.bf.ctx.grid;
        let saved = self.board.units[unit].at;
        // melee_odds wants the attacker next to its target: stand it at the
        // charge's end hex just for the sum.
        self.board.units[unit].at = Some(stop);
        let t = &self.board.units[target];
        let open = t.at.is_some_and(|a| !grid.close[grid.idx(a)]);
        let win =
            if t.arm == Arm::Infantry && t.state == HexState::GoodOrder && t.formation != Formation::Square && open {
                let modifier =
                    self.bf.ctx.rules.combat.form_square_modifier + self.engine.bonus.get(target).copied().unwrap_or(0);
                let p = pass_chance(t.morale, modifier, self.bf.ctx.rules.natural_extremes);
                let formation = t.formation;
                self.board.units[target].formation = Formation::Square;
                let in_square = self.melee_win(&[unit], target, true);
                self.board.units[target].formation = formation;
                self.board.units[target].state = HexState::Disordered;
                let caught = self.melee_win(&[unit], target, true);
                self.board.units[target].state = HexState::GoodOrder;
                p * in_square + (1.0 - p) * caught
            } else {
                self.melee_win(&[unit], target, true)
            };
        self.board.units[unit].at = saved;
        win
    }

    fn melee_win(&self, attackers: &[usize], target: usize, charging: bool) -> f32 {
        melee_odds(self.bf, self.board, self.engine, attackers, target, charging).map_or(0.0, |o| o.win_chance())
    }

    // --- Movement phase ---------------------------------------------------

    fn movement(&mut self) {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        let side = self.side;
        let Some(sight) = self.engine.shared_fields(ctx, self.board, side) else { return };
        let mut objectives: Vec<usize> = Vec::new();
        let mut take: Vec<(usize, u32)> = Vec::new();
        let mut threatened: Vec<(usize, u32)> = Vec::new();
        for &(at, _, holder) in &self.goals.objectives {
            if !grid.in_padded(at) || !grid.on_map[grid.idx(at)] {
                continue;
            }
            let cell = grid.idx(at);
            objectives.push(cell);
            let held = holder == Some(side) || self.engine.occupancy.count(cell, side) > 0;
            let threat = sight.dist[cell] <= ctx.rules.ai.threat_radius;
            if !held || threat {
                take.push((cell, 0));
            }
            if held && threat {
                threatened.push((cell, 0));
            }
        }
        objectives.sort_unstable();
        objectives.dedup();
        let bias = if take.is_empty() { 0 } else { self.tuning.objective_bias };
        let mut sources = take;
        for u in &self.board.units {
            if u.side != side
                && let Some(at) = u.at
            {
                sources.push((grid.idx(at), bias));
            }
        }
        let attack = goal_field(grid, Arm::Infantry, &sources);
        let defend = (!threatened.is_empty()).then(|| goal_field(grid, Arm::Infantry, &threatened));
        let exits = self.exit_routes();
        let plan = Plan { sight, attack, defend, objectives, exits };

        // Roles: the first good-order unit on an objective holds it; the
        // rearmost share of the rest is the reserve.
        let n = self.board.units.len();
        let mut role = vec![Role::Attack; n];
        let mut garrisoned: Vec<usize> = Vec::new();
        let mut eligible: Vec<(Reverse<u16>, usize)> = Vec::new();
        for (i, u) in self.board.units.iter().enumerate() {
            let Some(at) = u.at else { continue };
            if u.side != side || u.state != HexState::GoodOrder || self.goals.broken(i) {
                continue;
            }
            let cell = grid.idx(at);
            if plan.objectives.binary_search(&cell).is_ok() && !garrisoned.contains(&cell) {
                garrisoned.push(cell);
                role[i] = Role::Garrison;
                continue;
            }
            eligible.push((Reverse(plan.sight.dist[cell]), i));
        }
        eligible.sort_unstable();
        let reserves = (eligible.len() as f32 * self.tuning.reserve_share).floor() as usize;
        for &(_, i) in eligible.iter().take(reserves) {
            role[i] = Role::Reserve;
        }
        // Of the attackers, the share nearest an exit that pays makes for it.
        let attackers = &eligible[reserves.min(eligible.len())..];
        let sent = (attackers.len() as f32 * ctx.rules.ai.exit_share).floor() as usize;
        if sent > 0 && !plan.exits.is_empty() {
            let mut nearest: Vec<(u32, usize, usize)> = attackers
                .iter()
                .filter_map(|&(_, i)| {
                    let cell = grid.idx(self.board.units[i].at?);
                    plan.exits
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| self.exit_pays(i, e) && e.field[cell] != UNREACHED)
                        .map(|(k, e)| (e.field[cell], i, k))
                        .min()
                })
                .collect();
            nearest.sort_unstable();
            for &(_, i, k) in nearest.iter().take(sent) {
                role[i] = Role::Exit(k);
            }
        }
        for (i, &r) in role.iter().enumerate() {
            if self.ours(i) {
                self.move_unit(&plan, i, r);
            }
        }
        // Last, with every move made, fronts turn to the nearest enemy.
        for i in 0..n {
            if self.ours(i) {
                self.face_enemy(&plan, i);
            }
        }
    }

    /// A unit in good order, not in square and not yet in combat, with an
    /// enemy within `rules.ai.face_within` outside its three front hexsides
    /// turns to face the nearest (rule 1.7), if it has the movement points.
    /// Ties between equally near enemies go to the lowest (c, r).
    fn face_enemy(&mut self, plan: &Plan, i: usize) -> bool {
        let ctx = self.bf.ctx;
        let u = &self.board.units[i];
        let Some(at) = u.at else { return false };
        if u.state != HexState::GoodOrder || u.formation == Formation::Square || self.orders.activity.fought[i] {
            return false;
        }
        let d = plan.sight.dist[ctx.grid.idx(at)];
        if d == FAR || d == 0 || d > ctx.rules.ai.face_within {
            return false;
        }
        let mut nearest: Option<(u32, Offset)> = None;
        plan.sight.enemies_within(at, d as u32, |e| {
            let key = (at.distance(e), e);
            if nearest.is_none_or(|n| key < n) {
                nearest = Some(key);
            }
        });
        let Some((_, enemy)) = nearest else { return false };
        let to = at.bearing_to(enemy);
        if front_sides(u.facing).contains(&to) {
            return false;
        }
        let cost = centi(ctx.rules.combat.face_mp);
        if self.orders.budget(self.board, i) < cost {
            return false;
        }
        let order = Order::Face { unit: self.id(i), facing: to };
        self.give(order)
    }

    fn move_unit(&mut self, plan: &Plan, i: usize, role: Role) {
        let grid = self.bf.ctx.grid;
        let ai = &self.bf.ctx.rules.ai;
        let (column_beyond, reserve_follow) = (ai.column_beyond, ai.reserve_follow);
        let u = &self.board.units[i];
        let Some(at) = u.at else { return };
        match u.state {
            HexState::GoodOrder if !self.goals.broken(i) => {}
            HexState::GoodOrder | HexState::Disordered => {
                self.fall_back(plan, i);
                return;
            }
            _ => return,
        }
        let (arm, formation, limbered) = (u.arm, u.formation, u.limbered);
        let cell = grid.idx(at);
        let d = plan.sight.dist[cell];
        let standoff = self.tuning.standoff(arm);
        // Garrisons and the reserve are needed where they are; the rest
        // leave by an exit that pays once they stand on its edge.
        let may_exit = matches!(role, Role::Attack | Role::Exit(_));
        if may_exit && self.leave(plan, i) {
            return;
        }
        // Where the unit is headed, if anywhere.
        let goal: Option<(&[u32], u16)> = match role {
            Role::Garrison => None,
            Role::Attack => Some((&plan.attack, standoff)),
            Role::Exit(k) => Some((&plan.exits[k].field, standoff)),
            Role::Reserve => match &plan.defend {
                Some(f) => Some((f, standoff)),
                None if d != FAR && d > reserve_follow => Some((&plan.attack, reserve_follow)),
                None => None,
            },
        };
        match arm {
            Arm::Infantry => {
                let close = grid.close[cell];
                if !close && self.enemy_cavalry_near(&plan.sight, at) {
                    self.formation(i, Formation::Square);
                    return;
                }
                if formation == Formation::Square {
                    self.formation(i, if d <= column_beyond { Formation::Line } else { Formation::Column });
                }
                let Some((field, standoff)) = goal else {
                    if !close && d <= column_beyond {
                        self.formation(i, Formation::Line);
                    }
                    return;
                };
                if !close && d > column_beyond && self.board.units[i].formation == Formation::Line {
                    self.formation(i, Formation::Column);
                }
                self.advance(plan, i, field, standoff);
                if may_exit && self.leave(plan, i) {
                    return;
                }
                if let Some(now) = self.board.units[i].at {
                    let c = grid.idx(now);
                    if !grid.close[c] && plan.sight.dist[c] <= column_beyond {
                        self.formation(i, Formation::Line);
                    }
                }
            }
            Arm::Cavalry => {
                let Some((field, standoff)) = goal else { return };
                if d > column_beyond && formation == Formation::Line {
                    self.formation(i, Formation::Column);
                }
                self.advance(plan, i, field, standoff);
                if may_exit {
                    self.leave(plan, i);
                }
            }
            Arm::Artillery => {
                let range = self.bf.ctx.rules.combat.fire_range.artillery.floor().max(0.0) as u16;
                if limbered && d <= ai.unlimber_within.min(range) {
                    self.limber(i, false);
                    return;
                }
                let Some((field, standoff)) = goal else {
                    if limbered && d <= range {
                        self.limber(i, false);
                    }
                    return;
                };
                if !limbered {
                    if d <= range {
                        return;
                    }
                    if !self.limber(i, true) {
                        return;
                    }
                }
                self.advance(plan, i, field, standoff);
                if may_exit && self.leave(plan, i) {
                    return;
                }
                if let Some(now) = self.board.units[i].at
                    && plan.sight.dist[grid.idx(now)] <= range
                {
                    self.limber(i, false);
                }
            }
        }
    }

    /// The side's exits that the orders allow and that pay, best paying
    /// first, each with its goal field (cheapest walk to any hex of its
    /// edge). Empty, and no field built, when the scenario gives none.
    fn exit_routes(&self) -> Vec<ExitRoute> {
        let grid = self.bf.ctx.grid;
        let mut exits: Vec<(Edge, u32)> = self
            .goals
            .exits
            .iter()
            .copied()
            .filter(|&(edge, points)| points > 0 && self.orders.activity.exits.contains(&(self.side, edge)))
            .collect();
        exits.sort_unstable_by_key(|&(edge, points)| (Reverse(points), edge));
        exits.dedup_by_key(|e| e.0);
        exits
            .into_iter()
            .map(|(edge, points)| {
                let sources: Vec<(usize, u32)> = (0..grid.len())
                    .filter(|&c| grid.on_map[c] && grid.edge_distance(edge, grid.offset(c)) == 0)
                    .map(|c| (c, 0))
                    .collect();
                ExitRoute { edge, points, field: goal_field(grid, Arm::Infantry, &sources) }
            })
            .collect()
    }

    /// Whether `unit` leaving by `exit` would earn `rules.ai.exit_min_points`.
    fn exit_pays(&self, unit: usize, exit: &ExitRoute) -> bool {
        self.board.units[unit].strength.saturating_mul(exit.points) >= self.bf.ctx.rules.ai.exit_min_points
    }

    /// Leaves the map if the unit stands in good order on the edge of an
    /// exit that pays for it and has movement left (as `Orders::apply`
    /// asks), by the best paying such exit.
    fn leave(&mut self, plan: &Plan, i: usize) -> bool {
        let grid = self.bf.ctx.grid;
        let u = &self.board.units[i];
        let Some(at) = u.at else { return false };
        if u.state != HexState::GoodOrder || self.goals.broken(i) || self.orders.budget(self.board, i) == 0 {
            return false;
        }
        let Some(edge) =
            plan.exits.iter().find(|e| grid.edge_distance(e.edge, at) == 0 && self.exit_pays(i, e)).map(|e| e.edge)
        else {
            return false;
        };
        let order = Order::Exit { unit: self.id(i), edge };
        self.give(order)
    }

    /// Some enemy cavalry able to charge stands within `rules.ai.square_radius`.
    fn enemy_cavalry_near(&self, sight: &SideFields, at: Offset) -> bool {
        let grid = self.bf.ctx.grid;
        let radius = self.bf.ctx.rules.ai.square_radius;
        if sight.dist[grid.idx(at)] as u32 > radius {
            return false;
        }
        let mut near = false;
        sight.enemies_within(at, radius, |e| {
            near |= self.engine.occupancy.at(grid.idx(e)).iter().any(|&v| {
                let v = &self.board.units[v as usize];
                v.side != self.side
                    && v.arm == Arm::Cavalry
                    && v.state == HexState::GoodOrder
                    && v.readiness != Readiness::Exhausted
            })
        });
        near
    }

    /// Changes formation if the rules allow it now (checked first, so that
    /// the AI does not flood the log with refused orders).
    fn formation(&mut self, i: usize, to: Formation) -> bool {
        let u = &self.board.units[i];
        let allowed = matches!(
            (u.arm, to),
            (Arm::Infantry, Formation::Line | Formation::Column | Formation::Square)
                | (Arm::Cavalry, Formation::Line | Formation::Column)
        );
        if !allowed || u.state != HexState::GoodOrder || u.formation == to || !self.can_change(i) {
            return false;
        }
        let order = Order::Formation { unit: self.id(i), to };
        self.give(order)
    }

    fn can_change(&self, i: usize) -> bool {
        let change = centi(self.bf.ctx.rules.combat.formation_change_mp);
        !self.orders.activity.moved[i] || self.orders.budget(self.board, i) >= change
    }

    fn limber(&mut self, i: usize, limbered: bool) -> bool {
        let u = &self.board.units[i];
        if u.arm != Arm::Artillery
            || u.state != HexState::GoodOrder
            || u.limbered == limbered
            || (limbered && self.orders.activity.moved[i])
        {
            return false;
        }
        let order = Order::Limber { unit: self.id(i), limbered };
        self.give(order)
    }

    /// Where a unit would like to stand: field distance to its goal, plus
    /// penalties for standing nearer the enemy than its stand-off (except on
    /// an objective) and for infantry in an enemy cavalry zone, less a
    /// bonus for cover near the enemy. Lower is better.
    fn place_score(&self, plan: &Plan, field: &[u32], arm: Arm, standoff: u16, cell: usize) -> i64 {
        let f = field[cell];
        if f == UNREACHED {
            return i64::MAX / 4;
        }
        let ai = &self.bf.ctx.rules.ai;
        let mut s = f as i64;
        let d = plan.sight.dist[cell];
        if d < standoff && plan.objectives.binary_search(&cell).is_err() {
            s += (standoff - d) as i64 * ai.too_close_penalty as i64;
        }
        if arm == Arm::Infantry && plan.sight.cav_zone[cell] {
            s += ai.cavalry_zone_penalty as i64;
        }
        if d <= ai.cover_within && self.bf.ctx.grid.refuge[cell] {
            s -= ai.cover_bonus as i64;
        }
        s
    }

    /// Moves towards the goal: the reachable hex with the best place score,
    /// ties to cover, then the cheaper move; only if it beats staying.
    fn advance(&mut self, plan: &Plan, i: usize, field: &[u32], standoff: u16) -> bool {
        let grid = self.bf.ctx.grid;
        let u = &self.board.units[i];
        let (Some(at), arm) = (u.at, u.arm) else { return false };
        let here = self.place_score(plan, field, arm, standoff, grid.idx(at));
        let reach = self.orders.reach(self.engine, self.board, i);
        let best = reach
            .ends
            .iter()
            .map(|&(o, cost)| {
                let c = grid.idx(o);
                (self.place_score(plan, field, arm, standoff, c), !grid.refuge[c], cost, c, o)
            })
            .min();
        match best {
            Some((score, _, _, _, to)) if score < here => {
                let order = Order::Move { unit: self.id(i), to: (to.c, to.r) };
                self.give(order)
            }
            _ => false,
        }
    }

    /// Rallying: a disordered unit, or one whose corps has broken, moves to
    /// the reachable hex farthest from the enemy, cover breaking ties, then
    /// the cheaper move.
    fn fall_back(&mut self, plan: &Plan, i: usize) -> bool {
        let grid = self.bf.ctx.grid;
        let Some(at) = self.board.units[i].at else { return false };
        let here = plan.sight.dist[grid.idx(at)];
        if here == FAR {
            return false;
        }
        let reach = self.orders.reach(self.engine, self.board, i);
        let best = reach
            .ends
            .iter()
            .map(|&(o, cost)| {
                let c = grid.idx(o);
                (Reverse(plan.sight.dist[c]), !grid.refuge[c], cost, c, o)
            })
            .min();
        match best {
            Some((Reverse(d), _, _, _, to)) if d > here => {
                let order = Order::Move { unit: self.id(i), to: (to.c, to.r) };
                self.give(order)
            }
            _ => false,
        }
    }

    // --- Fire phases ------------------------------------------------------

    /// Range in hexes at which a unit may fire now, if it may.
    fn fire_range(&self, i: usize) -> Option<u32> {
        let u = &self.board.units[i];
        let c = &self.bf.ctx.rules.combat;
        let ok = u.at.is_some()
            && u.side == self.side
            && matches!(u.state, HexState::GoodOrder | HexState::Disordered)
            && !self.orders.activity.fired[i]
            && !(u.arm == Arm::Artillery && u.limbered);
        let range = c.fire_range.get(u.arm).floor().max(0.0) as u32;
        (ok && range > 0).then_some(range)
    }

    /// Firepower of one unit at a range (rule 1.9 numbers, as `fire_odds`
    /// adds them); only to rank and cap a volley, the odds are the rules'.
    fn firepower(&self, i: usize, range: u32) -> f32 {
        let u = &self.board.units[i];
        let c = &self.bf.ctx.rules.combat;
        match u.arm {
            Arm::Artillery => c.artillery_per_increment(range).unwrap_or(0.0) * u.strength as f32,
            _ => c.infantry_fire.get(u.formation) * u.strength as f32,
        }
    }

    fn fire(&mut self) {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        // Every (firer, target) in range, then line of sight.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        {
            let firers: Vec<(usize, Offset, u32)> = (0..self.board.units.len())
                .filter_map(|i| Some((i, self.board.units[i].at?, self.fire_range(i)?)))
                .collect();
            if firers.is_empty() {
                return;
            }
            let occ = &self.engine.occupancy;
            let mut hexes = Vec::new();
            for (i, at, range) in firers {
                hexes.clear();
                movement::enemies_within(grid, occ, self.board, self.side, at, range, |e| hexes.push(e));
                hexes.sort();
                hexes.dedup();
                for &e in &hexes {
                    for &v in occ.at(grid.idx(e)) {
                        if self.board.units[v as usize].side != self.side {
                            pairs.push((v as usize, i));
                        }
                    }
                }
            }
        }
        let mut candidates: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (t, i) in pairs {
            candidates.entry(t).or_default().push(i);
        }
        let mut heap: BinaryHeap<(i64, Reverse<usize>)> = BinaryHeap::new();
        for (&t, firers) in &candidates {
            if let Some((_, value)) = self.volley(t, firers) {
                heap.push((value_key(value), Reverse(t)));
            }
        }
        // Lazy greedy: a target's volley is rescored when it comes up; if
        // earlier volleys made it worse than the next in line, it waits.
        while let Some((key, Reverse(t))) = heap.pop() {
            let Some((group, value)) = self.volley(t, &candidates[&t]) else { continue };
            let now = value_key(value);
            if now < key && heap.peek().is_some_and(|&(next, _)| next > now) {
                heap.push((now, Reverse(t)));
                continue;
            }
            let order = Order::Fire { units: group.iter().map(|&f| self.id(f)).collect(), target: self.id(t) };
            self.give(order);
        }
    }

    /// The volley the AI would fire at `t` from `candidates` now, and its
    /// value: good-order firers first (a disordered one shifts the column
    /// down), strongest first, stopping once the top column's firepower is
    /// reached, so that the others stay free for the next target.
    fn volley(&self, t: usize, candidates: &[usize]) -> Option<(Vec<usize>, f32)> {
        let target = &self.board.units[t];
        let to = target.at?;
        if target.side == self.side {
            return None;
        }
        let mut ready: Vec<(bool, Reverse<u32>, usize)> = Vec::new();
        for &i in candidates {
            let Some(range) = self.fire_range(i) else { continue };
            let Some(from) = self.board.units[i].at else { continue };
            let r = from.distance(to);
            if r > range || (r > 1 && !line_of_sight(self.bf, self.engine, from, to)) {
                continue;
            }
            let power = (self.firepower(i, r) * 100.0) as u32;
            ready.push((self.board.units[i].state == HexState::Disordered, Reverse(power), i));
        }
        ready.sort_unstable();
        let steady = ready.iter().filter(|r| !r.0).count();
        if steady > 0 {
            ready.truncate(steady);
        }
        let top = self.bf.ctx.rules.combat.fire_columns.last().copied().unwrap_or(0.0);
        let mut group = Vec::new();
        let mut power = 0.0;
        for &(_, Reverse(p), i) in &ready {
            if power >= top {
                break;
            }
            group.push(i);
            power += p as f32 / 100.0;
        }
        let odds = fire_odds(self.bf, self.board, self.engine, &group, t).ok()?;
        let value = self.volley_value(&odds, t);
        (value > 0.0).then_some((group, value))
    }

    /// Expected effect of a volley: increments lost plus the chance of a
    /// morale check, worth more on a disordered target (a failed check
    /// routs it) and on a weakened one (losses may finish it).
    fn volley_value(&self, odds: &FireOdds, t: usize) -> f32 {
        let u = &self.board.units[t];
        let ai = &self.bf.ctx.rules.ai;
        let mut value = odds.expected_losses() + odds.check_chance();
        if u.state == HexState::Disordered {
            value *= ai.volley_disordered_factor;
        }
        if u.strength <= ai.volley_weak_strength {
            value *= ai.volley_weak_factor;
        }
        value
    }

    // --- Melee phase ------------------------------------------------------

    fn can_attack(&self, i: usize) -> bool {
        let u = &self.board.units[i];
        u.side == self.side
            && u.at.is_some()
            && u.state == HexState::GoodOrder
            && u.arm != Arm::Artillery
            && u.formation != Formation::Square
            && !self.orders.activity.fought[i]
            && !self.goals.broken(i)
    }

    /// Our units that may attack into `cell` now, in index order.
    fn attackers_of(&self, cell: usize, from: &[usize]) -> Vec<usize> {
        let grid = self.bf.ctx.grid;
        let target = grid.offset(cell);
        from.iter()
            .copied()
            .filter(|&i| self.can_attack(i))
            .filter(|&i| {
                let Some(at) = self.board.units[i].at else { return false };
                at.direction_to(target)
                    .is_some_and(|d| grid.step_cost(self.board.units[i].arm, grid.idx(at), d) != BLOCKED)
            })
            .collect()
    }

    fn melee(&mut self) {
        let grid = self.bf.ctx.grid;
        let other = if self.side == 0 { 1 } else { 0 };
        let mut by_hex: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in 0..self.board.units.len() {
            if !self.can_attack(i) {
                continue;
            }
            let Some(at) = self.board.units[i].at else { continue };
            for n in at.neighbours() {
                if grid.in_padded(n) && self.engine.occupancy.count(grid.idx(n), other) > 0 {
                    by_hex.entry(grid.idx(n)).or_default().push(i);
                }
            }
        }
        // Rank the fights: walkovers, then shaken defenders, then the odds.
        let mut fights: Vec<(Rank, usize)> = Vec::new();
        for (&cell, from) in &by_hex {
            if let Some((rank, _)) = self.assess(cell, from) {
                fights.push((rank, cell));
            }
        }
        fights.sort_unstable();
        for (_, cell) in fights {
            let from = &by_hex[&cell];
            let Some((_, attackers)) = self.assess(cell, from) else { continue };
            let Some(t) = self.enemy_at(cell) else { continue };
            let order = Order::Melee { units: attackers.iter().map(|&a| self.id(a)).collect(), target: self.id(t) };
            self.give(order);
        }
    }

    /// Whether to attack the hex now, with whom, and how it ranks.
    fn assess(&self, cell: usize, from: &[usize]) -> Option<(Rank, Vec<usize>)> {
        let t = self.enemy_at(cell)?;
        let attackers = self.attackers_of(cell, from);
        let first = *attackers.first()?;
        let odds = melee_odds(self.bf, self.board, self.engine, &attackers, t, false).ok()?;
        if odds.walkover {
            // Routed defenders surrender to anyone: one attacker suffices.
            return Some(((0, Reverse(0)), vec![first]));
        }
        let shaken = self.engine.occupancy.at(cell).iter().any(|&v| {
            let v = &self.board.units[v as usize];
            v.side != self.side && v.state == HexState::Disordered
        });
        let win = odds.win_chance();
        let key = Reverse((win * 10_000.0) as i64);
        if shaken {
            Some(((1, key), attackers))
        } else if win >= self.tuning.melee_threshold {
            Some(((2, key), attackers))
        } else {
            None
        }
    }
}

/// Order of the melee phase's fights: the kind (0 walkover, 1 shaken
/// defenders, 2 good odds), then the better chance first.
type Rank = (u8, Reverse<i64>);

fn value_key(value: f32) -> i64 {
    (value * 10_000.0).round() as i64
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::labataille::HexUnit;
    use crate::labataille::engine::Ctx;
    use crate::labataille::movement::MoveSearch;
    use crate::labataille::orders::Activity;
    use crate::map::TerrainMap;
    use crate::rules::Rules;

    /// Side 0 has its rear south and faces north; side 1 the reverse.
    fn unit(id: &str, side: usize, arm: Arm, at: (i32, i32)) -> HexUnit {
        HexUnit::marching(id, side, arm, Offset::new(at.0, at.1), if side == 0 { Dir::N } else { Dir::S })
    }

    /// Plays the phases in turn on a map drawn as rows; returns the orders.
    fn play(rows: &[&str], board: &mut Board, phases: &[(OrderPhase, usize)], goals: &AiGoals) -> Vec<Order> {
        play_with(rows, board, phases, goals, &Rules::default())
    }

    /// As [`play`], under other rules (a changed `rules.ai` number).
    fn play_with(
        rows: &[&str],
        board: &mut Board,
        phases: &[(OrderPhase, usize)],
        goals: &AiGoals,
        rules: &Rules,
    ) -> Vec<Order> {
        let (orders, _) = play_logged(rows, board, phases, goals, 7, rules);
        orders
    }

    fn play_logged(
        rows: &[&str],
        board: &mut Board,
        phases: &[(OrderPhase, usize)],
        goals: &AiGoals,
        seed: u64,
        rules: &Rules,
    ) -> (Vec<Order>, String) {
        let map = TerrainMap::from_rows(rows);
        let grid = Grid::new(&map, rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules, sides: &sides };
        let tables = rules.combat.tables();
        let bf = Battlefield { ctx: &ctx, map: &map, tables: &tables, movement: &[] };
        let index: HashMap<String, usize> = board.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
        let mut search = MoveSearch::default();
        let mut activity = Activity::new(board.units.len());
        // The scenario's exits, as the simulation hands them to the orders.
        for &(_, side) in phases {
            activity.exits.extend(goals.exits.iter().map(|&(edge, _)| (side, edge)));
        }
        let mut engine = Engine::new(&grid, board);
        let mut dice = Dice::new(seed, Vec::new());
        let mut log = EventLog::default();
        let mut orders = Orders { bf: &bf, index: &index, search: &mut search, activity: &mut activity };
        let mut out = Vec::new();
        for &(phase, side) in phases {
            if matches!(phase, OrderPhase::DefensiveFire | OrderPhase::OffensiveFire) {
                orders.activity.new_fire_phase();
            }
            out.extend(play_phase(&mut orders, &mut engine, board, &mut dice, &mut log, phase, side, goals));
        }
        (out, log.to_jsonl())
    }

    fn at(board: &Board, id: &str) -> Offset {
        board.units[board.index_of(id).expect("unit")].at.expect("on the map")
    }

    const OPEN: [&str; 12] = ["............"; 12];

    #[test]
    fn goal_field_is_the_cheapest_walk_to_the_nearest_source() {
        let map = TerrainMap::from_rows(&[".....", ".www.", "....."]);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let f =
            goal_field(&grid, Arm::Infantry, &[(grid.idx(Offset::new(0, 0)), 0), (grid.idx(Offset::new(4, 2)), 50)]);
        assert_eq!(f[grid.idx(Offset::new(0, 0))], 0);
        assert_eq!(f[grid.idx(Offset::new(1, 0))], 100, "one clear hex");
        assert_eq!(f[grid.idx(Offset::new(4, 2))], 50, "a source keeps its start cost");
        assert_eq!(f[grid.idx(Offset::new(2, 1))], 200, "leaving the woods costs only the clear hexes entered");
        assert_eq!(f[grid.idx(Offset::new(2, 0))], 200, "around the woods rather than through");
        assert_eq!(f[grid.idx(Offset::new(-1, -1))], UNREACHED, "off the map");
    }

    /// Remembered goal fields must be the fields of that very grid, arm and
    /// sources: two maps of one size, the same sources on both, and sources
    /// changed on one, asked in turn.
    #[test]
    fn remembered_goal_fields_belong_to_their_grid_and_sources() {
        let rules = Rules::default();
        let open = Grid::new(&TerrainMap::from_rows(&["......"; 5]), &rules);
        let woods = Grid::new(&TerrainMap::from_rows(&["..ww..", "..ww..", "..ww..", "..ww..", "..ww.."]), &rules);
        let a = [(open.idx(Offset::new(0, 2)), 0)];
        let b = [(open.idx(Offset::new(5, 2)), 0)];
        for _ in 0..2 {
            for grid in [&open, &woods] {
                for sources in [&a[..], &b[..], &a[..]] {
                    for arm in Arm::ALL {
                        assert_eq!(goal_field(grid, arm, sources), walk_field(grid, arm, sources));
                    }
                }
            }
        }
        // The two maps do differ, so a field given for the wrong one fails.
        assert_ne!(walk_field(&open, Arm::Infantry, &a), walk_field(&woods, Arm::Infantry, &a));
        // A clone is the same grid.
        assert_eq!(goal_field(&open.clone(), Arm::Cavalry, &b), walk_field(&open, Arm::Cavalry, &b));
    }

    #[test]
    fn ai_forms_square_when_enemy_cavalry_is_near() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (4, 8)), unit("ru-cav", 1, Arm::Cavalry, (4, 5))] };
        board.units[0].formation = Formation::Line;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders[0], Order::Formation { unit: "fr".into(), to: Formation::Square });
        assert_eq!(board.units[0].formation, Formation::Square);
        assert_eq!(at(&board, "fr"), Offset::new(4, 8), "a square stands");

        // The same distance from infantry: no square.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (4, 8)), unit("ru-inf", 1, Arm::Infantry, (4, 5))] };
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_ne!(board.units[0].formation, Formation::Square);
    }

    #[test]
    fn ai_concentrates_fire_on_one_target() {
        // Three battalions in range and sight of two enemies; the
        // disordered one is the better target, and all three fire at it
        // together rather than splitting their fire.
        let mut board = Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (2, 5)),
                unit("fr-b", 0, Arm::Infantry, (3, 4)),
                unit("fr-c", 0, Arm::Infantry, (4, 4)),
                unit("ru-steady", 1, Arm::Infantry, (2, 3)),
                unit("ru-shaken", 1, Arm::Infantry, (4, 6)),
            ],
        };
        for u in &mut board.units[..3] {
            u.formation = Formation::Line;
            u.strength = 4;
        }
        board.units[4].state = HexState::Disordered;
        for f in ["fr-a", "fr-b", "fr-c"] {
            for t in ["ru-steady", "ru-shaken"] {
                let (from, to) = (at(&board, f), at(&board, t));
                assert!(from.distance(to) <= 2, "{f} reaches {t}");
                assert!(
                    crate::labataille::combat::between(from, to)
                        .iter()
                        .all(|h| board.units.iter().all(|u| u.at != Some(*h))),
                    "{f} sees {t}"
                );
            }
        }
        let orders = play(&OPEN, &mut board, &[(OrderPhase::OffensiveFire, 0)], &AiGoals::default());
        assert_eq!(
            orders,
            vec![Order::Fire { units: vec!["fr-a".into(), "fr-b".into(), "fr-c".into()], target: "ru-shaken".into() }]
        );
    }

    #[test]
    fn ai_charges_a_disordered_battalion_but_not_a_square() {
        let mut board = Board {
            units: vec![
                unit("fr-cav", 0, Arm::Cavalry, (5, 8)),
                unit("ru-square", 1, Arm::Infantry, (3, 4)),
                unit("ru-shaken", 1, Arm::Infantry, (7, 4)),
            ],
        };
        board.units[1].formation = Formation::Square;
        board.units[2].state = HexState::Disordered;
        board.units[1].strength = 4;
        board.units[2].strength = 4;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Charge, 0)], &AiGoals::default());
        assert_eq!(orders, vec![Order::Charge { unit: "fr-cav".into(), target: "ru-shaken".into() }]);

        let mut board =
            Board { units: vec![unit("fr-cav", 0, Arm::Cavalry, (5, 8)), unit("ru-square", 1, Arm::Infantry, (3, 4))] };
        board.units[1].formation = Formation::Square;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Charge, 0)], &AiGoals::default());
        assert!(orders.is_empty(), "no charge at a square: {orders:?}");
    }

    #[test]
    fn the_charge_screen_weights_come_from_the_rules_block() {
        // Two targets in reach; with one candidate let through, the screen
        // alone decides which is charged. By default the strength ratio
        // (6 against 2) puts the small battalion first; weighting disorder
        // heavily puts the disordered one first instead.
        let board = || {
            let mut b = Board {
                units: vec![
                    unit("fr-cav", 0, Arm::Cavalry, (5, 8)),
                    unit("ru-shaken", 1, Arm::Infantry, (3, 4)),
                    unit("ru-small", 1, Arm::Infantry, (7, 4)),
                ],
            };
            b.units[1].state = HexState::Disordered;
            b.units[2].strength = 2;
            b.units[2].formation = Formation::Line;
            b
        };
        let mut rules = Rules::default();
        rules.ai.charge_candidates = 1;
        let charged = |rules: &Rules| {
            let mut b = board();
            play_with(&OPEN, &mut b, &[(OrderPhase::Charge, 0)], &AiGoals::default(), rules)
        };
        assert_eq!(charged(&rules), vec![Order::Charge { unit: "fr-cav".into(), target: "ru-small".into() }]);
        rules.ai.charge_screen_disordered = 5_000;
        assert_eq!(charged(&rules), vec![Order::Charge { unit: "fr-cav".into(), target: "ru-shaken".into() }]);
    }

    #[test]
    fn ai_moves_towards_an_unheld_objective() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (2, 10)), unit("ru", 1, Arm::Infantry, (0, 0))] };
        let goal = Offset::new(10, 8);
        let goals = AiGoals { objectives: vec![(goal, 10, None)], ..AiGoals::default() };
        let before = at(&board, "fr").distance(goal);
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &goals);
        let after = at(&board, "fr").distance(goal);
        assert!(after + 4 <= before, "marched 4+ hexes towards the objective: {before} -> {after}");

        // Once on it, it holds it.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (10, 8)), unit("ru", 1, Arm::Infantry, (0, 0))] };
        let goals = AiGoals { objectives: vec![(goal, 10, Some(0))], ..AiGoals::default() };
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &goals);
        assert_eq!(at(&board, "fr"), goal);
    }

    #[test]
    fn ai_keeps_a_reserve() {
        let units = || Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (3, 7)),
                unit("fr-b", 0, Arm::Infantry, (5, 7)),
                unit("fr-c", 0, Arm::Infantry, (7, 7)),
                unit("fr-reserve", 0, Arm::Infantry, (5, 10)),
                unit("ru", 1, Arm::Infantry, (5, 2)),
            ],
        };
        let mut board = units();
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_eq!(at(&board, "fr-reserve"), Offset::new(5, 10), "the rearmost quarter stays");
        assert_ne!(at(&board, "fr-b"), Offset::new(5, 7), "the rest advance");

        // A reckless side commits everything.
        let mut board = units();
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals { aggression: 1.0, ..AiGoals::default() });
        assert_ne!(at(&board, "fr-reserve"), Offset::new(5, 10));

        // A threatened objective calls the reserve up.
        let mut board = units();
        let goals = AiGoals { objectives: vec![(Offset::new(9, 5), 10, Some(0))], ..AiGoals::default() };
        board.units[4].at = Some(Offset::new(9, 2));
        let start = at(&board, "fr-reserve").distance(Offset::new(9, 5));
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &goals);
        assert!(at(&board, "fr-reserve").distance(Offset::new(9, 5)) < start);
    }

    #[test]
    fn ai_turns_its_front_to_an_enemy_on_its_flank_or_rear() {
        // A garrison on an objective faces north; the enemy comes from the
        // south, then from the east.
        let held = AiGoals { objectives: vec![(Offset::new(5, 3), 1, Some(0))], ..AiGoals::default() };
        for (enemy, facing) in [((5, 7), Dir::S), ((9, 4), Dir::SE)] {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 3)), unit("ru", 1, Arm::Infantry, enemy)] };
            let orders = play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &held);
            assert_eq!(at(&board, "fr"), Offset::new(5, 3), "the garrison stands");
            assert_eq!(orders.last(), Some(&Order::Face { unit: "fr".into(), facing }), "{orders:?}");
            assert_eq!(board.units[0].facing, facing);
            let to = Offset::new(5, 3).bearing_to(Offset::new(enemy.0, enemy.1));
            assert!(front_sides(board.units[0].facing).contains(&to));
        }
        // An enemy already in front, or beyond `face_within`: no turn.
        for (enemy, rules) in [
            ((6, 0), Rules::default()),
            ((5, 7), {
                let mut r = Rules::default();
                r.ai.face_within = 3;
                r
            }),
        ] {
            let mut board =
                Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 3)), unit("ru", 1, Arm::Infantry, enemy)] };
            let orders = play_with(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &held, &rules);
            assert!(!orders.iter().any(|o| matches!(o, Order::Face { .. })), "{orders:?}");
            assert_eq!(board.units[0].facing, Dir::N);
        }
    }

    #[test]
    fn ai_disordered_units_fall_back() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        board.units[0].state = HexState::Disordered;
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert!(at(&board, "fr").distance(Offset::new(5, 2)) > 4, "went back: {}", at(&board, "fr"));

        // So do units of a broken corps, in good order or not.
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        play(
            &OPEN,
            &mut board,
            &[(OrderPhase::Movement, 0)],
            &AiGoals { broken: vec![true, false], ..AiGoals::default() },
        );
        assert!(at(&board, "fr").distance(Offset::new(5, 2)) > 4);
    }

    #[test]
    fn ai_marches_in_column_and_deploys_into_line_near_the_enemy() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 11)), unit("ru", 1, Arm::Infantry, (5, 0))] };
        board.units[0].formation = Formation::Line;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders[0], Order::Formation { unit: "fr".into(), to: Formation::Column });
        assert!(matches!(orders[1], Order::Move { .. }));

        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 5)), unit("ru", 1, Arm::Infantry, (5, 2))] };
        play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_eq!(board.units[0].formation, Formation::Line, "deployed near the enemy");
    }

    #[test]
    fn ai_guns_unlimber_in_range_and_limber_to_move() {
        let mut board =
            Board { units: vec![unit("fr-guns", 0, Arm::Artillery, (5, 7)), unit("ru", 1, Arm::Infantry, (5, 3))] };
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders, vec![Order::Limber { unit: "fr-guns".into(), limbered: false }]);

        let rows = ["......"; 24];
        let mut board =
            Board { units: vec![unit("fr-guns", 0, Arm::Artillery, (3, 22)), unit("ru", 1, Arm::Infantry, (3, 0))] };
        board.units[0].limbered = false;
        let orders = play(&rows, &mut board, &[(OrderPhase::Movement, 0)], &AiGoals::default());
        assert_eq!(orders[0], Order::Limber { unit: "fr-guns".into(), limbered: true });
        assert!(matches!(orders[1], Order::Move { .. }));
    }

    #[test]
    fn ai_melees_shaken_or_outmatched_enemies_only() {
        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 5))] };
        board.units[0].formation = Formation::Line;
        board.units[1].state = HexState::Disordered;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Melee, 0)], &AiGoals::default());
        assert_eq!(orders, vec![Order::Melee { units: vec!["fr".into()], target: "ru".into() }]);

        let mut board =
            Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 6)), unit("ru", 1, Arm::Infantry, (5, 5))] };
        board.units[0].formation = Formation::Line;
        board.units[1].strength = 12;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Melee, 0)], &AiGoals::default());
        assert!(orders.is_empty(), "1:2 is not worth it: {orders:?}");

        // Two battalions together make it 2:1.
        let mut board = Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (5, 6)),
                unit("fr-b", 0, Arm::Infantry, (4, 5)),
                unit("ru", 1, Arm::Infantry, (5, 5)),
            ],
        };
        board.units[2].strength = 6;
        board.units[0].strength = 6;
        board.units[1].strength = 6;
        let orders = play(&OPEN, &mut board, &[(OrderPhase::Melee, 0)], &AiGoals::default());
        assert_eq!(orders, vec![Order::Melee { units: vec!["fr-a".into(), "fr-b".into()], target: "ru".into() }]);
    }

    #[test]
    fn ai_leaves_by_an_exit_that_pays_when_nothing_holds_it_back() {
        let goals = AiGoals { exits: vec![(Edge::North, 1)], ..AiGoals::default() };
        let board =
            || Board { units: vec![unit("fr", 0, Arm::Infantry, (5, 0)), unit("ru", 1, Arm::Infantry, (5, 11))] };
        let mut b = board();
        let orders = play(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &goals);
        assert_eq!(orders, vec![Order::Exit { unit: "fr".into(), edge: Edge::North }]);
        assert_eq!(b.units[0].at, None, "left the map");

        // No exit for the side, or one across another edge: it stays on the map.
        for exits in [vec![], vec![(Edge::South, 1)]] {
            let mut b = board();
            let orders = play(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &AiGoals { exits, ..AiGoals::default() });
            assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");
            assert!(b.units[0].at.is_some());
        }

        // Needed to hold an objective on the edge: it holds.
        let mut b = board();
        let held = AiGoals { objectives: vec![(Offset::new(5, 0), 3, Some(0))], ..goals.clone() };
        let orders = play(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &held);
        assert!(orders.is_empty(), "the garrison stays: {orders:?}");
        assert_eq!(at(&b, "fr"), Offset::new(5, 0));

        // Disordered: it falls back instead.
        let mut b = board();
        b.units[0].state = HexState::Disordered;
        let orders = play(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &goals);
        assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");

        // Worth less than `rules.ai.exit_min_points`: 2 increments at 1
        // point earn 2, not the 3 asked for.
        let mut b = board();
        b.units[0].strength = 2;
        let mut rules = Rules::default();
        rules.ai.exit_min_points = 3;
        let orders = play_with(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &goals, &rules);
        assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");
        // At 2 points an increment they earn 4 and go.
        let mut b = board();
        b.units[0].strength = 2;
        let dear = AiGoals { exits: vec![(Edge::North, 2)], ..AiGoals::default() };
        let orders = play_with(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &dear, &rules);
        assert_eq!(orders, vec![Order::Exit { unit: "fr".into(), edge: Edge::North }]);
    }

    #[test]
    fn ai_sends_a_share_of_its_attackers_to_the_exits() {
        // Four battalions face an enemy to the south; the exit is the north
        // edge. A reckless side keeps no reserve, and a quarter of four
        // attackers is one: the one nearest the exit, which marches there
        // and leaves in the same phase.
        let units = || Board {
            units: vec![
                unit("fr-a", 0, Arm::Infantry, (2, 5)),
                unit("fr-b", 0, Arm::Infantry, (4, 5)),
                unit("fr-c", 0, Arm::Infantry, (6, 5)),
                unit("fr-north", 0, Arm::Infantry, (8, 1)),
                unit("ru", 1, Arm::Infantry, (5, 11)),
            ],
        };
        let goals = AiGoals { exits: vec![(Edge::North, 1)], aggression: 1.0, ..AiGoals::default() };
        let mut b = units();
        let orders = play(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &goals);
        let exits: Vec<&Order> = orders.iter().filter(|o| matches!(o, Order::Exit { .. })).collect();
        assert_eq!(exits, [&Order::Exit { unit: "fr-north".into(), edge: Edge::North }], "{orders:?}");
        for id in ["fr-a", "fr-b", "fr-c"] {
            assert!(at(&b, id).r > 5, "{id} went for the enemy: {}", at(&b, id));
        }

        // With no share for the exits, it goes for the enemy like the rest.
        let mut rules = Rules::default();
        rules.ai.exit_share = 0.0;
        let mut b = units();
        let orders = play_with(&OPEN, &mut b, &[(OrderPhase::Movement, 0)], &goals, &rules);
        assert!(!orders.iter().any(|o| matches!(o, Order::Exit { .. })), "{orders:?}");
        assert!(at(&b, "fr-north").r > 1, "{}", at(&b, "fr-north"));
    }

    fn generated() -> (Vec<String>, Board) {
        let map = crate::generate::terrain(40, 40, 5);
        let rows = crate::generate::map_rows(&map);
        let units = crate::generate::deployment(&map, 200, 5)
            .into_iter()
            .enumerate()
            .map(|(i, (side, arm, o))| unit(&format!("u{i}"), side, arm, (o.c, o.r)))
            .collect();
        (rows, Board { units })
    }

    const TURN: [(OrderPhase, usize); 5] = [
        (OrderPhase::Charge, 0),
        (OrderPhase::Movement, 0),
        (OrderPhase::DefensiveFire, 1),
        (OrderPhase::OffensiveFire, 0),
        (OrderPhase::Melee, 0),
    ];

    #[test]
    fn ai_is_deterministic() {
        let (rows, board) = generated();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let goals = AiGoals { objectives: vec![(Offset::new(20, 20), 10, None)], ..AiGoals::default() };
        let mut a = board.clone();
        let mut b = board.clone();
        let rules = Rules::default();
        let (oa, la) = play_logged(&rows, &mut a, &TURN, &goals, 11, &rules);
        let (ob, lb) = play_logged(&rows, &mut b, &TURN, &goals, 11, &rules);
        assert!(oa.len() > 50, "a generated battle gives plenty of orders: {}", oa.len());
        assert_eq!(oa, ob);
        assert_eq!(la, lb);
        assert_eq!(a, b);
    }
}
