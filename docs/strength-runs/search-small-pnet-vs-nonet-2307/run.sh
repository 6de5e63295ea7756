#!/bin/bash
# Issue 23's equal-time match with every playout by the small network, a second fresh sample
# (2026-12-04, later): search:time=100ms:pnet=1000 against the robot without the network
# (search:time=100ms:netc=0:prior=0:fnet=0), classic rules, 1,000 fresh duplicate deals as ten
# shards of 100, seed 2307, --threads 2 (scripts/shards.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2307 10 \
  --bots "search:time=100ms:pnet=1000,search:time=100ms:netc=0:prior=0:fnet=0" --threads 2
