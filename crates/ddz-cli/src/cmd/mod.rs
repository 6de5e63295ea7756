//! The subcommands.

pub mod analyse;
pub mod arena;
pub mod arena_table;
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
mod replay_table;
pub mod serve;
pub mod solve;
pub mod split;
pub mod train;
