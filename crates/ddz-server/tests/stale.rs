//! Stale actions (issue 20, finding 4): a resent earlier `{"type": "pass"}` or play used to
//! be applied to a later turn when it happened to be legal again. Actions now carry the step
//! of the state they answer, and one for another step is refused with the current step.

use crate::common;

use common::{Client, create_room, serve, test_config};
use ddz_server::app;
use serde_json::{Value, json};

/// The first legal action of a state, answering its step.
fn first_action(state: &Value) -> Value {
    let step = &state["step"];
    match state["legal"]["bids"].as_array() {
        Some(bids) => json!({"type": "bid", "bid": bids[0], "step": step}),
        None => json!({"type": "play", "move": state["legal"]["moves"][0], "step": step}),
    }
}

#[tokio::test]
async fn a_resent_earlier_action_is_refused() {
    let app = app(test_config());
    let addr = serve(app.clone()).await;
    let room = create_room(
        &app,
        json!({"seats": ["human", "greedy", "greedy"], "seed": 3, "turn_seconds": 0, "robot_delay_ms": 0}),
    )
    .await;
    let (mut c, _) = Client::join(&addr, &room, 0, 0).await;
    // The pass sent on an earlier following turn, once sent.
    let mut earlier: Option<Value> = None;
    let mut checked_missing = false;
    let mut acted = u64::MAX;
    loop {
        let update = c.next_of("update").await.expect("an update");
        let state = &update["state"];
        let step = state["step"].as_u64().unwrap();
        if state["phase"] == "over" {
            if acted != step {
                acted = step;
                c.send(json!({"type": "next", "step": step})).await;
            }
            continue;
        }
        if state["turn"] != state["you"] || acted == step {
            continue;
        }
        acted = step;
        if !checked_missing {
            checked_missing = true;
            let mut bare = first_action(state);
            bare.as_object_mut().unwrap().remove("step");
            c.send(bare).await;
            let error = c.next_of("error").await.expect("refused");
            assert_eq!(
                error["error"]["message"],
                format!("missing \"step\": send the step of the state this answers (now {step})"),
            );
        }
        let following = state["phase"] == "playing" && !state["last"].is_null();
        match (&earlier, following) {
            (None, true) => {
                let pass = json!({"type": "pass", "step": step});
                // A double tap: the second is refused, naming the step after the first.
                c.send(pass.clone()).await;
                c.send(pass.clone()).await;
                let error = c.next_of("error").await.expect("the second refused");
                assert_eq!(
                    error["error"]["message"],
                    format!(
                        "\"step\": {step} is not the current step {}: the action answers \
                         another state",
                        step + 1
                    ),
                );
                earlier = Some(pass);
            }
            (Some(pass), true) => {
                // The earlier pass, sent again on a later turn where a pass is legal too.
                c.send(pass.clone()).await;
                let error = c.next_of("error").await.expect("refused");
                let text = error["error"]["message"].as_str().unwrap();
                assert!(
                    text.ends_with(&format!(
                        "is not the current step {step}: the action answers another state"
                    )),
                    "{text}"
                );
                // The turn is still ours: the state did not change.
                c.send(json!({"type": "pass", "step": step})).await;
                let update = c.next_of("update").await.expect("the pass applied");
                assert_eq!(update["events"][0]["event"], "play", "{update}");
                assert_eq!(update["events"][0]["seat"], 0, "{update}");
                assert_eq!(update["events"][0]["move"], "pass", "{update}");
                return;
            }
            _ => c.send(first_action(state)).await,
        }
    }
}
