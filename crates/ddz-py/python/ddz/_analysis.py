"""Game analysis (复盘) from Python: ``ddz.analyse`` returns the dict ``ddz analyse --json``
prints (the Rust analysis writes the JSON; nothing is recomputed here)."""

import json
import os
from typing import Any, Dict, Optional, Union

from ._ddz import analysis_json

Analysis = Dict[str, Any]


def analyse(
    record: Union[Dict[str, Any], str, "os.PathLike[str]"],
    seat: Optional[int] = None,
    time: Optional[float] = None,
    iters: Optional[int] = None,
    threads: int = 1,
    seed: int = 0,
    exact_cards: int = 20,
) -> Analysis:
    """Rates every play of a recorded game; returns the ``ddz-analysis/1`` dict.

    ``record``: a record as a dict, as JSON text (``Env.record()``), or the path of a record
    file. Each play of ``seat`` (every seat when None) gets the search's chance of winning
    after it and after the best play it finds, from what that seat knew then, the ``loss``
    and a ``mark`` (``blunder`` >= 0.20, ``mistake`` >= 0.10, ``inaccuracy`` >= 0.05), and
    with at most ``exact_cards`` cards in the three hands the solver's hindsight verdict
    (``exact``); bids are rated the same way, doubling and showing get their chance of
    winning but no rating (they change the stake, not the chance). The budget is ``iters``
    samples of the hidden hands a play (default 1000) or ``time`` seconds a decision. A record
    that does not parse or replay raises ``ValueError`` naming the step. The GIL is released
    while the plays are rated. See ``ddz analyse --help`` and docs/analysis.md.
    """
    if isinstance(record, dict):
        text = json.dumps(record)
    elif isinstance(record, str) and record.lstrip().startswith("{"):
        text = record
    elif isinstance(record, (str, os.PathLike)):
        with open(os.fspath(record), encoding="utf-8") as f:
            text = f.read()
    else:
        raise TypeError("record: a dict, JSON text or the path of a record file")
    time_ms = None if time is None else max(1, round(time * 1000))
    return json.loads(analysis_json(text, seat, iters, time_ms, threads, seed, exact_cards))
