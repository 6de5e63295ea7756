//! Seats are reserved (issue 20, finding 2): 64 spectators used to fill a room's connection
//! limit and lock the seated player out of their own seat. Spectators now have a limit of
//! their own, and a seat's token always gets in.

use crate::common;

use common::{Client, create_room, serve, test_config};
use ddz_server::app;
use serde_json::json;

#[tokio::test]
async fn a_seat_gets_back_in_whatever_the_spectators() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(&app, json!({"seats": ["human", "greedy", "greedy"]})).await;
    let mut watchers = Vec::new();
    for _ in 0..64 {
        let mut w = Client::connect(&addr, &room).await;
        w.send(json!({"type": "watch"})).await;
        let welcome = w.next().await.expect("a welcome");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        assert!(welcome["seat"].is_null());
        watchers.push(w);
    }
    // The 65th spectator is refused...
    let mut extra = Client::connect(&addr, &room).await;
    extra.send(json!({"type": "watch"})).await;
    let refused = extra.next().await.expect("an error");
    assert_eq!(refused["type"], "error", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("64 spectators"),
        "{refused}"
    );
    assert!(extra.next().await.is_none(), "the connection closes");
    // ...and the player still joins their seat, again and again.
    let mut seats = Vec::new();
    for _ in 0..6 {
        let (mut c, welcome) = Client::join(&addr, &room, 0, 0).await;
        assert_eq!(welcome["seat"], 0, "{welcome}");
        let update = c.next_of("update").await.expect("the state");
        assert_eq!(update["state"]["you"], 0);
        seats.push(c);
    }
    // A seat holds four connections: the two oldest were closed for the newest.
    for old in &mut seats[..2] {
        let error = old.next_of("error").await.expect("why it closes");
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("joined again"),
            "{error}"
        );
    }
}
