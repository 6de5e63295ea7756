//! Rooms across a restart: every open room's state is in the database
//! ([`crate::db::SavedRoom`], table `saved_rooms`), committed before any client was told of
//! its latest action (`crate::journal`) and again at shutdown; at the next start with the same
//! database, after a shutdown or a crash, those rooms open again under their ids
//! ([`crate::room::Room::resume`]), their seats' tokens still valid, each game at the step it
//! had reached and its turn timer fresh.

use std::io::Write;
use std::time::Duration;

use crate::rooms;
use crate::state::AppState;

/// Opens again the rooms the database holds (those open at the last stop); a room that
/// cannot be resumed is reported on stderr and left in the database, untouched.
pub(crate) async fn resume_rooms(state: &AppState) {
    let Some(db) = state.config.database.clone() else {
        return;
    };
    let saved = match tokio::task::spawn_blocking(move || db.open_rooms()).await {
        Ok(Ok(saved)) => saved,
        Ok(Err(e)) => {
            log(format_args!("the rooms open at the last stop: {e}"));
            return;
        }
        Err(_) => {
            log(format_args!(
                "the rooms open at the last stop: the database task failed"
            ));
            return;
        }
    };
    let mut resumed = 0;
    for room in &saved {
        match rooms::resume(state, room) {
            Ok(()) => resumed += 1,
            Err(e) => log(format_args!(
                "room {} not resumed (its row stays in saved_rooms): {e}",
                room.id
            )),
        }
    }
    if !saved.is_empty() {
        log(format_args!(
            "resumed {resumed} of the {} rooms open at the last stop",
            saved.len()
        ));
    }
}

/// Saves every room into the database as the rooms' tasks end after a shutdown (waiting
/// `within` at most); the count goes to stderr. A failure is returned, so that the server does
/// not end as if nothing were lost.
pub(crate) async fn save_rooms(state: &AppState, within: Duration) -> Result<(), String> {
    let saved = state.rooms.saved(within).await;
    let Some(db) = state.config.database.clone() else {
        return Ok(());
    };
    if saved.is_empty() {
        return Ok(());
    }
    let count = saved.len();
    match tokio::task::spawn_blocking(move || db.save_rooms(&saved)).await {
        Ok(Ok(())) => {
            log(format_args!("saved {count} rooms in progress"));
            Ok(())
        }
        Ok(Err(e)) => Err(format!("{count} rooms in progress not saved: {e}")),
        Err(_) => Err(format!(
            "{count} rooms in progress not saved: the task failed"
        )),
    }
}

/// A line on stderr, as `ddz serve: ...`; a stderr that cannot be written is no reason to
/// stop saving or resuming.
fn log(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "ddz serve: {line}");
}
