#!/bin/sh
# Builds a libFuzzer harness in build-fuzz/ (clang, ASan + UBSan, libFuzzer coverage of the whole library) and fuzzes
# for SECONDS seconds (default 60): HARNESS input (default) feeds bytes to the input loader, HARNESS setup also runs
# the solvers' set-up on what loads (seeded with the inputs of tests/, refused ones included). Exit status non-zero if
# libFuzzer found anything; reproducers are then in build-fuzz/fuzz/artifacts/ (replay one: build-fuzz/bin/fuzz_input
# FILE, or fuzz_setup).
# Usage: tests/fuzz/run.sh [SECONDS [input|setup]]      Environment: BUILD_FUZZ (build dir), FUZZ_JOBS (parallel build, default 2)
set -eu
seconds=${1:-60}
harness=${2:-input}
case $harness in input | setup) ;; *) echo "run.sh: harness '$harness' is not input or setup" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_FUZZ:-$root/build-fuzz}
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all"

# Custom build type "Fuzz": only these flags apply. -Werror is left to the gcc and Asan builds, so that a warning
# clang alone emits in some module cannot stop the fuzzer.
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Fuzz -DSTICKSLIP_FUZZ=ON -DSTICKSLIP_WERROR=OFF \
  "-DCMAKE_C_FLAGS=-O1 -g -fno-omit-frame-pointer $sanitize -fsanitize=fuzzer-no-link" \
  "-DCMAKE_EXE_LINKER_FLAGS=$sanitize" >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --target "fuzz_$harness" -j "${FUZZ_JOBS:-2}"

mkdir -p "$build/fuzz/artifacts"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
if [ "$harness" = setup ]; then
  # a set-up meshes, lumps masses and bounds the critical step: the slowest test input takes about 25 s under ASan, so
  # 60 s is a hang; meshes within the size limits stay below 4 GB. New inputs go to fuzz/setup-corpus.
  exec "$build/bin/fuzz_setup" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
    -dict="$build/fuzz/fuzz.dict" -artifact_prefix="$build/fuzz/artifacts/" "$build/fuzz/setup-corpus" "$build/fuzz/setup-seeds"
fi
# -timeout: any input taking 10 s is a hang (the largest seed loads in milliseconds); -rss_limit_mb: an entity bomb
# that expanded would blow through 2 GB. New inputs go to fuzz/corpus, the first directory.
exec "$build/bin/fuzz_input" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -dict="$build/fuzz/fuzz.dict" -artifact_prefix="$build/fuzz/artifacts/" "$build/fuzz/corpus" "$build/fuzz/seeds"
