//! The rooms' write-ahead journal: every action a room accepts is committed to the database
//! ([`RoomWrite`]) before any client is told of it, so that a crash of the server (SIGKILL,
//! out of memory, a power cut) loses nothing a client saw. One thread writes; the writes of
//! rooms that act at once are committed together in one transaction (a group commit), so the
//! cost of a sync is shared, and each room waits only for the commit of its own write.
//!
//! Every write is fenced by the room's lease (`crate::db`): a room whose lease another
//! instance took is refused ([`DbError::is_lease_lost`]).
//!
//! ```
//! use std::sync::Arc;
//! use ddz_server::db::{Database, RoomWrite};
//! use ddz_server::journal::Journal;
//!
//! let db = Arc::new(Database::in_memory().unwrap());
//! let journal = Journal::start(db.clone());
//! let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
//! let epoch = db.claim("r1", false).unwrap().expect("nobody holds r1");
//! // Closing a room that has no row is a write like any other.
//! runtime.block_on(journal.commit(epoch, RoomWrite::Close("r1".into()))).unwrap();
//! assert!(db.open_rooms().unwrap().is_empty());
//! // Its lease went with it: a write under it is refused.
//! let refused = runtime.block_on(journal.commit(epoch, RoomWrite::Close("r1".into())));
//! assert!(refused.unwrap_err().is_lease_lost());
//! ```

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::db::{Database, DbError, LeasedWrite, RoomWrite};

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// A write waiting for its commit, and who waits for it.
struct Pending {
    write: LeasedWrite,
    done: oneshot::Sender<Result<(), DbError>>,
}

/// The journal's writer: a thread that commits the rooms' writes, several at a time.
pub struct Journal {
    queue: mpsc::Sender<Pending>,
    /// The latest write that failed: when, and why ([`Journal::failing`]).
    failing: Arc<Mutex<Option<(Instant, String)>>>,
}

/// How long a failed write keeps the database reported as failing: a disk nearly full takes
/// small writes and refuses large ones, and a health check must not flicker with them.
pub const FAILING_FOR: Duration = Duration::from_secs(30);

impl std::fmt::Debug for Journal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Journal")
    }
}

impl Journal {
    /// Starts the writer thread on `db`; it ends when the journal is dropped.
    pub fn start(db: Arc<Database>) -> Journal {
        let (queue, writes) = mpsc::channel::<Pending>();
        let failing = Arc::new(Mutex::new(None));
        let noted = failing.clone();
        std::thread::Builder::new()
            .name("ddz-journal".into())
            .spawn(move || {
                while let Ok(first) = writes.recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match writes.try_recv() {
                            Ok(next) => batch.push(next),
                            Err(_) => break,
                        }
                    }
                    commit_batch(&db, batch, &noted);
                }
            })
            .expect("the journal's thread starts");
        Journal { queue, failing }
    }

    /// Why a write of the database failed (a commit, a claim, or the leases' heartbeat), when
    /// one did within the last [`FAILING_FOR`]: what `GET /v1/health` reports.
    pub fn failing(&self) -> Option<String> {
        let failing = self.failing.lock().ok()?;
        let (at, why) = failing.as_ref()?;
        let ago = at.elapsed();
        (ago < FAILING_FOR).then(|| format!("{why} ({} s ago)", ago.as_secs()))
    }

    /// Notes the outcome of a write made outside the journal (a claim, the heartbeat).
    pub fn note(&self, outcome: Result<(), &DbError>) {
        note(&self.failing, outcome);
    }

    /// Commits `write` under the room's lease at `epoch`; returns once it is in the database
    /// (an error says why it is not: then nothing of it was written).
    pub async fn commit(&self, epoch: u64, write: RoomWrite) -> Result<(), DbError> {
        let stopped = || DbError::new("the journal has stopped");
        let (done, committed) = oneshot::channel();
        let write = LeasedWrite { epoch, write };
        self.queue
            .send(Pending { write, done })
            .map_err(|_| stopped())?;
        committed.await.map_err(|_| stopped())?
    }
}

/// Keeps the latest failed write (a lost lease is not the database failing).
fn note(failing: &Mutex<Option<(Instant, String)>>, outcome: Result<(), &DbError>) {
    if let Err(e) = outcome
        && !e.is_lease_lost()
        && let Ok(mut failing) = failing.lock()
    {
        *failing = Some((Instant::now(), e.to_string()));
    }
}

/// Commits a batch in one transaction; when that fails, each write alone, so that one write
/// the database refuses does not fail the rooms written with it.
fn commit_batch(db: &Database, batch: Vec<Pending>, failing: &Mutex<Option<(Instant, String)>>) {
    let result = db.commit(batch.iter().map(|p| &p.write));
    note(failing, result.as_ref().map(|_| ()));
    match result {
        Ok(()) => {
            for pending in batch {
                let _ = pending.done.send(Ok(()));
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(pending) = batch.into_iter().next() {
                let _ = pending.done.send(Err(e));
            }
        }
        Err(_) => {
            for pending in batch {
                let result = db.commit([&pending.write]);
                note(failing, result.as_ref().map(|_| ()));
                let _ = pending.done.send(result);
            }
        }
    }
}
