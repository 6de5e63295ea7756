#!/bin/bash
# search:time=100ms (today's default, with the network of the dealt-rollouts round shipped
# 2026-12-03) against ddzlib, classic rules, 1,000 duplicate deals as ten shards of 100, seed
# 2051 (the deals of the previous networks' 0.763 and 0.775), --threads 2 (scripts/shards.sh:
# resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2051 10 \
  --bots search:time=100ms,ddzlib --threads 2
