#!/usr/bin/env bash
# Installs the Debian packages referee needs, only those missing (apt-get; sudo when not root).
set -euo pipefail
packages=(g++ cmake make ninja-build libsqlitecpp-dev libsqlite3-dev catch2 libboost-program-options-dev
          libtomlplusplus-dev nlohmann-json3-dev python3
          chromium chromium-driver python3-selenium)  # the last three: the dashboard's browser tests
packages+=(python3-dev pybind11-dev)  # the Python module referee_games (referee/games/python)
# The client commands' HTTP library (built with OpenSSL, zlib and brotli: their headers are needed too).
packages+=(libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev pkg-config)
packages+=(libboost-dev)  # Boost.Beast and Asio: the daemon's HTTP server (service/http_server.h)
# clang: the sanitizer build (test.sh says why) and the fuzz build (tests/fuzz).
packages+=(clang libclang-rt-14-dev libfuzzer-14-dev)
# PostgreSQL: the client library of the storage layer, and the server the storage tests start.
packages+=(libpq-dev postgresql)
packages+=(iproute2)  # `ip netns`: the worker proof puts each worker in its own network namespace
packages+=(libssl-dev)  # libcrypto: SHA-256 of engine binaries (engines/engine_hash.h)
# libarchive: engine artifacts, tar archives read, checked and packed (engines/artifact.h)
packages+=(libarchive-dev)
packages+=(bubblewrap)  # bwrap: sandboxed engines run under it and never without (engines/sandbox.h)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
# The unprivileged user a root referee runs sandboxed engines as (engines/sandbox.h): no home,
# no shell, owns nothing.
if ! getent passwd referee-engine >/dev/null; then
  echo "creating the user referee-engine" >&2
  $sudo useradd --system --no-create-home --shell /usr/sbin/nologin referee-engine
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
