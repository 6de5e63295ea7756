//! Helpers shared by the server's tests: an in-process app to call, a server on a loopback
//! port, WebSocket clients.

#![allow(dead_code)]

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use ddz_core::Rules;
use ddz_server::Config;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};
use tower::ServiceExt;

/// A config for tests: classic rules, robots act at once, no turn timer, client seeds in
/// every room (so that games with several people are reproducible), no limits per address
/// that the tests would reach.
pub fn test_config() -> Config {
    let mut config = Config::new(Rules::classic());
    config.robot_delay = Duration::ZERO;
    config.turn_time = Duration::ZERO;
    config.seeds_for_any_room = true;
    config.rooms_per_minute = 100_000;
    config.robot_requests_per_minute = 1_000_000;
    config.connections_per_address = 100_000;
    config
}

/// Calls the app once: the status, the content type and the body (JSON when it parses, else
/// the text as a JSON string).
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    body: impl Into<Body>,
) -> (StatusCode, String, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.into())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, content_type, value)
}

/// A server on a free loopback port, serving `app`; its address.
pub async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    addr.to_string()
}

/// Creates a room; the reply of `POST /v1/rooms`.
pub async fn create_room(app: &Router, body: Value) -> Value {
    let (status, _, reply) = call(app, "POST", "/v1/rooms", body.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{reply}");
    reply
}

/// The token of a seat in a room's creation reply.
pub fn token(room: &Value, seat: usize) -> String {
    room["seats"][seat]["token"].as_str().unwrap().to_string()
}

/// A WebSocket client.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects to a room's WebSocket.
    pub async fn connect(addr: &str, room: &Value) -> Client {
        let url = format!("ws://{addr}/v1/rooms/{}/ws", room["room"].as_str().unwrap());
        let (ws, _) = connect_async(url).await.unwrap();
        Client { ws }
    }

    /// Connects and joins a seat (after message `after`); returns the welcome message.
    pub async fn join(addr: &str, room: &Value, seat: usize, after: u64) -> (Client, Value) {
        let mut c = Client::connect(addr, room).await;
        c.send(json!({"type": "join", "token": token(room, seat), "after": after}))
            .await;
        let welcome = c.next().await.expect("a welcome message");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        (c, welcome)
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    /// Sends a raw frame.
    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.unwrap();
    }

    /// The next JSON message (None when the connection closed), within 10 s.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("a message within 10 s");
            match frame {
                Some(Ok(Message::Text(t))) => {
                    return Some(serde_json::from_str(t.as_str()).unwrap());
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// The next message of a type, skipping others (None when closed).
    pub async fn next_of(&mut self, kind: &str) -> Option<Value> {
        loop {
            let m = self.next().await?;
            if m["type"] == kind {
                return Some(m);
            }
        }
    }
}
