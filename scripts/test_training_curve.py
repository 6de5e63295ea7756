"""Tests of training_curve.py: evaluation lines become points of the chart, other lines are
skipped, a broken line is an error naming it."""

import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import training_curve  # noqa: E402


class TrainingCurve(unittest.TestCase):
    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(pathlib.Path(f.name).unlink)
        return f.name

    def test_points_are_the_evaluations(self):
        path = self.write(
            '{"frames": 100, "wp_vs_ddzlib": null}\n'
            '{"frames": 200, "wp_vs_ddzlib": 0.25, "eval_games": 400}\n\n'
            '{"frames": 400, "wp_vs_ddzlib": 0.75, "eval_games": 400}\n'
        )
        pts = training_curve.points(path)
        self.assertEqual(pts, [(200, 0.25, 400), (400, 0.75, 400)])
        chart = training_curve.svg(pts, "t")
        self.assertEqual(chart.count("<circle"), 2)
        self.assertIn("WP 0.750 over 400 games", chart)

    def test_a_broken_line_names_itself(self):
        path = self.write('{"frames": 1}\nnot json\n')
        with self.assertRaises(SystemExit) as e:
            training_curve.points(path)
        self.assertIn(":2:", str(e.exception))


if __name__ == "__main__":
    unittest.main()
