"""The wrappers pass their frameworks' own checkers, and RLCard agents run unchanged."""

import importlib.util
import random

import numpy as np
import pytest

import ddz
import golden

HAS_RLCARD = importlib.util.find_spec("rlcard") is not None
HAS_PETTINGZOO = importlib.util.find_spec("pettingzoo") is not None
HAS_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None


@pytest.mark.skipif(not HAS_PETTINGZOO, reason="pettingzoo is not installed")
# api_test warns that Dict observations are not plain arrays, as for PettingZoo's own classic
# games with action masks.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from ddz import pettingzoo_env

    api_test(pettingzoo_env.env(), num_cycles=300)
    api_test(pettingzoo_env.raw_env(reward="win"), num_cycles=300)


@pytest.mark.skipif(not HAS_PETTINGZOO, reason="pettingzoo is not installed")
def test_pettingzoo_game_pays_the_env_payoffs():
    from ddz import pettingzoo_env

    e = pettingzoo_env.raw_env()
    e.reset(seed=3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].sum() > 0
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sum(totals.values()) == 0 and any(totals.values())
    with pytest.raises(ValueError, match="rlcard"):
        pettingzoo_env.raw_env(rules="classic")


@pytest.mark.skipif(not HAS_GYMNASIUM, reason="gymnasium is not installed")
def test_gymnasium_env_checker():
    from gymnasium.utils.env_checker import check_env

    from ddz import gym_env

    for seat in (0, 1, 2):
        check_env(gym_env.SeatEnv(seat=seat), skip_render_check=True)


@pytest.mark.skipif(not HAS_GYMNASIUM, reason="gymnasium is not installed")
def test_gymnasium_episodes():
    from ddz import gym_env

    env = gym_env.SeatEnv(seat=1, opponents=("value", "greedy"))
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    episodes = 0
    while episodes < 5:
        mask = env.action_masks()
        assert np.array_equal(obs["action_mask"], mask.astype(np.int8))
        assert len(info["legal_moves"]) == mask.sum()
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
        if terminated:
            assert reward in (-1.0, 1.0) or abs(reward) >= 2
            episodes += 1
            obs, info = env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"] and reward == -2.0
    strict = gym_env.SeatEnv(illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ddz.IllegalMoveError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_rlcard_compatible_env_runs_a_random_agent():
    from ddz import rlcard_env

    class Uniform:
        use_raw = False

        def __init__(self, seed):
            self.rng = random.Random(seed)

        def step(self, state):
            return self.rng.choice(list(state["legal_actions"].keys()))

        def eval_step(self, state):
            return self.step(state), {}

    env = rlcard_env.make(config={"seed": 7, "allow_step_back": True})
    assert env.num_actions == 27472 and env.state_shape == [[790], [901], [901]]
    env.set_agents([Uniform(s) for s in range(3)])
    trajectories, payoffs = env.run(is_training=True)
    assert sorted(payoffs.tolist()) in ([0, 0, 1], [0, 1, 1])
    assert all(len(t) >= 2 for t in trajectories)
    state, player = env.reset()
    assert set(state) == {"obs", "legal_actions", "raw_obs", "raw_legal_actions", "action_record"}
    first = state["obs"].copy()
    action = next(iter(state["legal_actions"]))
    env.step(action)
    state, player = env.step_back()
    assert player == 0 and np.array_equal(state["obs"], first)


@pytest.mark.skipif(not HAS_RLCARD, reason="rlcard is not installed")
def test_rlcard_agents_run_unchanged():
    from rlcard.agents import RandomAgent
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    from ddz import rlcard_env

    env = rlcard_env.make(config={"seed": 1})
    env.set_agents([DouDizhuRuleAgentV1(), RandomAgent(env.num_actions),
                    DouDizhuRuleAgentV1()])
    for _ in range(5):
        _, payoffs = env.run(is_training=False)
        assert sum(payoffs) in (1, 2)


@pytest.mark.skipif(not HAS_RLCARD, reason="rlcard is not installed")
def test_rlcard_compatible_states_equal_rlcards():
    """The wrapper's state dicts equal RLCard's own on the same deal and actions (legal
    actions compared as sets: RLCard's order comes from a Python set)."""
    import rlcard

    from ddz import rlcard_env

    theirs = rlcard.make("doudizhu", config={"seed": 3})
    ours = rlcard_env.make(config={"seed": 3})
    rng = random.Random(3)
    for _ in range(5):
        t_state, t_player = theirs.reset()
        players = theirs.game.players
        ours.reset()
        ours._env.reset(deal={
            "landlord": players[0].initial_hand,
            "landlord_down": players[1].initial_hand,
            "landlord_up": players[2].initial_hand,
            "kitty": theirs.game.round.seen_cards,
        })
        ours._seen = ours._env.kitty
        o_state = ours.get_state(0)
        while True:
            assert np.array_equal(o_state["obs"], t_state["obs"])
            assert o_state["obs"].dtype == t_state["obs"].dtype
            assert set(o_state["legal_actions"]) == set(t_state["legal_actions"])
            for k, v in t_state["legal_actions"].items():
                assert np.array_equal(o_state["legal_actions"][k], v)
            t_raw, o_raw = dict(t_state["raw_obs"]), dict(o_state["raw_obs"])
            assert sorted(o_raw.pop("actions")) == sorted(t_raw.pop("actions"))
            assert o_raw == t_raw
            assert sorted(o_state["raw_legal_actions"]) == sorted(t_state["raw_legal_actions"])
            assert o_state["action_record"] == t_state["action_record"]
            if theirs.is_over():
                break
            action = rng.choice(sorted(t_state["legal_actions"]))
            t_state, t_player = theirs.step(action)
            o_state, o_player = ours.step(action)
            assert o_player == t_player
        assert ours.is_over()
        assert ours.get_payoffs().tolist() == theirs.get_payoffs().tolist()
        for p in range(3):
            assert np.array_equal(ours.get_state(p)["obs"], theirs.get_state(p)["obs"])
    assert golden.ORDER == "3456789TJQKA2BR"


@pytest.mark.skipif(not HAS_PETTINGZOO, reason="pettingzoo is not installed")
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_api_test_with_bidding():
    from pettingzoo.test import api_test

    from ddz import pettingzoo_env

    api_test(pettingzoo_env.env(bidding="points"), num_cycles=300)
    api_test(pettingzoo_env.raw_env(bidding="call_rob", reward="wp"), num_cycles=300)


@pytest.mark.skipif(not HAS_PETTINGZOO, reason="pettingzoo is not installed")
def test_pettingzoo_bids_are_the_ids_after_rlcards():
    from ddz import pettingzoo_env

    e = pettingzoo_env.raw_env(bidding="points")
    e.reset(seed=5)
    assert e.action_space("player_0").n == ddz.NUM_ACTIONS + 4
    obs = e.observe(e.agent_selection)
    assert np.flatnonzero(obs["action_mask"]).tolist() == [ddz.NUM_ACTIONS + b for b in range(4)]
    assert obs["observation"][78:].sum() == 0 and obs["observation"][:54].sum() == 17
    bids, totals = 0, dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        bids += int(legal[-1] >= ddz.NUM_ACTIONS)
        e.step(int(legal[-1]))  # the highest bid, then the last legal move
    assert bids >= 1 and sum(totals.values()) == 0 and any(totals.values())
    with pytest.raises(ValueError, match="bidding 'auction'"):
        pettingzoo_env.raw_env(bidding="auction")


@pytest.mark.skipif(not HAS_GYMNASIUM, reason="gymnasium is not installed")
def test_gymnasium_env_checker_with_bidding():
    from gymnasium.utils.env_checker import check_env

    from ddz import gym_env

    for seat in (0, 1, 2):
        env = gym_env.SeatEnv(seat=seat, bidding="points")
        check_env(env, skip_render_check=True)
        assert env.action_space.n == ddz.NUM_ACTIONS + 4
    env = gym_env.SeatEnv(seat=1, bidding="call_rob", opponents="greedy")
    obs, _ = env.reset(seed=2)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, done, _, _ = env.step(int(legal[-1]))
        steps += 1
    assert steps > 1
