"""ddz.TableEnv, the games at two and four seats (docs/variants.md), and ddz.Env("two") /
ddz.Env("four"), which give one."""

import copy
import json
import pathlib
import random
import re

import numpy as np
import pytest

import ddz

RANKS = "3456789TJQKA2BR"
# Cards in play: `two` deals 17 + 17 + 3 of its 46 cards (the other 9 are out of play), `four`
# all 108.
IN_PLAY = {"two": 37, "four": 108}
SEATS = {"two": 2, "four": 4}
DEALT = {"two": 17, "four": 25}
KITTY = {"two": 3, "four": 8}


def counts(cards):
    """The 15 rank counts of a hand or move string (a pass has none)."""
    out = np.zeros(15, dtype=np.int8)
    if cards == "pass":
        return out
    for c in cards:
        out[RANKS.index(c)] += 1
    return out


def deck(rules):
    """The rules' deck as rank counts: `two` one deck without 3s and 4s, `four` two decks."""
    if rules == "two":
        return np.array([0, 0] + [4] * 11 + [1, 1], dtype=np.int8)
    return np.array([8] * 13 + [2, 2], dtype=np.int8)


def check_observations(env):
    """Every seat's observation agrees with the game: its hand, the plays, the counts."""
    rules, n = env.rules, env.num_seats
    played = np.zeros((n, 15), dtype=np.int8)
    for seat, move in env.history():
        played[seat] += counts(move)
    hands = env.hands()
    kitty = KITTY[rules] if env.landlord is None else 0  # the kitty is dealt to nobody yet
    assert sum(len(h) for h in hands) + int(played.sum()) + kitty == IN_PLAY[rules]
    for s in range(n):
        obs = env.observe(s)
        assert obs["seat"] == s and obs["phase"] == env.phase
        assert obs["hand"].dtype == np.int8 and obs["hand"].shape == (15,)
        assert np.array_equal(obs["hand"], counts(hands[s])), (s, hands[s])
        assert np.array_equal(obs["played"], played)
        assert np.array_equal(obs["unseen"], deck(rules) - counts(hands[s]) - played.sum(0))
        assert obs["cards_left"].tolist() == env.cards_left() == [len(h) for h in hands]
        assert obs["role"] == env.role(s)
        to_act = obs["to_act"].tolist()
        assert to_act == [int(env.seat == t) for t in range(n)]
        landlord = env.landlord
        assert obs["landlord"].tolist() == [int(landlord == t) for t in range(n)]
        assert np.array_equal(obs["kitty"], counts(env.kitty))
        last = env.last_move()
        assert np.array_equal(obs["last_move"], counts(last[1] if last else "pass"))
        assert obs["last_seat"].tolist() == [int(last is not None and last[0] == t) for t in range(n)]
        moves = obs["legal_moves"]
        if env.seat == s and env.phase == "playing":
            assert moves.shape == (env.num_legal_moves(), 15)
            for m, row in zip(env.legal_moves(), moves):
                assert np.array_equal(row, counts(m.split(":")[0])), m
        else:
            assert moves.shape == (0, 15)
        bids = obs["legal_bids"].tolist()
        if env.seat == s and env.phase == "bidding":
            assert bids == [int(b in env.legal_bids()) for b in range(4)]
        else:
            assert bids == [0, 0, 0, 0]
    if not env.done:
        assert env.observe()["seat"] == env.seat


def robs(env):
    """The robs of a call-and-rob bidding: the calls and robs (bids of 1) after the first."""
    return max(0, sum(1 for _, b in env.bids() if b == 1) - 1)


def play_random(env, rng, check=True):
    """Plays the game out with bids and moves drawn uniformly from the legal lists."""
    rules = env.rules
    while env.phase == "bidding":
        assert all(len(h) == DEALT[rules] for h in env.hands())
        assert env.landlord is None and env.kitty == "" and env.handicap is None
        if check:
            check_observations(env)
        bids = env.legal_bids()
        env.bid(bids[rng.randrange(len(bids))])
    assert env.phase == "playing" and env.seat == env.landlord
    landlord = env.landlord
    sizes = [DEALT[rules] + (KITTY[rules] if s == landlord else 0) for s in range(env.num_seats)]
    assert [len(h) for h in env.hands()] == sizes
    assert len(env.kitty) == KITTY[rules]
    if rules == "two":
        assert env.handicap == (1 - landlord, 1 + robs(env))
        assert env.observe(0)["handicap"].tolist()[1 - landlord] == 1 + robs(env)
        assert all("3" not in h and "4" not in h for h in env.hands())
    else:
        assert env.handicap is None and sum(sizes) == 108
    while not env.done:
        if check:
            check_observations(env)
        moves = env.legal_moves()
        assert len(moves) == env.num_legal_moves() > 0
        if rng.random() < 0.5:
            env.step(moves[rng.randrange(len(moves))])
        else:
            env.step_index(rng.randrange(len(moves)))
    if check:
        check_observations(env)
    return env


@pytest.mark.parametrize("rules", ["two", "four"])
def test_random_games_end_zero_sum(rules):
    rng = random.Random(rules)
    env = ddz.Env(rules, seed=3)
    assert isinstance(env, ddz.TableEnv) and env.num_seats == SEATS[rules]
    games = 300 if rules == "two" else 80
    for g in range(games):
        play_random(env, rng, check=g < 15)
        scores = env.payoffs("score")
        assert scores.dtype == np.float64 and scores.shape == (SEATS[rules],)
        assert scores.sum() == 0 and (scores != 0).all()
        wins = env.payoffs("win")
        wp = env.payoffs("wp")
        assert np.array_equal(wp, 2 * wins - 1)
        assert np.array_equal(wins, (scores > 0).astype(np.float64))
        r = env.result()
        assert r["scores"] == scores.tolist() and r["landlord"] == env.landlord
        assert (wins[env.landlord] == 1) == (r["winner"] == "landlord")
        assert env.seat is None and env.phase == "over" and env.legal_moves() == []
        if rules == "two":
            out, cards = r["first_out"], env.cards_left()
            # The landlord went out, or the farmer reached its handicap.
            if r["winner"] == "landlord":
                assert cards[env.landlord] == 0
            else:
                assert cards[1 - env.landlord] <= env.handicap[1]
            assert out == (env.landlord if r["winner"] == "landlord" else 1 - env.landlord)
        else:
            assert env.cards_left()[r["first_out"]] == 0
        env.reset()


def test_every_legal_move_string_plays_the_move_it_names():
    rng = random.Random(4)
    for rules, seed in [("two", 9), ("two", 10), ("four", 9), ("four", 10)]:
        env = ddz.Env(rules, seed=seed)
        while env.phase == "bidding":
            env.bid(env.legal_bids()[-1])
        while not env.done:
            moves = env.legal_moves()
            for i, m in enumerate(moves):
                by_text, by_index = env.clone(), env.clone()
                by_text.step(m)
                by_index.step_index(i)
                assert by_text.history() == by_index.history()
                assert by_text.history()[-1] == (env.seat, m)
            env.step_index(rng.randrange(len(moves)))


def test_four_deals_25_cards_each_and_33_to_the_landlord():
    env = ddz.Env("four", seed=1)
    hands = env.hands()
    assert [len(h) for h in hands] == [25] * 4 and env.cards_left() == [25] * 4
    total = sum((counts(h) for h in hands), np.zeros(15, dtype=np.int8))
    assert (total <= deck("four")).all() and total.sum() == 100
    while env.phase == "bidding":
        env.bid(env.legal_bids()[-1])
    assert len(env.hand(env.landlord)) == 33 and len(env.kitty) == 8
    total = sum((counts(h) for h in env.hands()), np.zeros(15, dtype=np.int8))
    assert np.array_equal(total, deck("four")), "the 108 cards"
    assert env.result() is None
    fixed = ddz.TableEnv("four", seed=1, landlord=2)
    assert fixed.phase == "playing" and fixed.landlord == fixed.seat == 2
    assert [len(h) for h in fixed.hands()] == [25, 25, 33, 25]
    roles = [fixed.role(s) for s in range(4)]
    assert roles == ["landlord_across", "landlord_up", "landlord", "landlord_down"]


def test_two_handicap_is_one_plus_robs():
    seen = set()
    for seed in range(40):
        env = ddz.TableEnv("two", seed=seed)
        rng = random.Random(seed)
        while env.phase == "bidding":
            assert env.handicap is None
            bids = env.legal_bids()
            env.bid(bids[rng.randrange(len(bids))])
        farmer = 1 - env.landlord
        assert env.handicap == (farmer, 1 + robs(env))
        assert env.role(env.landlord) == "landlord" and env.role(farmer) == "landlord_down"
        assert env.observe(farmer)["handicap"].tolist() == [
            1 + robs(env) if s == farmer else 0 for s in range(2)
        ]
        assert env.observe(farmer)["stake"].tolist() == [1, 2 ** robs(env)]
        seen.add(robs(env))
    assert seen == {0, 1, 2}
    assert ddz.TableEnv("two", landlord=1).handicap == (0, 1)


def test_seeds_follow_envs_sequence():
    a, b = ddz.Env("two", seed=5), ddz.TableEnv("two", seed=5)
    assert a.hands() == b.hands() != ddz.TableEnv("two", seed=6).hands()
    first = a.hands()
    a.reset(), b.reset()
    assert a.hands() == b.hands() != first
    assert a.reset(seed=77) == b.reset(seed=77) and a.hands() == b.hands()
    c = ddz.TableEnv("four", seed=5)
    assert c.reset(seed=3) == c.seat and c.phase == "bidding"


def test_clone_is_independent():
    env = ddz.Env("four", seed=2)
    while env.phase == "bidding":
        env.bid(env.legal_bids()[-1])
    env.step_index(0)
    for twin in [env.clone(), copy.copy(env), copy.deepcopy(env)]:
        assert isinstance(twin, ddz.TableEnv) and twin is not env
        assert twin.hands() == env.hands() and twin.history() == env.history()
        before = (env.hands(), env.history(), env.seat, env.legal_moves())
        twin.step_index(0)
        while not twin.done:
            twin.robot_move("greedy")
        assert (env.hands(), env.history(), env.seat, env.legal_moves()) == before
        assert not env.done
    assert "TableEnv(rules=\"four\"" in repr(env)


def test_undo_takes_back_plays():
    env = ddz.TableEnv("two", seed=8)
    while env.phase == "bidding":
        env.bid(1)
    with pytest.raises(ddz.IllegalMoveError, match="nothing to undo") as e:
        env.undo()
    assert e.value.code == "nothing_to_undo"
    rng = random.Random(8)
    states = []
    while not env.done:
        states.append((env.hands(), env.history(), env.seat, env.legal_moves(), env.last_move()))
        env.step_index(rng.randrange(env.num_legal_moves()))
    assert env.result() is not None
    for i, state in enumerate(reversed(states)):
        env.undo()
        assert env.phase == "playing" and env.result() is None, i
        assert (env.hands(), env.history(), env.seat, env.legal_moves(), env.last_move()) == state
    assert env.history() == [] and env.landlord is not None
    with pytest.raises(ddz.IllegalMoveError, match="nothing to undo"):
        env.undo()


def test_illegal_actions_and_bad_arguments_say_what_is_wrong():
    env = ddz.TableEnv("two", seed=1)
    with pytest.raises(ddz.IllegalMoveError, match="bid first") as e:
        env.step("5")
    assert e.value.code == "wrong_phase"
    with pytest.raises(ddz.IllegalMoveError, match=r"bid 7 is not allowed now \(allowed: 0, 1\)"):
        env.bid(7)
    with pytest.raises(ddz.IllegalMoveError, match="bid -1 is not allowed"):
        env.bid(-1)
    while env.phase == "bidding":
        env.bid(1)
    before = (env.hands(), env.history(), env.seat)
    cases = [
        ("3", "bad_notation", "rank 3 is not in this game's deck"),
        ("3Z", "bad_notation", r"\"Z\" at position 2 is not a rank"),
        ("pass", "pass_when_leading", "cannot pass"),
        ("RR", "bad_notation", "a deck has only 1"),
    ]
    for move, code, needle in cases:
        with pytest.raises(ddz.IllegalMoveError, match=needle) as e:
            env.step(move)
        assert e.value.code == code, move
    hand = env.hand(env.seat)
    rank = next(r for r in "56789TJQKA2" if hand.count(r) < 4)
    with pytest.raises(ddz.IllegalMoveError, match="not all of these cards are in hand") as e:
        env.step(rank * (hand.count(rank) + 1))
    assert e.value.code == "not_in_hand"
    with pytest.raises(ddz.IllegalMoveError, match="step_index") as e:
        env.step(3)
    assert e.value.code == "bad_choice"
    with pytest.raises(ddz.IllegalMoveError, match="out of range: there are"):
        env.step_index(10_000)
    with pytest.raises(ValueError, match="move string"):
        env.step(1.5)
    assert (env.hands(), env.history(), env.seat) == before, "nothing changed"
    for bad in [lambda: env.hand(2), lambda: env.role(-1), lambda: env.observe(seat=7)]:
        with pytest.raises(ValueError, match=r"seats are 0 and 1"):
            bad()
    with pytest.raises(ValueError, match=r"seat 4: seats are 0, 1, 2 and 3"):
        ddz.TableEnv("four").hand(4)
    with pytest.raises(ValueError, match="not over"):
        env.payoffs()
    with pytest.raises(ValueError, match="only 8"):
        four = ddz.TableEnv("four", landlord=0)
        four.step("555555555")
    with pytest.raises(ValueError, match='"poker"'):
        ddz.Env("poker")
    with pytest.raises(ValueError, match='"classic"'):
        ddz.TableEnv("classic")
    with pytest.raises(ValueError, match='laizi "7"'):
        ddz.Env("two", laizi="7")
    with pytest.raises(ValueError, match="landlord seat 2: seats are 0 and 1"):
        ddz.TableEnv("two", landlord=2)
    with pytest.raises(ValueError, match='bidding "auction"'):
        ddz.TableEnv("four", bidding="auction")
    with pytest.raises(ValueError, match='robot "value"'):
        env.robot_move("value")
    with pytest.raises(ValueError, match="worlds"):
        env.robot_move("search:worlds=0")
    while not env.done:
        env.robot_move("greedy")
    with pytest.raises(ValueError, match='payoff kind "foo"'):
        env.payoffs("foo")
    with pytest.raises(ddz.IllegalMoveError, match="over") as e:
        env.step("5")
    assert e.value.code == "game_over"
    with pytest.raises(ValueError, match="game is over"):
        env.observe()
    with pytest.raises(ValueError, match="nothing to choose"):
        env.robot_move("ddzlib")


@pytest.mark.parametrize("rules", ["two", "four"])
def test_robots_finish_games(rules):
    for seed in range(4):
        env = ddz.Env(rules, seed=seed)
        while not env.done:
            seat, phase = env.seat, env.phase
            idea = env.robot_move("ddzlib", seed=seed, play=False)
            assert env.seat == seat and env.phase == phase, "play=False changes nothing"
            choice = env.robot_move("ddzlib", seed=seed)
            assert choice == idea
            if phase == "bidding":
                assert isinstance(choice, int)
            else:
                assert env.history()[-1] == (seat, choice)
        assert env.payoffs().sum() == 0
    env = ddz.TableEnv(rules, seed=11)
    while not env.done:
        env.robot_move("search:worlds=2:moves=2" if env.seat == 0 else "random", seed=1)
    assert env.payoffs().sum() == 0
    assert ddz.TableEnv.robot_names() == ["random", "greedy", "ddzlib", "search"]


@pytest.mark.parametrize("rules", ["two", "four"])
def test_record_is_a_table_record(rules):
    env = play_random(ddz.Env(rules, seed=6), random.Random(6), check=False)
    record = json.loads(env.record())
    assert record["format"] == "ddz-table-record/1"
    assert record["rules"]["profile"] == rules and record["rules"]["seats"] == SEATS[rules]
    assert record["landlord"] == env.landlord
    assert [tuple(p) for p in record["plays"]] == env.history()
    assert record["result"]["scores"] == env.payoffs().tolist()
    assert [b for _, b in record["bids"]] == [b for _, b in env.bids()]
    assert len(record["deal"]["hands"]) == SEATS[rules]
    assert len(record["deal"]["out_of_play"]) == (9 if rules == "two" else 0)


def test_three_seat_env_is_unchanged():
    env = ddz.Env("classic", seed=4)
    assert type(env) is ddz.Env and isinstance(env, ddz._ddz.Env)
    assert type(env.clone()) is ddz.Env and type(copy.deepcopy(env)) is ddz.Env
    assert type(ddz.VecEnv(2, rules="rlcard").env(1)) is ddz.Env
    assert env.clone().hands() == env.hands()
    with pytest.raises(ValueError, match=r"TableEnv"):
        ddz._ddz.Env("two")
    with pytest.raises(ValueError, match=r"three-seat"):
        ddz.VecEnv(2, rules="four")
    assert not isinstance(ddz.Env("two"), ddz.Env)
    assert "TableEnv" in ddz.__all__ and "TableEnv" in (ddz.Env.__doc__ or "")


def test_readme_table_example_runs():
    readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
    text = readme.read_text(encoding="utf-8")
    section = text.split("\n## Two and four players\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    scope = {}
    exec(compile(block, "README two and four players", "exec"), scope)
    assert scope["env"].done and scope["four"].done
