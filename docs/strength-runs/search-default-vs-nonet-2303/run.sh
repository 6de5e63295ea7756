#!/bin/bash
# Issue 23's equal-time match, the default (2026-12-04): search:time=100ms against the robot
# without the network (search:time=100ms:netc=0:prior=0:fnet=0), classic rules, 1,000 duplicate
# deals as ten shards of 100, seed 2303, --threads 1 (played beside
# ../search-fshare07-vs-nonet-100ms, one core each; scripts/shards.sh: resumes a stopped run,
# then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2303 10 \
  --bots search:time=100ms,search:time=100ms:netc=0:prior=0:fnet=0 --threads 1
