#!/bin/bash
# search:time=100ms:popp=auto:sharp=0.5 (the sharp model in the inference, ddzlib playing the
# seats it explains in the network's playouts) against ddzlib (2026-12-03), classic rules,
# 1,000 duplicate deals as ten shards of 100, seed 2051 (the deals of the default's 0.763),
# --threads 2 (scripts/shards.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2051 10 \
  --bots search:time=100ms:popp=auto:sharp=0.5,ddzlib --threads 2
