#!/usr/bin/env bash
# The test command (README, and .ci/run runs it verbatim): install what is missing, build with
# warnings as errors and run the whole suite through ctest; then the same under AddressSanitizer
# and UndefinedBehaviorSanitizer; then the fuzz targets for a short while (a clang build of their
# own, tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")"
./deps.sh
# The storage tests start a PostgreSQL server of their own: here it must start (never skipped).
export REFEREE_REQUIRE_POSTGRES=1
# The browser tests drive Debian's headless Chromium (deps.sh installs it): never skipped here either.
export REFEREE_REQUIRE_BROWSER=1
jobs="$(nproc)"
# Every setting the suite needs is given here: the demo configures the same build directory
# without tests, and a cached REFEREE_TESTS=OFF must not leave ctest with nothing to run.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DREFEREE_WERROR=ON -DREFEREE_SANITIZE=OFF \
  -DREFEREE_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure --no-tests=error
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFEREE_SANITIZE=ON -DREFEREE_WERROR=ON \
  -DREFEREE_TESTS=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j"$jobs" --output-on-failure --no-tests=error
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DREFEREE_FUZZ=ON -DREFEREE_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$jobs"
ctest --test-dir build-fuzz -j"$jobs" --output-on-failure --no-tests=error
