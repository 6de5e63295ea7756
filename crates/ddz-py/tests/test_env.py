"""ddz.Env, ddz.Bot and the helper functions from Python."""

import copy
import json
import random

import numpy as np
import pytest

import ddz

DEAL = {
    "landlord": "333344445556789TJQKA",
    "landlord_down": "5666777888999TTTJ",
    "landlord_up": "JJQQQKKKAAA2222BR",
    "kitty": "345",
}


RANKS = "3456789TJQKA2"


def expected_card_vector(move):
    """RLCard's 54-value vector of a move in its notation, restated (rlcard's
    ``_cards2array``): for each rank 3..2 a column of four, the first n set for n cards, the
    columns one after another; then the small and the big joker."""
    out = np.zeros(54, dtype=np.int8)
    if move == "pass":
        return out
    for card in set(move):
        if card == "B":
            out[52] = 1
        elif card == "R":
            out[53] = 1
        else:
            column = RANKS.index(card)
            out[4 * column : 4 * column + move.count(card)] = 1
    return out


def test_expected_card_vector_is_rlcards():
    rlcard_doudizhu = pytest.importorskip("rlcard.envs.doudizhu")
    for move in ["pass", "3", "33", "3334", "2222BR", "3456789TJQKA", "TTTJJJQQQKKK"]:
        assert np.array_equal(expected_card_vector(move), rlcard_doudizhu._cards2array(move)), move


def play_random(env, rng):
    while not env.done:
        moves = env.legal_moves()
        env.step(moves[rng.randrange(len(moves))])


def test_reset_moves_ids_and_mask_agree():
    env = ddz.Env("rlcard", seed=3)
    assert env.reset() == 0
    assert env.phase == "playing" and env.landlord == 0 and env.seat == 0
    assert [len(h) for h in env.hands()] == [20, 17, 17]
    assert len(env.kitty) == 3
    moves = env.legal_moves()
    ids = env.legal_action_ids()
    assert ids.dtype == np.int64 and len(ids) == len(moves) == env.num_legal_moves()
    assert [ddz.action_name(int(i)) for i in ids] == moves
    mask = env.action_mask()
    assert mask.shape == (ddz.NUM_ACTIONS,) and mask.dtype == np.bool_
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids.tolist())
    assert not mask[ddz.PASS_ID], "no pass when leading"
    rows = env.legal_move_cards()
    assert rows.shape == (len(moves), 54)
    for m, row in zip(moves, rows):
        assert np.array_equal(row, expected_card_vector(m)), m
        assert np.array_equal(ddz.card_vector(m), expected_card_vector(m)), m


def test_step_by_string_id_and_index_then_payoffs():
    env = ddz.Env("rlcard", seed=5)
    rng = random.Random(5)
    kinds = 0
    while not env.done:
        moves = env.legal_moves()
        i = rng.randrange(len(moves))
        if kinds % 3 == 0:
            env.step(moves[i])
        elif kinds % 3 == 1:
            env.step(int(env.legal_action_ids()[i]))
        else:
            env.step_index(i)
        kinds += 1
    assert env.seat is None and env.phase == "over"
    score = env.payoffs()
    assert score.sum() == 0 and abs(score[0]) >= 2
    win = env.payoffs("win")
    assert sorted(win.tolist()) in ([0, 0, 1], [0, 1, 1])
    assert set(env.payoffs("wp").tolist()) == {-1.0, 1.0}
    with pytest.raises(ValueError, match="kinds are"):
        env.payoffs("nope")
    result = env.result()
    assert result["scores"] == [int(s) for s in score]
    assert result["winner"] in ("landlord", "farmers")
    record = json.loads(env.record())
    assert record["format"] == "ddz-record/1" and len(record["plays"]) == len(env.history())


def test_illegal_actions_raise_and_change_nothing():
    env = ddz.Env("rlcard", seed=1)
    before = env.hands()
    with pytest.raises(ddz.IllegalMoveError, match="you cannot pass") as refused:
        env.step("pass")
    # Every refusal carries ddz-game's stable code, as the web page and the protocol do.
    assert refused.value.code == "pass_when_leading"
    with pytest.raises(ddz.IllegalMoveError, match="not a rank") as refused:
        env.step("33Z")
    assert refused.value.code == "bad_notation"
    with pytest.raises(ddz.IllegalMoveError, match="not legal"):
        env.step(ddz.PASS_ID)
    with pytest.raises(ddz.IllegalMoveError, match="ids are 0 to 27471"):
        env.step(10**6)
    with pytest.raises(ddz.IllegalMoveError, match="out of range") as refused:
        env.step_index(10**4)
    assert refused.value.code == "bad_choice"
    with pytest.raises(ValueError, match="move string or an RLCard action id"):
        env.step(1.5)
    assert isinstance(ddz.IllegalMoveError("x"), ValueError)
    assert env.hands() == before and env.history() == []
    with pytest.raises(ValueError, match="not over"):
        env.payoffs()


def test_bad_arguments_say_what():
    with pytest.raises(ValueError, match="is not a rule profile"):
        ddz.Env("poker")
    with pytest.raises(ValueError, match="laizi"):
        ddz.Env("classic", laizi="7")
    with pytest.raises(ValueError, match="seats are 0, 1 and 2"):
        ddz.Env("classic", landlord=5)
    with pytest.raises(ValueError, match="rlcard profile only"):
        ddz.Env("classic", landlord=0).legal_action_ids()
    env = ddz.Env("rlcard")
    with pytest.raises(ValueError, match="encodings are"):
        env.observe(encoding="pixels")
    with pytest.raises(ValueError, match="seats are"):
        env.hand(3)
    with pytest.raises(ValueError, match="not 17"):
        env.reset(deal={**DEAL, "landlord_up": "JJ"})
    with pytest.raises(ValueError, match="no \"kitty\""):
        env.reset(deal={k: v for k, v in DEAL.items() if k != "kitty"})
    with pytest.raises(ValueError, match="unknown robot"):
        ddz.Bot("genius")
    with pytest.raises(ValueError, match="ids are 0 to 27471"):
        ddz.action_name(-1)


def test_given_deal_and_notation_forms():
    env = ddz.Env("classic", landlord=0)
    env.reset(deal=DEAL)
    assert env.hands()[0] == DEAL["landlord"]
    env.step("3456789TJQKA")
    assert env.last_move() == (0, "3456789TJQKA")
    env.step("pass")
    env.step("pass")
    assert env.last_move() is None
    env.step("33344455")
    assert env.done and env.result()["spring"]
    assert env.payoffs().tolist() == [4.0, -2.0, -2.0]


def test_observations_rlcard_and_douzero():
    env = ddz.Env("rlcard", seed=9)
    assert env.observe().shape == (790,)
    assert env.observe().dtype == np.int8
    assert env.observe(1).shape == (901,)
    d = env.observe(encoding="douzero")
    n = env.num_legal_moves()
    assert d["position"] == "landlord"
    assert d["x_no_action"].shape == (319,) and d["x_no_action"].dtype == np.int8
    assert d["z"].shape == (5, 162)
    assert d["action_features"].shape == (n, 54)
    assert d["x_batch"].shape == (n, 373) and d["x_batch"].dtype == np.float32
    assert d["z_batch"].shape == (n, 5, 162)
    assert np.array_equal(d["x_batch"][:, :319], np.tile(d["x_no_action"], (n, 1)))
    assert np.array_equal(d["x_batch"][:, 319:], d["action_features"])
    farmer = env.observe(2, encoding="douzero", batch=False)
    assert farmer["position"] == "landlord_up" and farmer["x_no_action"].shape == (430,)
    assert "x_batch" not in farmer and farmer["action_features"].shape == (0, 54)


def test_wildcard_rows_carry_the_reading():
    env = ddz.Env("laizi", laizi="7", landlord=0, seed=2)
    assert env.laizi == "7"
    d = env.observe(encoding="douzero")
    assert d["x_no_action"].shape == (319 + 13,)
    assert d["x_no_action"][-13:].tolist() == [0, 0, 0, 0, 1] + [0] * 8
    rows = d["action_features"]
    assert rows.shape[1] == 54 + 15
    moves = env.legal_moves()
    substituted = [i for i, m in enumerate(moves) if "=" in m]
    assert substituted, "a hand with a 7 has readings where it stands for another rank"
    for i, m in enumerate(moves):
        cards, _, reading = m.partition(":")[0].partition("=")
        reading = reading or cards
        counts = [reading.count(r) for r in "3456789TJQKA2BR"]
        assert rows[i, 54:].tolist() == counts, m
        assert np.array_equal(rows[i, :54], ddz.card_vector(cards))


def test_bidding_then_play():
    env = ddz.Env("classic", seed=4)
    assert env.phase == "bidding" and env.landlord is None and env.kitty == ""
    # While bidding: the bidding observation (tests/test_bidding.py).
    assert env.observe().shape == (78,)
    assert env.legal_moves() == []
    while env.phase == "bidding":
        bids = env.legal_bids()
        assert bids[0] == 0
        env.bid(bids[-1])
    assert env.landlord is not None and len(env.hand(env.landlord)) == 20
    assert env.role(env.landlord) == "landlord"
    with pytest.raises(ddz.IllegalMoveError):
        env.bid(1)
    play_random(env, random.Random(4))
    assert env.payoffs().sum() == 0


def test_clone_is_independent_and_undo_restores():
    env = ddz.Env("rlcard", seed=11)
    env.step(env.legal_moves()[0])
    twin = env.clone()
    for other in (copy.copy(env), copy.deepcopy(env), twin):
        assert other.hands() == env.hands() and other.history() == env.history()
    twin.step(twin.legal_moves()[-1])
    assert len(twin.history()) == 2 and len(env.history()) == 1
    obs = env.observe()
    env.step(env.legal_moves()[0])
    env.undo()
    assert np.array_equal(env.observe(), obs)
    env.undo()
    with pytest.raises(ddz.IllegalMoveError, match="nothing to undo"):
        env.undo()


def test_perfect_information():
    env = ddz.Env("rlcard", seed=12)
    info = env.perfect_information()
    assert info["hand_cards"] == env.hands()
    assert info["hand_arrays"].shape == (3, 54)
    assert info["hand_arrays"].sum() == 54
    assert info["current_player"] == 0 and info["landlord"] == 0
    assert info["legal_actions"] == env.legal_moves()
    assert info["trace"] == []


def test_seeds_repeat():
    a, b = ddz.Env("rlcard", seed=21), ddz.Env("rlcard", seed=21)
    assert a.hands() == b.hands()
    a.reset()
    b.reset()
    assert a.hands() == b.hands()
    a.reset(seed=99)
    b.reset(seed=99)
    assert a.hands() == b.hands() != ddz.Env("rlcard", seed=22).hands()


@pytest.mark.parametrize("name", ["random", "greedy", "value", "ddzlib", "net"])
def test_bots_play_whole_games(name):
    assert name in ddz.bot_names()
    env = ddz.Env("classic", seed=6)
    bots = [ddz.Bot(name, seed=s) for s in range(3)]
    while not env.done:
        bot = bots[env.seat]
        choice = bot.act(env)
        if env.phase == "bidding":
            assert isinstance(choice, int) and choice in env.legal_bids()
        else:
            assert choice in env.legal_moves()
        played = bot.play(env)
        if name != "random":  # act() draws from the random robot's generator too
            assert played == choice
    assert env.payoffs().sum() == 0
    assert bots[0].name == name
    with pytest.raises(ValueError, match="over"):
        bots[0].act(env)


@pytest.mark.parametrize("level", [1, 4, 7])
def test_levels_play_whole_games(level):
    env = ddz.Env("classic", seed=8)
    bots = [ddz.Bot(f"level:{level}", seed=s) for s in range(3)]
    while not env.done:
        bots[env.seat].play(env)
    assert env.payoffs().sum() == 0


@pytest.mark.parametrize("spec", ["level:0", "level:9", "level"])
def test_levels_that_do_not_exist_are_errors(spec):
    with pytest.raises(ValueError, match="level:1 \\(a beginner\\) to level:8"):
        ddz.Bot(spec)


def test_action_space_helpers():
    assert ddz.action_name(0) == "3" and ddz.action_name(ddz.PASS_ID) == "pass"
    assert ddz.action_id("33344") == ddz.action_id("44333")
    assert ddz.action_name(ddz.action_id("BR")) == "BR"
    assert ddz.action_id("pass") == ddz.PASS_ID
    assert ddz.action_id("3333BR") is None, "no rocket among RLCard's kickers"
    assert ddz.card_vector("3335BR").tolist()[:12] == [1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0]
