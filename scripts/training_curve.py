#!/usr/bin/env python3
"""The training curve of a `ddz train` run as an SVG chart: the network's win share against
ddzlib (WP, on the run's fixed evaluation deals) over frames, from the run's metrics.jsonl.

    python3 scripts/training_curve.py RUN/metrics.jsonl docs/training-curve.svg

Standard library only. Lines without an evaluation are skipped; a line that is not JSON is an
error naming it.
"""

import json
import sys


def points(path):
    """(frames, wp, games) of every evaluation line of a metrics file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise SystemExit(f"{path}:{number}: not a JSON line ({e})")
            if row.get("wp_vs_ddzlib") is not None:
                out.append((row["frames"], row["wp_vs_ddzlib"], row.get("eval_games") or 0))
    return out


def svg(pts, title):
    """An SVG line chart of WP over frames, with the 0.5 line."""
    width, height, left, right, top, bottom = 640, 360, 60, 20, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    max_frames = max(p[0] for p in pts) if pts else 1
    x = lambda f: left + plot_w * f / max_frames
    y = lambda wp: top + plot_h * (1 - wp)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>',
    ]
    for k in range(11):
        wp = k / 10
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(wp):.1f}" y2="{y(wp):.1f}" '
            f'stroke="{"#888" if k == 5 else "#eee"}"/>'
        )
        parts.append(f'<text x="{left - 6}" y="{y(wp) + 4:.1f}" text-anchor="end">{wp:.1f}</text>')
    step = 10 ** max(0, len(str(max_frames)) - 1)
    while step > 1 and max_frames // step < 4:
        step //= 2
    for k in range(0, max_frames + 1, step):
        parts.append(
            f'<text x="{x(k):.1f}" y="{height - bottom + 18}" text-anchor="middle">{k / 1e6:g}M</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">frames</text>'
    )
    parts.append(
        f'<text x="16" y="{top + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {top + plot_h / 2})">WP against ddzlib</text>'
    )
    if pts:
        path = " ".join(f"{x(f):.1f},{y(wp):.1f}" for f, wp, _ in pts)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#c0392b" stroke-width="2"/>')
        for f, wp, games in pts:
            parts.append(
                f'<circle cx="{x(f):.1f}" cy="{y(wp):.1f}" r="3" fill="#c0392b">'
                f"<title>{f} frames: WP {wp:.3f} over {games} games</title></circle>"
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv):
    if len(argv) != 3:
        raise SystemExit("usage: training_curve.py METRICS.jsonl OUT.svg")
    pts = points(argv[1])
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(svg(pts, "net robot: WP against ddzlib over training"))
    print(f"{len(pts)} evaluations -> {argv[2]}")


if __name__ == "__main__":
    main(sys.argv)
