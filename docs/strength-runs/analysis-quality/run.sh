#!/bin/sh
# The measurements of docs/analysis.md: for each robot, 100 games (50 duplicate deals) against
# `level:4` recorded by the arena, each game analysed at the default budget (every seat; the
# summary keeps the robot's own seats), the time of each analysis, and 10 games analysed again
# with another seed. Resumable: a robot whose analyses exist is skipped. The analyses are kept
# gzipped (a JSON line a game: its file, the seconds the analysis took, the analysis).
#
#   sh docs/strength-runs/analysis-quality/run.sh      (from the repository, after
#                                                        cargo build --release -p ddz)
set -eu
DDZ=${DDZ:-target/release/ddz}
OUT=${OUT:-docs/strength-runs/analysis-quality}
WORK=${WORK:-/tmp/ddz-analysis-quality}
mkdir -p "$OUT" "$WORK"
for bot in random greedy value ddzlib net search; do
  [ -s "$OUT/$bot.jsonl.gz" ] && continue
  rm -rf "$WORK/$bot"
  "$DDZ" arena --bots "$bot,level:4" --deals 50 --seed 5100 --threads 1 --quiet \
    --records "$WORK/$bot" > "$WORK/$bot-arena.txt"
  : > "$WORK/$bot.jsonl"
  for f in "$WORK/$bot"/*.json; do
    start=$(date +%s.%N)
    line=$("$DDZ" analyse "$f" --json --quiet | tr -d '\n')
    end=$(date +%s.%N)
    printf '{"file": "%s", "seconds": %s, "analysis": %s}\n' "$(basename "$f")" \
      "$(awk "BEGIN { printf \"%.3f\", $end - $start }")" "$line" >> "$WORK/$bot.jsonl"
  done
  gzip -9 -c "$WORK/$bot.jsonl" > "$OUT/$bot.jsonl.gz"
done
# Repeatability: the first 10 search games analysed again with seed 1.
if [ ! -s "$OUT/search-seed1.jsonl.gz" ]; then
  : > "$WORK/search-seed1.jsonl"
  for f in $(ls "$WORK/search"/*.json | head -10); do
    line=$("$DDZ" analyse "$f" --json --quiet --seed 1 | tr -d '\n')
    printf '{"file": "%s", "analysis": %s}\n' "$(basename "$f")" "$line" >> "$WORK/search-seed1.jsonl"
  done
  gzip -9 -c "$WORK/search-seed1.jsonl" > "$OUT/search-seed1.jsonl.gz"
fi
python3 "$OUT/summary.py" "$OUT" > "$OUT/summary.md"
cat "$OUT/summary.md"
