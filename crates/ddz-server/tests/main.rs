//! The server's integration tests as one binary (one link of tokio, axum and the server
//! instead of one a file): each module is one file of this directory.

mod common;

mod auto_play;
mod deadlines;
mod deals;
mod frames;
mod games;
mod http;
mod leases;
mod limits;
mod no_leaks;
mod resume;
mod robot_api;
mod rooms;
mod seats;
mod shutdown;
mod slow;
mod stale;
mod wire;
