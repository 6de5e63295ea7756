#!/bin/bash
# Records the search robot playing itself, for `ddz train --imitate` (docs/robots.md): shards
# of 500 duplicate deals (1,000 games), classic rules, fixed landlord in seat 0, each shard
# seeded apart. Resumable: a finished shard leaves shardN.done, a stopped one is played again.
#
#   scripts/imitation_records.sh OUT [SHARDS] [DDZ]
#
# OUT/recN holds shard N's records; OUT/done links the finished shards (what --imitate reads).
# The environment may set the robots (BOTS, two specs; default the search robot at 300 and
# 320 playouts) and the first shard's seed (SEED, default 9000; shard s is seeded SEED + s).
# The two robots must differ in play, not only in name: robots that play alike play a deal's
# two games alike, and the second record repeats the first. (300 and 301 playouts, which the
# shipped weights' records used, share each round of the search's halving alike (75 each),
# so their 15,000 records hold 7,500 games twice; 320 gives rounds of 80.)
set -eu
out=$1
shards=${2:-15}
ddz=${3:-target/release/ddz}
bots=${BOTS:-search:iters=300,search:iters=320}
seed=${SEED:-9000}
mkdir -p "$out/done"
for s in $(seq 0 $((shards - 1))); do
    if [ ! -e "$out/shard$s.done" ]; then
        rm -rf "$out/rec$s"
        "$ddz" arena --bots "$bots" --deals 500 --seed $((seed + s)) \
            --threads 2 --records "$out/rec$s" --quiet --out "$out/shard$s.json" > /dev/null
        touch "$out/shard$s.done"
    fi
    ln -sfn "../rec$s" "$out/done/rec$s"
done
echo "records of $shards shards in $out/done: ddz train --dir RUN --imitate $out/done"
