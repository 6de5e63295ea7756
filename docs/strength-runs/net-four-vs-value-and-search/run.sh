#!/bin/bash
# Issue 23's `net` against `value` and `search` with today's shipped networks (the default
# four, 2026-12-05): classic rules, duplicate deals, --threads 2, fresh seeds. Writes the
# three reports beside this script.
set -e
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
run() { cargo run --release -q -p ddz -- arena --threads 2 --quiet "$@"; }
run --bots net,value --deals 1000 --seed 2111 --out "$here/net-vs-value.json"
run --bots net,search:iters=1000 --deals 500 --seed 2112 --out "$here/net-vs-search-iters1000.json"
run --bots net,search:time=100ms --deals 1000 --seed 2113 --out "$here/net-vs-search-100ms.json"
