//! Scenario files load as Bevy assets through the same parser as the command
//! line; a malformed file still loads, carrying its located errors.

use bevy::asset::{AssetMetaCheck, AssetPlugin, LoadState};
use bevy::prelude::*;
use sauve::asset::{ScenarioAsset, plugin};

#[test]
fn scenario_files_load_as_assets_with_their_errors() {
    let dir = std::env::temp_dir().join(format!("sauve-asset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = include_str!("../scenarios/cascade.ron");
    std::fs::write(dir.join("good.ron"), good).expect("write");
    std::fs::write(dir.join("bad.ron"), good.replacen("format: 1", "format: 1, colour: Red", 1)).expect("write");

    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin { file_path: dir.display().to_string(), meta_check: AssetMetaCheck::Never, ..default() },
    ));
    plugin(&mut app);
    let server = app.world().resource::<AssetServer>().clone();
    let good_h: Handle<ScenarioAsset> = server.load("good.ron");
    let bad_h: Handle<ScenarioAsset> = server.load("bad.ron");
    for _ in 0..2000 {
        app.update();
        let done =
            |h: &Handle<ScenarioAsset>| matches!(server.load_state(h.id()), LoadState::Loaded | LoadState::Failed(_));
        if done(&good_h) && done(&bad_h) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let assets = app.world().resource::<Assets<ScenarioAsset>>();
    let good = assets.get(&good_h).expect("the good scenario loaded");
    let scenario = good.result.as_ref().expect("and is valid");
    assert_eq!(scenario.name, "Cascade");
    let bad = assets.get(&bad_h).expect("the bad scenario still loads");
    let errors = bad.result.as_ref().expect_err("with errors");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].starts_with("bad.ron:") && errors[0].contains("colour"), "{errors:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
