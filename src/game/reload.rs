//! Hot reload: the open scenario file opens again by itself when it changes
//! on disk. The asset server's file watcher (Bevy's `file_watcher`) looks
//! at the directory of the file the command line named, and the open file,
//! when it lies there, is loaded as a [`ScenarioAsset`]; the watcher's
//! `Modified` event for it asks for the file to be opened again. Files
//! elsewhere (dropped from another directory) open without hot reload, and
//! a screenshot watches nothing.

use std::path::{Path, PathBuf};

use bevy::asset::{AssetMetaCheck, AssetPlugin};
use bevy::prelude::*;

use super::opened::{Opened, Source};
use super::request::Request;
use super::scenarios::Pending;
use super::sets::GameSet;
use crate::asset::ScenarioAsset;
use crate::cli::WindowRequest;

/// The directory the file watcher looks at (the asset server's root), if
/// any.
#[derive(Resource, Default)]
pub struct WatchRoot(pub Option<PathBuf>);

/// The open file as the asset server holds it, for its change events,
/// and its bytes when it was opened: a change event that leaves them as
/// they were (the game writing a save it opens, a fork's branch saved
/// again) is no change.
#[derive(Resource, Default)]
pub struct Watched(pub Option<Handle<ScenarioAsset>>, pub Option<Vec<u8>>);

/// The directory to watch for `req`: the command line's file's, unless
/// the window only takes a screenshot.
pub fn watch_dir(req: &WindowRequest) -> Option<PathBuf> {
    let file = req.file.as_ref().filter(|_| req.shot.is_none())?;
    real(file)?.parent().map(Path::to_path_buf)
}

/// The asset server of the window: rooted at [`watch_dir`] and watching
/// it, when there is one. Nothing else in the window loads files through
/// it (the font is embedded, the tiles painted by code).
pub fn asset_plugin(req: &WindowRequest) -> AssetPlugin {
    let meta_check = AssetMetaCheck::Never;
    match watch_dir(req) {
        Some(dir) => AssetPlugin {
            file_path: dir.display().to_string(),
            watch_for_changes_override: Some(true),
            meta_check,
            ..default()
        },
        None => AssetPlugin { meta_check, ..default() },
    }
}

/// A path made absolute, with links resolved where the file exists.
fn real(p: &Path) -> Option<PathBuf> {
    p.canonicalize().ok().or_else(|| std::path::absolute(p).ok())
}

/// Where `source` lies under `root`, as an asset path.
pub fn under(root: &Path, source: &Source) -> Option<PathBuf> {
    let Source::File(p) = source else { return None };
    real(p)?.strip_prefix(root).ok().map(Path::to_path_buf)
}

pub(super) fn plugin(app: &mut App) {
    let root = watch_dir(&app.world().resource::<Request>().0);
    crate::asset::plugin(app);
    app.insert_resource(WatchRoot(root)).init_resource::<Watched>();
    app.add_systems(Update, (reload, follow_open.run_if(resource_changed::<Opened>)).chain().in_set(GameSet::Open));
}

/// The file just opened, loaded through the asset server so that its
/// changes are seen (or nothing, for a file out of the watcher's sight).
pub(super) fn follow_open(
    opened: Res<Opened>,
    root: Res<WatchRoot>,
    server: Res<AssetServer>,
    mut watched: ResMut<Watched>,
) {
    let path = root.0.as_deref().and_then(|r| under(r, &opened.source));
    // With no watcher at all (a screenshot) there is nothing to say.
    if path.is_none()
        && root.0.is_some()
        && let Source::File(p) = &opened.source
    {
        info!("{}: not in the watched directory, so it does not reload by itself (R reopens it)", p.display());
    }
    watched.1 = match (&path, &opened.source) {
        (Some(_), Source::File(p)) => std::fs::read(p).ok(),
        _ => None,
    };
    watched.0 = path.map(|p| server.load(p));
}

/// The watcher saw the open file change: open it again.
pub(super) fn reload(
    mut events: MessageReader<AssetEvent<ScenarioAsset>>,
    watched: Res<Watched>,
    opened: Res<Opened>,
    mut pending: ResMut<Pending>,
) {
    let Some(handle) = &watched.0 else { return };
    let changed = || match &opened.source {
        Source::File(p) => watched.1.is_none() || std::fs::read(p).ok() != watched.1,
        Source::Bundled(_) => false,
    };
    for e in events.read() {
        if e.is_modified(handle.id()) && pending.0.is_none() && changed() {
            info!("{} changed on disk: reloading", opened.title());
            pending.0 = Some(opened.source.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// The file watcher, for real: a file opened from the watched
    /// directory is asked to open again once it changes on disk, and not
    /// before.
    #[test]
    fn the_open_file_opens_again_when_the_watcher_sees_it_change() {
        let dir = std::env::temp_dir().join(format!("sauve-reload-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("watched.ron");
        let text = include_str!("../../scenarios/cascade.ron");
        assert!(std::fs::write(&file, text).is_ok());
        let req = WindowRequest { file: Some(file.clone()), shot: None, edit: None };
        let root = watch_dir(&req);
        assert_eq!(root.as_deref(), dir.canonicalize().ok().as_deref());
        assert!(watch_dir(&WindowRequest { shot: None, file: None, edit: None }).is_none());

        let mut app = App::new();
        app.add_plugins((MinimalPlugins, asset_plugin(&req)));
        crate::asset::plugin(&mut app);
        let source = Source::File(file.clone());
        app.insert_resource(WatchRoot(root))
            .init_resource::<Watched>()
            .init_resource::<Pending>()
            .insert_resource(Opened::failed(source.clone(), Vec::new()));
        app.add_systems(Update, (reload, follow_open.run_if(resource_changed::<Opened>)).chain());
        let run_until = |app: &mut App, done: &dyn Fn(&App) -> bool| {
            let start = Instant::now();
            while !done(app) && start.elapsed() < Duration::from_secs(20) {
                app.update();
                std::thread::sleep(Duration::from_millis(10));
            }
        };
        let loaded = |app: &App| {
            let handle = app.world().resource::<Watched>().0.clone();
            handle.is_some_and(|h| app.world().resource::<Assets<ScenarioAsset>>().get(&h).is_some())
        };
        run_until(&mut app, &loaded);
        assert!(loaded(&app), "the open file is loaded through the asset server");
        assert_eq!(app.world().resource::<Pending>().0, None, "loading is no change");

        // Written again as it was (the game saving the file it opened):
        // the watcher's event is no change.
        assert!(std::fs::write(&file, text).is_ok());
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(1500) {
            app.update();
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(app.world().resource::<Pending>().0, None, "the same bytes are no change");

        // Changed on disk: the watcher's event asks for it again.
        assert!(std::fs::write(&file, format!("{text}\n// edited\n")).is_ok());
        let asked = |app: &App| app.world().resource::<Pending>().0.is_some();
        run_until(&mut app, &asked);
        assert_eq!(app.world().resource::<Pending>().0, Some(source));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_files_under_the_watched_directory_are_watched() {
        let root = Path::new("/tmp/watched");
        assert_eq!(under(root, &Source::File("/tmp/watched/a/b.ron".into())), Some(PathBuf::from("a/b.ron")));
        assert_eq!(under(root, &Source::File("/tmp/elsewhere/b.ron".into())), None);
        assert_eq!(under(root, &Source::Bundled(0)), None);
    }
}
