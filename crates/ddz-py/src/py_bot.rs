//! `ddz.Bot`: ddz's robots as opponents from Python.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyAny;

use ddz_bots::{BOT_NAMES, decide, make_bot};
use ddz_game::{Action, Phase};

use crate::illegal::illegal;
use crate::py_env::Env;

/// One of ddz's robots (`random`, `greedy`, `value`, `ddzlib`), playing from a seat's view
/// only (its own hand, the public plays and the shown hands).
///
/// `Bot(name="value", seed=0)`; `act(env)` returns the robot's choice for the seat to act
/// without playing it: a bid (int) while bidding, a show decision (bool) in a show window, a
/// doubling factor (int) while doubling, else a move string; `play(env)` plays it and returns
/// it.
#[pyclass(module = "ddz._ddz", name = "Bot", unsendable)]
pub struct Bot {
    bot: Box<dyn ddz_bots::Bot>,
    spec: String,
}

impl Bot {
    fn choose(&mut self, env: &Env) -> PyResult<Action> {
        let game = env.table.game();
        if game.phase() == Phase::Over {
            return Err(PyValueError::new_err("the game is over: nothing to choose"));
        }
        decide(game, self.bot.as_mut())
            .map(|(_, action)| action)
            .map_err(|e| PyValueError::new_err(format!("robot {}: {e}", self.spec)))
    }
}

/// An action as Python sees it: a bid or a factor as an int, a show decision as a bool, a
/// move in notation.
fn action_value<'py>(py: Python<'py>, env: &Env, action: Action) -> PyResult<Bound<'py, PyAny>> {
    Ok(match action {
        Action::Bid(b) => b.into_pyobject(py)?.into_any(),
        Action::Double(f) => f.into_pyobject(py)?.into_any(),
        Action::Show(show) => pyo3::types::PyBool::new(py, show).to_owned().into_any(),
        Action::Play(m) => env.table.notation(&m).into_pyobject(py)?.into_any(),
    })
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name = "value", seed = 0))]
    fn new(name: &str, seed: u64) -> PyResult<Bot> {
        let bot = make_bot(name, seed).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Bot {
            bot,
            spec: name.to_string(),
        })
    }

    /// The robot's name.
    #[getter]
    fn name(&self) -> &str {
        self.bot.name()
    }

    /// The robot's choice for the seat to act of `env`, not played (see the class docs). (The
    /// `random` robot draws from its generator each time.)
    fn act<'py>(&mut self, py: Python<'py>, env: PyRef<'_, Env>) -> PyResult<Bound<'py, PyAny>> {
        let action = self.choose(&env)?;
        action_value(py, &env, action)
    }

    /// Chooses for the seat to act of `env` and plays it; returns what was played (see the
    /// class docs).
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        mut env: PyRefMut<'_, Env>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = self.choose(&env)?;
        let value = action_value(py, &env, action)?;
        env.table.act(action).map_err(illegal)?;
        Ok(value)
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.spec)
    }
}

/// The robot names `Bot` knows.
#[pyfunction]
pub fn bot_names() -> Vec<&'static str> {
    BOT_NAMES.to_vec()
}
