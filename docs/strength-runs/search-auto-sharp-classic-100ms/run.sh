#!/bin/bash
# search:time=100ms:popp=auto:sharp=0.5 against dff7a94's search:time=100ms (2026-12-03),
# classic rules, the first 500 of the 1,000 deals of seed 2050 (the deals of the default's
# 0.611) as shards 0 to 4 of ten, --threads 2; dff7a94 built in a git worktree at ../base
# beside the repository (or BASE names its ddz binary). Resumes a stopped run, then merges.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
bin=${DDZ:-$top/target/release/ddz}
base=${BASE:-$top/../base/target/release/ddz}
cd "$here"
for i in 0 1 2 3 4; do
  [ -s "shard-$i.json" ] && continue
  "$bin" arena --deals 1000 --seed 2050 --shard "$i/10" --quiet --out "shard-$i.json.tmp" \
    --bots search:time=100ms:popp=auto:sharp=0.5,base --threads 2 \
    --exec "base=$base bot --bot search:time=100ms"
  mv "shard-$i.json.tmp" "shard-$i.json"
  echo "shard $((i + 1)) of 5 done" >&2
done
"$bin" arena merge shard-*.json
