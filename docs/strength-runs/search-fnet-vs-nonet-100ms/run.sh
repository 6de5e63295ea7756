#!/bin/bash
# Issue 23's equal-time match with fnet=3 by default (2026-12-03): today's default
# search:time=100ms (the network's candidates, prior and last-round playouts) against the same
# robot without the network (search:time=100ms:netc=0:prior=0:fnet=0), classic rules, 1,000
# duplicate deals as ten shards of 100, seed 2054, --threads 2 (scripts/shards.sh: resumes a
# stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2054 10 \
  --bots search:time=100ms,search:time=100ms:netc=0:prior=0:fnet=0 --threads 2
