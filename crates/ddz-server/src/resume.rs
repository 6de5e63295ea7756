//! Rooms across a restart and across instances. Every open room's state is in the database
//! ([`crate::db::SavedRoom`], table `saved_rooms`), committed before any client was told of
//! its latest action (`crate::journal`) and again at shutdown, and each is run by the holder
//! of its lease (`crate::db`). At the start, after a shutdown or a crash, an instance claims
//! and opens again the rooms it held and those nobody holds ([`resume_rooms`]), under their
//! ids ([`crate::room::Room::resume`]), their seats' tokens still valid, each game at the step
//! it had reached and its turn timer fresh. While it runs, it renews its leases (its
//! heartbeat) and takes over the rooms whose lease expired: those of an instance that died
//! ([`keep_leases`]); a client that asks for a room run elsewhere is sent there
//! ([`find_room`]).

use std::io::Write;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::db::{DbError, Located};
use crate::registry::Cmd;
use crate::rooms;
use crate::state::AppState;

/// Opens again the rooms this instance may claim (at its start): those it held before and
/// those nobody holds; a room that cannot be resumed is reported on stderr and left in the
/// database, untouched.
pub(crate) async fn resume_rooms(state: &AppState) {
    let (resumed, found) = take_over(state, true).await;
    if found > 0 {
        log(format_args!(
            "resumed {resumed} of the {found} rooms open at the last stop"
        ));
    }
}

/// Claims and opens the rooms that are free (and with `own_too` those leased under this
/// instance's owner, at its start); how many opened, of how many found. One takeover runs at a
/// time in an instance.
async fn take_over(state: &AppState, own_too: bool) -> (usize, usize) {
    let Some(db) = state.config.database.clone() else {
        return (0, 0);
    };
    let _one = state.takeover.lock().await;
    let ids = match blocking(move || db.claimable(own_too)).await {
        Ok(ids) => ids,
        Err(e) => {
            log(format_args!("the rooms to take over: {e}"));
            return (0, 0);
        }
    };
    let mut resumed = 0;
    let mut found = 0;
    for id in ids {
        if state.rooms.get(&id).is_some() {
            continue;
        }
        found += 1;
        match claim_and_open(state, &id, own_too).await {
            Ok(true) => resumed += 1,
            Ok(false) => found -= 1, // another instance claimed it first
            Err(e) => log(format_args!(
                "room {id} not resumed (its row stays in saved_rooms): {e}"
            )),
        }
    }
    (resumed, found)
}

/// Claims room `id` and opens it here; false when another instance holds it.
async fn claim_and_open(state: &AppState, id: &str, own_too: bool) -> Result<bool, String> {
    let Some(db) = state.config.database.clone() else {
        return Ok(false);
    };
    let room = id.to_string();
    let claimed = blocking(move || {
        let Some(epoch) = db.claim(&room, own_too)? else {
            return Ok(None);
        };
        Ok(db.open_room(&room)?.map(|saved| (saved, epoch)))
    })
    .await?;
    match claimed {
        None => Ok(false),
        Some((saved, epoch)) => rooms::resume(state, &saved, epoch).map(|()| true),
    }
}

/// Where a client's room is, for a connection to it.
pub(crate) enum Found {
    /// Here: its task's channel.
    Here(mpsc::Sender<Cmd>),
    /// Run by another instance, which advertises this URL.
    Elsewhere(String),
    /// No such room.
    Nowhere,
}

/// Finds room `id`: open here; run by another instance with a live lease; or taken over here
/// at once when its lease expired or nobody holds it (its instance died or stopped).
pub(crate) async fn find_room(state: &AppState, id: &str) -> Result<Found, String> {
    if let Some(room) = state.rooms.get(id) {
        return Ok(Found::Here(room));
    }
    let Some(db) = state.config.database.clone() else {
        return Ok(Found::Nowhere);
    };
    let room = id.to_string();
    match blocking(move || db.locate(&room)).await? {
        Located::Nowhere => Ok(Found::Nowhere),
        Located::Held { owner } if Some(owner.as_str()) != own(state) => {
            Ok(Found::Elsewhere(owner))
        }
        Located::Held { .. } => {
            // Held here: being taken over right now (wait for it), or a room this instance
            // could not open (reported when it claimed it).
            let _one = state.takeover.lock().await;
            Ok(state.rooms.get(id).map_or(Found::Nowhere, Found::Here))
        }
        Located::Free => {
            let _one = state.takeover.lock().await;
            if let Some(room) = state.rooms.get(id) {
                return Ok(Found::Here(room));
            }
            if !claim_and_open(state, id, false).await? {
                // Claimed by another instance meanwhile: ask again where it is.
                let db = state.config.database.clone().ok_or("no database")?;
                let room = id.to_string();
                return match blocking(move || db.locate(&room)).await? {
                    Located::Held { owner } => Ok(Found::Elsewhere(owner)),
                    _ => Ok(Found::Nowhere),
                };
            }
            Ok(state.rooms.get(id).map_or(Found::Nowhere, Found::Here))
        }
    }
}

/// This instance's lease owner.
fn own(state: &AppState) -> Option<&str> {
    state.config.database.as_deref().map(|db| db.owner())
}

/// The heartbeat, for as long as the server runs: renews this instance's leases every third
/// of a lease, and takes over the rooms whose lease expired every half lease. An instance that
/// dies has its rooms resumed by another within a lease and a half.
pub(crate) async fn keep_leases(state: AppState) {
    let Some(db) = state.config.database.clone() else {
        return;
    };
    let lease = db.lease();
    let renew_every = (lease / 3).max(Duration::from_millis(100));
    let scan_every = (lease / 2).max(Duration::from_millis(100));
    let mut renew = tokio::time::interval(renew_every);
    let mut scan = tokio::time::interval(scan_every);
    scan.tick().await; // the start has just taken over what it could
    loop {
        tokio::select! {
            _ = renew.tick() => {
                let db = db.clone();
                let renewed = tokio::task::spawn_blocking(move || db.renew().map(|_| ())).await;
                let renewed = renewed.unwrap_or_else(|_| Err(DbError::new("the task failed")));
                // The renewal is a write: a database that cannot take one is reported by
                // GET /v1/health even when no room acts.
                if let Some(journal) = &state.journal {
                    journal.note(renewed.as_ref().map(|_| ()));
                }
                if let Err(e) = renewed {
                    log(format_args!("the leases could not be renewed: {e}"));
                }
            }
            _ = scan.tick() => {
                if state.rooms.saving().is_none() {
                    continue; // shutting down: take nothing over
                }
                let (resumed, found) = take_over(&state, false).await;
                if found > 0 {
                    log(format_args!(
                        "took over {resumed} of {found} rooms whose lease had expired"
                    ));
                }
            }
        }
    }
}

/// Runs a database call on a blocking thread.
async fn blocking<T: Send + 'static>(
    call: impl FnOnce() -> Result<T, crate::db::DbError> + Send + 'static,
) -> Result<T, String> {
    match tokio::task::spawn_blocking(call).await {
        Ok(result) => result.map_err(|e| e.to_string()),
        Err(_) => Err("the database task failed".into()),
    }
}

/// Saves every room into the database as the rooms' tasks end after a shutdown (waiting
/// `within` at most), releasing their leases; the count goes to stderr. A failure is
/// returned, so that the server does not end as if nothing were lost.
pub(crate) async fn save_rooms(state: &AppState, within: Duration) -> Result<(), String> {
    let saved = state.rooms.saved(within).await;
    let Some(db) = state.config.database.clone() else {
        return Ok(());
    };
    if saved.is_empty() {
        return Ok(());
    }
    let count = saved.len();
    match blocking(move || db.save_rooms(&saved)).await {
        Ok(()) => {
            log(format_args!("saved {count} rooms in progress"));
            Ok(())
        }
        Err(e) => Err(format!("{count} rooms in progress not saved: {e}")),
    }
}

/// A line on stderr, as `ddz serve: ...`; a stderr that cannot be written is no reason to
/// stop saving or resuming.
fn log(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "ddz serve: {line}");
}
