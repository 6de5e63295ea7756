#!/bin/bash
# Issue 55 (2026-12-06): after the redesign (one view, typed refusals), today's
# `search:time=100ms` against commit dff7a94's, classic rules, 200 duplicate deals as four
# shards of 50, fresh seed 2201 (scripts/shards.sh: resumes a stopped run, then merges).
# BASE is the dff7a94 build (default ../base/target/release/ddz beside the repository).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
base=${BASE:-$top/../base/target/release/ddz}
exec "$top/scripts/shards.sh" "$here" 200 2201 4 \
  --bots search:time=100ms,base --exec "base=$base bot --bot search:time=100ms" --threads 2
