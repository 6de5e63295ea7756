"""`ddz.analyse` against the `ddz analyse` command: the same analysis dict for the same
record and options; records as dicts, text, paths and from ``Env.record()``; bad input named.

The command is DDZ_BIN when set, else a built target/debug/ddz or target/release/ddz; without
one the comparison is skipped, saying so (CI fails on skips)."""

import json
import pathlib
import subprocess

import pytest

import ddz
from test_arena import DDZ, needs_ddz

RECORDS = pathlib.Path(__file__).resolve().parents[2] / "ddz-game" / "tests" / "data" / "records"


@needs_ddz
@pytest.mark.parametrize("name", ["classic.json", "laizi.json"])
def test_analyse_equals_the_command(name):
    path = RECORDS / name
    mine = ddz.analyse(path, seat=1, iters=16, seed=3)
    out = subprocess.run(
        [DDZ, "analyse", str(path), "--seat", "1", "--iters", "16", "--seed", "3", "--json", "--quiet"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert mine == json.loads(out)
    assert mine["format"] == "ddz-analysis/1"
    assert mine["seats"] == [1]


def test_records_as_dicts_text_and_from_an_env():
    text = (RECORDS / "classic.json").read_text()
    as_text = ddz.analyse(text, iters=8, exact_cards=0)
    assert ddz.analyse(json.loads(text), iters=8, exact_cards=0) == as_text
    assert all(d["exact"] is None for d in as_text["decisions"])
    env = ddz.Env("classic", seed=4)
    bot = ddz.Bot("greedy")
    env.reset()
    while not env.done:
        bot.play(env)
    analysis = ddz.analyse(env.record(), iters=8)
    plays = [d for d in analysis["decisions"] if d["kind"] == "play"]
    assert plays and {d["seat"] for d in plays} == {0, 1, 2}
    for d in plays:
        if d["loss"] is not None:
            assert 0 <= d["win_played"] <= d["win_best"] <= 1
            assert d["mark"] in (None, "blunder", "mistake", "inaccuracy")
    summary = analysis["summary"]["seats"]
    assert [s["seat"] for s in summary] == [0, 1, 2]
    assert ddz.analyse(env.record(), time=0.01)["format"] == "ddz-analysis/1"


def test_bad_input_is_named():
    record = json.loads((RECORDS / "classic.json").read_text())
    record["plays"][1][1] = "3"
    with pytest.raises(ValueError, match="play 2 "):
        ddz.analyse(record, iters=4)
    with pytest.raises(ValueError, match="json"):
        ddz.analyse("{not json", iters=4)
    with pytest.raises(ValueError, match="seat: 3"):
        ddz.analyse(RECORDS / "classic.json", seat=3)
    with pytest.raises(ValueError, match="iters and time"):
        ddz.analyse(RECORDS / "classic.json", iters=4, time=1)
    with pytest.raises(ValueError, match="iters: at least 1"):
        ddz.analyse(RECORDS / "classic.json", iters=0)
    with pytest.raises(TypeError, match="record"):
        ddz.analyse(42)
    with pytest.raises(FileNotFoundError):
        ddz.analyse("/no/such/record.json")
