#!/bin/bash
# Issue 23's equal-time match of today's default (the small network's playouts in the last
# rounds, fnet=3) on the deals of the pnet=1000 run (../search-small-pnet-vs-nonet-100ms), to
# compare the two on the same deals (2026-12-04): search:time=100ms against the robot without
# the network (search:time=100ms:netc=0:prior=0:fnet=0), classic rules, 1,000 duplicate deals
# as ten shards of 100, seed 2306, --threads 2 (scripts/shards.sh: resumes a stopped run, then
# merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2306 10 \
  --bots "search:time=100ms,search:time=100ms:netc=0:prior=0:fnet=0" --threads 2
