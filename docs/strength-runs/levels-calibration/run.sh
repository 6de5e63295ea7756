#!/bin/sh
# The calibration of the difficulty levels (issue 52): levels 1-7 and random in a round robin
# over 1,000 duplicate deals, fitted on the rating scale (random at 0); then level 8 (the search
# robot at its default budget) against level 7 over 1,000 deals, in ten resumable shards,
# fitted with level 7 anchored at its rating from the first run. Every level is repeatable
# (search counts playouts), so a rerun gives the same figures. Run from the repository root
# with a release build (DDZ_BIN to use another binary); writes its outputs here and prints the
# table of docs/strength-runs/levels-calibration.md.
set -eu
here=docs/strength-runs/levels-calibration
bin="${DDZ_BIN:-target/release/ddz}"
levels=random,level:1,level:2,level:3,level:4,level:5,level:6,level:7
if [ ! -s "$here/ratings-1-7.json" ]; then
  "$bin" ratings --bots "$levels" --deals 1000 --seed 5210 --out "$here/report-1-7.json" \
    --json --quiet > "$here/ratings-1-7.json.tmp"
  mv "$here/ratings-1-7.json.tmp" "$here/ratings-1-7.json"
fi
l7=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([x["rating"] for x in r["robots"] if x["robot"]=="level:7"][0])' "$here/ratings-1-7.json")
for i in 0 1 2 3 4 5 6 7 8 9; do
  shard="$here/report-7-8-shard$i.json"
  [ -s "$shard" ] && continue
  "$bin" ratings --bots level:7,level:8 --deals 1000 --seed 5211 --shard "$i/10" \
    --out "$shard.tmp" --quiet > /dev/null
  mv "$shard.tmp" "$shard"
done
"$bin" ratings --reports "$here"/report-7-8-shard*.json --seed 5211 --anchor "level:7=$l7" \
  --json > "$here/ratings-7-8.json"
"$bin" arena merge "$here"/report-7-8-shard*.json --out "$here/report-7-8.json" > /dev/null
python3 - "$here" <<'EOF'
import json, sys
here = sys.argv[1]
low = json.load(open(f"{here}/ratings-1-7.json"))
high = json.load(open(f"{here}/ratings-7-8.json"))
ratings = {r["robot"]: r for r in low["robots"]}
ratings["level:8"] = [r for r in high["robots"] if r["robot"] == "level:8"][0]
pairs = {}
for name in ("report-1-7.json", "report-7-8.json"):
    pairs.update({(p["a"], p["b"]): p for p in json.load(open(f"{here}/{name}"))["pairs"]})
def wp(a, b):
    if (a, b) in pairs:
        p = pairs[(a, b)]
        return p["wp"], p["wp_ci"]
    p = pairs[(b, a)]
    return 1 - p["wp"], [1 - p["wp_ci"][1], 1 - p["wp_ci"][0]]
print("| level | rating | 95% interval | against the level below: WP [95% interval] |")
print("|---|---:|---|---|")
names = ["random"] + [f"level:{n}" for n in range(1, 9)]
for i, name in enumerate(names):
    r = ratings[name]
    lo, hi = r["ci"]
    if i == 0:
        below = "-"
    else:
        w, (a, b) = wp(name, names[i - 1])
        below = f"{w:.3f} [{a:.3f}, {b:.3f}]"
    print(f"| `{name}` | {r['rating']:.0f} | [{lo:.0f}, {hi:.0f}] | {below} |")
EOF
