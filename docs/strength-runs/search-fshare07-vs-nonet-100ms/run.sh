#!/bin/bash
# Issue 23's equal-time match with the network's last rounds taking 0.7 of the time
# (2026-12-04): search:time=100ms:fshare=0.7 against the robot without the network
# (search:time=100ms:netc=0:prior=0:fnet=0), classic rules, 1,000 duplicate deals as ten shards
# of 100, seed 2303, --threads 1 (played beside ../search-default-vs-nonet-2303, the default on
# the same deals, one core each; scripts/shards.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2303 10 \
  --bots search:time=100ms:fshare=0.7,search:time=100ms:netc=0:prior=0:fnet=0 --threads 1
