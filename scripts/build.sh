#!/usr/bin/env bash
# Configures and builds bwsurvey (Release: -O3 -march=native) in build/.
#   --no-tests   leave the tests out (-DBUILD_TESTING=OFF): GoogleTest is
#                not needed, and only the tools and their man pages build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
testing=ON
for arg in "$@"; do
  case "$arg" in
    --no-tests) testing=OFF ;;
    -h|--help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: error: unknown argument '$arg'; allowed: --no-tests" >&2; exit 2 ;;
  esac
done
# BWS_TEST_HOOKS=ON in the environment (scripts/test-all.sh) compiles in the
# test hooks; a build for users has none. BUILD_TESTING is always given, so
# a build/ configured by one script is reconfigured by the other.
# With ccache on PATH (install-deps.sh --test) objects compiled before, in
# this clone or another one, are reused (scripts/compiler-cache.sh).
. "$root/scripts/compiler-cache.sh"
cmake --preset release -S "$root" -DBWS_TEST_HOOKS="${BWS_TEST_HOOKS:-OFF}" -DBUILD_TESTING="$testing" \
  "${bws_cache_flags[@]}" >/dev/null
cmake --build "$root/build" -j "$(nproc)"
