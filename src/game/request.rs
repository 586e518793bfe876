//! What the binary asked the window for (a file to open, a screenshot to
//! take), kept for the features that care.

use bevy::prelude::*;

use crate::cli::WindowRequest;

/// The command line's request, as a resource.
#[derive(Resource, Clone)]
pub struct Request(pub WindowRequest);
