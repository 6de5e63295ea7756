#!/bin/bash
# Issue 18's bidding run (2026-12-02): today's search:time=100ms (the network's candidates and
# prior, inference from the plays and the bids, bidding by search) against the one of commit
# dff7a94 (built in a git worktree at ../base beside the repository), classic rules with
# bidding (`--bidding`: six games a deal, each robot alone in each seat, points bidding and the
# rule set's scoring), 180 deals as three shards of 60, seed 2034. Each shard's report goes to
# shard-I.json here (a shard already done is skipped, so the run resumes); then:
# ddz arena merge shard-*.json
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
bin=${DDZ:-$top/target/release/ddz}
base=${BASE:-$top/../base/target/release/ddz}
cd "$here"
for i in 0 1 2; do
  [ -s "shard-$i.json" ] && continue
  "$bin" arena --bots search:time=100ms,base --exec "base=$base bot --bot search:time=100ms" \
    --bidding --deals 180 --seed 2034 --shard "$i/3" --threads 2 --quiet --out "shard-$i.json.tmp"
  mv "shard-$i.json.tmp" "shard-$i.json"
done
"$bin" arena merge shard-*.json
