#!/bin/sh
# Two changes to the table search's samples (docs/strength-runs/table-search-samples.md):
# 1,000 duplicate deals each, seed 54. The options `search:kitty=0` and `search:infer=0`
# existed only in the builds measured (each change on top of 390ecb2 and 9df45aa, neither
# landed); this script records how the figures were made.
set -e
for rules in two four; do
  ./target/release/ddz arena --rules $rules --bots search,search:kitty=0 --deals 1000 --seed 54 \
    --threads 2 --json --quiet > docs/strength-runs/table-search-samples/$rules-search-kitty0.json
  ./target/release/ddz arena --rules $rules --bots search,search:infer=0 --deals 1000 --seed 54 \
    --threads 1 --json --quiet > docs/strength-runs/table-search-samples/$rules-search-infer0.json
done
