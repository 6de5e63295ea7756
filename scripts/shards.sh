#!/bin/bash
# Plays one `ddz arena` run as shards, each shard's report in DIR, and merges them: a long
# match that can stop at any time and resume.
#
#   scripts/shards.sh DIR DEALS SEED SHARDS ARENA OPTIONS...
#
# e.g. scripts/shards.sh runs/x 1000 7 10 --bots search:time=100ms,ddzlib --threads 2.
# Shard I's report goes to DIR/shard-I.json; a shard already done is skipped, so a stopped run
# resumes. DDZ overrides the binary (default target/release/ddz).
set -euo pipefail
dir=$1 deals=$2 seed=$3 shards=$4
shift 4
top=$(git -C "$dir" rev-parse --show-toplevel)
bin=${DDZ:-$top/target/release/ddz}
cd "$dir"
for i in $(seq 0 $((shards - 1))); do
  [ -s "shard-$i.json" ] && continue
  "$bin" arena --deals "$deals" --seed "$seed" --shard "$i/$shards" --quiet \
    --out "shard-$i.json.tmp" "$@"
  mv "shard-$i.json.tmp" "shard-$i.json"
  echo "shard $((i + 1)) of $shards done" >&2
done
"$bin" arena merge shard-*.json
