//! `ddz.Bot`: ddz's robots as opponents from Python.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyAny;

use ddz_bots::{BOT_NAMES, make_bot};
use ddz_core::Move;
use ddz_game::Phase;

use crate::py_env::{Env, illegal};

/// What a robot chose: a bid or a move.
enum Choice {
    Bid(u8),
    Play(Move),
}

/// One of ddz's robots (`random`, `greedy`, `value`, `ddzlib`), playing from a seat's view
/// only (its own hand and the public plays).
///
/// `Bot(name="value", seed=0)`; `act(env)` returns the robot's choice for the seat to act
/// (a bid as an int while bidding, else a move string) without playing it; `play(env)` plays
/// it and returns it.
#[pyclass(module = "ddz._ddz", name = "Bot", unsendable)]
pub struct Bot {
    bot: Box<dyn ddz_bots::Bot>,
    spec: String,
}

impl Bot {
    fn choose(&mut self, env: &Env) -> PyResult<Choice> {
        let game = env.table.game();
        let seat = game.turn();
        match game.phase() {
            Phase::Over => Err(PyValueError::new_err("the game is over: nothing to choose")),
            Phase::Dealing | Phase::Doubling | Phase::LandlordShow => Err(PyValueError::new_err(
                "show and doubling decisions are not offered in Python yet",
            )),
            Phase::Bidding => {
                let view = game.view(seat);
                let allowed = view.legal_bids();
                Ok(Choice::Bid(self.bot.bid(&view, &allowed)))
            }
            Phase::Playing => {
                let view = game.view(seat);
                Ok(Choice::Play(self.bot.play(&view, env.table.moves())))
            }
        }
    }
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

    /// The robot's choice for the seat to act of `env`, not played: a bid (int) while bidding,
    /// else a move in notation. (The `random` robot draws from its generator each time.)
    fn act<'py>(&mut self, py: Python<'py>, env: PyRef<'_, Env>) -> PyResult<Bound<'py, PyAny>> {
        match self.choose(&env)? {
            Choice::Bid(b) => Ok(b.into_pyobject(py)?.into_any()),
            Choice::Play(m) => Ok(env.table.notation(&m).into_pyobject(py)?.into_any()),
        }
    }

    /// Chooses for the seat to act of `env` and plays it; returns what was played (a bid or a
    /// move in notation).
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        mut env: PyRefMut<'_, Env>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.choose(&env)? {
            Choice::Bid(b) => {
                env.table.bid(b).map_err(illegal)?;
                Ok(b.into_pyobject(py)?.into_any())
            }
            Choice::Play(m) => {
                let text = env.table.notation(&m);
                env.table.play_move(m).map_err(illegal)?;
                Ok(text.into_pyobject(py)?.into_any())
            }
        }
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
