//! The crate's integration tests as one binary (one link instead of one a file): each
//! module is one file of this directory.

mod errors;
mod huanle;
mod no_shuffle;
mod perft;
mod play_state;
mod random_games;
mod records;
mod resume;
mod scoring;
mod table_game;
mod variants;
