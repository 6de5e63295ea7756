//! The crate's integration tests as one binary (one link instead of one a file): each
//! module is one file of this directory.

mod common;

mod baselines;
mod best_split;
mod blog;
mod ddzlib;
mod levels;
mod net;
mod opponent_models;
mod review;
mod robots;
mod search;
mod solver;
mod solver_state;
mod stakes;
mod table;
mod value_bot;
