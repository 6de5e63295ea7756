#!/bin/bash
# Issue 18 (2026-12-04): today's `search:time=100ms`, whose playouts read net-classic-small,
# against commit dff7a94's search:time=100ms (built in a git worktree at ../base beside the
# repository; BASE overrides the binary), classic rules, 1,000 duplicate deals as ten shards of
# 100, seed 2050, the deals of the 0.611 with net-classic's playouts
# (../search-fnet-classic-100ms) (scripts/shards.sh: resumes a stopped run, then merges).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
base=${BASE:-$top/../base/target/release/ddz}
exec "$top/scripts/shards.sh" "$here" 1000 2050 10 \
  --bots search:time=100ms,base --exec "base=$base bot --bot search:time=100ms" --threads 2
