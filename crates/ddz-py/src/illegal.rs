//! `ddz.IllegalMoveError`: the exception of a refused action, with its stable code.

use pyo3::prelude::*;

use crate::env_game::Refused;

pyo3::create_exception!(
    _ddz,
    IllegalMoveError,
    pyo3::exceptions::PyValueError,
    "An illegal move, bid or action id; the game is unchanged."
);

/// A refused action as Python's `ddz.IllegalMoveError` (a `ValueError`) with its `code`.
pub(crate) fn illegal(e: Refused) -> PyErr {
    illegal_with_code(e.to_string(), e.code())
}

/// `ddz.IllegalMoveError` with the message and the refusal's stable code as its `code`
/// attribute (ddz-game's codes, listed in docs/protocol.md, or `bad_choice`).
pub(crate) fn illegal_with_code(message: String, code: &'static str) -> PyErr {
    let err = IllegalMoveError::new_err(message);
    Python::attach(|py| {
        // Setting an attribute on a fresh exception object does not fail.
        let _ = err.value(py).setattr("code", code);
    });
    err
}
