#!/bin/sh
# Records the robot API fixtures of crates/ddz-server/tests/data afresh: the requests (from
# seeded greedy games, by the robot_api test under DDZ_RECORD_FIXTURE=1), then each robot's
# replies from the real `ddz bot` command. Run from the repository root; review the diff.
set -eu
data=crates/ddz-server/tests/data
DDZ_RECORD_FIXTURE=1 cargo test -p ddz-server --test server -- --exact robot_api::the_recorded_requests_are_the_generated_ones
cargo build --release -p ddz
bin="${CARGO_TARGET_DIR:-target}/release/ddz"
for name in greedy value ddzlib; do
    "$bin" bot --bot "$name" < "$data/robot_requests.jsonl" > "$data/robot_replies_$name.jsonl"
done
git diff --stat -- "$data"
