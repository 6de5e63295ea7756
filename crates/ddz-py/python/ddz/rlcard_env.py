"""An environment with the interface of ``rlcard.make('doudizhu')``, played by ddz's engine.

``make(config)`` returns a ``DoudizhuEnv`` with RLCard's attributes and methods (``reset``,
``step``, ``step_back``, ``set_agents``, ``run``, ``is_over``, ``get_player_id``,
``get_state``, ``get_payoffs``, ``get_perfect_information``, ``get_action_feature``,
``num_players``, ``num_actions``, ``state_shape``, ``action_shape``) and the same state dicts:
``obs`` (RLCard's vector, equal to RLCard's own), ``legal_actions`` (an OrderedDict from
RLCard action id to the action's 54-value card vector), ``raw_obs`` (``seen_cards``,
``landlord``, ``trace``, ``played_cards``, ``self``, ``current_hand``, ``others_hand``,
``num_cards_left``, ``actions``), ``raw_legal_actions`` and ``action_record``. RLCard's agents
(``RandomAgent``, the rule agents, DQN, NFSP, DMC) run on it unchanged.

It needs no ``rlcard`` installed. Differences: legal actions are computed for the seat to act
only (``get_state`` of another seat lists none), and the order of ``legal_actions`` is ddz's
(RLCard's follows a Python set); the set of ids is the same. ``get_perfect_information`` has
no ``hand_cards_with_suit`` (ddz's rules never look at suits).
"""

from collections import OrderedDict

import numpy as np

from ._ddz import Env, action_name, card_vector

_ORDER = "3456789TJQKA2BR"


def _sorted_cards(text):
    return "".join(sorted(text, key=_ORDER.index))


class DoudizhuEnv:
    """RLCard's Dou Dizhu environment interface over ``ddz.Env("rlcard")``."""

    def __init__(self, config=None):
        config = dict(config or {})
        self.name = "doudizhu"
        self.allow_step_back = bool(config.get("allow_step_back", False))
        self.num_players = 3
        self.num_actions = 27472
        self.state_shape = [[790], [901], [901]]
        self.action_shape = [[54] for _ in range(self.num_players)]
        self.timestep = 0
        self.action_recorder = []
        self.agents = None
        self._env = Env("rlcard")
        self._seen = ""
        self._seen_history = []
        self._trace = []
        self._played = ["", "", ""]
        self.seed(config.get("seed"))

    def seed(self, seed=None):
        """Seeds the sequence of deals; ``None`` draws a seed. Returns the seed."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._env = Env("rlcard", seed=int(seed))
        return seed

    # ------------------------------------------------------------------ RLCard's API

    def reset(self):
        """Starts a new game; returns ``(state, player_id)``."""
        self._env.reset()
        self.action_recorder = []
        self._seen = self._env.kitty
        self._seen_history = []
        self._trace = []
        self._played = ["", "", ""]
        player = self._env.seat
        return self.get_state(player), player

    def step(self, action, raw_action=False):
        """Plays an action id (or with ``raw_action`` an action string); returns
        ``(next_state, next_player_id)``."""
        player = self._env.seat
        if raw_action:
            word = str(action)
            self._env.step(word)
        else:
            word = action_name(int(action))
            self._env.step(int(action))
        self.timestep += 1
        self.action_recorder.append((player, word))
        self._trace.append((player, word))
        self._seen_history.append((self._seen, self._played[player]))
        if word != "pass":
            self._played[player] = _sorted_cards(self._played[player] + word)
        if player == self._env.landlord and word != "pass":
            # RLCard removes every copy of a played rank from the shown kitty cards.
            for c in word:
                if c in self._seen:
                    self._seen = self._seen.replace(c, "")
        next_player = (player + 1) % 3
        return self.get_state(next_player), next_player

    def step_back(self):
        """Takes back the last action (``allow_step_back`` must be on)."""
        if not self.allow_step_back:
            raise Exception(
                "Step back is off. To use step_back, please set allow_step_back=True in rlcard.make")
        if not self.action_recorder:
            return False
        self._env.undo()
        self.action_recorder.pop()
        player, _ = self._trace.pop()
        self._seen, self._played[player] = self._seen_history.pop()
        player = self._env.seat
        return self.get_state(player), player

    def set_agents(self, agents):
        """Sets the agents ``run`` plays with."""
        self.agents = agents

    def run(self, is_training=False):
        """Plays a whole game with the agents; returns ``(trajectories, payoffs)`` as RLCard."""
        trajectories = [[] for _ in range(self.num_players)]
        state, player_id = self.reset()
        trajectories[player_id].append(state)
        while not self.is_over():
            if not is_training:
                action, _ = self.agents[player_id].eval_step(state)
            else:
                action = self.agents[player_id].step(state)
            next_state, next_player_id = self.step(action, self.agents[player_id].use_raw)
            trajectories[player_id].append(action)
            state = next_state
            player_id = next_player_id
            if not self.is_over():
                trajectories[player_id].append(state)
        for player_id in range(self.num_players):
            trajectories[player_id].append(self.get_state(player_id))
        return trajectories, self.get_payoffs()

    def is_over(self):
        """True once a hand is empty."""
        return self._env.done

    def get_player_id(self):
        """The seat to act (the last seat to play once the game is over)."""
        seat = self._env.seat
        if seat is None:
            return self.action_recorder[-1][0] if self.action_recorder else 0
        return seat

    def get_state(self, player_id):
        """The state dict of ``player_id`` (see the module docs)."""
        env = self._env
        acting = env.seat == player_id
        obs = env.observe(player_id, encoding="rlcard")
        if acting:
            # Under the rlcard rules a move's notation is RLCard's word for it.
            words = env.legal_moves()
            legal = OrderedDict(zip(env.legal_action_ids().tolist(), env.legal_move_cards()))
        else:
            words, legal = [], OrderedDict()
        hands = env.hands()
        raw = {
            "seen_cards": self._seen,
            "landlord": env.landlord,
            "trace": list(self._trace),
            "played_cards": list(self._played),
            "self": player_id,
            "current_hand": hands[player_id],
            "others_hand": _sorted_cards(
                "".join(h for s, h in enumerate(hands) if s != player_id)),
            "num_cards_left": env.cards_left(),
            "actions": words,
        }
        state = OrderedDict({"obs": obs, "legal_actions": legal})
        state["raw_obs"] = raw
        state["raw_legal_actions"] = list(words)
        state["action_record"] = self.action_recorder
        return state

    def get_payoffs(self):
        """RLCard's payoffs: 1 for each seat of the winning side, 0 for the others."""
        return self._env.payoffs("win").astype(int)

    def get_perfect_information(self):
        """Every hand, the trace, the seat to act and its legal actions."""
        info = self._env.perfect_information()
        return {
            "hand_cards": info["hand_cards"],
            "trace": info["trace"],
            "current_player": info["current_player"],
            "legal_actions": info["legal_actions"],
        }

    def get_action_feature(self, action):
        """The 54-value card vector of an action id."""
        return card_vector(action_name(int(action)))

    def _decode_action(self, action_id):
        return action_name(int(action_id))

    def _get_legal_actions(self):
        return self.get_state(self._env.seat)["legal_actions"]


def make(env_id="doudizhu", config=None):
    """``rlcard.make('doudizhu', config)`` played by ddz: returns a ``DoudizhuEnv``."""
    if isinstance(env_id, dict) and config is None:
        env_id, config = "doudizhu", env_id
    if env_id != "doudizhu":
        raise ValueError(f"ddz plays doudizhu only, not {env_id!r}")
    return DoudizhuEnv(config)
