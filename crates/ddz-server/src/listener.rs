//! The server's TCP listener with a cap on the connections one address holds open
//! ([`PeerCapped`]): a connection past the cap is closed as soon as it is accepted, so that
//! idle sockets from one address cannot take every file the process may open and lock
//! everyone out (issue 50: 260 idle sockets did, with 256 open files). Behind a trusted proxy
//! every connection comes from the proxy, and the cap is the proxy's to keep: none here.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

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

impl Listener for PeerCapped {
    type Io = CappedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (CappedStream, SocketAddr) {
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

    fn local_addr(&self) -> io::Result<SocketAddr> {
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

/// The peer's address of a connection accepted by [`PeerCapped`], as the handlers read it
/// (`ConnectInfo<PeerAddr>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

impl Connected<IncomingStream<'_, PeerCapped>> for PeerAddr {
    fn connect_info(stream: IncomingStream<'_, PeerCapped>) -> PeerAddr {
        PeerAddr(*stream.remote_addr())
    }
}
