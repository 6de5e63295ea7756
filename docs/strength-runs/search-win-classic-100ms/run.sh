#!/bin/bash
# Issue 18's headline run with the win as the default objective (2026-12-02): today's
# search:time=100ms against the one of commit dff7a94 (built in a git worktree at ../base beside
# the repository), classic rules, 1,000 duplicate deals as ten shards of 100, seed 2045
# (scripts/shards_vs_dff7a94.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards_vs_dff7a94.sh" "$here" 1000 2045 10
