//! Robot deadlines under load (issue 20, finding 5): with 8 concurrent `search` requests,
//! requests that waited for a robot used to get the whole time limit after their wait, and
//! were answered after the limit. The deadline now runs from the request's arrival: every
//! 200 comes within the limit, and a request that cannot be answered in time gets 503 with
//! `Retry-After`, without waiting out the limit.

use crate::common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use common::test_config;
use http_body_util::BodyExt;
use tower::ServiceExt;

/// A position where the search robot has real choices (the first act request recorded).
const ACT: &str = r#"{"protocol":"ddz-jsonl/1","type":"act","id":2,"rules":"classic","laizi":[],"seat":0,"landlord_seat":2,"role":"landlord_down","hand":"345577789TTTQQQKA","cards_left":[17,17,19],"played":["","","4"],"bottom_cards_unplayed":"8T","history":[[2,"4"]],"last":{"seat":2,"cards":"4"},"multiplier":1,"base":3,"legal_moves":["5","7","8","9","T","Q","K","A","pass"]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_within_the_limit_from_arrival() {
    let limit = Duration::from_millis(1000);
    let mut config = test_config();
    config.robot_time_limit = limit;
    let app = ddz_server::app(config);
    // More requests than robots run at once (twice the cores).
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let count = (4 * cores).max(8);
    let mut tasks = Vec::new();
    for _ in 0..count {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let request = Request::builder()
                .method("POST")
                .uri("/v1/act?bot=search")
                .header("content-type", "application/json")
                .body(Body::from(ACT))
                .unwrap();
            let response = app.oneshot(request).await.unwrap();
            let status = response.status().as_u16();
            let retry = response.headers().get("retry-after").cloned();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (
                status,
                retry,
                sent.elapsed(),
                String::from_utf8_lossy(&body).to_string(),
            )
        }));
    }
    let mut answered = 0;
    for task in tasks {
        let (status, retry, took, body) = task.await.unwrap();
        match status {
            200 => {
                answered += 1;
                // A little room for the scheduling of the test itself.
                assert!(
                    took <= limit + Duration::from_millis(50),
                    "200 after {took:?}: {body}"
                );
            }
            503 => {
                assert_eq!(retry.expect("Retry-After"), "1", "{body}");
                assert!(
                    took <= limit + Duration::from_millis(50),
                    "503 after {took:?}: {body}"
                );
            }
            other => panic!("{other} after {took:?}: {body}"),
        }
    }
    assert!(answered >= cores, "only {answered} of {count} answered");
}
