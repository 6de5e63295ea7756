//! # ddz-fuzz
//!
//! The bodies of the project's fuzz targets (`fuzz/`, docs/fuzzing.md): one function per
//! family of parsers of outside input, each taking any bytes. A function returns normally
//! for every input; it panics only on a finding: a parser that panicked, or a check after a
//! successful parse that failed (a value printed and parsed again is not the same value, a
//! record of a replayed game does not replay, a robot answered a checked request with
//! something it was not allowed).
//!
//! The fuzz targets of `fuzz/fuzz_targets/` call these functions (through libFuzzer, outside
//! the workspace); the test `tests/corpus.rs` feeds them every file of `fuzz/corpus/` and
//! `fuzz/regressions/` in plain `cargo test`, so that the corpus and every crash found stay
//! checked on the stable toolchain without cargo-fuzz.
//!
//! ```
//! ddz_fuzz::cards(b"33344 10 J Q K A");
//! ddz_fuzz::moves(b"333444555666:airplane_singles:6");
//! for (name, target) in ddz_fuzz::TARGETS {
//!     target(b"");
//!     assert!(!name.is_empty());
//! }
//! ```

mod botzone;
mod cards;
mod common;
mod deals;
mod jsonl;
mod moves;
mod records;
mod robot_api;
mod rules_file;
mod web;
mod weights;

pub use botzone::botzone;
pub use cards::cards;
pub use deals::deals;
pub use jsonl::jsonl;
pub use moves::moves;
pub use records::records;
pub use robot_api::robot_api;
pub use rules_file::rules_file;
pub use web::web;
pub use weights::weights;

/// A target's body: any bytes in, a panic only on a finding.
pub type Target = fn(&[u8]);

/// Every target by its name, the name of its `fuzz/fuzz_targets/NAME.rs` file and of its
/// directories `fuzz/corpus/NAME/` and `fuzz/regressions/NAME/`.
pub const TARGETS: [(&str, Target); 10] = [
    ("cards", cards),
    ("moves", moves),
    ("rules_file", rules_file),
    ("deals", deals),
    ("records", records),
    ("jsonl", jsonl),
    ("botzone", botzone),
    ("robot_api", robot_api),
    ("web", web),
    ("weights", weights),
];
