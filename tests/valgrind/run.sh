#!/bin/sh
# The short runs of the program (tests/common/short_runs.sh) under valgrind's memcheck: any invalid read/write, use of
# uninitialised memory or bad free fails. Leaks are left to the sanitizer job (LeakSanitizer, which can tell OpenMPI's
# own from ours), which makes the same runs (tests/sanitizer/program_runs.sh).
# Usage: tests/valgrind/run.sh [BUILD_DIR]   (default build)
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/tests/common/short_runs.sh" "${1:-$root/build}" valgrind --error-exitcode=9 --leak-check=no -q
