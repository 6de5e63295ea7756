//! JSON answers and request bodies, for every route.

use crate::wire::{self, ErrorBody};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use ddz_protocol::jsonl::{ErrorCode, error_reply};
use serde::Serialize;
use serde_json::Value;

/// A JSON answer with a status.
pub(crate) fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        wire::to_json(body),
    )
        .into_response()
}

/// A JSON error `{"error": message}` with a status.
pub(crate) fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = ErrorBody {
        error: message.into(),
    };
    json_response(status, &body)
}

/// The body of a request, or the JSON error for a body that could not be read (413 when it
/// is longer than [`crate::MAX_BODY`]).
pub(crate) fn read_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, Box<Response>> {
    body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            Box::new(body_too_long())
        } else {
            Box::new(body_not_read(status, &e.body_text()))
        }
    })
}

/// The answer to a body longer than [`crate::MAX_BODY`] (413).
pub(crate) fn body_too_long() -> Response {
    let what = format!(
        "body longer than {} bytes: not read",
        crate::config::MAX_BODY
    );
    json_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &error_reply(&Value::Null, ErrorCode::BodyNotRead, &what),
    )
}

/// The answer to a body that could not be read, and why.
pub(crate) fn body_not_read(status: StatusCode, why: &str) -> Response {
    json_response(
        status,
        &error_reply(
            &Value::Null,
            ErrorCode::BodyNotRead,
            &format!("body not read: {why}"),
        ),
    )
}
