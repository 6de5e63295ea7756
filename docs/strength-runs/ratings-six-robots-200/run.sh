#!/bin/sh
# The shipped robots on one rating scale (issue 52): 200 duplicate deals, seed 5201, every
# robot at its default budget (deterministic: `search` counts playouts), random at 0.
# Run from the repository root with a release build; writes report.json and ratings.json here.
set -eu
here=docs/strength-runs/ratings-six-robots-200
bin="${DDZ_BIN:-target/release/ddz}"
"$bin" ratings --bots random,greedy,value,ddzlib,net,search --deals 200 --seed 5201 \
    --out "$here/report.json" --json --quiet > "$here/ratings.json"
"$bin" ratings --reports "$here/report.json" --seed 5201 > "$here/ratings.txt"
