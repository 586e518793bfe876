//! What a click or a key means while a phase waits for the player's orders:
//! plain functions over [`UnitView`]s read from the simulation's
//! components, so a player's turn can be driven and tested without a
//! window. The simulation judges whether an order is allowed (and says why
//! not); these only say which order the player asked for.

use bevy::prelude::*;

use crate::game::input::MapButton;
use crate::hex::{Dir, Edge, Offset};
use crate::labataille::orders::Order;
use crate::scenario::{Exit, Formation};
use crate::sim;
use crate::terrain::Arm;
use crate::turn::Phase;
use crate::vocab::State;

/// A unit as the orders see it, read from the simulation's components.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitView {
    pub index: usize,
    pub id: String,
    pub name: String,
    pub side: usize,
    pub arm: Arm,
    /// On the board and able to be ordered or targeted.
    pub at: Option<Offset>,
    pub limbered: bool,
    pub formation: Formation,
    pub facing: Dir,
    pub state: State,
}

/// Every hex unit of the world, in scenario order.
pub fn unit_views(world: &mut World) -> Vec<UnitView> {
    let mut q = world.query::<(
        &sim::UnitIndex,
        &sim::UnitName,
        &sim::SideIndex,
        &sim::ArmOf,
        &sim::HexPosition,
        &sim::Limbered,
        &sim::FormationOf,
        &sim::Facing,
        &sim::MoraleState,
    )>();
    let mut out: Vec<UnitView> = q
        .iter(world)
        .map(|(i, name, side, arm, at, limbered, formation, facing, state)| UnitView {
            index: i.0,
            id: name.id.clone(),
            name: name.name.clone(),
            side: side.0,
            arm: arm.0,
            at: at.0.filter(|_| !matches!(state.0, State::Surrendered | State::Eliminated)),
            limbered: limbered.0,
            formation: formation.0,
            facing: facing.0,
            state: state.0,
        })
        .collect();
    out.sort_by_key(|u| u.index);
    out
}

/// What a click on the map means while a phase waits for orders.
#[derive(Clone, Debug, PartialEq)]
pub enum Click {
    /// Select `unit` (details, range) with `group` the units that will give
    /// the next order together (empty for an enemy picked to look at).
    Select {
        unit: usize,
        group: Vec<usize>,
    },
    Order(Order),
    /// Select nothing.
    Clear,
    /// Nothing to do but tell the player why.
    Say(String),
}

/// The phase's instruction to the player.
pub fn hint(phase: Phase, group: usize) -> &'static str {
    match (phase, group > 0) {
        (Phase::Movement, false) => "Click one of your units to see where it can march.",
        (Phase::Movement, true) => {
            "Click a blue hex to march (right-click: onto friends too).\nL line, C column, S square, G general order, \
             K limber or unlimber.\nT turn clockwise, Shift+T counter-clockwise."
        }
        (Phase::DefensiveFire | Phase::OffensiveFire, false) => {
            "Click a unit of yours to fire with it (shift-click adds more firers)."
        }
        (Phase::DefensiveFire | Phase::OffensiveFire, true) => {
            "Point at an enemy for the odds; click it to fire.  Shift-click adds or removes firers."
        }
        (Phase::Melee, false) => "Click a unit of yours next to the enemy (shift-click adds attackers).",
        (Phase::Melee, true) => "Point at an adjacent enemy for the odds; click it to attack.",
        (Phase::Charge, false) => "Click a cavalry unit of yours to charge with it.",
        (Phase::Charge, true) => "Point at an enemy for the odds; click it to charge.",
        (Phase::Shocks | Phase::MoraleRecovery | Phase::End, _) => "No orders are given in this phase.",
    }
}

/// What a click on `hex` means for `side` in `phase`, with `group` the
/// units already picked and `selected` the one whose details are shown.
pub fn order_for_click(
    units: &[UnitView],
    phase: Phase,
    side: usize,
    group: &[usize],
    selected: Option<usize>,
    hex: Offset,
    button: MapButton,
    shift: bool,
) -> Click {
    let here: Vec<&UnitView> = units.iter().filter(|u| u.at == Some(hex)).collect();
    let own: Vec<usize> = here.iter().filter(|u| u.side == side).map(|u| u.index).collect();
    let enemy = here.iter().find(|u| u.side != side);
    let ids = |g: &[usize]| -> Vec<String> { g.iter().filter_map(|&i| units.get(i)).map(|u| u.id.clone()).collect() };
    let several = matches!(phase, Phase::DefensiveFire | Phase::OffensiveFire | Phase::Melee);
    if !own.is_empty() && button == MapButton::Primary {
        if shift && several {
            // Shift adds the next unit of the stack not yet picked, or
            // drops the whole stack once all of it is.
            let mut g = group.to_vec();
            let unit = match own.iter().find(|u| !g.contains(u)) {
                Some(&u) => {
                    g.push(u);
                    u
                }
                None => {
                    g.retain(|u| !own.contains(u));
                    own[0]
                }
            };
            return Click::Select { unit, group: g };
        }
        // Again on the same stack: the next unit down.
        let unit = match selected.and_then(|s| own.iter().position(|&u| u == s)) {
            Some(k) => own[(k + 1) % own.len()],
            None => own[0],
        };
        return Click::Select { unit, group: vec![unit] };
    }
    if let Some(target) = enemy {
        if group.is_empty() {
            return Click::Select { unit: target.index, group: Vec::new() };
        }
        let target_id = target.id.clone();
        return match phase {
            Phase::DefensiveFire | Phase::OffensiveFire => {
                Click::Order(Order::Fire { units: ids(group), target: target_id })
            }
            Phase::Melee => Click::Order(Order::Melee { units: ids(group), target: target_id }),
            Phase::Charge => match units.get(group[0]) {
                Some(u) => Click::Order(Order::Charge { unit: u.id.clone(), target: target_id }),
                None => Click::Clear,
            },
            Phase::Movement => Click::Say("Enemy units are attacked in the fire, charge and melee phases.".into()),
            Phase::Shocks | Phase::MoraleRecovery | Phase::End => Click::Clear,
        };
    }
    match (phase, group.first().and_then(|&g| units.get(g))) {
        (Phase::Movement, Some(u)) if u.at != Some(hex) => {
            Click::Order(Order::Move { unit: u.id.clone(), to: (hex.c, hex.r) })
        }
        _ => Click::Clear,
    }
}

/// The formation keys of the movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderKey {
    Line,
    Column,
    Square,
    GeneralOrder,
    /// Limber if unlimbered, unlimber if limbered.
    Limber,
}

pub fn order_key(key: KeyCode) -> Option<OrderKey> {
    Some(match key {
        KeyCode::KeyL => OrderKey::Line,
        KeyCode::KeyC => OrderKey::Column,
        KeyCode::KeyS => OrderKey::Square,
        KeyCode::KeyG => OrderKey::GeneralOrder,
        KeyCode::KeyK => OrderKey::Limber,
        _ => return None,
    })
}

/// The order a formation key gives `unit`. The simulation judges whether it
/// is allowed (and says why not).
pub fn order_for_key(key: OrderKey, unit: &UnitView) -> Order {
    let to = match key {
        OrderKey::Line => Formation::Line,
        OrderKey::Column => Formation::Column,
        OrderKey::Square => Formation::Square,
        OrderKey::GeneralOrder => Formation::GeneralOrder,
        OrderKey::Limber => return Order::Limber { unit: unit.id.clone(), limbered: !unit.limbered },
    };
    Order::Formation { unit: unit.id.clone(), to }
}

/// The order the turn key gives `unit`: one hexside clockwise, or
/// counter-clockwise with shift (rule 1.7).
pub fn turn_order(unit: &UnitView, counter_clockwise: bool) -> Order {
    let step = if counter_clockwise { 5 } else { 1 };
    Order::Face { unit: unit.id.clone(), facing: Dir::ALL[(unit.facing.index() + step) % 6] }
}

/// The edge a unit of `side` at `at` marches off by: the first of the
/// side's exits (in scenario order) whose edge it stands on; otherwise what
/// to tell the player.
pub fn exit_edge(exits: &[Exit], side: usize, at: Option<Offset>, width: i32, height: i32) -> Result<Edge, String> {
    let edges: Vec<Edge> = exits.iter().filter(|x| x.side == side).map(|x| x.edge).collect();
    if edges.is_empty() {
        return Err("The scenario gives your side no exit from the map.".into());
    }
    let Some(at) = at else { return Err("That unit is not on the map.".into()) };
    edges
        .iter()
        .copied()
        .find(|e| e.distance(at, width, height) == 0)
        .ok_or_else(|| format!("To march off the map, a unit must stand on the {} first.", edge_words(&edges)))
}

/// Edges in words: "north edge", "north or east edge".
pub fn edge_words(edges: &[Edge]) -> String {
    let mut names: Vec<String> = Vec::new();
    for e in edges {
        let n = format!("{e:?}").to_lowercase();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    format!("{} edge", names.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(index: usize, side: usize, arm: Arm, at: (i32, i32)) -> UnitView {
        UnitView {
            index,
            id: format!("u{index}"),
            name: format!("Unit {index}"),
            side,
            arm,
            at: Some(Offset::new(at.0, at.1)),
            limbered: false,
            formation: Formation::Line,
            facing: Dir::N,
            state: State::GoodOrder,
        }
    }

    fn board() -> Vec<UnitView> {
        vec![
            view(0, 0, Arm::Infantry, (3, 5)),
            view(1, 0, Arm::Infantry, (3, 5)),
            view(2, 0, Arm::Cavalry, (4, 5)),
            view(3, 1, Arm::Infantry, (3, 3)),
        ]
    }

    const HERE: Offset = Offset { c: 3, r: 5 };
    const ENEMY: Offset = Offset { c: 3, r: 3 };

    #[test]
    fn clicking_your_stack_selects_its_units_in_turn() {
        let u = board();
        let first = order_for_click(&u, Phase::Movement, 0, &[], None, HERE, MapButton::Primary, false);
        assert_eq!(first, Click::Select { unit: 0, group: vec![0] });
        let again = order_for_click(&u, Phase::Movement, 0, &[0], Some(0), HERE, MapButton::Primary, false);
        assert_eq!(again, Click::Select { unit: 1, group: vec![1] });
    }

    #[test]
    fn a_click_on_open_ground_marches_the_selected_unit_there() {
        let u = board();
        let to = Offset::new(2, 4);
        let c = order_for_click(&u, Phase::Movement, 0, &[0], Some(0), to, MapButton::Primary, false);
        assert_eq!(c, Click::Order(Order::Move { unit: "u0".into(), to: (2, 4) }));
        // A right click marches onto friends instead of selecting them.
        let onto = Offset::new(4, 5);
        let c = order_for_click(&u, Phase::Movement, 0, &[0], Some(0), onto, MapButton::Secondary, false);
        assert_eq!(c, Click::Order(Order::Move { unit: "u0".into(), to: (4, 5) }));
        let nothing = order_for_click(&u, Phase::Movement, 0, &[], None, to, MapButton::Primary, false);
        assert_eq!(nothing, Click::Clear);
    }

    #[test]
    fn shift_click_gathers_firers_and_a_click_on_the_enemy_fires() {
        let u = board();
        let p = Phase::OffensiveFire;
        let c = order_for_click(&u, p, 0, &[2], Some(2), HERE, MapButton::Primary, true);
        assert_eq!(c, Click::Select { unit: 0, group: vec![2, 0] });
        let c = order_for_click(&u, p, 0, &[2, 0], Some(0), ENEMY, MapButton::Primary, false);
        assert_eq!(c, Click::Order(Order::Fire { units: vec!["u2".into(), "u0".into()], target: "u3".into() }));
        let m = order_for_click(&u, Phase::Melee, 0, &[0], Some(0), ENEMY, MapButton::Primary, false);
        assert_eq!(m, Click::Order(Order::Melee { units: vec!["u0".into()], target: "u3".into() }));
        let ch = order_for_click(&u, Phase::Charge, 0, &[2], Some(2), ENEMY, MapButton::Primary, false);
        assert_eq!(ch, Click::Order(Order::Charge { unit: "u2".into(), target: "u3".into() }));
        // Without firers, a click on the enemy only shows it.
        let look = order_for_click(&u, p, 0, &[], None, ENEMY, MapButton::Primary, false);
        assert_eq!(look, Click::Select { unit: 3, group: vec![] });
    }

    #[test]
    fn formation_keys_name_their_orders() {
        let mut gun = view(5, 0, Arm::Artillery, (1, 1));
        assert_eq!(order_key(KeyCode::KeyS), Some(OrderKey::Square));
        assert_eq!(order_key(KeyCode::KeyQ), None);
        assert_eq!(
            order_for_key(OrderKey::Column, &gun),
            Order::Formation { unit: "u5".into(), to: Formation::Column }
        );
        assert_eq!(order_for_key(OrderKey::Limber, &gun), Order::Limber { unit: "u5".into(), limbered: true });
        gun.limbered = true;
        assert_eq!(order_for_key(OrderKey::Limber, &gun), Order::Limber { unit: "u5".into(), limbered: false });
    }

    #[test]
    fn the_turn_key_steps_one_hexside_either_way() {
        let mut u = view(1, 0, Arm::Infantry, (1, 1));
        assert_eq!(turn_order(&u, false), Order::Face { unit: "u1".into(), facing: Dir::NE });
        assert_eq!(turn_order(&u, true), Order::Face { unit: "u1".into(), facing: Dir::NW });
        u.facing = Dir::NW;
        assert_eq!(turn_order(&u, false), Order::Face { unit: "u1".into(), facing: Dir::N });
    }

    #[test]
    fn the_exit_key_picks_the_first_exit_edge_the_unit_stands_on() {
        let exits = [
            Exit { side: 1, edge: Edge::South, points: 1 },
            Exit { side: 0, edge: Edge::North, points: 2 },
            Exit { side: 0, edge: Edge::East, points: 1 },
        ];
        let (w, h) = (8, 9);
        assert_eq!(exit_edge(&exits, 0, Some(Offset::new(3, 0)), w, h), Ok(Edge::North));
        assert_eq!(exit_edge(&exits, 0, Some(Offset::new(7, 4)), w, h), Ok(Edge::East));
        // The north-east corner is on both: the first listed wins.
        assert_eq!(exit_edge(&exits, 0, Some(Offset::new(7, 0)), w, h), Ok(Edge::North));
        assert_eq!(exit_edge(&exits, 1, Some(Offset::new(2, 8)), w, h), Ok(Edge::South));
        let off = exit_edge(&exits, 0, Some(Offset::new(3, 8)), w, h);
        assert_eq!(off, Err("To march off the map, a unit must stand on the north or east edge first.".into()));
        assert!(exit_edge(&exits[..1], 0, Some(Offset::new(3, 0)), w, h).is_err_and(|e| e.contains("no exit")));
        assert!(exit_edge(&exits, 0, None, w, h).is_err());
    }
}
