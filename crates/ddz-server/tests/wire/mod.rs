//! The `ddz-web/1` wire format, byte for byte: the exact JSON text of every kind of message for
//! seeded rooms, compared line by line with transcripts recorded under `tests/data/` by the
//! server as it was when its messages were still `json!` literals (`web_*.txt`).
//!
//! - `web_room.txt`: rooms driven directly ([`Room`]): every room state for each seat and for
//!   the spectators after every action, every event (start, bid, redeal, landlord, wild, play,
//!   over, connected, ready, auto; `auto` true and false), the requests read from client messages
//!   and the errors for bad ones, refused actions and hints, under points, call-and-rob and
//!   fixed bidding, with one and two wild ranks;
//! - `web_socket.txt`: rooms over WebSocket: `welcome` (a seat and a spectator), `update` (with
//!   the turn clock, resuming after a message, `resync`), `hints`, `error` for bad frames
//!   before and after joining, the refusals that close a connection, `closed`;
//! - `web_http.txt`: the HTTP side: `POST /v1/rooms` created and refused, the JSON errors of
//!   every route, `/v1/health` and `/v1/replay`.
//!
//! Every message is also read back into its type of `ddz_server::wire` and written again, to
//! the same text. Random room ids and seat tokens are written as `ROOM` and `TOKEN0`..`TOKEN2`, a turn
//! clock's milliseconds as `"ms":MS`. `DDZ_RECORD_FIXTURE=1 cargo test -p ddz-server --test
//! wire` writes the transcripts afresh instead of comparing them: only for an intended change
//! of the protocol.

mod http;
mod room;
mod socket;

use crate::common;

use std::fmt::Display;
use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::Request as HttpRequest;
use axum::serve::ListenerExt;
use common::{Client, test_config};
use ddz_core::{Bidding, Card, Rules, move_notation};
use ddz_game::{BySeat, Game, GameRecord, Phase, Seat};
use ddz_server::app;
use ddz_server::room::{Audience, Request, Room, RoomSettings, SeatAction};
use ddz_server::wire::{
    ClientMessage, ErrorBody, Health, NumberedEvent, Refusal, ReplayFailure, ReplayReply,
    RoomCreated, ServerMessage, TableState,
};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// `text` read as a `T` and written again is `text`: the types of `ddz_server::wire` hold
/// every message whole.
fn round_trip<T: Serialize + DeserializeOwned>(text: &str) {
    let value: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
}

/// Labelled lines of message text.
#[derive(Default)]
struct Transcript(Vec<String>);

impl Transcript {
    /// A line: the label, a tab, the text (one line).
    fn line(&mut self, label: impl Display, text: impl AsRef<str>) {
        let (label, text) = (label.to_string(), text.as_ref());
        assert!(
            !label.contains('\n') && !text.contains('\n'),
            "{label}: {text}"
        );
        self.0.push(format!("{label}\t{text}"));
    }

    /// A value as the server writes it: compact JSON.
    fn json(&mut self, label: impl Display, value: &impl Serialize) {
        self.line(label, serde_json::to_string(value).unwrap());
    }

    /// Compares with the recorded transcript `tests/data/{file}` (or records it).
    fn check(self, file: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(file);
        let text = self.0.join("\n") + "\n";
        if std::env::var_os("DDZ_RECORD_FIXTURE").is_some() {
            std::fs::write(&path, &text).unwrap();
            return;
        }
        let recorded =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (i, (was, now)) in recorded.lines().zip(text.lines()).enumerate() {
            assert_eq!(
                now,
                was,
                "{file} line {}: now (left), recorded (right)",
                i + 1
            );
        }
        assert_eq!(
            text.lines().count(),
            recorded.lines().count(),
            "{file}: lines now (left), recorded (right)"
        );
    }
}
