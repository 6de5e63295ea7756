//! `GET /v1/rooms/{id}/ws`: a WebSocket connection to a room. The first message joins a seat
//! (`{"type": "join", "token", "after"}`) or watches (`{"type": "watch", "after"}`); later
//! messages go to the room's task, read as [`ClientMessage`]s. Frames that are not JSON
//! objects are answered here with an error; a message over [`crate::MAX_FRAME`] bytes gets an
//! error and closes the connection (code 1009); a single frame over [`crate::MAX_BODY`] is
//! not read at all (the connection drops).

use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::db::PlayerId;
use crate::http::{json_error, json_response};
use crate::limits::{ClientAddr, ConnectionSlot};
use crate::registry::{Cmd, OUT_QUEUE, close_message, error_message, text};
use crate::resume::Found;
use crate::state::AppState;
use crate::wire::{ClientMessage, Refusal, RoomRefusal, Sent, ServerMessage};

/// How long a new connection has to send its join or watch message.
const JOIN_TIME: Duration = Duration::from_secs(10);

/// The `auto` and `hint` messages a connection may send at once, and then a second: a page
/// sends one now and then; a client that floods (3,000 `auto` toggles in 78 ms, each
/// broadcast to the whole room) is refused and closed, before the room's broadcasts drop its
/// slower readers (issue 50).
const BURST: f64 = 40.0;
const PER_SECOND: f64 = 20.0;

/// A connection's allowance of messages (a token bucket: [`BURST`] at most, refilled at
/// [`PER_SECOND`]).
struct Allowance {
    tokens: f64,
    at: tokio::time::Instant,
}

impl Allowance {
    fn new() -> Allowance {
        Allowance {
            tokens: BURST,
            at: tokio::time::Instant::now(),
        }
    }

    /// Takes one message's worth; false when none is left.
    fn take(&mut self) -> bool {
        let now = tokio::time::Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * PER_SECOND;
        self.tokens = (self.tokens + refill).min(BURST);
        self.at = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

/// Upgrades to a WebSocket connection to room `id` (404 when there is no such room).
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: Option<Extension<ClientAddr>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let room = match crate::resume::find_room(&state, &id).await {
        Ok(Found::Here(room)) => room,
        Ok(Found::Elsewhere(owner)) => return moved(ws, &owner, &id),
        Ok(Found::Nowhere) => {
            return json_error(
                StatusCode::NOT_FOUND,
                format!("no room \"{id}\" (it may have expired)"),
            );
        }
        Err(e) => {
            return json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("room \"{id}\" could not be looked up: {e}"),
            );
        }
    };
    let addr = ClientAddr::of(addr);
    match ws {
        Ok(ws) => {
            let slot = match state.limits.connect(addr) {
                Ok(slot) => slot,
                Err(response) => return *response,
            };
            ws
                // A frame is read whole up to 1 MiB and then refused when over 64 KiB: the
                // client gets the error and the close (1009) rather than a connection reset
                // with its frame left unread.
                .max_message_size(crate::config::MAX_FRAME)
                .max_frame_size(crate::config::MAX_BODY)
                .on_upgrade(move |socket| connection(socket, room, slot))
                .into_response()
        }
        Err(e) => json_error(
            e.status(),
            format!("expected a WebSocket upgrade: {}", e.body_text()),
        ),
    }
}

/// The room is run by the instance that advertises `owner`: a WebSocket gets `moved` with
/// the room's address there and closes (1012); a plain request 421 with it as `"ws"`. An
/// owner that advertises no address cannot be pointed to (503).
fn moved(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    owner: &str,
    id: &str,
) -> Response {
    let Some(base) = websocket_base(owner) else {
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("room \"{id}\" is run by another instance, which advertises no address"),
        );
    };
    let address = format!("{base}/v1/rooms/{id}/ws");
    match ws {
        Ok(ws) => ws
            .on_upgrade(move |mut socket| async move {
                let moved = text(&ServerMessage::Moved { ws: address });
                let _ = socket.send(moved).await;
                let _ = socket.send(close_message(1012, "moved")).await;
            })
            .into_response(),
        Err(_) => {
            let body = serde_json::json!({
                "error": format!("room \"{id}\" is run by another instance: {address}"),
                "ws": address,
            });
            json_response(StatusCode::MISDIRECTED_REQUEST, &body)
        }
    }
}

/// The WebSocket form of an advertised `http://` or `https://` URL (`ws://`, `wss://`).
fn websocket_base(owner: &str) -> Option<String> {
    let base = owner.trim_end_matches('/');
    if let Some(rest) = base.strip_prefix("https://") {
        Some(format!("wss://{rest}"))
    } else {
        base.strip_prefix("http://")
            .map(|rest| format!("ws://{rest}"))
    }
}

/// A frame read as a client message (a JSON object), or the error to answer it with.
fn read_frame(frame: &Message) -> Option<Result<ClientMessage, Refusal>> {
    let not_json = |message: String| Refusal::new(RoomRefusal::NotJson, message);
    match frame {
        Message::Text(t) => Some(match serde_json::from_str::<Value>(t.as_str()) {
            Ok(value @ Value::Object(_)) => {
                serde_json::from_value(value).map_err(|e| not_json(format!("not a message: {e}")))
            }
            Ok(_) => Err(not_json("not a JSON object".into())),
            Err(e) => Err(not_json(format!("not JSON: {e}"))),
        }),
        Message::Binary(_) => Some(Err(Refusal::new(
            RoomRefusal::BadFrame,
            "binary frames are not read: send JSON text",
        ))),
        _ => None,
    }
}

/// What a `join` or `watch` message asks for, checked.
struct Joining {
    /// The seat token, lowercased (none to watch).
    token: Option<String>,
    /// The number of the last message seen.
    after: Option<u64>,
    /// The person's browser identity, when a `join` gives one.
    player: Option<PlayerId>,
}

/// The `join` or `watch` message: the seat token (none to watch), the last message number
/// seen and the browser identity. The fields are checked in that order: `after`, `token`,
/// `player`.
fn read_join(msg: &ClientMessage) -> Result<Joining, Refusal> {
    let after = match msg.after() {
        None => None,
        Some(v) => Some(v.value.ok_or_else(|| {
            Refusal::about(
                RoomRefusal::BadField,
                "after",
                format!("\"after\": {v} is not a message number"),
            )
        })?),
    };
    // A value quoted in a refusal, unless it is long.
    let quoted = |sent: &Sent<String>| {
        if sent.to_string().len() > 80 {
            "the value".to_string()
        } else {
            sent.to_string()
        }
    };
    match msg {
        ClientMessage::Watch(_) => Ok(Joining {
            token: None,
            after,
            player: None,
        }),
        ClientMessage::Join(join) => {
            let token = match &join.token {
                Some(Sent { value: Some(t), .. })
                    if t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()) =>
                {
                    t.to_ascii_lowercase()
                }
                Some(other) => {
                    return Err(Refusal::about(
                        RoomRefusal::BadToken,
                        "token",
                        format!(
                            "\"token\": {} is not a seat token (32 hex digits)",
                            quoted(other)
                        ),
                    ));
                }
                None => return Err(Refusal::missing("token")),
            };
            let player = match &join.player {
                None
                | Some(Sent {
                    json: serde_json::Value::Null,
                    ..
                }) => None,
                Some(sent) => Some(sent.value.as_deref().and_then(PlayerId::parse).ok_or_else(
                    || {
                        Refusal::about(
                            RoomRefusal::BadField,
                            "player",
                            format!(
                                "\"player\": {} is not a browser identity (32 hex digits)",
                                quoted(sent)
                            ),
                        )
                    },
                )?),
            };
            Ok(Joining {
                token: Some(token),
                after,
                player,
            })
        }
        _ => Err(Refusal::new(
            RoomRefusal::JoinFirst,
            "first send {\"type\": \"join\", \"token\"} or {\"type\": \"watch\"}",
        )),
    }
}

/// One connection to a room, counted against its client address (`slot`) until it ends.
async fn connection(socket: WebSocket, room: mpsc::Sender<Cmd>, slot: ConnectionSlot) {
    let (mut sink, mut stream) = socket.split();
    // Messages from the room, and this connection's own answers (errors, the close).
    let (room_tx, mut room_rx) = mpsc::channel::<Message>(OUT_QUEUE);
    let (own_tx, mut own_rx) = mpsc::channel::<Message>(16);
    let writer = tokio::spawn(async move {
        // Once this connection's own channel is done, what the room still sends (a refusal
        // and its close) goes out before the connection closes.
        let mut own_open = true;
        loop {
            let message = tokio::select! {
                biased;
                m = own_rx.recv(), if own_open => match m {
                    Some(m) => Some(m),
                    None => {
                        own_open = false;
                        continue;
                    }
                },
                m = room_rx.recv() => m,
            };
            // The room dropped this connection (or closed): close it.
            let message = message.unwrap_or_else(|| close_message(1000, "closed"));
            let closing = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || closing {
                break;
            }
        }
        let _ = sink.close().await;
    });

    let mut room_tx = Some(room_tx);
    let mut conn = None;
    let mut allowance = Allowance::new();
    let deadline = tokio::time::Instant::now() + JOIN_TIME;
    loop {
        let frame = if conn.is_none() {
            match tokio::time::timeout_at(deadline, stream.next()).await {
                Ok(frame) => frame,
                Err(_) => {
                    let _ = own_tx
                        .send(error_message(Refusal::new(
                            RoomRefusal::JoinTimeout,
                            "no join or watch message within 10 s",
                        )))
                        .await;
                    let _ = own_tx.send(close_message(1008, "no join")).await;
                    break;
                }
            }
        } else {
            stream.next().await
        };
        let frame = match frame {
            None | Some(Ok(Message::Close(_))) => break,
            Some(Ok(frame)) => frame,
            Some(Err(e)) => {
                let _ = own_tx
                    .send(error_message(Refusal::new(
                        RoomRefusal::BadFrame,
                        format!("frame refused: {e}"),
                    )))
                    .await;
                let _ = own_tx.send(close_message(1009, "frame refused")).await;
                break;
            }
        };
        let msg = match read_frame(&frame) {
            None => continue,
            Some(Err(e)) => {
                let _ = own_tx.send(error_message(e)).await;
                continue;
            }
            Some(Ok(msg)) => msg,
        };
        // `auto` and `hint` may be sent at will and each makes work for the whole room (a
        // broadcast, a robot's search): they are counted. A turn's action needs the turn, so
        // the game itself paces those.
        if matches!(msg.kind(), Some("auto" | "hint")) && !allowance.take() {
            let _ = own_tx
                .send(error_message(Refusal::new(
                    RoomRefusal::TooManyMessages,
                    format!(
                        "more than {BURST} auto or hint messages at once or {PER_SECOND} a \
                         second: the connection closes"
                    ),
                )))
                .await;
            let _ = own_tx.send(close_message(1008, "too many messages")).await;
            break;
        }
        match conn {
            Some(c) => {
                let cmd = Cmd::Frame {
                    conn: c,
                    msg: Box::new(msg),
                };
                if room.send(cmd).await.is_err() {
                    break;
                }
            }
            None => match read_join(&msg) {
                Err(e) => {
                    let _ = own_tx.send(error_message(e)).await;
                }
                Ok(Joining { token: None, .. }) if slot.seat_only => {
                    let _ = own_tx
                        .send(error_message(Refusal::new(
                            RoomRefusal::AddressFull,
                            "this address has all the connections it may watch with; beyond \
                             them a connection only joins a seat with its token",
                        )))
                        .await;
                    let _ = own_tx.send(close_message(1008, "refused")).await;
                    break;
                }
                Ok(Joining {
                    token,
                    after,
                    player,
                }) => {
                    let Some(out) = room_tx.take() else { break };
                    let (reply, joined) = oneshot::channel();
                    let cmd = Cmd::Join {
                        token,
                        after,
                        player,
                        out,
                        reply,
                    };
                    if room.send(cmd).await.is_err() {
                        break;
                    }
                    match joined.await {
                        Ok(Some(c)) => conn = Some(c),
                        // Refused: the room sent why and closes the connection.
                        _ => break,
                    }
                }
            },
        }
    }
    if let Some(c) = conn {
        let _ = room.send(Cmd::Leave { conn: c }).await;
    }
    drop(room_tx);
    drop(own_tx);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}
