//! Scenario files as Bevy assets, for the game window. The loader calls the
//! same pure [`crate::scenario::parse_bytes`] as the command line.

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;

use crate::scenario::{LoadError, Scenario, parse_bytes};

/// A loaded scenario: either valid, or the located problems to show.
#[derive(Asset, TypePath, Debug)]
pub struct ScenarioAsset {
    pub result: Result<Scenario, Vec<String>>,
}

#[derive(Default, TypePath)]
pub struct ScenarioLoader;

/// The loader only fails on I/O; a malformed scenario still loads, carrying
/// its error lines, so the window can show them instead of closing.
#[derive(Debug, thiserror::Error)]
#[error("cannot read scenario: {0}")]
pub struct ScenarioReadError(#[from] std::io::Error);

impl AssetLoader for ScenarioLoader {
    type Asset = ScenarioAsset;
    type Settings = ();
    type Error = ScenarioReadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<ScenarioAsset, ScenarioReadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let name = load_context.path().to_string();
        let result = parse_bytes(&bytes, &name).map_err(|e: LoadError| e.lines());
        Ok(ScenarioAsset { result })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Registers the scenario asset and its loader.
pub fn plugin(app: &mut App) {
    app.init_asset::<ScenarioAsset>().init_asset_loader::<ScenarioLoader>();
}
