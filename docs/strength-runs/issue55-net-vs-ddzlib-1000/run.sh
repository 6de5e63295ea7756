#!/bin/bash
# Issue 55 (2026-12-06): after the redesign, today's `net` against `ddzlib`, classic rules,
# 1,000 duplicate deals as four shards of 250, fresh seed 2202 (scripts/shards.sh: resumes a
# stopped run, then merges).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
exec "$top/scripts/shards.sh" "$here" 1000 2202 4 --bots net,ddzlib --threads 2
