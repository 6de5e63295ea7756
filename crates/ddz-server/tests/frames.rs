//! Oversized frames (issue 20, finding 6): a 70,000-byte frame used to get its error and
//! then a dropped connection (1006) instead of the documented close 1009.

use crate::common;

use common::{Client, create_room, serve, test_config};
use ddz_server::app;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

#[tokio::test]
async fn an_oversized_frame_gets_its_error_then_close_1009() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "greedy", "greedy"]})).await;
    for size in [70_000, 1 << 17, 1 << 20] {
        let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
        c.next_of("update").await.expect("the state");
        c.send_raw(Message::text("x".repeat(size))).await;
        let mut error = None;
        let mut close = None;
        while let Some(frame) = c.ws.next().await {
            match frame.expect("a clean close, not a dropped connection") {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["type"] == "error" {
                        error = Some(v["error"]["message"].as_str().unwrap().to_string());
                    }
                }
                Message::Close(frame) => {
                    close = frame;
                    break;
                }
                _ => {}
            }
        }
        let error = error.expect("an error message");
        assert!(error.contains("Message too long"), "{error}");
        assert_eq!(
            close.expect("a close frame").code,
            CloseCode::Size,
            "{size}"
        );
    }
}

/// A flood of messages (issue 50: a seated client sent 3,000 `auto` toggles in 78 ms, each
/// broadcast to the room, and the broadcasts dropped the slower readers): the flooder gets
/// `too_many_messages` and close 1008; a spectator stays connected and sees the seat leave.
#[tokio::test]
async fn a_flood_of_messages_closes_the_flooder_not_the_others() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"seats": ["human", "greedy", "greedy"], "turn_seconds": 0}),
    )
    .await;
    let (mut flooder, _) = Client::join(&addr, &room, 0, 0).await;
    let mut watcher = Client::connect(&addr, &room).await;
    watcher.send(json!({"type": "watch"})).await;
    assert_eq!(watcher.next().await.unwrap()["type"], "welcome");
    for i in 0..3000 {
        let on = i % 2 == 0;
        // The connection may close mid-flood: stop sending then.
        if flooder
            .ws
            .send(Message::text(
                json!({"type": "auto", "auto": on, "seat": 0}).to_string(),
            ))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut refused = None;
    let mut close = None;
    while let Some(frame) = flooder.ws.next().await {
        match frame {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "error" && v["error"]["code"] == "too_many_messages" {
                    refused = Some(v);
                }
            }
            Ok(Message::Close(c)) => {
                close = c.map(|c| c.code);
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    assert!(refused.is_some(), "the flooder is told why");
    assert_eq!(close, Some(CloseCode::Policy));
    // The spectator is still there: it sees seat 0 leave.
    loop {
        let update = watcher
            .next_of("update")
            .await
            .expect("the spectator stays connected");
        if update["state"]["seats"][0]["connected"] == false {
            break;
        }
    }
}
