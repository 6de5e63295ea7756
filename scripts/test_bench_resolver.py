"""Tests of bench_resolver.py's helpers (no doudizhu-resolver needed): the puzzle file, the
conversion of ddz's rank strings to the resolver's card strings and back."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bench_resolver  # noqa: E402


class BenchResolverTest(unittest.TestCase):
    def test_puzzle_file_parses(self):
        puzzles = bench_resolver.parse_puzzles(bench_resolver.PUZZLES)
        self.assertGreaterEqual(len(puzzles), 10)
        names = [p["name"] for p in puzzles]
        self.assertIn("hupu-duel", names)
        hupu = puzzles[names.index("hupu-duel")]
        self.assertEqual(hupu["hands"], "2QQTT77553,AA9")
        self.assertEqual((hupu["wins"], hupu["winning"]), ("false", "-"))
        for p in puzzles:
            self.assertEqual(len(p["hands"].split(",")), 2, p["name"])
            self.assertEqual("last" in p, "last_seat" in p, p["name"])

    def test_each_physical_card_once(self):
        out = bench_resolver.to_resolver(["AA9T", "A2BR", "A"])
        self.assertEqual(out, ["As-Ah-9s-10s", "Ad-2s-BJ-CJ", "Ac"])

    def test_ranks_back_to_ddz_notation(self):
        # A card is suit << 4 | rank index (3 = 0 ... A = 11, 2 = 12, jokers 13 and 14).
        self.assertEqual(bench_resolver.ranks([0x1B, 0x2B, 0x16]), "9AA")
        self.assertEqual(bench_resolver.ranks([14, 13]), "BR")
        self.assertEqual(bench_resolver.ranks([]), "pass")


if __name__ == "__main__":
    unittest.main()
