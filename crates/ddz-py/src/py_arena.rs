//! `ddz.arena` and `ddz.merge`: the arena of `ddz arena` from Python. The report is the very
//! JSON `ddz arena --json` prints ([`Report::to_json`]), handed to Python as text; the Python
//! side (`ddz/_arena.py`) turns it into a dict.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use ddz_arena::{Arena, Deals, Format, Report, Shard};
use ddz_bots::BotSpec;
use ddz_core::Rules;

/// Plays an arena run and returns its report as JSON text, the text `ddz arena --json` prints
/// for the same options (`--bots`, `--deals`, `--seed`, `--rules`, `--laizi`, `--rules-file`,
/// `--bidding`, `--shard I/N`, `--threads`). Built-in robots only (no `--exec`). The GIL is
/// released while the games are played.
#[pyfunction]
#[pyo3(signature = (bots, deals = 1000, seed = 1, rules = "classic", laizi = None, rules_file = None, bidding = false, shard = None, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn arena_json(
    py: Python<'_>,
    bots: Vec<String>,
    deals: u64,
    seed: u64,
    rules: &str,
    laizi: Option<&str>,
    rules_file: Option<PathBuf>,
    bidding: bool,
    shard: Option<(u64, u64)>,
    threads: Option<usize>,
) -> PyResult<String> {
    let rules = Rules::build(rules, rules_file.as_deref(), laizi)
        .map_err(|e| PyValueError::new_err(format!("rules: {e}")))?;
    let bots = bots
        .iter()
        .map(|b| {
            BotSpec::parse(b).map_err(|e| PyValueError::new_err(format!("bots: \"{b}\": {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let shard = match shard {
        None => Shard::WHOLE,
        Some((index, count)) => Shard::parse(&format!("{index}/{count}"))
            .map_err(|e| PyValueError::new_err(format!("shard ({index}, {count}): {e}")))?,
    };
    let arena = Arena {
        rules,
        format: if bidding {
            Format::Bidding
        } else {
            Format::Duplicate
        },
        seed,
        deals: Deals::Seeded { count: deals },
        shard,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err(PyValueError::new_err("threads: at least 1"));
        }
        pool = pool.num_threads(t);
    }
    let pool = pool
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the worker threads: {e}")))?;
    let report = py
        .detach(|| pool.install(|| arena.run(&bots, &|_| {}, &|| {})))
        .map_err(|e| PyValueError::new_err(format!("arena: {e}")))?;
    Ok(report.to_json().to_string())
}

/// Merges the JSON reports of every shard of one run into the report of the whole run, as
/// JSON text: what `ddz arena merge --json` prints for the same reports.
#[pyfunction]
pub fn merge_json(reports: Vec<String>) -> PyResult<String> {
    let reports = reports
        .iter()
        .enumerate()
        .map(|(n, text)| {
            Report::from_json(text)
                .map_err(|e| PyValueError::new_err(format!("report {}: {e}", n + 1)))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let merged = Report::merge(&reports).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(merged.to_json().to_string())
}
