//! The subcommands.

pub mod bench;
pub mod classify;
pub mod compare;
pub mod moves;
