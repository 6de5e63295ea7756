//! `ddz.analyse`: a game record's analysis (复盘) from Python, the JSON `ddz analyse --json`
//! prints ([`ddz_bots::review`]), handed to Python as text; `ddz/_analysis.py` turns it into
//! a dict.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use ddz_bots::review::{AnalysisOptions, DEFAULT_SAMPLES, EXACT_CARDS, analyse};
use ddz_game::{Budget, GameRecord, Seat};

/// The analysis of the record `record` (JSON text) as JSON text: the seat (none: all),
/// samples a play (`iters`) or a time a decision in milliseconds (`time_ms`), the threads, the
/// seed and the most cards for the solver's verdict, as `ddz analyse` takes them. The GIL is
/// released while the plays are rated.
#[pyfunction]
#[pyo3(signature = (record, seat = None, iters = None, time_ms = None, threads = 1, seed = 0, exact_cards = EXACT_CARDS))]
#[allow(clippy::too_many_arguments)]
pub fn analysis_json(
    py: Python<'_>,
    record: &str,
    seat: Option<u8>,
    iters: Option<u64>,
    time_ms: Option<u64>,
    threads: usize,
    seed: u64,
    exact_cards: u32,
) -> PyResult<String> {
    let record = GameRecord::parse(record).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let seats = match seat {
        None => Seat::ALL.to_vec(),
        Some(s) => vec![
            Seat::new(s)
                .ok_or_else(|| PyValueError::new_err(format!("seat: {s} is not 0, 1 or 2")))?,
        ],
    };
    let budget = match (iters, time_ms) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "iters and time: give one or the other",
            ));
        }
        (Some(0), None) => return Err(PyValueError::new_err("iters: at least 1")),
        (None, Some(ms)) if !(1..=3_600_000).contains(&ms) => {
            return Err(PyValueError::new_err(format!(
                "time: {ms} ms is not 1 ms to an hour"
            )));
        }
        (None, Some(ms)) => Budget::Time(std::time::Duration::from_millis(ms)),
        (n, None) => Budget::Count(n.unwrap_or(DEFAULT_SAMPLES)),
    };
    if threads == 0 {
        return Err(PyValueError::new_err("threads: at least 1"));
    }
    let options = AnalysisOptions {
        seats,
        budget,
        threads,
        seed,
        exact_cards,
        ..AnalysisOptions::default()
    };
    let analysis = py
        .detach(|| analyse(&record, &options, &mut |_, _| {}))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(&analysis).map_err(|e| PyValueError::new_err(e.to_string()))
}
