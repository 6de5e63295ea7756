"""Steps per second: RLCard's Dou Dizhu environment against ddz's, measured in the same run.

A step is one action (a uniformly random legal one) applied, followed by what an agent needs
to choose the next action: the next observation and the legal actions. Finished games are
scored and a new game starts; those resets are counted in the time.

- rlcard: `rlcard.make('doudizhu')`, `env.step(id)` (returns the next state: obs and the
  legal actions dict); the id is drawn from `state['legal_actions']`.
- ddz Env: `env.step(id)`, `env.observe()` (RLCard's obs), `env.legal_action_ids()`.
- ddz rlcard_env: ddz's RLCard-compatible wrapper, the same loop as rlcard's (same state dicts).
- ddz VecEnv n: `venv.step(actions)` for n games at once (obs, legal-action mask, seat and
  move count written into preallocated arrays, GIL released, all cores); actions are random
  legal move indices drawn with numpy from `num_moves`; n steps per call.

Usage: python steps.py [--seconds S] [--repeats R] [--json]. Prints the median of R runs of
S seconds each.
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


def rlcard_env(seconds, make):
    env = make()
    rng = random.Random(1)
    state, _ = env.reset()
    steps = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(100):
            ids = list(state["legal_actions"].keys())
            state, _ = env.step(ids[rng.randrange(len(ids))])
            steps += 1
            if env.is_over():
                env.get_payoffs()
                state, _ = env.reset()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return steps / elapsed


def ddz_env(seconds):
    env = ddz.Env("rlcard", seed=1)
    rng = random.Random(1)
    env.observe()
    ids = env.legal_action_ids()
    steps = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(1000):
            env.step(int(ids[rng.randrange(len(ids))]))
            steps += 1
            if env.done:
                env.payoffs()
                env.reset()
            env.observe()
            ids = env.legal_action_ids()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return steps / elapsed


def ddz_vec(seconds, n):
    venv = ddz.VecEnv(n, "rlcard", seed=1, actions="index")
    rng = np.random.default_rng(1)
    venv.reset()
    steps = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(10):
            actions = (rng.random(n) * venv.num_moves).astype(np.int64)
            venv.step(actions)
            steps += n
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return steps / elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import rlcard

    from ddz import rlcard_env as ddz_rlcard

    cases = [
        ("rlcard", lambda s: rlcard_env(s, lambda: rlcard.make("doudizhu", config={"seed": 1}))),
        ("ddz Env", ddz_env),
        ("ddz rlcard_env", lambda s: rlcard_env(s, lambda: ddz_rlcard.make(config={"seed": 1}))),
        ("ddz VecEnv 64", lambda s: ddz_vec(s, 64)),
        ("ddz VecEnv 256", lambda s: ddz_vec(s, 256)),
    ]
    results = {}
    # Interleave the cases so that a change of machine load hits all of them alike.
    runs = {name: [] for name, _ in cases}
    for _ in range(args.repeats):
        for name, f in cases:
            runs[name].append(f(args.seconds))
    base = statistics.median(runs["rlcard"])
    for name, _ in cases:
        med = statistics.median(runs[name])
        results[name] = {"steps_per_s": med, "vs_rlcard": med / base, "runs": runs[name]}
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
    print(f"{'case':<16} {'steps/s':>12} {'x rlcard':>9}   runs")
    for name, r in results.items():
        runs_text = ", ".join(f"{x:,.0f}" for x in r["runs"])
        print(f"{name:<16} {r['steps_per_s']:>12,.0f} {r['vs_rlcard']:>8.1f}x   {runs_text}")
    print(f"python {meta['python']}, {meta['cpus']} cpus, load average {meta['load_before_end']}")


if __name__ == "__main__":
    main()
