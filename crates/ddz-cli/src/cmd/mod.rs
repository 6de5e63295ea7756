//! The subcommands.

pub mod arena;
pub mod bench;
pub mod bench_bots;
pub mod bot;
pub mod classify;
pub mod compare;
pub mod deal;
pub mod hint;
pub mod moves;
pub mod perft;
pub mod ratings;
pub mod replay;
pub mod serve;
pub mod solve;
pub mod split;
pub mod train;
