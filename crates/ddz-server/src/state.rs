//! What every handler shares ([`AppState`]).

use crate::config::Config;
use crate::journal::Journal;
use crate::limits::Limits;
use crate::registry::Rooms;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use tokio::sync::Semaphore;

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub config: Arc<Config>,
    pub rooms: Arc<Rooms>,
    /// Where the rooms' actions are committed before anyone hears of them (none without a
    /// database).
    pub journal: Option<Arc<Journal>>,
    /// Bounds the robot requests computed at once (the others wait, within the time limit).
    pub robot_slots: Arc<tokio::sync::Semaphore>,
    /// How many robot requests are computed at once in all ([`AppState::robot_slots`]'s
    /// permits).
    pub robot_slots_total: usize,
    /// The limits per client address.
    pub limits: Arc<Limits>,
    /// The queue of `POST /v1/analyse` (one analysis at a time).
    pub analyses: Arc<AnalysisQueue>,
    /// Held while rooms are taken over from the database (`crate::resume`): one takeover at
    /// a time, so that a room is never claimed twice by one instance.
    pub takeover: Arc<tokio::sync::Mutex<()>>,
}

/// The analyses' queue (`POST /v1/analyse`, analysis.rs): one runs at a time, a few wait.
pub(crate) struct AnalysisQueue {
    /// One permit: the analysis running.
    pub running: Arc<Semaphore>,
    /// The requests waiting for the permit.
    pub waiting: AtomicUsize,
}

impl AnalysisQueue {
    /// An empty queue.
    pub(crate) fn new() -> AnalysisQueue {
        AnalysisQueue {
            running: Arc::new(Semaphore::new(1)),
            waiting: AtomicUsize::new(0),
        }
    }
}
