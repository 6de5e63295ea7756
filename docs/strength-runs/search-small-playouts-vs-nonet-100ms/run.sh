#!/bin/bash
# Issue 23's equal-time match with the playouts' network a small one (2026-12-04): the search
# robot whose last rounds' playouts read net-classic-small (128-64 hidden units, about a
# third of net-classic's cost a playout) against the robot without the network
# (search:time=100ms:netc=0:prior=0:fnet=0), classic rules, 1,000 duplicate deals as ten
# shards of 100, seed 2305, --threads 2 (scripts/shards.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
small=$here/../../../crates/ddz-bots/weights/net-classic-small.safetensors
exec "$here/../../../scripts/shards.sh" "$here" 1000 2305 10 \
  --bots "search:time=100ms:pweights=$small,search:time=100ms:netc=0:prior=0:fnet=0" --threads 2
