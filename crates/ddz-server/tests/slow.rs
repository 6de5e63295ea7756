//! Issue 50: slow and malformed clients. A connection that does not send a request's head in
//! time is closed (100 slow connections held the server 45 s each), a body that does not
//! arrive in time is answered 408, and every error answer is JSON, whatever made it.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::test_config;

/// A server with a 500 ms head time and a 500 ms body time; its address and its stop.
async fn start() -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let mut config = test_config();
    config.header_time = Duration::from_millis(500);
    config.body_time = Duration::from_millis(500);
    config.tcp_per_address = 1000;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ddz_server::serve_until(listener, config, async {
        let _ = stopped.await;
    }));
    (addr, stop, server)
}

/// Sends `raw` and reads the answer until the server closes (at most 5 s): the status line's
/// code, the headers and the body.
async fn exchange(addr: std::net::SocketAddr, raw: &[u8]) -> (u16, String, String) {
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket.write_all(raw).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, head.to_string(), body.to_string())
}

#[tokio::test]
async fn slow_heads_are_closed_in_time() {
    let (addr, stop, server) = start().await;
    // 100 connections that send half a head, and never the rest.
    let mut slow = Vec::new();
    for _ in 0..100 {
        let mut socket = TcpStream::connect(addr).await.unwrap();
        socket
            .write_all(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(socket);
    }
    let started = Instant::now();
    // A prompt client is answered meanwhile.
    let (code, _, body) = exchange(
        addr,
        b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(code, 200, "{body}");
    // Every slow one is closed by the server within its head time (and a margin).
    for socket in &mut slow {
        let mut byte = [0u8; 512];
        // Closed (a read of 0, a reset) or answered and closed: not left waiting.
        tokio::time::timeout(Duration::from_secs(3), socket.read(&mut byte))
            .await
            .expect("closed by the server, not left open")
            .ok();
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // A connection that sends nothing at all is closed too.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(3), silent.read(&mut byte)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "{read:?}");
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_slow_body_is_answered_408_in_json() {
    let (addr, stop, server) = start().await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(
            b"POST /v1/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\nConnection: close\r\n\r\n{\"protocol\"",
        )
        .await
        .unwrap();
    let started = Instant::now();
    let mut answer = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(3));
    let body: Value = serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(body["error"], "body not read: not sent within 500 ms");
    assert_eq!(body["code"], "body_not_read");
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

#[tokio::test]
async fn errors_made_outside_the_routes_are_json() {
    let (addr, stop, server) = start().await;
    // A path that is not UTF-8: the path extractor's own answer, as JSON.
    for path in [
        "/v1/games/%FF",
        "/v1/rooms/%FF/ws",
        "/v1/players/%C3/results",
    ] {
        let raw = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        let (code, head, body) = exchange(addr, raw.as_bytes()).await;
        assert_eq!(code, 400, "{path}: {head}");
        assert!(
            head.contains("content-type: application/json"),
            "{path}: {head}"
        );
        let body: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            body["error"].as_str().unwrap().contains("UTF-8"),
            "{path}: {body}"
        );
    }
    // Too many header fields, or too many bytes of them: 431 in JSON (hyper's own 431, at
    // 100 fields, had no body).
    let many: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    let long = format!("X-Long: {}\r\n", "a".repeat(40 * 1024));
    for (what, extra) in [("200 fields", many), ("40 KiB", long)] {
        let raw = format!(
            "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n"
        );
        let (code, head, body) = exchange(addr, raw.as_bytes()).await;
        assert_eq!(code, 431, "{what}: {head}");
        let body: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("request headers: "),
            "{what}: {body}"
        );
    }
    // A body past the limit: 413 in JSON, as before the body was read here.
    let big = "x".repeat(ddz_server::MAX_BODY + 10);
    let raw = format!(
        "POST /v1/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{big}",
        big.len()
    );
    let (code, _, body) = exchange(addr, raw.as_bytes()).await;
    assert_eq!(code, 413, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["code"], "body_not_read");
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}
