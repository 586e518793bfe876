//! A copy of the engine and the board to play "what if" on, made once and
//! restored as often as asked: the odds play every way an attack's checks
//! can go, and the AI weighs several attacks on the same board, each on
//! the copy put back as it was. It borrows what it copies, so the original
//! cannot change while the copy is in use, and a restore only has to undo
//! what was played on the copy.

use crate::labataille::Board;
use crate::labataille::engine::Engine;

pub struct Probe<'a> {
    engine: &'a Engine,
    board: &'a Board,
    copy: Option<(Engine, Board)>,
    /// The copy has been played on since it was last restored.
    played: bool,
}

impl<'a> Probe<'a> {
    /// A probe of `engine` and `board` (copied on first use).
    pub fn new(engine: &'a Engine, board: &'a Board) -> Self {
        Self { engine, board, copy: None, played: false }
    }

    /// The engine and the board copied.
    pub fn original(&self) -> (&'a Engine, &'a Board) {
        (self.engine, self.board)
    }

    /// The copy, as the original stands, to play on.
    pub fn fresh(&mut self) -> (&mut Engine, &mut Board) {
        let (engine, board) = (self.engine, self.board);
        let copy = self.copy.get_or_insert_with(|| (engine.probe(), board.clone()));
        if self.played {
            engine.restore_probe(&mut copy.0);
            copy.1.clone_from(board);
        }
        self.played = true;
        (&mut copy.0, &mut copy.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{Dir, Offset};
    use crate::labataille::HexUnit;
    use crate::labataille::engine::Ctx;
    use crate::labataille::grid::Grid;
    use crate::map::TerrainMap;
    use crate::rules::Rules;
    use crate::terrain::Arm;

    #[test]
    fn a_restored_copy_is_the_original_again() {
        let map = TerrainMap::from_rows(&["........"; 8]);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let sides = crate::generate::sides();
        let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
        let board = Board {
            units: vec![
                HexUnit::marching("a", 0, Arm::Infantry, Offset::new(2, 2), Dir::N),
                HexUnit::marching("b", 1, Arm::Infantry, Offset::new(2, 5), Dir::S),
            ],
        };
        let engine = Engine::new(&grid, &board);
        let mut probe = Probe::new(&engine, &board);
        let (e, b) = probe.fresh();
        e.relocate(&ctx, b, 0, Some(Offset::new(5, 5)));
        b.units[1].strength = 1;
        assert_eq!(e.occupancy.at(grid.idx(Offset::new(5, 5))), &[0]);
        let (e, b) = probe.fresh();
        assert_eq!(*b, board, "the board is the original again");
        assert_eq!(e.occupancy.at(grid.idx(Offset::new(2, 2))), &[0], "the unit stands where it stood");
        assert!(e.occupancy.at(grid.idx(Offset::new(5, 5))).is_empty(), "and not where it was played to");
    }
}
