#!/usr/bin/env bash
# The test command (README, and .ci/run runs it verbatim): install what is missing, build with
# warnings as errors and run the whole suite through ctest; then the same under AddressSanitizer
# and UndefinedBehaviorSanitizer; then the fuzz targets for a short while (a clang build of their
# own, tests/fuzz/README.md). At its end, passed or not, one table: the wall time of each phase
# and the ten slowest tests of each ctest run (tests/README.md says how to run one folder or one
# test instead).
#
# Decisions (figures in tests/README.md):
# - Ninja, and one PostgreSQL server for each ctest run (a ctest fixture, tests/CMakeLists.txt).
# - The sanitizer build is clang's, at -O1 -g1 (ASan's advice; line numbers in reports): with both
#   sanitizers GCC 12 took 96 s at -O2 -g, and 39 s at -O1 -g1, for a test file clang compiles in
#   18 s.
# - ctest runs 2 tests per core: most tests wait on engines, daemons and servers. Chromium's tests
#   run one at a time and count as two (tests/browser/CMakeLists.txt); the longest start first.
set -euo pipefail
cd "$(dirname "$0")"
root="$PWD"
times_dir="$root/build-times"
mkdir -p "$times_dir"
phases="$times_dir/phases.tsv"
: >"$phases"
print_table() {
  if command -v python3 >/dev/null; then
    python3 "$root/tests/phase_times.py" "$phases" || cat "$phases"
  else
    cat "$phases"
  fi
}
trap print_table EXIT

# phase NAME JUNIT COMMAND...: runs COMMAND, records its wall time; a failure ends the script.
phase() {
  local name="$1" junit="$2"
  shift 2
  local start status=ok
  start=$(date +%s%N)
  "$@" || status=FAILED
  printf '%s\t%s\t%s\t%s\n' "$name" "$(awk -v a="$start" -v b="$(date +%s%N)" \
    'BEGIN { printf "%.1f", (b - a) / 1e9 }')" "$status" "$junit" >>"$phases"
  [ "$status" = ok ]
}

# cmake's generator for a build directory: Ninja, unless the directory was made with another.
configure() {
  local dir="$1"
  shift
  local generator=(-G Ninja)
  [ -f "$dir/CMakeCache.txt" ] && generator=()
  cmake -S . -B "$dir" "${generator[@]}" "$@" >/dev/null
}

configure_and_build() {
  local dir="$1"
  shift
  configure "$dir" "$@" && cmake --build "$dir" -j"$jobs"
}

# run_ctest DIR JUNIT JOBS
run_ctest() {
  local dir="$1" junit="$2"
  ctest --test-dir "$dir" -j"$3" --output-on-failure --no-tests=error \
    --output-junit "$junit"
}

phase "deps" "" ./deps.sh
# The storage tests use a real PostgreSQL server: here it must start (never skipped).
export REFEREE_REQUIRE_POSTGRES=1
# The browser tests drive Debian's headless Chromium (deps.sh installs it): never skipped here either.
export REFEREE_REQUIRE_BROWSER=1
jobs="$(nproc)"
ctest_jobs=$((2 * jobs))

# Every setting the suite needs is given here: the demo configures the same build directory
# without tests, and a cached REFEREE_TESTS=OFF must not leave ctest with nothing to run.
phase "release: configure + build" "" configure_and_build build -DCMAKE_BUILD_TYPE=Release \
  -DREFEREE_WERROR=ON -DREFEREE_SANITIZE=OFF -DREFEREE_TESTS=ON
phase "release: ctest" "$times_dir/release.xml" run_ctest build "$times_dir/release.xml" "$ctest_jobs"

phase "asan+ubsan: configure + build" "" configure_and_build build-asan \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DREFEREE_SANITIZE=ON -DREFEREE_WERROR=ON \
  -DREFEREE_TESTS=ON
# Engines built with AddressSanitizer (the test doubles) reserve terabytes of address space: no
# RLIMIT_AS fits them, so sandboxed ones run here without the sandbox's default one (sandbox.h).
export REFEREE_SANDBOX_MEMORY_MB=0
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
phase "asan+ubsan: ctest" "$times_dir/asan.xml" run_ctest build-asan "$times_dir/asan.xml" \
  "$ctest_jobs"
unset ASAN_OPTIONS UBSAN_OPTIONS REFEREE_SANDBOX_MEMORY_MB

phase "fuzz: configure + build" "" configure_and_build build-fuzz -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFEREE_FUZZ=ON -DREFEREE_WERROR=ON
# Each fuzz target runs for a fixed time: one per core, so none gets less CPU than it did.
phase "fuzz: ctest" "$times_dir/fuzz.xml" run_ctest build-fuzz "$times_dir/fuzz.xml" "$jobs"
