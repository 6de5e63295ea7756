"""The arena from Python: `ddz.arena` and `ddz.merge` return the reports of `ddz arena --json`
and `ddz arena merge --json` as dicts (the Rust arena writes the JSON; nothing is recomputed
here)."""

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._ddz import arena_json, merge_json

Report = Dict[str, Any]


def arena(
    bots: Sequence[str],
    deals: int = 1000,
    seed: int = 1,
    rules: str = "classic",
    laizi: Optional[str] = None,
    rules_file: Optional[Union[str, "os.PathLike[str]"]] = None,
    bidding: bool = False,
    shard: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
) -> Report:
    """Robots against each other over seeded deals, every pair once; returns the report.

    The dict equals what ``ddz arena --json`` prints with ``--bots a,b,... --deals N --seed S
    --rules R [--laizi L] [--rules-file F] [--bidding] [--shard I/N]`` (see ``ddz arena
    --help``), the wall-clock figures of each pair (``seconds``, ``games_per_sec``) aside:
    those are measured. ``bots`` are built-in robot specs (``"value"``, ``"greedy"``,
    ``"search:time=50"``, ...); ``shard=(i, n)`` plays deals ``k`` with ``k % n == i``, and
    ``ddz.merge`` combines the shards' reports. ``threads`` workers (default: one per core);
    the figures do not depend on it. The GIL is released while the games are played.
    """
    if isinstance(bots, str):
        raise TypeError('bots: a list of robot specs, e.g. ["value", "greedy"]')
    path = None if rules_file is None else os.fspath(rules_file)
    text = arena_json(list(bots), deals, seed, rules, laizi, path, bidding, shard, threads)
    return json.loads(text)


def merge(reports: Iterable[Union[Report, str]]) -> Report:
    """Merges the reports of every shard of one run (dicts from ``ddz.arena``, or the JSON
    text of ``ddz arena --out`` files) into the report of the whole run: the dict ``ddz arena
    merge --json`` prints for the same reports. Reports of another run, a shard given twice
    or a missing shard raise ``ValueError`` naming the report."""
    texts: List[str] = [r if isinstance(r, str) else json.dumps(r) for r in reports]
    return json.loads(merge_json(texts))
