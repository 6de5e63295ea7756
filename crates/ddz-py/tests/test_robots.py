"""ddz.VecEnv with robot opponents: the learner plays one seat or one side, ddz's robots the
others inside Rust; each step returns at the learner's turn."""

import numpy as np
import pytest

import ddz


def learner_pick(rng, venv, i):
    return int(rng.integers(venv.num_moves[i]))


@pytest.mark.parametrize("learner,seats", [(0, {0}), (2, {2}), ("landlord", {0}), ("farmers", {1, 2})])
def test_the_learner_is_always_to_act(learner, seats):
    v = ddz.VecEnv(6, rules="douzero", encoding="douzero", seed=4, learner=learner, opponents="greedy")
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(200):
        assert set(v.seats.tolist()) <= seats
        v.step(np.array([learner_pick(rng, v, i) for i in range(6)]))
        for i in np.flatnonzero(v.dones):
            finished += 1
            assert v.rewards[i].sum() == 0
    assert finished >= 6


@pytest.mark.parametrize("opponents,learner", [("greedy", 0), ("value", 1), ("value", "farmers")])
def test_robot_seats_play_as_the_robot_would_in_the_every_seat_form(opponents, learner):
    """The same games played twice: the robots inside Rust, and in the every-seat VecEnv with
    `ddz.Bot` choosing for the robot seats from Python (these robots ignore their seed)."""
    inside = ddz.VecEnv(1, rules="douzero", encoding="douzero", seed=8, learner=learner, opponents=opponents)
    outside = ddz.VecEnv(1, rules="douzero", encoding="douzero", seed=8)
    learner_seats = {0: {0}, 1: {1}, "farmers": {1, 2}}[learner]
    bot = ddz.Bot(opponents)

    def robots_play():
        """Robot moves in `outside` up to the learner's turn; the payoffs of a game that ends."""
        ended = None
        while outside.seats[0] not in learner_seats:
            move = bot.act(outside.env(0))
            outside.step([outside.legal_moves(0).index(move)])
            if outside.dones[0]:
                ended = outside.rewards[0].copy()
        return ended

    rng = np.random.default_rng(8)
    robots_play()
    games = 0
    while games < 6:
        assert np.array_equal(inside.obs, outside.obs) and np.array_equal(inside.z, outside.z)
        assert inside.seats[0] == outside.seats[0] and inside.seats[0] in learner_seats
        pick = learner_pick(rng, inside, 0)
        inside.step([pick])
        outside.step([pick])
        ended = outside.rewards[0].copy() if outside.dones[0] else None
        later = robots_play()
        ended = later if later is not None else ended
        assert bool(inside.dones[0]) == (ended is not None)
        if ended is not None:
            games += 1
            assert inside.rewards[0].tolist() == ended.tolist()


def test_robots_take_the_show_and_doubling_decisions_under_huanle():
    v = ddz.VecEnv(4, rules="huanle", landlord=0, seed=2, learner=1, opponents="value")
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(400):
        assert (v.seats == 1).all()
        v.step(np.array([learner_pick(rng, v, i) for i in range(4)]))
        for i in np.flatnonzero(v.dones):
            finished += 1
            assert v.rewards[i].sum() == 0
    assert finished >= 4


def test_bad_learner_or_opponents_are_named():
    with pytest.raises(ValueError, match="give learner too"):
        ddz.VecEnv(2, rules="douzero", opponents="value")
    with pytest.raises(ValueError, match="learner 3: seats are 0, 1 and 2"):
        ddz.VecEnv(2, rules="douzero", learner=3)
    with pytest.raises(ValueError, match="learner left"):
        ddz.VecEnv(2, rules="douzero", learner="left")
    with pytest.raises(ValueError, match='opponents "nobody"'):
        ddz.VecEnv(2, rules="douzero", learner=0, opponents="nobody")
