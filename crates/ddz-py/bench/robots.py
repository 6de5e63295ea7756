"""One seat against robots: games per second when a learner plays seat 0 (uniformly random
legal actions) and robots play seats 1 and 2, in three forms measured in the same run.

- rlcard: `rlcard.make('doudizhu')`, RLCard's rule robot `DouDizhuRuleAgentV1` in seats 1
  and 2 (Python), the learner's random id from `state['legal_actions']`.
- ddz VecEnv n + Bot (every-seat form): `ddz.VecEnv(n, "douzero", encoding="douzero")`, the
  robot seats chosen in Python by `ddz.Bot(robot).act(venv.env(i))` each step.
- ddz VecEnv n learner=0: `ddz.VecEnv(n, "douzero", encoding="douzero", learner=0,
  opponents=robot)`: the robots act inside Rust (GIL released) and `step` returns at seat 0's
  turn.

A game counts when it ends (its payoffs written); the learner's decisions per second are
printed too. Usage: python robots.py [--seconds S] [--repeats R] [--robot NAME] [--n N]
[--json]; the median of R interleaved rounds of S seconds.
"""

import argparse
import json
import os
import platform
import random
import statistics
import time

import numpy as np

import ddz


def rlcard_games(seconds, _robot, _n):
    import rlcard
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    env = rlcard.make("doudizhu", config={"seed": 1})
    robot = DouDizhuRuleAgentV1()
    rng = random.Random(1)
    state, seat = env.reset()
    games = decisions = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(50):
            if seat == 0:
                ids = list(state["legal_actions"].keys())
                state, seat = env.step(ids[rng.randrange(len(ids))])
                decisions += 1
            else:
                # The rule agent answers with the action's text.
                state, seat = env.step(robot.step(state), raw_action=True)
            if env.is_over():
                env.get_payoffs()
                games += 1
                state, seat = env.reset()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games / elapsed, decisions / elapsed


def ddz_every_seat(seconds, robot, n):
    venv = ddz.VecEnv(n, "douzero", encoding="douzero", seed=1)
    bot = ddz.Bot(robot)
    rng = np.random.default_rng(1)
    games = decisions = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(5):
            actions = (rng.random(n) * venv.num_moves).astype(np.int64)
            for i in np.flatnonzero(venv.seats != 0):
                actions[i] = venv.legal_moves(i).index(bot.act(venv.env(i)))
            decisions += int((venv.seats == 0).sum())
            venv.step(actions)
            games += int(venv.dones.sum())
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games / elapsed, decisions / elapsed


def ddz_learner(seconds, robot, n):
    venv = ddz.VecEnv(n, "douzero", encoding="douzero", seed=1, learner=0, opponents=robot)
    rng = np.random.default_rng(1)
    games = decisions = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(20):
            actions = (rng.random(n) * venv.num_moves).astype(np.int64)
            venv.step(actions)
            decisions += n
            games += int(venv.dones.sum())
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return games / elapsed, decisions / elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--robot", default="greedy")
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cases = [
        ("rlcard + rule agents", rlcard_games),
        (f"ddz VecEnv {args.n} + Bot({args.robot!r})", ddz_every_seat),
        (f"ddz VecEnv {args.n} learner=0 opponents={args.robot!r}", ddz_learner),
    ]
    runs = {name: [] for name, _ in cases}
    for _ in range(args.repeats):
        for name, f in cases:
            runs[name].append(f(args.seconds, args.robot, args.n))
    base = statistics.median(g for g, _ in runs[cases[0][0]])
    results = {}
    for name, _ in cases:
        games = statistics.median(g for g, _ in runs[name])
        decisions = statistics.median(d for _, d in runs[name])
        results[name] = {"games_per_s": games, "decisions_per_s": decisions, "vs_rlcard": games / base}
    meta = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_before_end": os.getloadavg(),
        "seconds": args.seconds,
        "repeats": args.repeats,
    }
    if args.json:
        print(json.dumps({"meta": meta, "results": results}, indent=1))
        return
    print(f"{'case':<44} {'games/s':>10} {'learner/s':>11} {'x rlcard':>9}")
    for name, r in results.items():
        print(f"{name:<44} {r['games_per_s']:>10,.0f} {r['decisions_per_s']:>11,.0f} {r['vs_rlcard']:>8.1f}x")
    print(f"python {meta['python']}, {meta['cpus']} cpus, load average {meta['load_before_end']}")


if __name__ == "__main__":
    main()
