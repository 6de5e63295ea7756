"""Random games per second in RLCard's Dou Dizhu environment, for the ratio to `ddz bench games`.

Each game is `env.reset()` and then, until it is over, a uniformly random legal action id from
the state's `legal_actions` given to `env.step` (RLCard's own loop, fixed landlord as in RLCard).
Run it beside `ddz bench games --seconds S` in the same session to compare the two engines.

Usage: python scripts/rlcard_games.py [--seconds S] [--seed N] [--json]
"""

import argparse
import json
import random
import time

import rlcard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and moves (default 1)")
    parser.add_argument("--json", action="store_true", help="print a JSON object instead of text")
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error("--seconds must be positive")
    env = rlcard.make("doudizhu", config={"seed": args.seed})
    pick = random.Random(args.seed)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state, _ = env.reset()
        while not env.is_over():
            action = pick.choice(list(state["legal_actions"].keys()))
            state, _ = env.step(action)
            moves += 1
        games += 1
    seconds = time.perf_counter() - start
    result = {"engine": "rlcard", "version": rlcard.__version__, "games": games,
              "moves": moves, "seconds": seconds, "games_per_sec": games / seconds}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"rlcard {rlcard.__version__}: {games} games in {seconds:.2f} s, "
              f"{games / seconds:.1f} games/s, {moves / seconds:.0f} moves/s")


if __name__ == "__main__":
    main()
