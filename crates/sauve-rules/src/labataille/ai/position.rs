//! A side's position at its movement phase, owned, so that the planning
//! AI can deliberate on it on another thread while the window's frames go
//! on (docs/rules.md "Hard"). What it weighs is what [`super::foresight::
//! deliberate`] would weigh in place: the same position, goals and seeds,
//! so the same deliberation, unless it is hurried.

use std::collections::HashMap;
use std::sync::Arc;

use crate::labataille::Board;
use crate::labataille::combat::Battlefield;
use crate::labataille::engine::{Ctx, Engine};
use crate::labataille::grid::Grid;
use crate::labataille::orders::Activity;
use crate::rules::combat::Tables;

use super::foresight::{Deliberation, DeliberationProgress, deliberate_watched};
use super::goals::{AiGoals, Foresight};

/// Everything a deliberation reads, owned.
pub struct Position {
    grid: Grid,
    tables: Tables,
    movement: Vec<Option<f32>>,
    index: HashMap<String, usize>,
    activity: Activity,
    engine: Engine,
    board: Board,
    side: usize,
    goals: AiGoals,
    foresight: Arc<Foresight>,
}

impl Position {
    /// The position as the orders see it, for side `side` with `goals`;
    /// `None` when the goals carry no [`super::Foresight`] (not `hard`).
    pub fn new(
        bf: &Battlefield,
        index: &HashMap<String, usize>,
        activity: &Activity,
        engine: &Engine,
        board: &Board,
        side: usize,
        goals: &AiGoals,
    ) -> Option<Self> {
        let foresight = goals.foresight.clone()?;
        Some(Self {
            grid: bf.ctx.grid.clone(),
            tables: bf.tables.clone(),
            movement: bf.movement.to_vec(),
            index: index.clone(),
            activity: activity.clone(),
            engine: engine.probe(),
            board: board.clone(),
            side,
            goals: goals.clone(),
            foresight,
        })
    }

    /// The side deciding.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Weighs the side's scripts, telling `progress` how far it has gone.
    pub fn deliberate(&self, progress: &DeliberationProgress) -> Deliberation {
        let f = &*self.foresight;
        let s = &*f.scenario;
        let ctx = Ctx { grid: &self.grid, rules: &s.rules, sides: &s.sides };
        let bf = Battlefield { ctx: &ctx, map: &s.map, tables: &self.tables, movement: &self.movement };
        deliberate_watched(
            &bf,
            &self.index,
            &self.activity,
            &self.engine,
            &self.board,
            self.side,
            &self.goals,
            f,
            progress,
        )
    }
}
