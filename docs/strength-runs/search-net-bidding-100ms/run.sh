#!/bin/bash
# Issue 18's bidding run (2026-12-02): today's search:time=100ms (the network's candidates and
# prior, inference from the plays and the bids, bidding by search) against the one of commit
# dff7a94 (built in a git worktree at ../base beside the repository), classic rules with
# bidding (`--bidding`: six games a deal, each robot alone in each seat, points bidding and the
# rule set's scoring), 180 deals as three shards of 60, seed 2034
# (scripts/shards_vs_dff7a94.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards_vs_dff7a94.sh" "$here" 180 2034 3 --bidding
