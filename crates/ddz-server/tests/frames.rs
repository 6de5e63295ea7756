//! Oversized frames (issue 20, finding 6): a 70,000-byte frame used to get its error and
//! then a dropped connection (1006) instead of the documented close 1009.

use crate::common;

use common::{Client, create_room, serve, test_config};
use ddz_server::app;
use futures_util::StreamExt;
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
