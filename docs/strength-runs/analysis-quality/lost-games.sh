#!/bin/sh
# docs/analysis.md (e): the search robot's lost games against ddzlib (100 games, 50 duplicate
# deals, the search at its default budget), its own plays analysed at 4,000 samples a play.
#
#   sh docs/strength-runs/analysis-quality/lost-games.sh     (after cargo build --release -p ddz)
set -eu
DDZ=${DDZ:-target/release/ddz}
OUT=${OUT:-docs/strength-runs/analysis-quality}
WORK=${WORK:-/tmp/ddz-analysis-lost}
rm -rf "$WORK"
mkdir -p "$WORK"
"$DDZ" arena --bots search,ddzlib --deals 50 --seed 5151 --threads 1 --quiet \
  --records "$WORK/games" > "$OUT/lost-games-arena.txt"
: > "$WORK/lost.jsonl"
for f in "$WORK/games"/*.json; do
  name=$(basename "$f" .json)
  # The search's seats: deal-game-A-B-C, seat i played by the i-th name.
  seats=$(echo "$name" | cut -d- -f3- | tr '-' '\n' | grep -n '^search$' | cut -d: -f1 | awk '{print $1 - 1}')
  scores=$(python3 -c "import json,sys; r=json.load(open('$f'))['result']['scores']; print(' '.join(str(s) for s in r))")
  for seat in $seats; do
    score=$(echo "$scores" | cut -d' ' -f$((seat + 1)))
    [ "$score" -lt 0 ] || continue
    line=$("$DDZ" analyse "$f" --seat "$seat" --iters 4000 --json --quiet | tr -d '\n')
    printf '{"file": "%s", "seat": %s, "score": %s, "analysis": %s}\n' "$name.json" "$seat" "$score" "$line" >> "$WORK/lost.jsonl"
    break
  done
done
gzip -9 -c "$WORK/lost.jsonl" > "$OUT/search-lost-vs-ddzlib.jsonl.gz"
