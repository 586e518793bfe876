//! The free-space AI's melees (docs/rules.md 2.12, melee): units in
//! contact attack a disordered enemy (at `Normal`, only on odds that
//! favour them) or any enemy on good enough odds, and at `Normal` none
//! whose loss would be expected to put more friends to flight than the
//! limit allows, a garrison's more ([`cascade`]).

use super::marching::give;
use super::{FsGoals, able, garrisons};
use crate::belle_alliance::combat::{self, Fight, fight, fight_odds, gap};
use crate::belle_alliance::flight_preview::{Whence, fled_all_told_from};
use crate::belle_alliance::play::{At, Bound};
use crate::labataille::orders::Order;
use crate::vocab::State;

/// The melees of `at.side` this phase: for each enemy not fleeing, the
/// side's units in contact with it that have not fought attack it
/// together when the rules above allow.
pub(super) fn melee(b: &mut Bound, at: At, goals: &FsGoals, out: &mut Vec<Order>) {
    let contact = b.ctx.ba().melee.contact_cm;
    let ctx = b.ctx;
    let ai = &ctx.ba().ai;
    let threshold = ai.melee_threshold - ai.melee_threshold_drop * goals.aggression;
    let mut near = Vec::new();
    for t in 0..b.table.units.len() {
        if b.table.units[t].side == at.side || b.table.units[t].state == State::FU {
            // Fleeing enemies are not worth a fight: they run on their own.
            continue;
        }
        let r = b.engine.rect(t);
        let a = r.aabb();
        b.engine.near((a.0 - contact, a.1 - contact, a.2 + contact, a.3 + contact), &mut near);
        near.sort_unstable();
        let attackers: Vec<usize> = near
            .iter()
            .copied()
            .filter(|&a| {
                let u = &b.table.units[a];
                u.side == at.side && able(u) && !b.play.fought[a] && gap(&b.engine.rect(a), &r) <= contact
            })
            .collect();
        if attackers.is_empty() {
            continue;
        }
        let Ok(f) = fight(b.ctx, b.engine, b.table, &attackers, t, false) else { continue };
        let (win, _, lose) = fight_odds(&f, &b.ctx.ba().melee.results);
        // A target in LU or U is attacked whatever the threshold; at
        // `Normal` only while the fight is at least `melee_disordered_edge`
        // in the attackers' favour (a horse unit in LU, eight figures strong,
        // attacked a disordered battalion on generated table 1 at a total
        // of 3 against 9).
        let whatever_threshold = matches!(b.table.units[t].state, State::LU | State::U)
            && (!goals.level.mended() || win - lose >= ai.melee_disordered_edge);
        // The mended AI fights no melee whose loss would be expected to
        // put more friends to flight than `melee_cascade_max` (on generated
        // table 11 a column lost at a bridge's mouth with the bridge full
        // of friends behind it, and its flight broke the army). A garrison
        // is all that stands between the side and an objective's points:
        // a melee to drive it out may risk more.
        let limit = if garrisons(b, t, goals) {
            ai.melee_cascade_max * ai.garrison_cascade_factor
        } else {
            ai.melee_cascade_max
        };
        if (whatever_threshold || win - lose >= threshold)
            && !(goals.level.mended() && cascade(b, &f, attackers[0], t, limit) > limit)
        {
            let order = Order::Melee {
                units: attackers.iter().map(|&a| b.table.units[a].id.clone()).collect(),
                target: b.table.units[t].id.clone(),
            };
            give(b, at, order, out);
        }
    }
}

/// The friends the melee `f` of `lead` (leading) at `target` is expected
/// to put to flight by carrying them along (2.3): the chance `lead` is
/// left fleeing from the fight (its row or its valour tests, 2.9, 2.10)
/// times the friends its flight from `target` would carry along, and the
/// chance it loses shaken (U or worse) while its U retreat from `target`
/// is blocked (2.3) times the friends its flight in a free direction
/// would carry along; each count the flight preview's, every way the
/// carry-along tests can fall (a friend shaken into U with its retreat
/// blocked flees too: [`fled_all_told_from`]).
fn cascade(b: &mut Bound, f: &Fight, lead: usize, target: usize, limit: f32) -> f32 {
    let ctx = b.ctx;
    // Counting stops once it is past what the limit allows: the melee is
    // not fought either way.
    let carried =
        |b: &Bound, whence, enough: f32| fled_all_told_from(b.ctx, b.table, lead, whence, f64::from(enough)) as f32;
    let (_, flees) = combat::fight_flight(ctx, b.table, f, lead, target);
    let from = (b.table.units[target].x, b.table.units[target].y);
    let blocked = if b.engine.retreat_blocked(ctx, b.table, lead, Some(from)) {
        combat::shaken_loss(f, &ctx.ba().melee.results)
    } else {
        0.0
    };
    let fled = if flees > 0.0 {
        flees * carried(b, Whence::Enemy { unit: target, nearest: false }, limit / flees)
    } else {
        0.0
    };
    if fled > limit {
        return fled;
    }
    let stuck = if blocked > 0.0 { blocked * carried(b, Whence::Free, (limit - fled) / blocked) } else { 0.0 };
    fled + stuck
}
