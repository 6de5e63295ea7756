"""The arena and self-play through Ray on this machine: games per second of
`ddz.distributed.arena` with 1 and 2 Ray workers against the `ddz arena` command with 1 and 2
threads on the same run, and the self-play actors' transitions per second.

Usage: python ray_arena.py --ddz PATH [--deals N] [--bots a,b] [--json]. Each Ray case starts
a local Ray instance with that many CPUs (`ray.init(num_cpus=W)`), times the run after a
warm-up task, and shuts it down; the reports are checked equal to the command's (timing aside).
"""

import argparse
import json
import os
import subprocess
import time

# A local instance for the bench: without token authentication, so that it leaves no
# ~/.ray/auth_token behind (Ray 2.60 writes one otherwise).
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
import ray  # noqa: E402

from ddz import distributed  # noqa: E402

TIMING = ("seconds", "games_per_sec")


def without_timing(report):
    report = json.loads(json.dumps(report))
    for pair in report["pairs"]:
        for key in TIMING:
            del pair[key]
    return report


def games(report):
    return sum(p["games"] for p in report["pairs"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddz", required=True, help="the ddz command (a release build)")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--bots", default="value,greedy")
    ap.add_argument("--actor-seconds", type=float, default=5.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    bots = args.bots.split(",")
    results = {}
    reference = None
    for threads in (1, 2):
        t0 = time.perf_counter()
        out = subprocess.run([args.ddz, "arena", "--bots", args.bots, "--deals", str(args.deals),
                              "--seed", "1", "--threads", str(threads), "--json", "--quiet"],
                             check=True, capture_output=True, text=True).stdout
        elapsed = time.perf_counter() - t0
        reference = json.loads(out)
        results[f"ddz arena --threads {threads}"] = games(reference) / elapsed
    for workers in (1, 2):
        ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
        distributed.arena(bots, deals=workers, seed=1, shards=workers)  # warm-up: workers start
        t0 = time.perf_counter()
        report = distributed.arena(bots, deals=args.deals, seed=1, shards=workers)
        elapsed = time.perf_counter() - t0
        assert without_timing(report) == without_timing(reference)
        results[f"ddz.distributed.arena, {workers} Ray worker(s)"] = games(report) / elapsed
        actors = distributed.actors(workers, n=64, seed=0)
        ray.get([a.collect.remote(64) for a in actors])  # warm-up
        transitions = 0
        t0 = time.perf_counter()
        for _, batch in distributed.stream(actors, 10_000, transitions=4096):
            transitions += len(batch["actions"])
            if time.perf_counter() - t0 >= args.actor_seconds:
                break
        elapsed = time.perf_counter() - t0
        results[f"self-play actors x{workers}: transitions/s"] = transitions / elapsed
        ray.shutdown()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for name, v in results.items():
        print(f"{name:<48} {v:>12,.0f}")


if __name__ == "__main__":
    main()
