"""`ddz.arena` and `ddz.merge` against the `ddz` command: the reports are the dicts of
`ddz arena --json` and `ddz arena merge --json`.

The command is DDZ_BIN when set (.ci/run sets it to the binary its `cargo test` built, and a
missing one fails), else a built target/debug/ddz or target/release/ddz (CARGO_TARGET_DIR
honoured); without one the tests are skipped, saying so (CI fails on skips)."""

import json
import os
import pathlib
import subprocess

import pytest

import ddz

ROOT = pathlib.Path(__file__).resolve().parents[3]


def built_ddz():
    if os.environ.get("DDZ_BIN"):
        return os.environ["DDZ_BIN"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for c in [target / "debug/ddz", target / "release/ddz"]:
        if c.is_file():
            return str(c)
    return None


DDZ = built_ddz()
needs_ddz = pytest.mark.skipif(DDZ is None, reason="no built ddz: set DDZ_BIN or cargo build -p ddz-cli")

# Measured wall-clock figures of each pair: equal between two runs only by chance.
TIMING = ("seconds", "games_per_sec")


def cli(*args):
    out = subprocess.run([DDZ, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def without_timing(report):
    report = json.loads(json.dumps(report))
    for pair in report["pairs"]:
        for key in TIMING:
            assert key in pair
            del pair[key]
    return report


RUNS = [
    # (ddz.arena keywords, the same run's command-line options)
    (dict(bots=["value", "greedy"], deals=30, seed=3), ["--bots", "value,greedy", "--deals", "30", "--seed", "3"]),
    (
        dict(bots=["greedy", "random", "value"], deals=12, seed=9, rules="laizi", laizi="7"),
        ["--bots", "greedy,random,value", "--deals", "12", "--seed", "9", "--rules", "laizi", "--laizi", "7"],
    ),
    (
        dict(bots=["value", "greedy"], deals=6, seed=2, rules="huanle", bidding=True),
        ["--bots", "value,greedy", "--deals", "6", "--seed", "2", "--rules", "huanle", "--bidding"],
    ),
]


@needs_ddz
@pytest.mark.parametrize("kwargs,args", RUNS)
def test_arena_equals_the_command(kwargs, args):
    mine = ddz.arena(**kwargs, threads=2)
    theirs = cli("arena", *args, "--json", "--quiet")
    assert list(mine) == list(theirs), "the same keys in the same order"
    assert without_timing(mine) == without_timing(theirs)
    assert mine["pairs"][0]["games"] > 0


@needs_ddz
def test_shards_equal_the_command_and_merge_into_the_whole_run(tmp_path):
    kwargs = dict(bots=["value", "greedy"], deals=25, seed=5)
    args = ["arena", "--bots", "value,greedy", "--deals", "25", "--seed", "5", "--quiet"]
    files = []
    for i in range(3):
        path = tmp_path / f"shard{i}.json"
        cli(*args, "--shard", f"{i}/3", "--json", "--out", str(path))
        files.append(path)
        mine = ddz.arena(**kwargs, shard=(i, 3))
        assert mine["shard"] == {"index": i, "count": 3}
        assert without_timing(mine) == without_timing(json.loads(path.read_text()))
    # Merging the command's shard files: equal to `ddz arena merge`, timing included.
    shard_reports = [json.loads(p.read_text()) for p in files]
    merged = ddz.merge(shard_reports)
    assert merged == cli("arena", "merge", *map(str, files), "--json")
    assert ddz.merge([p.read_text() for p in files]) == merged
    # And the merge is the unsharded run's report.
    assert without_timing(merged) == without_timing(ddz.arena(**kwargs))


def test_merge_refuses_a_shard_given_twice_or_missing():
    a = ddz.arena(["greedy", "random"], deals=4, seed=1, shard=(0, 2))
    with pytest.raises(ValueError, match="report 2 .shard 0/2.: that shard is given twice"):
        ddz.merge([a, a])
    with pytest.raises(ValueError, match="shard 1/2 is missing"):
        ddz.merge([a])
    with pytest.raises(ValueError, match="report 1: not an arena report"):
        ddz.merge([{"format": "duplicate"}])


def test_arena_names_what_is_wrong():
    with pytest.raises(ValueError, match="shard \\(2, 2\\)"):
        ddz.arena(["greedy", "random"], deals=2, shard=(2, 2))
    with pytest.raises(ValueError, match='bots: "nobody"'):
        ddz.arena(["greedy", "nobody"], deals=2)
    with pytest.raises(ValueError, match="at least two robots"):
        ddz.arena(["greedy"], deals=2)
    with pytest.raises(ValueError, match="rules"):
        ddz.arena(["greedy", "random"], deals=2, rules="nope")
    with pytest.raises(TypeError, match="a list of robot specs"):
        ddz.arena("greedy,random", deals=2)
