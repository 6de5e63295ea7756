//! The command's integration tests as one binary (one link instead of one a file): each
//! module is one file of this directory.

mod common;

mod analyse;
mod arena;
mod bot;
mod bots;
mod botzone;
mod cli;
mod crash;
mod db_faults;
mod exec;
mod instances;
mod perft;
mod play;
mod play_variants;
mod ratings;
mod replay;
mod serve;
mod solve;
