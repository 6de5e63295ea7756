#!/bin/bash
# Plays today's `search:time=100ms` against the one of commit dff7a94 (built in a git worktree at
# ../base beside the repository) as the shards of one run, each shard's report in DIR, and
# merges them: what the directories of docs/strength-runs call.
#
#   scripts/shards_vs_dff7a94.sh DIR DEALS SEED SHARDS [ARENA OPTIONS...]
#
# Shard I's report goes to DIR/shard-I.json; a shard already done is skipped, so a stopped run
# resumes (scripts/shards.sh). DDZ and BASE override the two binaries (default
# target/release/ddz and ../base/target/release/ddz).
set -euo pipefail
dir=$1 deals=$2 seed=$3 shards=$4
shift 4
top=$(git -C "$dir" rev-parse --show-toplevel)
base=${BASE:-$top/../base/target/release/ddz}
exec "$top/scripts/shards.sh" "$dir" "$deals" "$seed" "$shards" \
  --bots search:time=100ms,base --exec "base=$base bot --bot search:time=100ms" --threads 2 "$@"
