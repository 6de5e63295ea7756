//! The subcommands.

pub mod bench;
pub mod classify;
pub mod compare;
pub mod deal;
pub mod moves;
pub mod perft;
pub mod replay;
