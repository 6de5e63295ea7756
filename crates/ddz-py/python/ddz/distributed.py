"""Scale-out on Ray: the arena as Ray tasks, and self-play actors that stream batches.

Ray is an optional dependency (``pip install "ddz[ray]"``); these functions use the cluster
``ray.init`` connected to (a local one when ``ray.init`` was not called).

- ``arena(bots, deals, seed, rules, ..., shards=K)``: the arena run as K Ray tasks, shard ``k``
  playing deals ``i`` with ``i % K == k``, merged exactly (``ddz.merge``): the report equals
  ``ddz.arena``'s for the same run, the measured ``seconds`` and ``games_per_sec`` aside.
- ``SelfPlay``: one collector owning a ``ddz.VecEnv`` (every seat played by a policy);
  ``collect(transitions)`` steps until that many transitions have their return and hands
  them over as one batch of numpy arrays. ``actors(k, ...)`` makes k Ray actors of it and
  ``stream(actors, batches)`` yields their batches to a learner as they arrive.

On a cluster without Ray (Slurm job arrays), the command line does the same: see
docs/cluster.md.
"""

import numpy as np

try:
    import ray
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError('ddz.distributed needs Ray: pip install "ddz[ray]"') from e

from . import _arena
from ._ddz import VecEnv


def _shard_report(bots, deals, seed, rules, laizi, bidding, shard, threads):
    return _arena.arena(bots, deals=deals, seed=seed, rules=rules, laizi=laizi,
                        bidding=bidding, shard=shard, threads=threads)


def arena(bots, deals=1000, seed=1, rules="classic", laizi=None, bidding=False, shards=None,
          cpus_per_shard=1):
    """Plays an arena run (``ddz.arena``'s arguments; no rules file, as workers may not see
    the caller's files) as ``shards`` Ray tasks of ``cpus_per_shard`` CPUs each (default: one
    task per CPU of the cluster) and returns the merged report."""
    if isinstance(bots, str):
        raise TypeError('bots: a list of robot specs, e.g. ["value", "greedy"]')
    if not ray.is_initialized():
        ray.init()
    if shards is None:
        shards = max(1, int(ray.cluster_resources().get("CPU", 1) // cpus_per_shard))
    if shards < 1:
        raise ValueError(f"shards {shards}: at least 1")
    task = ray.remote(num_cpus=cpus_per_shard)(_shard_report)
    refs = [task.remote(list(bots), deals, seed, rules, laizi, bidding, (k, shards),
                        cpus_per_shard)
            for k in range(shards)]
    return _arena.merge(ray.get(refs))


def uniform_policy(rng, venv):
    """A uniformly random option for every game (``num_moves`` bounds each)."""
    return (rng.random(venv.num_envs) * venv.num_moves).astype(np.int64)


class SelfPlay:
    """Self-play on one ``VecEnv`` whose every seat a policy plays, collected as transitions
    with their Monte-Carlo return (DouZero's target: the acting seat's payoff at the end of
    its game).

    ``SelfPlay(n=64, seed=0, policy=None, **vec_kwargs)``: ``vec_kwargs`` go to ``VecEnv``
    (default ``rules="douzero", encoding="douzero"``); ``policy(rng, venv)`` returns one
    option index per game (default ``uniform_policy``), ``rng`` the collector's numpy
    generator seeded from ``seed``. ``set_policy`` swaps it (a learner's new weights).
    """

    def __init__(self, n=64, seed=0, policy=None, **vec_kwargs):
        vec_kwargs.setdefault("rules", "douzero")
        vec_kwargs.setdefault("encoding", "douzero")
        vec_kwargs["actions"] = "index"
        self.venv = VecEnv(n, seed=seed, **vec_kwargs)
        self.rng = np.random.default_rng(seed)
        self.policy = policy or uniform_policy
        # Each game's transitions waiting for its end: (obs row, action, seat).
        self.pending = [[] for _ in range(n)]
        self.games = 0
        self.steps = 0

    def set_policy(self, policy):
        """The policy used from the next step on."""
        self.policy = policy

    def collect(self, transitions):
        """Steps every game until at least ``transitions`` transitions have ended their game,
        and returns them (those of the games that ended) as a dict of arrays: ``obs`` (int8,
        one row per transition), ``actions`` (int64, the option index), ``seats`` (int64),
        ``returns`` (float32, the acting seat's payoff at the end of the game), ``games``
        (games ended in this batch) and ``steps`` (VecEnv steps taken, n transitions each)."""
        venv = self.venv
        out_obs, out_actions, out_seats, out_returns = [], [], [], []
        games = steps = 0
        while len(out_actions) < transitions:
            actions = np.asarray(self.policy(self.rng, venv), dtype=np.int64)
            for i in range(venv.num_envs):
                self.pending[i].append((venv.obs[i].copy(), int(actions[i]), int(venv.seats[i])))
            venv.step(actions)
            steps += 1
            for i in np.flatnonzero(venv.dones):
                games += 1
                for obs, action, seat in self.pending[i]:
                    out_obs.append(obs)
                    out_actions.append(action)
                    out_seats.append(seat)
                    out_returns.append(venv.rewards[i, seat])
                self.pending[i] = []
        self.games += games
        self.steps += steps
        width = venv.obs.shape[1]
        return {
            "obs": np.array(out_obs, dtype=np.int8).reshape(-1, width),
            "actions": np.array(out_actions, dtype=np.int64),
            "seats": np.array(out_seats, dtype=np.int64),
            "returns": np.array(out_returns, dtype=np.float32),
            "games": games,
            "steps": steps,
        }


def actors(k, n=64, seed=0, policy=None, **vec_kwargs):
    """``k`` Ray actors, each a ``SelfPlay`` of ``n`` games seeded ``seed + j`` (one CPU each)."""
    if not ray.is_initialized():
        ray.init()
    remote = ray.remote(num_cpus=1)(SelfPlay)
    return [remote.remote(n=n, seed=seed + j, policy=policy, **vec_kwargs) for j in range(k)]


def stream(actor_list, batches, transitions=4096):
    """Yields ``(actor index, batch)`` as the actors' ``collect(transitions)`` calls finish,
    ``batches`` in all, keeping every actor busy (a learner consumes while they play). With
    fewer batches than actors, the extra calls still run and are dropped."""
    running = {a.collect.remote(transitions): j for j, a in enumerate(actor_list)}
    given = 0
    while given < batches:
        (ready,), _ = ray.wait(list(running), num_returns=1)
        j = running.pop(ready)
        given += 1
        if given + len(running) < batches:
            running[actor_list[j].collect.remote(transitions)] = j
        yield j, ray.get(ready)


__all__ = ["SelfPlay", "actors", "arena", "stream", "uniform_policy"]
