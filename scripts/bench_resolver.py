#!/usr/bin/env python3
"""Times the `doudizhu-resolver` package (PyPI, 0.1.2: a memoised duel minimax in pure
Python) on the duel puzzles that `cargo bench -p ddz-bots --bench solver` times, and checks
its answers against the ones the puzzle file states (which ddz's solver must give).

Setup (once):
    python3 -m venv /tmp/resolver-venv
    /tmp/resolver-venv/bin/pip install doudizhu-resolver

Run:
    /tmp/resolver-venv/bin/python scripts/bench_resolver.py [--runs N] [--json]

Puzzles: crates/ddz-bots/benches/solver_duels.txt, one a line of key=value fields (name,
hands=H1,H2, optional last=CARDS with last_seat, wins, winning); rank letters as in ddz
(3-9 T J Q K A 2, B small joker, R big joker). Each puzzle is solved the way the resolver's
`find_strategy` does it (`play.try_win`: every winning first move), from an empty cache, `--runs`
times; the fastest and the median time are reported. Puzzles marked resolver=no (larger duels
the resolver takes too long on) are skipped unless --all.
"""

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PUZZLES = os.path.join(HERE, "..", "crates", "ddz-bots", "benches", "solver_duels.txt")

# ddz rank letters -> the resolver's rank names, and back by rank index (card_int & 0xF).
LETTERS = "3456789TJQKA2BR"
NAMES = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "CJ"]
SUITS = "shdc"


def parse_puzzles(path):
    puzzles = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = dict(part.split("=", 1) for part in line.split())
            puzzles.append(fields)
    return puzzles


def to_resolver(hands):
    """Rank strings -> the resolver's card strings, each physical card used once (suits are
    handed out in order across all the hands)."""
    used = {}
    out = []
    for hand in hands:
        cards = []
        for letter in hand:
            rank = LETTERS.index(letter)
            if rank >= 13:
                cards.append(NAMES[rank])
                continue
            k = used.get(rank, 0)
            used[rank] = k + 1
            cards.append(NAMES[rank] + SUITS[k])
        out.append("-".join(cards))
    return out


def ranks(card_ints):
    """A resolver play -> ddz's canonical rank string (`pass` for none)."""
    if not card_ints:
        return "pass"
    return "".join(sorted((LETTERS[c & 0xF] for c in card_ints), key=LETTERS.index))


def solve(mine, theirs, last):
    from doudizhu_resolver import play  # only here: the helpers above work without it

    play.PLAY_CACHE.clear()
    my = play.Card.card_ints_from_string(mine)
    en = play.Card.card_ints_from_string(theirs)
    lp = play.Card.card_ints_from_string(last) if last else []
    t = time.perf_counter()
    wins = play.try_win(0, my, en, lp)
    return time.perf_counter() - t, wins


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="timed runs per puzzle (default 5)")
    ap.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    ap.add_argument(
        "--all", action="store_true", help="also the puzzles marked resolver=no (very slow)"
    )
    ap.add_argument("--only", metavar="NAME", help="only the puzzle of this name")
    args = ap.parse_args()
    sys.setrecursionlimit(100000)
    failures = 0
    print(f"{'puzzle':<22} {'fastest ms':>12} {'median ms':>12}  answer", file=sys.stderr)
    for p in parse_puzzles(PUZZLES):
        if args.only is not None:
            if p["name"] != args.only:
                continue
        elif p.get("resolver") == "no" and not args.all:
            continue
        hands = p["hands"].split(",")
        turn = int(p.get("turn", "0"))
        last = p.get("last")
        mine, theirs = hands[turn], hands[1 - turn]
        if last is not None:
            r_mine, r_theirs, r_last = to_resolver([mine, theirs, last])
        else:
            (r_mine, r_theirs), r_last = to_resolver([mine, theirs]), None
        times = []
        for _ in range(args.runs):
            dt, wins = solve(r_mine, r_theirs, r_last)
            times.append(dt)
        winning = sorted({ranks(w) for w in wins})
        expected = sorted(p["winning"].split(",")) if p["winning"] != "-" else []
        agree = winning == expected
        failures += not agree
        row = {
            "name": p["name"],
            "fastest_ms": min(times) * 1e3,
            "median_ms": statistics.median(times) * 1e3,
            "winning": winning,
            "agrees": agree,
        }
        if args.json:
            print(json.dumps(row))
        else:
            verdict = "agrees" if agree else f"DIFFERS: {winning} vs {expected}"
            print(
                f"{p['name']:<22} {row['fastest_ms']:>12.3f} {row['median_ms']:>12.3f}  {verdict}",
                flush=True,
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
