#!/usr/bin/env python3
"""A minimal controller for `ddz bot` (the `ddz-jsonl/1` protocol, docs/protocol.md).

Starts `ddz bot`, sends `hello` and one `act` request for a sample hand, and prints each
request and reply. Standard library only.

    python3 scripts/bot_client.py [PATH_TO_DDZ] [--bot NAME]

Without a path it runs `cargo run -q --release -p ddz -- bot`.
"""

import argparse
import json
import subprocess
import sys

PROTOCOL = "ddz-jsonl/1"

# Seat 1 (the farmer after the landlord) answers the landlord's 2; it may pass or play the
# big joker.
SAMPLE_ACT = {
    "protocol": PROTOCOL, "type": "act", "id": 1, "rules": "classic", "laizi": [],
    "seat": 1, "landlord_seat": 0, "role": "landlord_down",
    "hand": "334555668TTTQAA2R", "cards_left": [19, 17, 17], "played": ["2", "", ""],
    "bottom_cards_unplayed": "8KA", "history": [[0, "2"]],
    "last": {"seat": 0, "cards": "2"}, "legal_moves": ["pass", "R"],
}


def command(ddz, bot):
    """The command line that starts the robot."""
    base = [ddz] if ddz else ["cargo", "run", "-q", "--release", "-p", "ddz", "--"]
    return base + ["bot", "--bot", bot]


class BotProcess:
    """A running `ddz bot`: send a request, read its one reply line."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, request):
        """Sends one request and returns the parsed reply."""
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the robot closed its output")
        return json.loads(line)

    def close(self):
        """Ends the input and waits for the robot; returns its exit code."""
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ddz", nargs="?", help="path to the ddz binary (default: cargo run)")
    parser.add_argument("--bot", default="value", help="the robot (default: value)")
    args = parser.parse_args(argv)
    bot = BotProcess(command(args.ddz, args.bot))
    try:
        for request in ({"protocol": PROTOCOL, "type": "hello", "id": 0}, SAMPLE_ACT):
            print(">", json.dumps(request))
            print("<", json.dumps(bot.ask(request)))
    finally:
        code = bot.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
