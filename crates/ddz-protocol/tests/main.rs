//! The crate's integration tests as one binary (one link instead of one a file): each
//! module is one file of this directory.

mod botzone;
mod errors;
mod jsonl;
mod tables;
