#!/usr/bin/env bash
# The main job: install what is missing, build (Release), then run a double round-robin on awale
# between the example engines, with a live progress line, the standings and the Elo table.
# All games land in referee.db; a second run resumes (nothing left to play) and prints the table.
set -euo pipefail
cd "$(dirname "$0")"
./deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DREFEREE_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)"
exec build/referee/referee tournament examples/tournaments/awale.toml "$@"
