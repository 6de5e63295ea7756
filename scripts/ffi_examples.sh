#!/usr/bin/env bash
# The C ABI (crates/ddz-ffi, include/ddz.h) from the languages that use it, as CI runs it:
#   C    examples/c/play.c: 100 games of search:iters=100 against ddzlib (classic) and 5 on
#        every other profile, each record checked by `ddz replay`; the errors a client meets;
#        linked against the shared and the static library; under valgrind (no error, no leak);
#   C++  examples/cpp/test.cpp with the RAII wrapper examples/cpp/ddz.hpp;
#   Lua  examples/lua/play.lua under LuaJIT's FFI;
#   C#   examples/csharp/Play.cs by P/Invoke, compiled by Mono's mcs and run by mono.
# Needs cc, c++, valgrind, luajit, mcs and mono (.ci/run installs them). Builds the library
# with the test profile (reusing what `cargo test` built) and uses the `ddz` binary of
# $DDZ_BIN, or the one `cargo test` builds, building it when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-$PWD/target}
case $target in /*) ;; *) target=$PWD/$target ;; esac
# Only the library: building `ddz` here too would unify features differently from
# `cargo test --workspace` and rebuild its dependencies.
cargo build --locked --profile test -p ddz-ffi
lib=$target/debug
ddz=${DDZ_BIN:-$lib/ddz}
[ -x "$ddz" ] || { cargo build --locked --profile test -p ddz && ddz=$lib/ddz; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
include=crates/ddz-ffi/include

echo "-- C (shared library)"
cc -std=c99 -Wall -Wextra -Werror -O2 -I "$include" examples/c/play.c -L "$lib" -lddz_ffi -o "$work/play"
mkdir "$work/records"
"$work/play" "$work/records" 100 classic
"$work/play" "$work/records" 5 laizi tiandi douzero rlcard botzone huanle
replayed=0
for record in "$work"/records/*.json; do
  "$ddz" replay --json "$record" | grep -q '"ok":true' || { echo "does not replay: $record" >&2; exit 1; }
  replayed=$((replayed + 1))
done
[ "$replayed" -eq 130 ] || { echo "$replayed records, expected 130" >&2; exit 1; }
echo "C: $replayed records replay with ddz replay"

echo "-- C (static library)"
cc -std=c99 -Wall -Wextra -Werror -O2 -I "$include" examples/c/play.c "$lib/libddz_ffi.a" \
  -lpthread -ldl -lm -o "$work/play_static"
mkdir "$work/static"
env -u LD_LIBRARY_PATH "$work/play_static" "$work/static" 2 classic huanle

echo "-- C under valgrind"
mkdir "$work/valgrind"
valgrind --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect -q "$work/play" "$work/valgrind" 1 classic laizi huanle

echo "-- C++"
c++ -std=c++17 -Wall -Wextra -Werror -O2 -I "$include" -I examples/cpp examples/cpp/test.cpp \
  -L "$lib" -lddz_ffi -o "$work/test_cpp"
"$work/test_cpp"

echo "-- LuaJIT"
luajit examples/lua/play.lua classic
luajit examples/lua/play.lua laizi

echo "-- C# (Mono)"
mcs -nologo -warnaserror examples/csharp/Play.cs -out:"$work/Play.exe"
mono "$work/Play.exe" classic
mono "$work/Play.exe" huanle
echo "C ABI: C, C++, LuaJIT and C# examples passed"
