#!/bin/bash
# Issue 18's headline run, again with the network in the default search (2026-12-02): today's
# search:time=100ms against the one of commit dff7a94 (built in a
# git worktree at ../base beside the repository), classic rules, 1,000 duplicate deals as ten
# shards of 100, seed 2035. Each shard's report goes to shard-I.json here (a shard already done
# is skipped, so the run resumes); then: ddz arena merge shard-*.json
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
bin=${DDZ:-$top/target/release/ddz}
base=${BASE:-$top/../base/target/release/ddz}
cd "$here"
for i in 0 1 2 3 4 5 6 7 8 9; do
  [ -s "shard-$i.json" ] && continue
  "$bin" arena --bots search:time=100ms,base --exec "base=$base bot --bot search:time=100ms" \
    --deals 1000 --seed 2035 --shard "$i/10" --threads 2 --quiet --out "shard-$i.json.tmp"
  mv "shard-$i.json.tmp" "shard-$i.json"
done
"$bin" arena merge shard-*.json
