//! The open rooms ([`Rooms`]): each room's command channel, the commands a room's task takes,
//! and the messages sent to its connections.

use crate::db::{PlayerId, SavedRoom};
use crate::room::SeatAction;
use crate::wire::{self, ClientMessage, Refusal, ServerMessage};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use ddz_game::Seat;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// The most spectators a room holds (seated players are not counted: a seat's token always
/// gets in).
pub(crate) const MAX_SPECTATORS: usize = 64;

/// The most connections one seat holds at once; a seat's newest connection closes its oldest
/// beyond this (a seat's token always gets in).
pub(crate) const MAX_SEAT_CONNECTIONS: usize = 4;

/// Messages queued for one connection; a connection that falls further behind is closed.
pub(crate) const OUT_QUEUE: usize = 256;

/// Commands queued for a room.
pub(crate) const ROOM_QUEUE: usize = 1024;

/// A command to a room's task.
pub(crate) enum Cmd {
    /// A connection joins a seat (with its token and, when given, the person's browser
    /// identity) or watches (no token).
    Join {
        token: Option<String>,
        after: Option<u64>,
        player: Option<PlayerId>,
        out: mpsc::Sender<Message>,
        reply: oneshot::Sender<Option<u64>>,
    },
    /// A message of a joined connection.
    Frame { conn: u64, msg: Box<ClientMessage> },
    /// A connection closed.
    Leave { conn: u64 },
    /// A robot's decision, made at `step`.
    Decided {
        step: u64,
        seat: Seat,
        action: SeatAction,
        auto: bool,
    },
    /// Hints computed at `step`.
    Hints { step: u64, moves: Vec<String> },
    /// The server is shutting down: tell every connection and end.
    Shutdown,
}

/// The open rooms.
pub(crate) struct Rooms {
    /// Each open room's command channel, by room id.
    pub(crate) map: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    /// The most rooms open at once.
    pub(crate) max: usize,
    /// Where the rooms' tasks hand their saved state at shutdown: each task holds a clone,
    /// and this one is dropped when the shutdown begins (no room opens after it).
    saving: Mutex<Option<mpsc::UnboundedSender<SavedRoom>>>,
    /// The rooms saved at shutdown, as their tasks end ([`Rooms::saved`]).
    saved: Mutex<Option<mpsc::UnboundedReceiver<SavedRoom>>>,
}

impl Rooms {
    /// No rooms yet; at most `max` at once.
    pub fn new(max: usize) -> Rooms {
        let (saving, saved) = mpsc::unbounded_channel();
        Rooms {
            map: Mutex::new(HashMap::new()),
            max,
            saving: Mutex::new(Some(saving)),
            saved: Mutex::new(Some(saved)),
        }
    }

    /// Where a new room's task saves its state at shutdown; none once the shutdown began.
    pub(crate) fn saving(&self) -> Option<mpsc::UnboundedSender<SavedRoom>> {
        self.saving.lock().ok()?.clone()
    }

    /// The rooms saved at shutdown ([`Rooms::shutdown`]): every room's state, once every
    /// room's task has ended, or those saved within `within`.
    pub async fn saved(&self, within: Duration) -> Vec<SavedRoom> {
        let Some(mut saved) = self.saved.lock().ok().and_then(|mut r| r.take()) else {
            return Vec::new();
        };
        let deadline = Instant::now() + within;
        let mut rooms = Vec::new();
        while let Ok(Some(room)) = tokio::time::timeout_at(deadline, saved.recv()).await {
            rooms.push(room);
        }
        rooms
    }

    /// How many rooms are open.
    pub fn len(&self) -> usize {
        self.map.lock().map_or(0, |m| m.len())
    }

    /// The command channel of a room.
    pub fn get(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
        self.map.lock().ok()?.get(id).cloned()
    }

    /// Tells every room that the server is shutting down: each tells its connections, saves
    /// its state ([`Rooms::saved`]) and ends; no room opens after this.
    pub fn shutdown(&self) {
        // First: a room registered after the list below is taken cannot get a saver.
        if let Ok(mut saving) = self.saving.lock() {
            saving.take();
        }
        let rooms: Vec<mpsc::Sender<Cmd>> = self
            .map
            .lock()
            .map_or(Vec::new(), |m| m.values().cloned().collect());
        for room in rooms {
            if let Err(mpsc::error::TrySendError::Full(cmd)) = room.try_send(Cmd::Shutdown) {
                tokio::spawn(async move { room.send(cmd).await });
            }
        }
    }

    /// Forgets a room (its task ended).
    pub(crate) fn remove(&self, id: &str) {
        if let Ok(mut map) = self.map.lock() {
            map.remove(id);
        }
    }
}

/// A message as a text frame.
pub(crate) fn text(msg: &ServerMessage) -> Message {
    Message::Text(Utf8Bytes::from(wire::to_json(msg)))
}

/// An error message for one connection.
pub(crate) fn error_message(refusal: Refusal) -> Message {
    text(&ServerMessage::Error { error: refusal })
}

/// A close frame.
pub(crate) fn close_message(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from(reason),
    }))
}
