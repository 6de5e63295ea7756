"""A PettingZoo AEC environment of Dou Dizhu with action masks, played by ddz's engine.

``env(rules="rlcard", reward="score")`` (wrapped as PettingZoo's classic games are: illegal
actions terminate with reward -1, actions are bounds-checked, the call order is enforced) or
``raw_env(...)``. Agents ``player_0`` (the landlord), ``player_1`` (landlord_down) and
``player_2`` (landlord_up). Each observation is a dict: ``observation`` (int8, 901: RLCard's
vector of that seat, the landlord's 790 values padded with zeros) and ``action_mask`` (int8,
27,472: the legal RLCard actions of the agent to act, all zeros for the others). Actions are
RLCard action ids. Rewards come at the end of the game: ``score`` the points (zero-sum,
DouZero's ADP), ``win`` 1 for the winning side and 0 else, ``wp`` ±1.

``bidding="points"`` or ``"call_rob"`` (an option; RLCard's fixed landlord is the default)
starts each game with the bidding: agent ``player_i`` is seat ``i``, the landlord being the
winner of the bidding; the actions are RLCard's ids followed by four bid ids (``NUM_ACTIONS +
b`` bids ``b``, ``ddz._bids``), the mask covers 27,476 ids, and while bidding the observation
is ddz's bidding observation (``Env.observe``: 78 values, then zeros).
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ._bids import action_count, act, check_bidding, legal_mask
from ._ddz import Env

OBS_LEN = 901


def env(**kwargs):
    """The wrapped environment (see the module docs)."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Dou Dizhu as a PettingZoo AEC environment (see the module docs)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "ddz_doudizhu_v0",
                "is_parallelizable": False}

    def __init__(self, rules="rlcard", reward="score", render_mode=None, bidding=None):
        super().__init__()
        if rules != "rlcard":
            raise ValueError("the PettingZoo environment uses RLCard's action ids: rules='rlcard'")
        if reward not in ("score", "win", "wp"):
            raise ValueError(f"reward {reward!r}: rewards are score, win, wp")
        self._rules = rules
        self._reward = reward
        self._bidding = check_bidding(bidding)
        self._num_actions = action_count(self._bidding)
        self.render_mode = render_mode
        self._game = Env(rules, bidding=self._bidding)
        self.possible_agents = [f"player_{i}" for i in range(3)]
        self.agents = self.possible_agents[:]
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=0, high=1, shape=(OBS_LEN,), dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._reset_state()

    def _reset_state(self):
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        seat = self._game.seat if self._game.seat is not None else 0
        while self.agent_selection != self.possible_agents[seat]:
            self.agent_selection = self._agent_selector.next()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = np.zeros(OBS_LEN, dtype=np.int8)
        o = self._game.observe(seat, encoding="rlcard")
        obs[: o.size] = o
        if self._game.seat == seat:
            mask = legal_mask(self._game, self._num_actions).astype(np.int8)
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._game = Env(self._rules, seed=int(seed), bidding=self._bidding)
        self._game.reset()
        self._reset_state()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        act(self._game, action, self._bidding)
        if self._game.done:
            payoffs = self._game.payoffs(self._reward)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(payoffs[i])
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0)
        self._accumulate_rewards()
        if self._game.done:
            self.agent_selection = self._agent_selector.next()
        else:
            # The seat to act: the next one, except when the bidding ends (the landlord leads).
            self.agent_selection = self.possible_agents[self._game.seat]
        if self.render_mode == "human":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        lines = [f"seat {s}: {h}" for s, h in enumerate(self._game.hands())]
        last = self._game.last_move()
        lines.append(f"to beat: {last[1]} (seat {last[0]})" if last else "to beat: nothing")
        return "\n".join(lines)

    def close(self):
        pass
