"""ddz.VecEnv: batched stepping into preallocated arrays."""

import sys
import threading
import time

import numpy as np
import pytest

import ddz


def random_legal_ids(venv, rng):
    """One random legal RLCard id per game, from the mask."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in venv.mask], dtype=np.int64)


def test_shapes_and_same_arrays_every_step():
    v = ddz.VecEnv(8, "rlcard", seed=1)
    obs, mask, seats, rewards, dones = v.reset()
    assert obs.shape == (8, 901) and obs.dtype == np.int8
    assert mask.shape == (8, ddz.NUM_ACTIONS) and mask.dtype == np.bool_
    assert seats.tolist() == [0] * 8 and len(v) == v.num_envs == 8
    assert rewards.shape == (8, 3) and dones.shape == (8,)
    assert v.actions == "ids" and v.z is None
    rng = np.random.default_rng(0)
    out = v.step(random_legal_ids(v, rng))
    assert out[0] is obs and out[1] is mask and out[3] is rewards
    assert seats.tolist() == [1] * 8
    assert np.array_equal(v.num_moves, mask.sum(axis=1))


def test_matches_single_envs_and_auto_resets():
    v = ddz.VecEnv(4, "rlcard", seed=3)
    envs = [v.env(i) for i in range(4)]
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(300):
        for i, e in enumerate(envs):
            o = e.observe()
            assert np.array_equal(v.obs[i, : o.size], o)
            assert not v.obs[i, o.size:].any()
            assert sorted(np.flatnonzero(v.mask[i]).tolist()) == sorted(e.legal_action_ids().tolist())
            assert v.seats[i] == e.seat
        actions = random_legal_ids(v, rng)
        v.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            if e.done:
                assert v.dones[i]
                assert v.rewards[i].tolist() == e.payoffs().tolist()
                finished += 1
                envs[i] = v.env(i)
                assert envs[i].history() == []
            else:
                assert not v.dones[i] and not v.rewards[i].any()
    assert finished >= 4


def test_illegal_action_changes_nothing():
    v = ddz.VecEnv(3, "rlcard", seed=5)
    before = v.obs.copy()
    good = random_legal_ids(v, np.random.default_rng(1))
    bad = good.copy()
    bad[2] = ddz.PASS_ID
    with pytest.raises(ddz.IllegalMoveError, match="game 2"):
        v.step(bad)
    with pytest.raises(ValueError, match="2 given for 3 games"):
        v.step(good[:2])
    assert np.array_equal(v.obs, before)
    assert [v.env(i).history() for i in range(3)] == [[], [], []]
    v.step(list(good))


def test_index_actions_douzero_encoding_and_move_features():
    v = ddz.VecEnv(5, "douzero", seed=2, encoding="douzero")
    assert v.actions == "index" and v.mask is None
    assert v.obs.shape == (5, 430) and v.z.shape == (5, 5, 162)
    offsets, feats = v.move_features()
    assert offsets.tolist()[0] == 0 and offsets[-1] == feats.shape[0] == v.num_moves.sum()
    for i in range(5):
        e = v.env(i)
        d = e.observe(encoding="douzero", batch=False)
        assert np.array_equal(v.obs[i, :319], d["x_no_action"])
        assert np.array_equal(v.z[i], d["z"])
        assert np.array_equal(feats[offsets[i]:offsets[i + 1]], d["action_features"])
        assert v.legal_moves(i) == e.legal_moves()
    rng = np.random.default_rng(2)
    for _ in range(200):
        v.step((rng.random(5) * v.num_moves).astype(np.int64))
    with pytest.raises(ddz.IllegalMoveError, match="out of range"):
        v.step(v.num_moves)


def test_bidding_rules_start_bidding_unless_the_landlord_is_fixed():
    assert ddz.VecEnv(2, "classic").phases.tolist() == [3, 3]
    v = ddz.VecEnv(2, "classic", landlord=1)
    assert v.seats.tolist() == [1, 1]
    with pytest.raises(ValueError, match="rlcard profile only"):
        ddz.VecEnv(2, "classic", landlord=0, actions="ids")
    with pytest.raises(ValueError, match="at least one game"):
        ddz.VecEnv(0)


def test_steps_from_threads_release_the_gil():
    """Another Python thread makes progress while VecEnv.step runs (the GIL is released while
    stepping). The interpreter's forced GIL switch is pushed out of reach, so the counting
    thread can take the GIL only when the stepping thread gives it up: between the counter's
    value read just before a step and just after it, the counter moves only if step released
    the GIL. With the GIL held, the overlap is always 0."""
    v = ddz.VecEnv(64, "rlcard", seed=1, actions="index")
    rng = np.random.default_rng(0)
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0.0001)  # gives the GIL back, so the stepping thread can resume

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    counting = threading.Thread(target=count)
    overlap = 0
    try:
        counting.start()
        for _ in range(2000):
            actions = (rng.random(64) * v.num_moves).astype(np.int64)
            before = counter[0]
            v.step(actions)
            overlap += counter[0] - before
            if overlap >= 10:
                break
    finally:
        stop.set()
        counting.join()
        sys.setswitchinterval(old)
    assert overlap >= 10, f"the counting thread advanced {overlap} times during steps"
