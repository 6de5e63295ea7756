"""Tests of bot_client.py against a built `ddz`.

With DDZ_BIN set (as .ci/run sets it, to the binary its `cargo test` built) the tests run that
binary and fail when it is missing; without it they take target/debug/ddz or target/release/ddz
and are skipped, saying so, when neither is built."""

import os
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bot_client  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def built_ddz():
    """The path of a built ddz, or None; DDZ_BIN when set, whether or not it exists (so that a
    missing binary fails the tests instead of skipping them)."""
    if os.environ.get("DDZ_BIN"):
        return os.environ["DDZ_BIN"]
    for c in [ROOT / "target/debug/ddz", ROOT / "target/release/ddz"]:
        if c.is_file():
            return str(c)
    return None


@unittest.skipIf(built_ddz() is None, "no built ddz (cargo build -p ddz)")
class BotClientTest(unittest.TestCase):
    def test_binary_exists(self):
        self.assertTrue(pathlib.Path(built_ddz()).is_file(), "DDZ_BIN=%s is not a file" % built_ddz())

    def test_hello_and_act(self):
        bot = bot_client.BotProcess(bot_client.command(built_ddz(), "value"))
        hello = bot.ask({"protocol": "ddz-jsonl/1", "type": "hello", "id": "h"})
        self.assertEqual(hello["id"], "h")
        self.assertEqual(hello["protocol"], "ddz-jsonl/1")
        reply = bot.ask(bot_client.SAMPLE_ACT)
        self.assertEqual(reply["id"], 1)
        self.assertIn(reply["cards"], ["pass", "R"])
        bad = bot.ask({"protocol": "ddz-jsonl/1", "type": "nope", "id": 2})
        self.assertIn('unknown type "nope"', bad["error"])
        self.assertEqual(bot.close(), 0)

    def test_main_prints_requests_and_replies(self):
        self.assertEqual(bot_client.main([built_ddz()]), 0)


if __name__ == "__main__":
    unittest.main()
