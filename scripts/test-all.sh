#!/usr/bin/env bash
# Quick start (b): install, build, and run the whole test suite (unit
# tests, MPI integration tests with 1, 2 and 3 ranks).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
cd "$root/build"
ctest --output-on-failure --timeout 600
