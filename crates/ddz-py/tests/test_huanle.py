"""Showing cards (明牌) and doubling (加倍) in `ddz.Env` under the `huanle` profile: the new
phases as actions, shown hands and doublings in what the environment tells every seat, the
fixed-landlord encodings unchanged."""

import random

import numpy as np
import pytest

import ddz


def play_huanle(seed, show_seat=None):
    """Plays one huanle game: `show_seat` shows at its first window with cards, everyone
    doubles with the largest factor, bids call, plays are random. Returns the env and what
    was seen."""
    env = ddz.Env("huanle", seed=seed)
    rng = random.Random(seed)
    seen = {"shows": 0, "doublings": 0}
    while not env.done:
        seat = env.seat
        factor = env.legal_show()
        if factor is not None:
            assert env.phase in ("dealing", "landlord_show")
            show = seat == show_seat and len(env.hand(seat)) > 0 and env.shown()[seat] is None
            before = env.shown()
            if not show:
                assert before[seat] is None or env.phase == "landlord_show"
            env.show(show)
            if show:
                seen["shows"] += 1
                # Public from the show on, as the seat's hand is now.
                assert env.shown()[seat] == env.hand(seat)
            continue
        choices = env.legal_doublings()
        if choices:
            assert env.phase == "doubling" and choices[0] == 1
            env.double(choices[-1])
            seen["doublings"] += 1
            assert env.doublings()[seat] == choices[-1]
            continue
        bids = env.legal_bids()
        if bids:
            env.bid(bids[-1])
            continue
        moves = env.legal_moves()
        env.step(moves[rng.randrange(len(moves))])
        for s, cards in enumerate(env.shown()):
            if cards is not None:
                assert cards == env.hand(s)
    return env, seen


def test_a_huanle_game_with_a_show_and_doublings():
    env, seen = play_huanle(1, show_seat=0)
    assert seen["shows"] == 1
    assert seen["doublings"] == 3
    assert env.doublings() == [4, 4, 4]
    scores = env.payoffs("score")
    assert sum(scores) == 0
    # Each pair's multiplier is the table's x 4 x 4; the landlord's is the sum of both.
    landlord = env.landlord
    mults = env.multipliers()
    farmers = [s for s in range(3) if s != landlord]
    assert mults[landlord] == sum(mults[s] for s in farmers)
    assert all(abs(scores[s]) >= 16 for s in farmers)


def test_many_huanle_games_end_zero_sum():
    for seed in range(30):
        env, _ = play_huanle(seed, show_seat=seed % 4 if seed % 4 < 3 else None)
        assert sum(env.payoffs("score")) == 0


def test_decisions_out_of_turn_are_refused():
    env = ddz.Env("huanle", seed=3)
    assert env.phase == "dealing" and env.legal_show() == 5
    with pytest.raises(ddz.IllegalMoveError, match="decide whether to show first") as refused:
        env.double(2)
    assert refused.value.code == "wrong_phase"
    with pytest.raises(ddz.IllegalMoveError, match="decide whether to show first"):
        env.step("pass")
    with pytest.raises(ddz.IllegalMoveError):
        env.bid(1)
    while env.legal_show() is not None:
        env.show(False)
    with pytest.raises(ddz.IllegalMoveError, match="bid first") as refused:
        env.show(True)
    assert refused.value.code == "wrong_phase"


def test_fixed_landlord_encodings_are_unchanged_by_default():
    # The profiles without the variants never stop for a show or a doubling.
    for rules in ("rlcard", "douzero"):
        env = ddz.Env(rules, seed=5)
        assert env.phase == "playing"
        assert env.legal_show() is None and env.legal_doublings() == []
        assert env.shown() == [None, None, None]
        assert env.doublings() == [None, None, None]
        before = env.observe(encoding="rlcard")
        assert before.dtype.name == "int8"


def mirror(env, option):
    """Plays a VecEnv option on an `Env` through the Env's own calls."""
    if option in ("hide", "show"):
        env.show(option == "show")
    elif option.startswith("x"):
        env.double(int(option[1:]))
    else:
        env.step(option)


def test_vecenv_takes_the_show_and_double_phases_as_actions():
    n = 3
    v = ddz.VecEnv(n, rules="huanle", landlord=0, seed=11, encoding="douzero", actions="index")
    rng = random.Random(11)
    twins = [v.env(i) for i in range(n)]
    seen = {name: 0 for name in ddz.VecEnv.PHASES}
    finished = 0
    while finished < 6:
        actions = []
        for i in range(n):
            options = v.legal_moves(i)
            phase = ddz.VecEnv.PHASES[v.phases[i]]
            seen[phase] += 1
            assert len(options) == v.num_moves[i]
            twin = twins[i]
            assert twin.seat == v.seats[i]
            if phase == "show":
                assert options == ["hide", "show"] and twin.legal_show() is not None
                # The hand so far is the observation's first 54 values.
                assert (v.obs[i, :54] == ddz.card_vector(twin.hand(twin.seat) or "pass")).all()
                pick = 1 if rng.random() < 0.2 else 0
            elif phase == "doubling":
                assert options == [f"x{f}" for f in twin.legal_doublings()]
                pick = rng.randrange(len(options))
            else:
                assert phase == "playing" and options == twin.legal_moves()
                pick = rng.randrange(len(options))
            mirror(twin, options[pick])
            actions.append(pick)
        v.step(np.array(actions, dtype=np.int64))
        for i in range(n):
            if v.dones[i]:
                finished += 1
                assert twins[i].done
                assert list(v.rewards[i]) == list(twins[i].payoffs("score"))
                assert v.rewards[i].sum() == 0
                twins[i] = v.env(i)
            else:
                assert not twins[i].done and v.rewards[i].sum() == 0
    assert seen["show"] > 0 and seen["doubling"] > 0 and seen["playing"] > 0
    assert seen["bidding"] == 0


def test_vecenv_refuses_an_option_out_of_range_and_changes_nothing():
    v = ddz.VecEnv(2, rules="huanle", landlord=0)
    with pytest.raises(ddz.IllegalMoveError, match=r"game 1: index 2 is out of range: 2 options \(hide, show\)"):
        v.step([0, 2])
    assert list(v.phases) == [1, 1] and v.env(0).shown() == [None, None, None]


def test_vecenv_plays_whole_huanle_games_bidding_showing_and_doubling():
    v = ddz.VecEnv(3, rules="huanle", seed=5)
    rng = random.Random(5)
    seen = set()
    games = 0
    while games < 6:
        seen.update(ddz.VecEnv.PHASES[p] for p in v.phases)
        v.step([rng.randrange(k) for k in v.num_moves])
        for i in np.flatnonzero(v.dones):
            games += 1
            assert v.rewards[i].sum() == 0
    assert seen == {"bidding", "show", "doubling", "playing"}


def test_robots_play_whole_huanle_games_from_python():
    bot = ddz.Bot("value")
    kinds = set()
    for seed in range(3):
        env = ddz.Env("huanle", seed=seed)
        while not env.done:
            phase = env.phase
            choice = bot.act(env)
            if phase in ("dealing", "landlord_show"):
                assert isinstance(choice, bool)
            elif phase == "doubling":
                assert choice in env.legal_doublings()
            elif phase == "bidding":
                assert choice in env.legal_bids()
            else:
                assert choice in env.legal_moves()
            kinds.add(phase)
            assert bot.play(env) == choice
        assert sum(env.payoffs("score")) == 0
    assert {"dealing", "bidding", "doubling", "playing"} <= kinds
