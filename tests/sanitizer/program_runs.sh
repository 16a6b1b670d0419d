#!/bin/sh
# The short runs of the program (tests/common/short_runs.sh) with the sanitizer build (make asan-check runs them
# after the unit tests): an invalid access, undefined behaviour or a leak of ours stops the program with a report and
# fails the script. The unit tests cover the modules one by one; these are the solvers' own paths from the input to
# results.h5 (set-up, time loop, output, clean-up). Run with the environment of make asan-check.
# Usage: tests/sanitizer/program_runs.sh [BUILD_DIR]   (default build-asan)
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/tests/common/short_runs.sh" "${1:-$root/build-asan}"
