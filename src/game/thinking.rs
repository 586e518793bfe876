//! The computer's general thinking where the player can see it: a `hard`
//! side's movement phase asks its question ([`sim::Thinking`]) and the
//! window weighs it on another thread while frames keep flowing; the
//! banner shows how far it has gone, and Esc hurries it (the best orders
//! found so far are given). The answer goes back through [`sim::answer`].

use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use super::forecast::ForecastView;
use super::sets::GameSet;
use super::state::battle_keys;
use super::turn::{Notice, PlayerTurn};
use crate::labataille::ai::{Deliberation, DeliberationProgress};
use crate::sim;

/// The deliberation being weighed on another thread, if any.
#[derive(Resource, Default)]
pub struct Mind {
    pub job: Option<Job>,
}

/// One question being weighed.
pub struct Job {
    /// The question's id ([`sim::Question::id`]).
    id: u64,
    /// The side thinking.
    pub side: usize,
    pub progress: Arc<DeliberationProgress>,
    result: Arc<Mutex<Option<Deliberation>>>,
    /// The player asked it to hurry.
    pub hurried: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Mind>().init_resource::<sim::Thinking>();
    app.add_systems(Update, hurry.in_set(GameSet::Input).run_if(battle_keys));
    app.add_systems(Update, think.after(GameSet::Playback).before(GameSet::Draw));
}

/// Starts weighing a question asked, drops a job whose question is gone
/// (the battle restarted or opened anew), and hands a finished answer back.
fn think(world: &mut World) {
    let asked = world.get_resource::<sim::Thinking>().and_then(|t| t.asked().cloned());
    let mut mind = world.resource_mut::<Mind>();
    let Some(q) = asked else {
        // Its thread finishes on its own; the answer is dropped.
        if mind.job.is_some() {
            mind.job = None;
        }
        return;
    };
    match &mind.job {
        Some(job) if job.id == q.id => {}
        _ => {
            let progress = Arc::new(DeliberationProgress::default());
            let result = Arc::new(Mutex::new(None));
            let (p, r, position) = (progress.clone(), result.clone(), q.position.clone());
            std::thread::spawn(move || {
                let d = position.deliberate(&p);
                if let Ok(mut slot) = r.lock() {
                    *slot = Some(d);
                }
            });
            mind.job = Some(Job { id: q.id, side: q.position.side(), progress, result, hurried: false });
            return;
        }
    }
    let done = mind.job.as_ref().and_then(|j| j.result.lock().ok().and_then(|mut r| r.take()));
    if let Some(d) = done {
        mind.job = None;
        sim::answer(world, q.id, d);
    }
}

/// Esc while the computer thinks (and no forecast is being played, which
/// Esc cancels first): it gives the best orders found so far.
fn hurry(
    keys: Res<ButtonInput<KeyCode>>,
    forecast: Res<ForecastView>,
    mut mind: ResMut<Mind>,
    mut turn: ResMut<PlayerTurn>,
) {
    if !keys.just_pressed(KeyCode::Escape) || forecast.job.is_some() {
        return;
    }
    let Some(job) = &mut mind.job else { return };
    if !job.hurried {
        job.progress.hurry();
        job.hurried = true;
        turn.say(Notice::said("Hurried: the computer gives the best orders it has found so far."));
    }
}

/// What the banner says while the computer thinks: a title and a line.
pub fn words(mind: &Mind, sides: &[crate::scenario::Side]) -> Option<(String, String)> {
    let job = mind.job.as_ref()?;
    let name = sides.get(job.side).map_or("The computer", |s| s.name.as_str());
    let pct = (job.progress.fraction() * 100.0).round();
    let line = if job.hurried {
        format!("{pct:.0}% weighed; hurrying: the best orders found so far come next.")
    } else {
        format!(
            "{pct:.0}% weighed: each group's choice (advance, hold, assault, make for the objectives, withdraw) \
             played on to the enemy's reply.  Esc hurries it."
        )
    };
    Some((format!("{name} (hard) is thinking about its movement..."), line))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::game::playback::Playback;
    use crate::game::testing::{battle_app, press};
    use crate::sim::{Seats, Simulation};
    use crate::vocab::AiLevel;

    /// Shows the log's end, then one event more (`.`): past the end, the
    /// next phase is asked for, as playing does.
    fn frame(app: &mut App) {
        app.world_mut().resource_mut::<Playback>().jump_to_present();
        press(app, KeyCode::Period);
    }

    #[test]
    fn the_window_thinks_on_another_thread_shows_it_and_esc_hurries_it() {
        let path = format!("{}/scenarios/hagelberg-1813.ron", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("a bundled scenario");
        let mut s = crate::scenario::parse(&text, &path).expect("loads");
        s.sides[1].level = AiLevel::Hard;
        let s = Arc::new(s);
        let mut app = battle_app(Simulation::new(s.clone(), 4, Vec::new(), Seats::Watch));
        app.init_resource::<ForecastView>();
        plugin(&mut app);
        app.world_mut().insert_resource(sim::Deliberations::default());

        for _ in 0..400 {
            frame(&mut app);
            if app.world().resource::<Mind>().job.is_some() {
                break;
            }
        }
        let clock = *app.world().resource::<sim::Clock>();
        assert_eq!((clock.side, clock.phase), (Some(1), crate::turn::Phase::Movement), "hard's movement phase");
        let Some(q) = app.world().resource::<sim::Thinking>().asked().cloned() else { panic!("a question waits") };
        assert_eq!(q.position.side(), 1);
        let Some((title, line)) = words(app.world().resource::<Mind>(), &s.sides) else { panic!("the banner says") };
        assert!(title.contains(&s.sides[1].name) && title.contains("thinking"), "{title}");
        assert!(line.contains("Esc hurries"), "{line}");

        press(&mut app, KeyCode::Escape);
        let said = app.world().resource::<PlayerTurn>().message.clone().map(|m| m.text).unwrap_or_default();
        assert!(said.starts_with("Hurried"), "{said}");

        // Frames go on until the answer is back; the phase's orders follow.
        let start = Instant::now();
        while app.world().resource::<sim::Deliberations>().0.is_empty() {
            assert!(start.elapsed() < Duration::from_secs(120), "the answer comes back");
            std::thread::sleep(Duration::from_millis(5));
            app.update();
        }
        assert!(app.world().resource::<sim::Thinking>().asked().is_none());
        assert!(app.world().resource::<Mind>().job.is_none());
        let book = &app.world().resource::<sim::PlayState>().book;
        assert!(book.iter().any(|o| o.at.side == 1 && o.at.phase == crate::turn::Phase::Movement), "orders given");
        frame(&mut app);
        assert_ne!(*app.world().resource::<sim::Clock>(), clock, "and the battle goes on");
    }
}
