#!/usr/bin/env bash
# Configures and builds bwsurvey (Release: -O3 -march=native) in build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --preset release -S "$root" >/dev/null
cmake --build "$root/build" -j "$(nproc)"
