//! Room exhaustion (issue 20, finding 3): 1,000 `POST /v1/rooms` in 1.5 s used to fill the
//! server for everyone, from any web page (no `Origin` check, `text/plain` accepted). Now
//! each client address has its limits, with `Retry-After`; the `Origin` of POSTs and
//! WebSocket upgrades must be the server's own or an allowed one; JSON bodies need
//! `application/json`.

use crate::common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{Client, create_room, serve, test_config};
use ddz_server::{Config, app};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tower::ServiceExt;

/// The server's default limits, behind a proxy the tests play (`X-Forwarded-For`).
fn config() -> Config {
    let mut config = test_config();
    let defaults = Config::new(config.rules.clone());
    config.rooms_per_minute = defaults.rooms_per_minute;
    config.connections_per_address = defaults.connections_per_address;
    config.trust_forwarded = true;
    config
}

/// POSTs `body` to `/v1/rooms` with these headers: the status, `Retry-After` and the body.
async fn post(
    app: &Router,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Option<String>, Value) {
    post_to(app, "/v1/rooms", headers, body).await
}

/// POSTs `body` to `uri` with these headers: the status, `Retry-After` and the body.
async fn post_to(
    app: &Router,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Option<String>, Value) {
    let mut request = Request::builder().method("POST").uri(uri);
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request = request.header("host", "127.0.0.1:8080");
    }
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let request = request
        .header("content-length", body.len())
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        retry,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

const JSON: (&str, &str) = ("content-type", "application/json");

#[tokio::test]
async fn a_flood_of_rooms_is_limited_per_address() {
    let app = app(config());
    let flooder = ("x-forwarded-for", "10.0.0.1, 203.0.113.7");
    let mut created = 0;
    let mut refused = 0;
    for _ in 0..1000 {
        let (status, retry, body) = post(&app, &[JSON, flooder], "{}").await;
        match status {
            StatusCode::CREATED => created += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                refused += 1;
                let secs: u64 = retry.expect("Retry-After").parse().unwrap();
                assert!((1..=6).contains(&secs), "{secs}");
                let error = body["error"].as_str().unwrap();
                assert!(
                    error.starts_with("too many rooms created from this address"),
                    "{error}"
                );
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!((created, refused), (10, 990));
    // Everyone else still gets rooms.
    let visitor = ("x-forwarded-for", "198.51.100.2");
    let (status, _, body) = post(&app, &[JSON, visitor], "").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

/// Robot requests are limited per address too (issue 50: `/v1/act` had no limit, and a few
/// looping clients took every robot slot).
#[tokio::test]
async fn robot_requests_are_limited_per_address() {
    let mut config = config();
    config.robot_requests_per_minute = 5;
    let app = app(config);
    let act = r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": 7, "seat": 1, "landlord_seat": 0, "role": "landlord_down", "hand": "334555668TTTQAA2R", "cards_left": [19, 17, 17], "history": [[0, "2"]], "last": {"seat": 0, "cards": "2"}, "legal_moves": ["pass", "R"]}"#;
    let flooder = ("x-forwarded-for", "203.0.113.9");
    for _ in 0..5 {
        let (status, _, body) = post_to(&app, "/v1/act?bot=greedy", &[JSON, flooder], act).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    for uri in ["/v1/act?bot=greedy", "/v1/bid", "/v1/analyse"] {
        let (status, retry, body) = post_to(&app, uri, &[JSON, flooder], act).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{uri}: {body}");
        assert!(retry.is_some(), "{uri}: Retry-After");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("too many robot requests from this address (at most 5 a minute)"),
            "{body}"
        );
    }
    let other = ("x-forwarded-for", "203.0.113.10");
    let (status, _, body) = post_to(&app, "/v1/act?bot=greedy", &[JSON, other], act).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn origins_and_content_types_are_checked() {
    let mut config = config();
    config.allowed_origins = vec!["https://ddz.example.com".into()];
    let app = app(config);
    // Another site's page.
    let (status, _, body) = post(&app, &[JSON, ("origin", "https://evil.example")], "{}").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        body["error"],
        "\"Origin\": \"https://evil.example\" is not this server's origin nor one it allows \
         (--allow-origin; a server reached by a host name lists its own origin there)"
    );
    // DNS rebinding (issue 50): a page of evil.example whose name points at this server sends
    // a matching Host; a host name is the server's own only when allowed.
    let (status, _, body) = post(
        &app,
        &[
            JSON,
            ("origin", "http://evil.example"),
            ("host", "evil.example"),
        ],
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    for (host, origin) in [
        ("localhost:8080", "http://localhost:8080"),
        ("[::1]:8080", "http://[::1]:8080"),
        ("192.168.1.5", "http://192.168.1.5"),
        ("ddz.example.com", "https://ddz.example.com"),
    ] {
        let (status, _, body) = post(&app, &[JSON, ("origin", origin), ("host", host)], "{}").await;
        assert_eq!(status, StatusCode::CREATED, "{host} {origin}: {body}");
    }
    let (status, _, _) = post(&app, &[JSON, ("origin", "null")], "{}").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The server's own page, an allowed origin, and a client that is not a browser.
    for origin in [
        Some("http://127.0.0.1:8080"),
        Some("https://ddz.example.com"),
        None,
    ] {
        let mut headers = vec![JSON];
        if let Some(o) = origin {
            headers.push(("origin", o));
        }
        let (status, _, body) = post(&app, &headers, "{}").await;
        assert_eq!(status, StatusCode::CREATED, "{origin:?}: {body}");
    }
    // JSON only as application/json; an empty body needs no type.
    for (kind, sent) in [
        (Some("text/plain"), "not \"text/plain\""),
        (
            Some("application/x-www-form-urlencoded"),
            "not \"application/x-www-form-urlencoded\"",
        ),
        (None, "none was sent"),
    ] {
        let headers: Vec<(&str, &str)> = kind.map(|k| ("content-type", k)).into_iter().collect();
        let (status, _, body) = post(&app, &headers, "{}").await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
        assert_eq!(
            body["error"],
            format!("\"Content-Type\": a JSON body is sent as application/json ({sent})")
        );
    }
    let (status, _, body) = post(
        &app,
        &[("content-type", "application/json; charset=utf-8")],
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, _, body) = post(&app, &[], "").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

#[tokio::test]
async fn websocket_origins_and_connections_per_address() {
    let mut config = test_config();
    config.connections_per_address = 3;
    let app = app(config);
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "greedy", "greedy"]})).await;
    let url = format!("ws://{addr}/v1/rooms/{}/ws", room["room"].as_str().unwrap());
    // Another site's page may not open a room's WebSocket.
    let mut request = url.as_str().into_client_request().unwrap();
    request
        .headers_mut()
        .insert("origin", "https://evil.example".parse().unwrap());
    match connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::FORBIDDEN);
        }
        other => panic!("not refused: {:?}", other.map(|_| ())),
    }
    let mut own = url.as_str().into_client_request().unwrap();
    own.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    let (first, _) = connect_async(own)
        .await
        .expect("the server's own page connects");
    // Three connections from one address; past them 8 more may only join a seat (issue 50:
    // the spectators of a shared address locked its own player out); then 429 until one
    // closes.
    let second = Client::connect(&addr, &room).await;
    let _third = Client::connect(&addr, &room).await;
    let mut watcher = Client::connect(&addr, &room).await;
    watcher.send(json!({"type": "watch"})).await;
    let refused = watcher.next().await.expect("a refusal");
    assert_eq!(refused["error"]["code"], "address_full", "{refused}");
    assert_eq!(watcher.next().await, None, "then closed");
    let mut reserve = Vec::new();
    for _ in 0..7 {
        reserve.push(Client::connect(&addr, &room).await);
    }
    let mut player = Client::connect(&addr, &room).await;
    player
        .send(json!({"type": "join", "token": common::token(&room, 0)}))
        .await;
    assert_eq!(player.next().await.unwrap()["type"], "welcome");
    match connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
            assert_eq!(response.headers()["retry-after"], "1");
        }
        other => panic!("not refused: {:?}", other.map(|_| ())),
    }
    drop(first);
    drop(second);
    // The server notices the closed connections.
    let mut again = None;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        if let Ok((ws, _)) = connect_async(url.as_str()).await {
            again = Some(ws);
            break;
        }
    }
    assert!(again.is_some(), "a closed connection frees its place");
}

/// Idle TCP connections from one address are capped (issue 50: 260 idle sockets took every
/// file the process could open and locked everyone out): past the cap a connection is closed
/// as soon as it is accepted, and another address is still answered at once.
#[tokio::test]
async fn idle_connections_from_one_address_are_capped() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut config = test_config();
    config.tcp_per_address = 5;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ddz_server::serve_until(listener, config, async {
        let _ = stopped.await;
    }));
    let from = |ip: &str| {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{ip}:0").parse().unwrap()).unwrap();
        socket
    };
    let mut idle = Vec::new();
    for _ in 0..5 {
        idle.push(from("127.0.0.1").connect(addr).await.unwrap());
    }
    // The sixth is closed: reading it ends at once.
    let mut sixth = from("127.0.0.1").connect(addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(std::time::Duration::from_secs(2), sixth.read(&mut byte))
        .await
        .expect("closed, not left waiting");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    // Another address is answered within 100 ms.
    let started = std::time::Instant::now();
    let mut other = from("127.0.0.2").connect(addr).await.unwrap();
    other
        .write_all(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut reply = String::new();
    other.read_to_string(&mut reply).await.unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(
        started.elapsed() < std::time::Duration::from_millis(100),
        "{:?}",
        started.elapsed()
    );
    // A connection closed frees its place.
    drop(idle.pop());
    let mut again = None;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        let mut s = from("127.0.0.1").connect(addr).await.unwrap();
        s.write_all(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut text = String::new();
        let _ = s.read_to_string(&mut text).await;
        if text.starts_with("HTTP/1.1 200") {
            again = Some(text);
            break;
        }
    }
    assert!(again.is_some(), "a closed connection frees its place");
    drop(idle);
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

/// Issue 50: one address may have at most half the robots' threads computing its requests
/// (4 clients looping on slow searches made 28 of 30 other requests 503): one more of that
/// address is answered 503 at once, while another address is answered.
#[tokio::test]
async fn one_address_holds_at_most_half_the_robots() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut config = test_config();
    config.robot_time_limit = std::time::Duration::from_secs(20);
    config.robots.push("search:time=3000ms".into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ddz_server::serve_until(listener, config, async {
        let _ = stopped.await;
    }));
    // As the server counts its robots' threads.
    let slots = std::thread::available_parallelism().map_or(2, |n| n.get() * 2);
    let at_once = (slots / 2).max(1);
    let act = r#"{"protocol": "ddz-jsonl/1", "type": "act", "id": 1, "seat": 0, "landlord_seat": 0, "role": "landlord", "hand": "3456789TJQKA2345678", "cards_left": [19, 17, 17], "history": [], "last": null}"#;
    let ask = move |ip: &'static str, bot: &'static str| async move {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{ip}:0").parse().unwrap()).unwrap();
        let mut stream = socket.connect(addr).await.unwrap();
        let request = format!(
            "POST /v1/act?bot={bot} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \
             application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{act}",
            act.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).await.unwrap();
        reply
    };
    let slow: Vec<_> = (0..at_once)
        .map(|_| tokio::spawn(ask("127.0.0.1", "search:time=3000ms")))
        .collect();
    // Time for them to be read and counted, well within their 3 s (a refusal after they
    // ended would be a 200).
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let refused = ask("127.0.0.1", "greedy").await;
    assert!(
        refused.starts_with("HTTP/1.1 503"),
        "{refused}; the slow ones: {:?}",
        futures_util::future::join_all(slow).await
    );
    assert!(
        refused.contains("robot requests of this address are being computed"),
        "{refused}"
    );
    assert!(
        refused.to_ascii_lowercase().contains("retry-after: 1"),
        "{refused}"
    );
    let other = ask("127.0.0.2", "greedy").await;
    assert!(other.starts_with("HTTP/1.1 200"), "{other}");
    for reply in slow {
        let reply = reply.await.unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    }
    // Once they are answered, the address is served again.
    let again = ask("127.0.0.1", "greedy").await;
    assert!(again.starts_with("HTTP/1.1 200"), "{again}");
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}
