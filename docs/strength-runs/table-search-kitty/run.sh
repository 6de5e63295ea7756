#!/bin/sh
# The table search with and without the kitty in its samples (docs/strength-runs/
# table-search-kitty.md): 1,000 duplicate deals each, seed 54, two threads. The option
# `search:kitty=0` existed only in the build measured (commit 390ecb2 plus the change, not
# landed); this script records how the figures were made.
set -e
for rules in two four; do
  ./target/release/ddz arena --rules $rules --bots search,search:kitty=0 --deals 1000 --seed 54 \
    --threads 2 --json --quiet > docs/strength-runs/table-search-kitty/$rules-search-kitty0.json
done
