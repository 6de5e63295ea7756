#!/bin/bash
# Issue 18's match against `ddzlib` with the network's last rounds by default (fnet=3,
# 2026-12-02): today's search:time=100ms against `ddzlib`, classic rules, 1,000 duplicate
# deals as ten shards of 100, seed 2051, two games at once (scripts/shards.sh: resumes a
# stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards.sh" "$here" 1000 2051 10 --bots search:time=100ms,ddzlib --threads 2
