//! The server's TCP listener with a cap on the connections one address holds open
//! ([`PeerCapped`]): a connection past the cap is closed as soon as it is accepted, so that
//! idle sockets from one address cannot take every file the process may open and lock
//! everyone out (issue 50: 260 idle sockets did, with 256 open files). Behind a trusted proxy
//! every connection comes from the proxy, and the cap is the proxy's to keep: none here.
//!
//! Its connections are served here too ([`serve`]): HTTP/1.1 with upgrades (the rooms'
//! WebSockets), a client given a time to send a request's head (`Config::header_time`;
//! issue 50: 100 slow connections held the server 45 s each), and a graceful end on the
//! shutdown signal. A WebSocket, once upgraded, is the room's to time (its join time, its
//! turn timer).

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// The connections open from each address.
type OpenCounts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A TCP listener that closes, on accepting it, a connection from an address that already
/// holds `per_address` open (none: no cap).
pub struct PeerCapped {
    inner: TcpListener,
    open: OpenCounts,
    per_address: Option<usize>,
}

impl PeerCapped {
    /// `inner`, capped at `per_address` connections a client address (none: no cap).
    pub fn new(inner: TcpListener, per_address: Option<usize>) -> PeerCapped {
        PeerCapped {
            inner,
            open: Arc::new(Mutex::new(HashMap::new())),
            per_address,
        }
    }
}

/// An accepted connection, counted against its address until dropped.
pub struct CappedStream {
    stream: TcpStream,
    counted: Option<(OpenCounts, IpAddr)>,
}

impl Drop for CappedStream {
    fn drop(&mut self) {
        if let Some((open, ip)) = self.counted.take()
            && let Ok(mut map) = open.lock()
            && let Some(n) = map.get_mut(&ip)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&ip);
            }
        }
    }
}

impl PeerCapped {
    /// The next connection admitted, and its peer's address.
    pub async fn accept(&mut self) -> (CappedStream, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                // Out of files, or a connection reset before it was taken: wait a little
                // and go on (as axum's own listener does).
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let Some(cap) = self.per_address else {
                return (
                    CappedStream {
                        stream,
                        counted: None,
                    },
                    addr,
                );
            };
            let ip = addr.ip();
            let admitted = match self.open.lock() {
                Ok(mut map) => {
                    let n = map.entry(ip).or_insert(0);
                    let room = *n < cap;
                    if room {
                        *n += 1;
                    }
                    room
                }
                Err(_) => true,
            };
            if !admitted {
                // Closed at once: the address holds all it may.
                drop(stream);
                continue;
            }
            return (
                CappedStream {
                    stream,
                    counted: Some((self.open.clone(), ip)),
                },
                addr,
            );
        }
    }

    /// The address listened on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for CappedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for CappedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The most header fields hyper parses (more: its own 431, with no body).
const HYPER_MAX_HEADERS: usize = 1000;

/// The peer's address of a connection accepted by [`PeerCapped`], as the handlers read it
/// (`ConnectInfo<PeerAddr>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// Serves `router` on the connections of `listener` until `shutdown` completes; then stops
/// accepting, asks every connection to close once its request is answered, and returns once
/// they all have (the caller bounds the wait). A connection that does not send a request's
/// whole head within `header_time` is closed. Each request carries its connection's
/// `ConnectInfo<PeerAddr>`.
pub async fn serve(
    mut listener: PeerCapped,
    router: Router,
    header_time: Duration,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        while connections.try_join_next().is_some() {}
        let router = router.clone();
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    request.extensions_mut().insert(ConnectInfo(PeerAddr(peer)));
                    router.clone().oneshot(request.map(Body::new))
                });
            let mut http = hyper::server::conn::http1::Builder::new();
            // Room for more header fields than the guard allows (crate::guard::MAX_HEADERS), so
            // that the guard's JSON 431 answers them, not hyper's empty one.
            http.timer(TokioTimer::new())
                .header_read_timeout(header_time)
                .max_headers(HYPER_MAX_HEADERS);
            let connection = http
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopping.wait_for(|stop| *stop) => connection.as_mut().graceful_shutdown(),
            }
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = stop.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}
