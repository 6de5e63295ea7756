#!/bin/bash
# Issue 18's bidding run with the network's last rounds by default (fnet=3, 2026-12-02):
# today's search:time=100ms (bidding by search, the network's candidates, prior and last
# rounds, inference, objective=win) against the one of commit dff7a94 (built in a git worktree
# at ../base beside the repository), classic rules with bidding (`--bidding`: six games a deal,
# each robot alone in each seat, points bidding and the rule set's scoring), 300 deals as five
# shards of 60, seed 2052 (scripts/shards_vs_dff7a94.sh: resumes a stopped run, then merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards_vs_dff7a94.sh" "$here" 300 2052 5 --bidding
