#!/bin/bash
# Issue 18 (2026-12-02): `search:time=100ms:popp=ddzlib` (the `ddzlib` policy plays the
# opponents in the network's playouts) against `ddzlib`, classic rules, 1,000 duplicate deals
# as ten shards of 100, seed 2053, two games at once (scripts/shards.sh: resumes a stopped
# run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2053 10 --bots search:time=100ms:popp=ddzlib,ddzlib --threads 2
