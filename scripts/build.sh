#!/usr/bin/env bash
# Configures and builds bwsurvey (Release: -O3 -march=native) in build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# BWS_TEST_HOOKS=ON in the environment (scripts/test-all.sh) compiles in the
# test hooks; a build for users has none.
cmake --preset release -S "$root" -DBWS_TEST_HOOKS="${BWS_TEST_HOOKS:-OFF}" >/dev/null
cmake --build "$root/build" -j "$(nproc)"
