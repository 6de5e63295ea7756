"""ddz: Dou Dizhu (斗地主) environments for reinforcement learning, backed by ddz's Rust engine.

- ``Env``: one game (legal moves as strings and RLCard ids, the ``rlcard`` and ``douzero``
  observation encodings, payoffs, clone, perfect information). ``Env("two")`` and
  ``Env("four")`` give a ``TableEnv``.
- ``TableEnv``: one game at a two- or four-seat table (docs/variants.md): two players
  (二人斗地主: no 3s or 4s, the handicap 让牌) or four with two decks (四人斗地主); moves in
  notation, observations as numpy count vectors, payoffs, records, undo, clone, and ddz's
  table robots (``random``, ``greedy``, ``ddzlib``, ``search``) through ``robot_move``.
- ``VecEnv``: many games stepped in one call, in parallel, into preallocated numpy arrays.
- ``Bot``: ddz's robots (``random``, ``greedy``, ``value``, ``ddzlib``) as opponents.
- ``arena``, ``merge``: robots measured against each other, the reports of ``ddz arena --json``
  and ``ddz arena merge`` as dicts.
- ``analyse``: a recorded game's plays rated by the search (复盘), the dict of
  ``ddz analyse --json``.
- ``ddz.rlcard_env.make()``: an environment with ``rlcard.make('doudizhu')``'s interface.
- ``ddz.pettingzoo_env.env()``: a PettingZoo AEC environment with action masks.
- ``ddz.gym_env.SeatEnv``: a Gymnasium environment for one seat, the others played by robots.
"""

from ._ddz import (
    NUM_ACTIONS,
    PASS_ID,
    Bot,
    IllegalMoveError,
    TableEnv,
    VecEnv,
    action_id,
    action_name,
    bot_names,
    card_vector,
)
from ._env import Env
from ._analysis import analyse
from ._arena import arena, merge

__all__ = [
    "NUM_ACTIONS",
    "PASS_ID",
    "Bot",
    "Env",
    "IllegalMoveError",
    "TableEnv",
    "VecEnv",
    "action_id",
    "action_name",
    "analyse",
    "arena",
    "bot_names",
    "card_vector",
    "merge",
]
