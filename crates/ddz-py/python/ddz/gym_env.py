"""A Gymnasium environment for one seat of Dou Dizhu, the other two played by ddz's robots.

``SeatEnv(seat=0, opponents="value", rules="rlcard", reward="score")``: the agent plays
``seat`` (under the rlcard rules seat 0 is the landlord, 1 landlord_down, 2 landlord_up);
``opponents`` is a robot name or a pair of names (``random``, ``greedy``, ``value``,
``ddzlib``). Observations are dicts: ``observation`` (int8, 901: RLCard's vector of the seat,
the landlord's 790 values padded with zeros) and ``action_mask`` (int8, 27,472: the legal
RLCard actions). Actions are RLCard action ids. The reward comes at the end of the game
(``score``: the seat's points, ``win``: 1 or 0, ``wp``: ±1). An illegal action ends the episode
with ``illegal_reward`` (``info["illegal_action"]`` is True), or raises
``ddz.IllegalMoveError`` with ``illegal="raise"``. ``action_masks()`` serves maskable agents.

``bidding="points"`` or ``"call_rob"`` (an option; the fixed landlord is the default) starts
each game with the bidding, the robots bidding for their seats: the actions are RLCard's ids
followed by four bid ids (``NUM_ACTIONS + b`` bids ``b``), the mask covers 27,476 ids, and
while bidding the observation is ddz's bidding observation (``Env.observe``: 78 values, then
zeros). The seat's role is then decided by the bidding.
"""

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._bids import action_count, act, check_bidding, legal_mask
from ._ddz import Bot, Env, IllegalMoveError

OBS_LEN = 901


class SeatEnv(gym.Env):
    """One seat of Dou Dizhu against two ddz robots (see the module docs)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, seat=0, opponents="value", rules="rlcard", reward="score",
                 illegal="end", illegal_reward=-2.0, render_mode=None, bidding=None):
        if rules != "rlcard":
            raise ValueError("SeatEnv uses RLCard's action ids: rules='rlcard'")
        if seat not in (0, 1, 2):
            raise ValueError(f"seat {seat}: seats are 0, 1 and 2")
        if reward not in ("score", "win", "wp"):
            raise ValueError(f"reward {reward!r}: rewards are score, win, wp")
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal {illegal!r}: end or raise")
        if isinstance(opponents, str):
            opponents = (opponents, opponents)
        self._opponent_names = tuple(opponents)
        for name in self._opponent_names:
            Bot(name)  # fails early on an unknown name
        self.seat = seat
        self._rules = rules
        self._reward = reward
        self._illegal = illegal
        self._illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._bidding = check_bidding(bidding)
        self._num_actions = action_count(self._bidding)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=0, high=1, shape=(OBS_LEN,), dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self._num_actions)
        self._game = Env(rules, bidding=self._bidding)
        self._bots = {}

    def _obs(self):
        obs = np.zeros(OBS_LEN, dtype=np.int8)
        o = self._game.observe(self.seat, encoding="rlcard")
        obs[: o.size] = o
        return {"observation": obs, "action_mask": self.action_masks().astype(np.int8)}

    def action_masks(self):
        """The legal actions of the seat (bool: RLCard's 27,472 ids, and the 4 bid ids with
        bidding), all False once the game ended."""
        if self._game.done or self._game.seat != self.seat:
            return np.zeros(self._num_actions, dtype=bool)
        return legal_mask(self._game, self._num_actions)

    def _opponents_play(self):
        while not self._game.done and self._game.seat != self.seat:
            self._bots[self._game.seat].play(self._game)

    def _info(self):
        return {"legal_moves": self._game.legal_moves() if not self._game.done else []}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._game.reset(seed=game_seed)
        others = [s for s in range(3) if s != self.seat]
        self._bots = {s: Bot(name, seed=game_seed + s)
                      for s, name in zip(others, self._opponent_names)}
        self._opponents_play()
        return self._obs(), self._info()

    def step(self, action):
        try:
            act(self._game, action, self._bidding)
        except IllegalMoveError:
            if self._illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self._illegal_reward, True, False, info
        self._opponents_play()
        reward = 0.0
        if self._game.done:
            reward = float(self._game.payoffs(self._reward)[self.seat])
        return self._obs(), reward, self._game.done, False, self._info()

    def render(self):
        if self.render_mode != "ansi":
            return None
        return "\n".join(f"seat {s}: {h}" for s, h in enumerate(self._game.hands()))
