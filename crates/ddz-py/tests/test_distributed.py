"""ddz.distributed on a local Ray cluster this test starts on 127.0.0.1 (a head and a second
node, one CPU each) and stops: the sharded arena equals the single-process report, and the
self-play actors deliver exactly the transitions a local collector of the same seed does.

Skipped without Ray (`pip install "ddz[ray]"`); .ci/run installs it and fails on skips."""

import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

# Ray 2.60 turns token authentication on for `ray start` when ~/.ray/auth_token exists (any
# earlier local ray.init writes one) while a driver may not use it: the test's cluster is
# private to 127.0.0.1 and runs without, the driver and both nodes alike (set before Ray is
# imported, which reads it).
os.environ["RAY_AUTH_MODE"] = "disabled"
ray = pytest.importorskip("ray", reason='Ray is not installed (pip install "ddz[ray]")')

import ddz  # noqa: E402
from ddz import distributed  # noqa: E402

# Measured wall-clock figures: equal between two runs only by chance.
TIMING = ("seconds", "games_per_sec")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def tail(temp, name, lines=30):
    """The end of a `ray start` log, for the failure message."""
    try:
        text = (pathlib.Path(temp) / name).read_text(errors="replace")
    except OSError as e:
        return str(e)
    return "\n".join(text.splitlines()[-lines:])


def without_timing(report):
    report = json.loads(json.dumps(report))
    for pair in report["pairs"]:
        for key in TIMING:
            del pair[key]
    return report


@pytest.fixture(scope="module")
def cluster():
    """A head and a second node on 127.0.0.1, started with `ray start --block` so that
    SIGTERM stops each with every process it started; the driver connected to them."""
    ray_bin = pathlib.Path(sys.executable).with_name("ray")
    port = free_port()
    # Short: Ray puts unix sockets under it (paths are limited to about 107 bytes).
    temp = tempfile.mkdtemp(prefix="ddzray", dir="/tmp")
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")
    common = ["--block", "--num-cpus=1", "--disable-usage-stats"]
    logs = [open(pathlib.Path(temp) / name, "w") for name in ("head.log", "node.log")]
    head = subprocess.Popen(
        [str(ray_bin), "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
         "--include-dashboard=false", f"--temp-dir={temp}", *common],
        stdout=logs[0], stderr=subprocess.STDOUT, env=env)
    procs = [head]
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        # The head's GCS accepting connections first: ray.init gives up after its own timeout.
        while not port_open(port):
            assert head.poll() is None, "ray start --head ended:\n" + tail(temp, "head.log")
            assert time.monotonic() < deadline, "no head within 180 s:\n" + tail(temp, "head.log")
            time.sleep(0.5)
        for attempt in range(3):
            try:
                ray.init(address=address, log_to_driver=False)
                break
            except ConnectionError:
                if attempt == 2:
                    raise AssertionError("cannot connect:\n" + tail(temp, "head.log"))
                time.sleep(2)
        procs.append(subprocess.Popen(
            [str(ray_bin), "start", f"--address={address}", "--node-ip-address=127.0.0.1",
             *common], stdout=logs[1], stderr=subprocess.STDOUT, env=env))
        while sum(n["Alive"] for n in ray.nodes()) < 2:
            assert time.monotonic() < deadline, "no second node within 180 s:\n" + tail(temp, "node.log")
            assert all(p.poll() is None for p in procs), "a ray start ended:\n" + tail(temp, "node.log")
            time.sleep(0.5)
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for f in logs:
            f.close()
        shutil.rmtree(temp, ignore_errors=True)


def test_the_cluster_has_two_nodes(cluster):
    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert len(nodes) == 2 and ray.cluster_resources()["CPU"] == 2


def test_the_sharded_arena_equals_the_single_process_report(cluster):
    kwargs = dict(bots=["value", "greedy", "random"], deals=30, seed=4, rules="classic")
    sharded = distributed.arena(**kwargs, shards=3)
    whole = ddz.arena(**kwargs)
    assert sharded["shard"] == {"index": 0, "count": 1}
    assert without_timing(sharded) == without_timing(whole)
    # One task per CPU of the cluster by default.
    assert without_timing(distributed.arena(**kwargs)) == without_timing(whole)


def test_self_play_actors_deliver_the_expected_transitions(cluster):
    n, transitions, batches = 8, 300, 6
    actors = distributed.actors(2, n=n, seed=10)
    got = {0: [], 1: []}
    for j, batch in distributed.stream(actors, batches, transitions=transitions):
        got[j].append(batch)
    assert sum(len(b) for b in got.values()) == batches
    for j, mine in got.items():
        local = distributed.SelfPlay(n=n, seed=10 + j)
        for batch in mine:
            expected = local.collect(transitions)
            t = len(batch["actions"])
            assert t >= transitions and batch["games"] > 0
            assert batch["obs"].shape == (t, 430) and batch["returns"].shape == (t,)
            for key in ("obs", "actions", "seats", "returns"):
                assert np.array_equal(batch[key], expected[key]), key
            assert (batch["games"], batch["steps"]) == (expected["games"], expected["steps"])
