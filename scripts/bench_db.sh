#!/usr/bin/env bash
# The write-ahead figures of BENCHMARKS.md ("PostgreSQL, and the leases"): `ddz serve` (the
# release build) on one database, then the swarm of crates/ddz-server/examples/swarm.rs, one
# room for 40 games and 1,000 rooms for one game each.
#
#   cargo build --release -p ddz && cargo build --release -p ddz-server --example swarm
#   scripts/bench_db.sh LABEL DB [MORE SERVE OPTIONS]
#   scripts/bench_db.sh none none
#   scripts/bench_db.sh sqlite /tmp/walbench/games.sqlite3
#   scripts/bench_db.sh postgres postgres://postgres@127.0.0.1:54329/ddz_bench --advertise http://127.0.0.1:8931
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 LABEL DB [SERVE OPTIONS]" >&2; exit 2; }
label=$1
db=$2
shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
target=${CARGO_TARGET_DIR:-$root/target}
port=8931
"$target/release/ddz" serve --addr "127.0.0.1:$port" --robot-delay-ms 0 --turn-seconds 0 --db "$db" \
  --max-rooms 5000 --rooms-per-minute 100000 --connections-per-address 100000 \
  --tcp-per-address 100000 "$@" 2>"$target/bench_db_server.log" &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
sleep 2
for run in "--clients 1 --games 40" "--clients 1000 --games 1"; do
  # shellcheck disable=SC2086
  echo "$label | $run | $("$target/release/examples/swarm" --addr "127.0.0.1:$port" $run --robots greedy)"
done
