"""Golden traces from RLCard's and DouZero's own environments, and their comparison with ddz.

`python golden.py record` (with `rlcard` and `douzero` installed) plays seeded games in
RLCard's `rlcard.make('doudizhu')` and DouZero's `douzero.env.env.Env` with random legal
actions and writes what those environments give at every step to `data/`:

- `rlcard_traces.json.gz`: per game the deal, and per step the seat, RLCard's observation
  (`state['obs']`, bit-packed as hex), the legal action ids (sorted) and the action taken;
  at the end each seat's final observation and RLCard's payoffs.
- `douzero_traces.json.gz`: per game the deal, and per step the position, DouZero's
  `x_no_action` and `z` (bit-packed as hex), the legal moves (rank strings, each once, sorted,
  without the card sets DouZero's move detector calls WRONG, which ddz's douzero profile does
  not list: see ddz-core's douzero.rs) and the move taken.

The tests replay each trace's deal and actions in `ddz.Env` and compare, step by step.
"""

import gzip
import json
import pathlib
import random
import sys

import numpy as np

DATA = pathlib.Path(__file__).resolve().parent / "data"
RLCARD_FILE = DATA / "rlcard_traces.json.gz"
DOUZERO_FILE = DATA / "douzero_traces.json.gz"

# DouZero's card codes and ddz's rank letters.
DZ_LETTER = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J",
             12: "Q", 13: "K", 14: "A", 17: "2", 20: "B", 30: "R"}
DZ_CODE = {v: k for k, v in DZ_LETTER.items()}
ORDER = "3456789TJQKA2BR"


def pack(a):
    """A 0/1 vector as hex of its packed bits, and its length."""
    a = np.asarray(a).astype(np.uint8).ravel()
    return np.packbits(a).tobytes().hex(), int(a.size)


def unpack(hexbits, n):
    """The inverse of `pack`."""
    return np.unpackbits(np.frombuffer(bytes.fromhex(hexbits), dtype=np.uint8))[:n].astype(np.int8)


def dz_str(cards):
    """DouZero's card codes as a ddz rank string (ascending), `pass` for none."""
    if not cards:
        return "pass"
    return "".join(sorted((DZ_LETTER[c] for c in cards), key=ORDER.index))


def dz_cards(text):
    """A ddz rank string as DouZero's sorted card codes (empty for `pass`)."""
    return [] if text == "pass" else sorted(DZ_CODE[c] for c in text)


# ---------------------------------------------------------------- RLCard


def rlcard_games(seed, games):
    """Yields one trace dict per game played in RLCard's own environment."""
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)
    for _ in range(games):
        state, player = env.reset()
        players = env.game.players
        deal = {
            "landlord": players[0].initial_hand,
            "landlord_down": players[1].initial_hand,
            "landlord_up": players[2].initial_hand,
            "kitty": env.game.round.seen_cards,
        }
        steps = []
        while not env.is_over():
            ids = sorted(state["legal_actions"].keys())
            action = rng.choice(ids)
            obs, n = pack(state["obs"])
            steps.append({"seat": player, "obs": obs, "len": n, "ids": ids, "action": action})
            state, player = env.step(action)
        final = [pack(env.get_state(p)["obs"]) for p in range(3)]
        yield {
            "deal": deal,
            "steps": steps,
            "final": [f[0] for f in final],
            "final_len": [f[1] for f in final],
            "payoffs": [int(x) for x in env.get_payoffs()],
        }


def check_rlcard_game(game):
    """Replays one RLCard trace in ddz and asserts every step matches."""
    import ddz

    env = ddz.Env("rlcard")
    env.reset(deal=game["deal"])
    for i, step in enumerate(game["steps"]):
        where = f"step {i} (seat {step['seat']})"
        assert env.seat == step["seat"], where
        want = unpack(step["obs"], step["len"])
        got = env.observe(encoding="rlcard")
        assert got.shape == want.shape, where
        diff = np.nonzero(got != want)[0]
        assert diff.size == 0, f"{where}: obs differs at {diff[:10].tolist()}"
        ids = sorted(int(x) for x in env.legal_action_ids())
        assert ids == step["ids"], (
            f"{where}: legal ids differ: ddz only {sorted(set(ids) - set(step['ids']))[:10]}, "
            f"RLCard only {sorted(set(step['ids']) - set(ids))[:10]}")
        env.step(int(step["action"]))
    assert env.done
    for seat in range(3):
        want = unpack(game["final"][seat], game["final_len"][seat])
        assert np.array_equal(env.observe(seat, encoding="rlcard"), want), f"final seat {seat}"
    assert [int(x) for x in env.payoffs("win")] == game["payoffs"]


# ---------------------------------------------------------------- DouZero


def douzero_legal(infoset):
    """DouZero's legal moves as ddz rank strings: each once, sorted, without WRONG ones."""
    from douzero.env import move_detector as md

    out = set()
    for a in infoset.legal_actions:
        if md.get_move_type(a)["type"] != md.TYPE_15_WRONG:
            out.add(dz_str(a))
    return sorted(out)


def douzero_games(seed, games):
    """Yields one trace dict per game played in DouZero's own environment."""
    from douzero.env.env import Env

    np.random.seed(seed)
    rng = random.Random(seed)
    env = Env("adp")
    for _ in range(games):
        obs = env.reset()
        info = env._env.info_sets
        deal = {
            "landlord": dz_str(info["landlord"].player_hand_cards),
            "landlord_down": dz_str(info["landlord_down"].player_hand_cards),
            "landlord_up": dz_str(info["landlord_up"].player_hand_cards),
            "kitty": dz_str(env._env.three_landlord_cards),
        }
        steps = []
        done = False
        while not done:
            infoset = env.infoset
            legal = douzero_legal(infoset)
            move = rng.choice(legal)
            x, xn = pack(obs["x_no_action"])
            z, zn = pack(obs["z"])
            steps.append({"position": obs["position"], "x": x, "x_len": xn, "z": z,
                          "legal": legal, "move": move})
            obs, reward, done, _ = env.step(dz_cards(move))
        yield {"deal": deal, "steps": steps, "reward": float(reward)}


def check_douzero_game(game):
    """Replays one DouZero trace in ddz and asserts every step matches."""
    import ddz

    env = ddz.Env("douzero")
    env.reset(deal=game["deal"])
    for i, step in enumerate(game["steps"]):
        where = f"step {i} ({step['position']})"
        obs = env.observe(encoding="douzero", batch=False)
        assert obs["position"] == step["position"], where
        want_x = unpack(step["x"], step["x_len"])
        diff = np.nonzero(obs["x_no_action"] != want_x)[0]
        assert diff.size == 0, f"{where}: x_no_action differs at {diff[:10].tolist()}"
        assert np.array_equal(obs["z"].ravel(), unpack(step["z"], 15 * 54)), f"{where}: z"
        legal = sorted(env.legal_moves())
        assert legal == step["legal"], (
            f"{where}: legal moves differ: ddz only {sorted(set(legal) - set(step['legal']))[:10]}"
            f", DouZero only {sorted(set(step['legal']) - set(legal))[:10]}")
        rows = obs["action_features"]
        for m, row in zip(env.legal_moves(), rows):
            assert np.array_equal(row, ddz.card_vector(m)), f"{where}: row of {m}"
        env.step(step["move"])
    assert env.done
    # DouZero's ADP reward is ±2^bombs for the landlord's side; ddz scores the landlord 2x.
    assert env.payoffs()[0] == 2 * game["reward"]


def load(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def record():
    DATA.mkdir(exist_ok=True)
    rl = list(rlcard_games(seed=2024, games=40))
    with gzip.open(RLCARD_FILE, "wt") as f:
        json.dump(rl, f, separators=(",", ":"))
    dz = list(douzero_games(seed=2024, games=40))
    with gzip.open(DOUZERO_FILE, "wt") as f:
        json.dump(dz, f, separators=(",", ":"))
    print(f"{sum(len(g['steps']) for g in rl)} RLCard steps, "
          f"{sum(len(g['steps']) for g in dz)} DouZero steps recorded")


if __name__ == "__main__":
    if sys.argv[1:] == ["record"]:
        record()
    else:
        sys.exit("usage: golden.py record")
