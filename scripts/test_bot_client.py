"""Tests of bot_client.py against a built `ddz` (DDZ_BIN, else target/debug/ddz or
target/release/ddz); skipped when no binary is built."""

import os
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bot_client  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def built_ddz():
    """The path of a built ddz, or None."""
    candidates = [os.environ.get("DDZ_BIN"), ROOT / "target/debug/ddz", ROOT / "target/release/ddz"]
    for c in candidates:
        if c and pathlib.Path(c).is_file():
            return str(c)
    return None


@unittest.skipIf(built_ddz() is None, "no built ddz (cargo build -p ddz)")
class BotClientTest(unittest.TestCase):
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
