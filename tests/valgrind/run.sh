#!/bin/sh
# Short runs of the program under valgrind's memcheck (tests/common/short_runs.sh): any invalid read/write, use of
# uninitialised memory or bad free fails (exit 9). Leaks are left to the sanitizer job (LeakSanitizer, which can tell
# OpenMPI's own from ours), which makes the same runs (tests/sanitizer/program_runs.sh).
# Usage: tests/valgrind/run.sh [BUILD_DIR]   (default build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check() { valgrind --error-exitcode=9 --leak-check=no -q "$build/bin/stickslip" "$@" -quiet >"$out/log" 2>&1 || { cat "$out/log"; exit 9; }; }
check_test() {
  SK_SOURCE_DIR="$root" valgrind --error-exitcode=9 --leak-check=no -q "$build/tests/$1" >"$out/log" 2>&1 || { cat "$out/log"; exit 9; }
}
. "$root/tests/common/short_runs.sh"
echo "valgrind: clean"
