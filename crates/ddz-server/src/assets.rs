//! The page and the OpenAPI document, embedded in the binary.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page: plain HTML, no build step.
pub(crate) const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script.
pub(crate) const APP_JS: &str = include_str!("../assets/app.js");
/// The page's style sheet.
pub(crate) const STYLE_CSS: &str = include_str!("../assets/style.css");
/// The page's icon.
pub(crate) const ICON_SVG: &str = include_str!("../assets/favicon.svg");
/// The OpenAPI 3.1 document of the HTTP API.
pub(crate) const OPENAPI_JSON: &str = include_str!("../assets/openapi.json");

/// The page's own files may load only from this server (and connect to its WebSockets).
const CSP: &str = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; \
                   style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'; \
                   frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, CSP),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub(crate) async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub(crate) async fn script() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub(crate) async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// `GET /favicon.svg`.
pub(crate) async fn icon() -> Response {
    asset("image/svg+xml", ICON_SVG)
}

/// `GET /openapi.json`.
pub(crate) async fn openapi() -> Response {
    asset("application/json", OPENAPI_JSON)
}
