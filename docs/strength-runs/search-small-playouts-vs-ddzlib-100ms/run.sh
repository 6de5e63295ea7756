#!/bin/bash
# Issue 18 (2026-12-04): today's `search:time=100ms`, whose playouts read net-classic-small,
# against `ddzlib`, classic rules, 1,000 duplicate deals as ten shards of 100, seed 2051, the
# deals of the 0.763 and 0.775 with net-classic's playouts (../search-fnet-vs-ddzlib-100ms,
# ../search-netr-vs-ddzlib-100ms) (scripts/shards.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2051 10 \
  --bots search:time=100ms,ddzlib --threads 2
