"""Tests for scripts/douzero_eval_to_deals.py (standard library unittest).

Run from the workspace root:

    python3 -m unittest scripts/test_douzero_eval_to_deals.py -v

The tests build small pickles of synthetic deals in DouZero's eval-data format in a temporary
directory and run the script as a subprocess with the current interpreter.
"""

import collections
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "douzero_eval_to_deals.py")

# DouZero's 54 card ints: four each of 3..14 (3..A) and 17 (2), then 20 and 30 (jokers).
DOUZERO_DECK = [v for v in list(range(3, 15)) + [17] for _ in range(4)] + [20, 30]

# The expected translation, written out independently of the script.
LETTER = dict(zip([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30], "3456789TJQKA2BR"))
ORDER = "3456789TJQKA2BR"
FULL_DECK = collections.Counter({r: (1 if r in "BR" else 4) for r in ORDER})


def synthetic_deal(seed):
    """One deal laid out like DouZero's generator: landlord = first 20 of a shuffled deck,
    kitty = its last 3, then landlord_up and landlord_down; every list sorted."""
    deck = list(DOUZERO_DECK)
    random.Random(seed).shuffle(deck)
    return {
        "landlord": sorted(deck[:20]),
        "landlord_up": sorted(deck[20:37]),
        "landlord_down": sorted(deck[37:54]),
        "three_landlord_cards": sorted(deck[17:20]),
    }


def canonical(ints):
    return "".join(sorted((LETTER[v] for v in ints), key=ORDER.index))


def is_canonical(text):
    return all(c in ORDER for c in text) and list(text) == sorted(text, key=ORDER.index)


class ConvertTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write_pickle(self, data, name="eval_data.pkl"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            pickle.dump(data, f, pickle.HIGHEST_PROTOCOL)
        return path

    def run_script(self, *args):
        return subprocess.run(
            [sys.executable, SCRIPT, *args],
            capture_output=True, text=True, timeout=60,
        )

    def check_line(self, line, source):
        deal = json.loads(line)
        self.assertEqual(list(deal), ["landlord", "landlord_down", "landlord_up", "kitty"])
        for key in deal:
            self.assertTrue(is_canonical(deal[key]), "%s: %r" % (key, deal[key]))
        self.assertEqual([len(deal[k]) for k in deal], [20, 17, 17, 3])
        landlord = collections.Counter(deal["landlord"])
        kitty = collections.Counter(deal["kitty"])
        self.assertFalse(kitty - landlord, "kitty not within the landlord's cards")
        total = landlord + collections.Counter(deal["landlord_down"]) \
            + collections.Counter(deal["landlord_up"])
        self.assertEqual(total, FULL_DECK)
        self.assertEqual(deal, {
            "landlord": canonical(source["landlord"]),
            "landlord_down": canonical(source["landlord_down"]),
            "landlord_up": canonical(source["landlord_up"]),
            "kitty": canonical(source["three_landlord_cards"]),
        })

    def test_converts_deals(self):
        deals = [synthetic_deal(seed) for seed in (1, 2, 3)]
        path = self.write_pickle(deals)
        r = self.run_script(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 3)
        for line, source in zip(lines, deals):
            self.check_line(line, source)
        # Compact, like `ddz deal --json`.
        self.assertNotIn(" ", r.stdout)

        out = os.path.join(self.tmp.name, "deals.jsonl")
        r2 = self.run_script(path, "-o", out)
        self.assertEqual(r2.returncode, 0, r2.stderr)
        self.assertEqual(r2.stdout, "")
        with open(out, encoding="utf-8") as f:
            self.assertEqual(f.read(), r.stdout)

    def test_unsorted_lists_and_known_string(self):
        deal = synthetic_deal(7)
        for key in deal:
            deal[key] = list(reversed(deal[key]))
        fixed = {  # a hand-written deal, to pin exact strings
            "landlord": [3, 3, 3, 4, 5, 10, 10, 11, 12, 13, 14, 17, 17, 20, 30,
                         6, 6, 6, 6, 7],
            "three_landlord_cards": [30, 7, 3],
        }
        rest = collections.Counter(DOUZERO_DECK) - collections.Counter(fixed["landlord"])
        rest = sorted(rest.elements())
        fixed["landlord_up"], fixed["landlord_down"] = rest[:17], rest[17:]
        r = self.run_script(self.write_pickle([deal, fixed]))
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.check_line(lines[0], deal)
        self.check_line(lines[1], fixed)
        got = json.loads(lines[1])
        self.assertEqual(got["landlord"], "3334566667TTJQKA22BR")
        self.assertEqual(got["kitty"], "37R")

    def test_bad_deal_stops_with_status_2(self):
        deals = [synthetic_deal(seed) for seed in (1, 2, 3)]
        deals[1]["landlord"] = deals[1]["landlord"][1:]  # 19 cards
        path = self.write_pickle(deals)
        out = os.path.join(self.tmp.name, "deals.jsonl")
        r = self.run_script(path, "-o", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("deal 1: ", r.stderr)
        self.assertIn("'landlord' has 19 cards, not 20", r.stderr)
        self.assertNotIn("deal 0:", r.stderr)
        self.assertNotIn("deal 2:", r.stderr)
        self.assertFalse(os.path.exists(out), "output written despite a bad deal")
        r = self.run_script(path)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, "")

    def test_skip_bad(self):
        deals = [synthetic_deal(seed) for seed in (1, 2, 3)]
        deals[1]["landlord"] = deals[1]["landlord"][1:]  # 19 cards
        r = self.run_script(self.write_pickle(deals), "--skip-bad")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("deal 1: ", r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 2)
        self.check_line(lines[0], deals[0])
        self.check_line(lines[1], deals[2])

    def test_other_bad_deals_say_what(self):
        good = synthetic_deal(4)
        dup = dict(good, landlord_up=list(good["landlord_up"]))
        # Right counts, wrong deck: one card of landlord_up becomes another rank.
        dup["landlord_up"][0] = next(v for v in DOUZERO_DECK if v != dup["landlord_up"][0])
        kitty = dict(good)
        outside = next(v for v in DOUZERO_DECK if v not in good["landlord"])
        kitty["three_landlord_cards"] = [outside] + good["three_landlord_cards"][1:]
        unknown = dict(good, landlord=[15] + good["landlord"][1:])
        missing = {k: v for k, v in good.items() if k != "three_landlord_cards"}
        r = self.run_script(self.write_pickle([dup, kitty, unknown, missing, "x"]))
        self.assertEqual(r.returncode, 2)
        self.assertRegex(r.stderr, r"deal 0: the three hands are not the 54-card deck")
        self.assertRegex(r.stderr, r"deal 1: the kitty \S+ is not among the landlord's cards")
        self.assertRegex(r.stderr, r"deal 2: 'landlord' has unknown card values 15")
        self.assertRegex(r.stderr, r"deal 3: missing key 'three_landlord_cards'")
        self.assertRegex(r.stderr, r"deal 4: not a dict")

    def test_refuses_pickled_objects_and_non_lists(self):
        r = self.run_script(self.write_pickle([collections.OrderedDict(synthetic_deal(1))]))
        self.assertEqual(r.returncode, 2)
        self.assertIn("refuses", r.stderr)
        r = self.run_script(self.write_pickle({"landlord": []}))
        self.assertEqual(r.returncode, 2)
        self.assertIn("expected a list of deals", r.stderr)
        r = self.run_script(os.path.join(self.tmp.name, "absent.pkl"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot read", r.stderr)

    def test_help_documents_options(self):
        r = self.run_script("--help")
        self.assertEqual(r.returncode, 0)
        for option in ("INPUT.pkl", "--output", "--skip-bad", "trust"):
            self.assertIn(option, r.stdout)


if __name__ == "__main__":
    unittest.main()
