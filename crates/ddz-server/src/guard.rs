//! The check in front of every route: the `Origin` of POSTs and WebSocket upgrades, the
//! content type of POST bodies, the time a body may take to arrive, and the client address
//! the limits count against (docs/web.md, "Security model"); and behind every route, an error
//! answered in JSON whatever made it.

use crate::http::{body_not_read, body_too_long, json_error};
use crate::limits::ClientAddr;
use crate::listener::PeerAddr;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, Ipv6Addr};

/// The address a request counts against: the peer's, or the last of `X-Forwarded-For` when
/// the server trusts its proxy; IPv6 addresses by their /64.
fn client_addr(request: &Request, trust_forwarded: bool) -> ClientAddr {
    let forwarded = trust_forwarded
        .then(|| request.headers().get("x-forwarded-for"))
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|last| last.trim().parse::<IpAddr>().ok());
    let peer = request
        .extensions()
        .get::<ConnectInfo<PeerAddr>>()
        .map(|c| c.0.0.ip());
    ClientAddr(forwarded.or(peer).map(|ip| match ip {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }))
}

/// Whether `authority` (`host[:port]`) names a host that no DNS answer can move: an IP
/// address or `localhost`. A page of `http://evil.example` whose name an attacker points at
/// this server (DNS rebinding) sends `Host: evil.example` and a matching `Origin`: a host
/// name is the server's own only when `--allow-origin` says so.
fn fixed_host(authority: &str) -> bool {
    let host = match authority.strip_prefix('[') {
        // [v6]:port
        Some(rest) => {
            return rest
                .split(']')
                .next()
                .is_some_and(|h| h.parse::<Ipv6Addr>().is_ok());
        }
        None => authority.rsplit_once(':').map_or(authority, |(h, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                h
            } else {
                authority
            }
        }),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok()
}

/// Whether `origin` is the server's own (the request's `Host` when it is an IP address or
/// `localhost`, or `X-Forwarded-Host` when the server trusts its proxy) or one of the allowed
/// origins.
fn origin_allowed(headers: &HeaderMap, origin: &str, state: &AppState) -> bool {
    let origin = origin.trim_end_matches('/');
    if state
        .config
        .allowed_origins
        .iter()
        .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some((_, authority)) = origin.split_once("://") else {
        return false;
    };
    let host = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let hosts = [
        host("host").filter(|h| fixed_host(h.trim())),
        state
            .config
            .trust_forwarded
            .then(|| host("x-forwarded-host"))
            .flatten(),
    ];
    hosts
        .into_iter()
        .flatten()
        .any(|h| h.trim().eq_ignore_ascii_case(authority))
}

/// Checks every request before its route: the `Origin` of POSTs and WebSocket upgrades (403),
/// the content type of POST bodies (415), and records the client address for the limits.
pub(crate) async fn guard(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let addr = client_addr(&request, state.config.trust_forwarded);
    request.extensions_mut().insert(addr);
    let headers = request.headers();
    let header_bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if headers.len() > MAX_HEADERS || header_bytes > MAX_HEADER_BYTES {
        return json_error(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "request headers: {} fields of {header_bytes} bytes (at most {MAX_HEADERS} \
                 fields of {MAX_HEADER_BYTES} bytes)",
                headers.len()
            ),
        );
    }
    let upgrade = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let post = request.method() == Method::POST;
    if (post || upgrade)
        && let Some(origin) = headers.get(header::ORIGIN)
    {
        let origin = origin.to_str().unwrap_or("");
        if !origin_allowed(headers, origin, &state) {
            let shown: String = origin.chars().take(100).collect();
            return json_error(
                StatusCode::FORBIDDEN,
                format!(
                    "\"Origin\": \"{shown}\" is not this server's origin nor one it allows \
                     (--allow-origin; a server reached by a host name lists its own origin \
                     there)"
                ),
            );
        }
    }
    if post {
        // HTTP/1.1: a body has a length other than 0, or is chunked.
        let has_body = headers.contains_key(header::TRANSFER_ENCODING)
            || headers
                .get(header::CONTENT_LENGTH)
                .is_some_and(|v| v.to_str().map_or(true, |v| v.trim() != "0"));
        let media = headers
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("?"))
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            });
        if has_body && media.as_deref() != Some("application/json") {
            let sent = match media {
                Some(m) => format!("not \"{}\"", m.chars().take(100).collect::<String>()),
                None => "none was sent".to_string(),
            };
            return json_error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!("\"Content-Type\": a JSON body is sent as application/json ({sent})"),
            );
        }
        // The whole body within its time (issue 50: a body sent a byte at a time held its
        // connection for as long as the client liked).
        let (parts, body) = request.into_parts();
        let read = axum::body::to_bytes(body, crate::config::MAX_BODY + 1);
        let within = state.config.body_time;
        let bytes = match tokio::time::timeout(within, read).await {
            Ok(Ok(bytes)) if bytes.len() > crate::config::MAX_BODY => return body_too_long(),
            Ok(Ok(bytes)) => bytes,
            Ok(Err(e)) if length_limit(&e) => return body_too_long(),
            Ok(Err(e)) => return body_not_read(StatusCode::BAD_REQUEST, &e.to_string()),
            Err(_) => {
                return body_not_read(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!("not sent within {} ms", within.as_millis()),
                );
            }
        };
        request = Request::from_parts(parts, Body::from(bytes));
    }
    in_json(next.run(request).await).await
}

/// The most header fields a request may have (then 431).
pub(crate) const MAX_HEADERS: usize = 100;

/// The most bytes a request's header fields may take, names and values (then 431).
pub(crate) const MAX_HEADER_BYTES: usize = 32 * 1024;

/// Whether reading a body failed on its length limit.
fn length_limit(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// An error answer in JSON: one that a route or an extractor made as text (a path that is
/// not UTF-8, say) becomes `{"error": "<its text>"}` with the same status.
async fn in_json(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, crate::config::MAX_BODY).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).into_owned(),
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    let mut answer = json_error(status, text);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}
