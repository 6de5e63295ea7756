"""Summarises the analyses written by run.sh (docs/analysis.md): mean loss per decision of
each robot's own seats, marks, the solver-proven losing plays and how the estimate marked
them, the time per game, and the repeatability of the losses across two seeds."""
import gzip
import json
import statistics
import sys
from pathlib import Path

out = Path(sys.argv[1])
BOTS = ["random", "greedy", "value", "ddzlib", "net", "search"]


def seats_of(name, bot):
    # deal000003-game1-A-B-C.json: seat i played by the i-th name.
    players = name[: -len(".json")].split("-")[2:]
    return [i for i, p in enumerate(players) if p == bot]


def rows(path):
    # bc writes times below a second as ".98": read as 0.98.
    text = gzip.decompress(path.read_bytes()).decode().replace('"seconds": .', '"seconds": 0.')
    return [json.loads(line) for line in text.splitlines() if line.strip()]


print("| robot | games | plays rated | mean loss | contested plays | their mean loss | blunders | mistakes | inaccuracies | proven lost | flagged exact | marked mistake or worse | time median | time worst |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for bot in BOTS:
    path = out / f"{bot}.jsonl.gz"
    if not path.exists():
        continue
    data = rows(path)
    losses, marks, proven, marked, times = [], {"blunder": 0, "mistake": 0, "inaccuracy": 0}, 0, 0, []
    # Plays where the game was still open: the best play's chance between 10% and 90%.
    contested = []
    flagged = 0
    for row in data:
        times.append(row["seconds"])
        own = seats_of(row["file"], bot)
        for d in row["analysis"]["decisions"]:
            if d["seat"] not in own:
                continue
            if d["loss"] is not None:
                losses.append(d["loss"])
                if 0.1 <= d["win_best"] <= 0.9:
                    contested.append(d["loss"])
                if d["mark"]:
                    marks[d["mark"]] += 1
            e = d["exact"]
            if e and e["could_win"] and not e["played_wins"]:
                proven += 1
                flagged += 1
                if d["mark"] in ("mistake", "blunder"):
                    marked += 1
    share = f"{marked}/{proven} ({marked / proven:.0%})" if proven else "-"
    print(f"| {bot} | {len(data)} | {len(losses)} | {statistics.mean(losses):.4f} | {len(contested)} | {statistics.mean(contested):.4f} | {marks['blunder']} | {marks['mistake']} | {marks['inaccuracy']} | {proven} | {flagged}/{proven} | {share} | {statistics.median(times):.2f} s | {max(times):.2f} s |")

again = out / "search-seed1.jsonl.gz"
if again.exists():
    first = {r["file"]: r for r in rows(out / "search.jsonl.gz")}
    a, b = [], []
    for row in rows(again):
        base = first[row["file"]]["analysis"]["decisions"]
        for d0, d1 in zip(base, row["analysis"]["decisions"]):
            if d0["loss"] is not None and d1["loss"] is not None:
                a.append(d0["loss"])
                b.append(d1["loss"])
    r = statistics.correlation(a, b)
    same_mark = sum(1 for x, y in zip(a, b) if (x >= 0.05) == (y >= 0.05)) / len(a)
    print()
    print(f"Repeatability (10 search games, seeds 0 and 1): {len(a)} decisions, correlation of the losses {r:.3f}, "
          f"mean |difference| {statistics.mean(abs(x - y) for x, y in zip(a, b)):.4f}, "
          f"same side of 0.05 (marked or not) in {same_mark:.1%}")
