#!/bin/bash
# Issue 23's equal-time match (2026-12-02): today's default search:time=100ms (the network's
# candidates and prior) against the same robot without the network
# (search:time=100ms:netc=0:prior=0), classic rules, 1,000 duplicate deals as ten shards of
# 100, seed 2048, --threads 2 (scripts/shards.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2048 10 \
  --bots search:time=100ms,search:time=100ms:netc=0:prior=0 --threads 2
