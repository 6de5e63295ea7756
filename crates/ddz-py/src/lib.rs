//! # ddz-py
//!
//! Python bindings of ddz for reinforcement learning (the `ddz` Python package, built with
//! maturin): `ddz.Env` (one game: legal moves as strings, RLCard action ids and masks,
//! the `rlcard` and `douzero` observation encodings, payoffs, clone, perfect information),
//! `ddz.TableEnv` (one game at the two- and four-seat tables of docs/variants.md, which
//! `ddz.Env("two")` and `ddz.Env("four")` give), `ddz.VecEnv` (many games stepped in parallel
//! into numpy arrays), `ddz.Bot` (ddz's robots as opponents) and, in Python,
//! RLCard-compatible, PettingZoo and Gymnasium wrappers. The repository README's "Python"
//! section shows the Python side.
//!
//! The Rust side is usable on its own: [`env_game::EnvGame`] drives one game and keeps the legal
//! moves and their RLCard ids, [`encode`] writes the observations into caller buffers,
//! [`actions`] maps card sets to RLCard's 27,472 action ids, [`py_table::Table`] is a game at
//! two or four seats.
//!
//! ```
//! use ddz_core::Rules;
//! use _ddz::{actions::action_space, encode, env_game::EnvGame};
//!
//! let mut t = EnvGame::new(&Rules::rlcard(), 7);
//! let mut obs = [0i8; encode::RLCARD_FARMER_LEN];
//! while let Some(seat) = t.turn() {
//!     let pos = t.position().unwrap();
//!     let len = encode::rlcard_obs(&pos, seat, &mut obs);
//!     assert_eq!(len, if seat == 0 { 790 } else { 901 });
//!     let id = t.ids()[0];
//!     t.play_id(i64::from(id)).unwrap();
//! }
//! assert_eq!(t.scores().unwrap().iter().sum::<i64>(), 0);
//! assert_eq!(action_space().word(27_471), Some("pass"));
//! ```

use pyo3::prelude::*;

pub mod actions;
pub mod encode;
pub mod env_game;
mod illegal;
mod py_analysis;
mod py_arena;
mod py_bot;
mod py_env;
pub mod py_table;
mod py_vec;

/// The extension module `ddz._ddz`; the `ddz` package re-exports it.
#[pymodule]
fn _ddz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<py_env::Env>()?;
    m.add_class::<py_table::TableEnv>()?;
    m.add_class::<py_vec::VecEnv>()?;
    m.add_class::<py_bot::Bot>()?;
    m.add(
        "IllegalMoveError",
        m.py().get_type::<illegal::IllegalMoveError>(),
    )?;
    m.add("NUM_ACTIONS", actions::NUM_ACTIONS)?;
    m.add("PASS_ID", actions::PASS_ID)?;
    m.add_function(wrap_pyfunction!(py_env::action_name, m)?)?;
    m.add_function(wrap_pyfunction!(py_env::action_id, m)?)?;
    m.add_function(wrap_pyfunction!(py_env::card_vector, m)?)?;
    m.add_function(wrap_pyfunction!(py_bot::bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(py_arena::arena_json, m)?)?;
    m.add_function(wrap_pyfunction!(py_arena::merge_json, m)?)?;
    m.add_function(wrap_pyfunction!(py_analysis::analysis_json, m)?)?;
    Ok(())
}
