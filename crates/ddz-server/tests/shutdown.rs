//! Graceful shutdown (issue 20, finding 7): a signal used to leave clients with a dropped
//! connection (1006) and no `closed` message. Now every connection of every room gets
//! `closed` ("server shutting down") and a close frame, and the server returns.

use crate::common;

use std::time::{Duration, Instant};

use common::{Client, test_config};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// `POST /v1/rooms` over TCP: the reply's body.
async fn create_room(addr: &str, body: &str) -> Value {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /v1/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut reply = String::new();
    tcp.read_to_string(&mut reply).await.unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 201"), "{reply}");
    serde_json::from_str(body).unwrap()
}

#[tokio::test]
async fn every_connection_is_told_and_the_server_returns() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ddz_server::serve_until(listener, test_config(), async {
        let _ = stopped.await;
    }));
    let body = json!({"seats": ["human", "human", "greedy"], "turn_seconds": 0}).to_string();
    let room = create_room(&addr, &body).await;
    let (mut player, _) = Client::join(&addr, &room, 0, 0).await;
    player.next_of("update").await.expect("the state");
    let mut watcher = Client::connect(&addr, &room).await;
    watcher.send(json!({"type": "watch"})).await;
    watcher.next_of("update").await.expect("the state");

    let signalled = Instant::now();
    stop.send(()).unwrap();
    for client in [&mut player, &mut watcher] {
        let closed = client.next_of("closed").await.expect("a closed message");
        assert_eq!(closed["reason"], "server shutting down");
        let mut code = None;
        while let Some(frame) = client.ws.next().await {
            if let Ok(Message::Close(frame)) = frame {
                code = frame.map(|f| f.code);
                break;
            }
        }
        assert_eq!(code, Some(CloseCode::Away));
    }
    let result = tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the server returns")
        .unwrap();
    assert!(result.is_ok(), "{result:?}");
    assert!(
        signalled.elapsed() < Duration::from_secs(5),
        "{:?}",
        signalled.elapsed()
    );
    // No longer accepting.
    assert!(tokio::net::TcpStream::connect(&addr).await.is_err());
}
