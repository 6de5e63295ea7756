//! What every handler shares ([`AppState`]).

use crate::config::Config;
use crate::limits::Limits;
use crate::registry::Rooms;
use std::sync::Arc;

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub config: Arc<Config>,
    pub rooms: Arc<Rooms>,
    /// Bounds the robot requests computed at once (the others wait, within the time limit).
    pub robot_slots: Arc<tokio::sync::Semaphore>,
    /// The limits per client address.
    pub limits: Arc<Limits>,
    /// The queue of `POST /v1/analyse` (one analysis at a time).
    pub analyses: Arc<crate::analysis::Queue>,
}
