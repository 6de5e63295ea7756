"""Bidding for learning: ddz's bidding observation (hand-computed cases), bids as actions in
`Env` and `VecEnv`, and robots that bid."""

import numpy as np
import pytest

import ddz

HAND, SEAT, ME, NEXT, PREV, COUNT = 0, 54, 57, 62, 67, 72


def expected(hand, seat, me=None, nxt=None, prev=None, count=0):
    """The 78 values written out by hand: hand, seat one-hot, the last bids of the seat, the
    seat after it and the seat before it (one-hot over none, 0, 1, 2, 3), the count of bids."""
    x = np.zeros(78, np.int8)
    x[HAND:SEAT] = ddz.card_vector(hand)
    x[SEAT + seat] = 1
    for base, bid in ((ME, me), (NEXT, nxt), (PREV, prev)):
        x[base + (0 if bid is None else 1 + bid)] = 1
    x[COUNT + min(count, 5)] = 1
    return x


def test_the_bidding_observation_by_hand():
    env = ddz.Env("classic", seed=4)
    assert env.phase == "bidding"
    first = env.seat
    second, third = (first + 1) % 3, (first + 2) % 3
    x = env.observe()
    assert x.dtype == np.int8 and x.shape == (78,)
    assert (x == expected(env.hand(first), first)).all()
    # Nothing bid yet: the "none" slot of each seat, count 0.
    assert x[ME] == x[NEXT] == x[PREV] == x[COUNT] == 1 and x[54:].sum() == 5
    env.bid(1)
    assert env.seat == second
    assert (env.observe() == expected(env.hand(second), second, prev=1, count=1)).all()
    env.bid(0)
    # The first bidder's view: its own 1, the pass of the seat after it, third not yet.
    assert (env.observe(first) == expected(env.hand(first), first, me=1, nxt=0, count=2)).all()
    assert (env.observe() == expected(env.hand(third), third, nxt=1, prev=0, count=2)).all()
    dz = env.observe(encoding="douzero")
    assert dz["position"] == "bidding"
    assert (dz["x_no_action"] == env.observe()).all() and not dz["z"].any()
    assert env.legal_bids() == [0, 2, 3]
    assert dz["action_features"].tolist() == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert dz["x_batch"].shape == (3, 78 + 4) and dz["z_batch"].shape == (3, 5, 162)
    assert dz["x_batch"][1].tolist() == list(env.observe()) + [0, 0, 1, 0]
    env.bid(3)
    assert env.phase == "playing" and env.landlord == third
    assert env.observe(encoding="rlcard").shape in ((790,), (901,))


def test_call_and_rob_and_bidding_under_the_rlcard_profile():
    env = ddz.Env("rlcard", seed=2, bidding="call_rob")
    assert env.phase == "bidding" and env.legal_bids() == [0, 1]
    env.bid(1)
    x = env.observe()
    assert x[PREV + 2] == 1 and x[COUNT + 1] == 1
    with pytest.raises(ValueError, match="a fixed landlord does not bid"):
        ddz.Env("classic", landlord=0, bidding="points")
    with pytest.raises(ValueError, match='bidding "auction"'):
        ddz.Env("classic", bidding="auction")


def mirror(env, option):
    if option.startswith("bid "):
        env.bid(int(option[4:]))
    else:
        env.step(option)


@pytest.mark.parametrize("encoding", ["rlcard", "douzero"])
def test_vecenv_bids_as_actions(encoding):
    n = 3
    v = ddz.VecEnv(n, rules="classic", seed=6, encoding=encoding)
    assert v.actions == "index"
    twins = [v.env(i) for i in range(n)]
    rng = np.random.default_rng(6)
    bids = games = 0
    while games < 6:
        picks = []
        for i in range(n):
            options = v.legal_moves(i)
            if ddz.VecEnv.PHASES[v.phases[i]] == "bidding":
                bids += 1
                assert options == [f"bid {b}" for b in twins[i].legal_bids()]
                x = twins[i].observe(encoding=encoding)
                x = x if encoding == "rlcard" else x["x_no_action"]
                assert (v.obs[i, :78] == x).all() and not v.obs[i, 78:].any()
                if v.z is not None:
                    assert not v.z[i].any()
            else:
                assert options == twins[i].legal_moves()
            pick = int(rng.integers(len(options)))
            mirror(twins[i], options[pick])
            picks.append(pick)
        v.step(picks)
        for i in np.flatnonzero(v.dones):
            games += 1
            assert twins[i].done and list(v.rewards[i]) == list(twins[i].payoffs("score"))
            twins[i] = v.env(i)
    assert bids > 0


def test_robots_bid_for_the_other_seats():
    v = ddz.VecEnv(4, rules="classic", seed=1, learner=2, opponents="value", encoding="douzero")
    rng = np.random.default_rng(1)
    games = 0
    for _ in range(300):
        assert (v.seats == 2).all()
        v.step(rng.integers(v.num_moves))
        games += int(v.dones.sum())
    assert games >= 4
    with pytest.raises(ValueError, match="sides are not known before the bidding"):
        ddz.VecEnv(2, rules="classic", learner="farmers")
    with pytest.raises(ValueError, match="bids, shows and doublings have no RLCard id"):
        ddz.VecEnv(2, rules="rlcard", bidding="points", actions="ids")


def test_wild_ranks_after_the_rlcard_vector():
    env = ddz.Env("laizi", laizi="7", landlord=0, seed=3)
    plain = env.observe()
    x = env.observe(wild=True)
    assert plain.shape == (790,) and x.shape == (790 + 13,)
    assert (x[:790] == plain).all()
    # Ranks 3, 4, 5, 6, 7, ...: the 7 is the fifth.
    assert x[790:].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    v = ddz.VecEnv(2, rules="laizi", laizi="7", landlord=0, seed=3, wild=True)
    assert v.obs.shape == (2, 914)
    for i in range(2):
        o = v.env(i).observe(wild=True)
        assert (v.obs[i, : o.size] == o).all() and not v.obs[i, o.size:].any()
    with pytest.raises(ValueError, match="the classic rules have no wildcards"):
        ddz.Env("classic", landlord=0).observe(wild=True)
    with pytest.raises(ValueError, match="wild=True adds the wild ranks"):
        ddz.VecEnv(2, rules="laizi", landlord=0, encoding="douzero", wild=True)


def test_the_raw_observation_while_bidding_and_playing():
    env = ddz.Env("classic", seed=4)
    first = env.seat
    second = (first + 1) % 3
    env.bid(1)
    raw = env.observe(encoding="raw")
    assert raw == {
        "phase": "bidding",
        "seat": second,
        "to_act": True,
        "hand": env.hand(second),
        "landlord": None,
        "kitty": "",
        "laizi": "",
        "bids": [(first, 1)],
        "cards_left": [17, 17, 17],
        "history": [],
        "shown": [None, None, None],
        "doublings": [None, None, None],
        "legal_bids": [0, 2, 3],
        "legal_moves": [],
    }
    # Another seat's view: its own hand, nothing to choose.
    other = env.observe(first, encoding="raw")
    assert other["hand"] == env.hand(first) and not other["to_act"]
    assert other["legal_bids"] == [] and other["bids"] == [(first, 1)]
    env.bid(3)
    raw = env.observe(encoding="raw")
    assert raw["phase"] == "playing" and raw["landlord"] == second and len(raw["kitty"]) == 3
    assert raw["legal_moves"] == env.legal_moves() and raw["cards_left"][second] == 20
