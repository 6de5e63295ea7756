#!/bin/sh
# The two- and four-seat standings (docs/strength-runs/variants-two-and-four.md): 1,000
# duplicate deals each, seed 54, two threads (the figures do not depend on the count).
set -e
cd "$(dirname "$0")/../../.."
cargo build --release -p ddz
out=docs/strength-runs/variants-two-and-four
for rules in two four; do
  ./target/release/ddz arena --rules $rules --bots search,ddzlib --deals 1000 --seed 54 --json > $out/$rules-search96x8-ddzlib.json
  ./target/release/ddz arena --rules $rules --bots search:worlds=24:moves=5,ddzlib --deals 1000 --seed 54 --json > $out/$rules-search24x5-ddzlib.json
  ./target/release/ddz arena --rules $rules --bots ddzlib,random --deals 1000 --seed 54 --json > $out/$rules-ddzlib-random.json
done
