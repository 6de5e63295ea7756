"""Showing cards (明牌) and doubling (加倍) in `ddz.Env` under the `huanle` profile: the new
phases as actions, shown hands and doublings in what the environment tells every seat, the
fixed-landlord encodings unchanged."""

import random

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
    with pytest.raises(ddz.IllegalMoveError, match="no doubling decision now"):
        env.double(2)
    with pytest.raises(ddz.IllegalMoveError, match="decide first"):
        env.step("pass")
    with pytest.raises(ddz.IllegalMoveError):
        env.bid(1)
    while env.legal_show() is not None:
        env.show(False)
    with pytest.raises(ddz.IllegalMoveError, match="no show decision now"):
        env.show(True)


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


def test_vecenv_refuses_the_variants_with_the_reason():
    with pytest.raises(ValueError, match="does not offer show and doubling decisions yet"):
        ddz.VecEnv(2, rules="huanle", landlord=0)
