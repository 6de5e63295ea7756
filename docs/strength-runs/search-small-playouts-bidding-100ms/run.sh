#!/bin/bash
# Issue 18's bidding run with the small playout network by default (2026-12-04): today's
# search:time=100ms (bidding by search; the playouts' last rounds read net-classic-small)
# against the one of commit dff7a94 (built in a git worktree at ../base beside the repository;
# BASE overrides the binary), classic rules with bidding (`--bidding`: six games a deal, each
# robot alone in each seat, points bidding and the rule set's scoring), 300 deals as five
# shards of 60, seed 2052: the deals of the 0.586 with net-classic's playouts
# (../search-fnet-bidding-100ms) (scripts/shards_vs_dff7a94.sh: resumes a stopped run, then
# merges).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/shards_vs_dff7a94.sh" "$here" 300 2052 5 --bidding
