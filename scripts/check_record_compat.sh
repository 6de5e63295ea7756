#!/bin/bash
# Records written by an older ddz replay with today's, to the same result: 150 games (25 duplicate
# deals of ddzlib against random, two games a deal, under classic, laizi and tiandi) recorded
# by OLD, each replayed by NEW (`ddz replay --json`, which checks every step and the scores),
# the replayed result compared with the recorded one.
#
#   scripts/check_record_compat.sh OLD_DDZ NEW_DDZ
set -euo pipefail
old=$1 new=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for rules in classic laizi tiandi; do
  "$old" arena --rules "$rules" --bots ddzlib,random --deals 25 --seed 55 --quiet \
    --records "$dir/$rules" >/dev/null
done
python3 - "$new" "$dir" <<'PY'
import glob, json, subprocess, sys
new, top = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(f"{top}/*/*.json"))
bad = []
for path in files:
    out = subprocess.run([new, "replay", "--json", path], capture_output=True, text=True)
    recorded = json.load(open(path))["result"]
    try:
        replayed = json.loads(out.stdout)
    except json.JSONDecodeError:
        bad.append(f"{path}: {out.stderr.strip()}")
        continue
    if not replayed.get("ok") or replayed.get("result") != recorded:
        bad.append(f"{path}: replayed {replayed.get('result')}, recorded {recorded}")
print(f"{len(files) - len(bad)} of {len(files)} records replay to their recorded result")
for line in bad:
    print(line)
sys.exit(1 if bad or not files else 0)
PY
