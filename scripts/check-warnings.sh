#!/usr/bin/env bash
# Builds every target (tools, benchmarks, tests, test hooks) with one
# compiler and build type at -Wall -Wextra -Werror (BWS_WERROR=ON), so a
# new warning fails. Not part of test-all.sh (two more full builds):
#   scripts/check-warnings.sh gcc|clang Release|Debug BUILD_DIR
# gcc is the system g++ (GCC 12 on Debian 12), clang is clang++-14 when
# installed, else clang++. Debug is -O0 -g without sanitizers. JOBS sets
# the parallel jobs (default: all cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '5p' "$0" | sed 's/^# *//' >&2; exit 2; }
[ $# -eq 3 ] || usage
case "$1" in
  gcc) cc=gcc; cxx=g++ ;;
  clang) if command -v clang++-14 >/dev/null 2>&1; then cc=clang-14; cxx=clang++-14; else cc=clang; cxx=clang++; fi ;;
  *) echo "check-warnings.sh: error: compiler '$1'; allowed: gcc, clang" >&2; usage ;;
esac
# Full paths: a build folder configured before with the same compiler
# under its full path is reused, not reset.
cc=$(command -v "$cc") && cxx=$(command -v "$cxx") || { echo "check-warnings.sh: error: $1 is not installed" >&2; exit 2; }
case "$2" in
  Release|Debug) ;;
  *) echo "check-warnings.sh: error: build type '$2'; allowed: Release, Debug" >&2; usage ;;
esac
build_dir=$3
. "$root/scripts/compiler-cache.sh"
mkdir -p "$build_dir"
log="$build_dir/check-warnings.log"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$2" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DBWS_WERROR=ON -DBWS_TEST_HOOKS=ON -DBUILD_TESTING=ON "${bws_cache_flags[@]}" >"$log" 2>&1 \
  || { cat "$log" >&2; echo "check-warnings.sh: configuring $build_dir failed" >&2; exit 1; }
# -Werror stops the build at the first warning; the log is also searched
# for warnings -Werror does not cover (the linker's, CMake's).
if ! cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" >>"$log" 2>&1; then
  grep -E -B2 -A8 'error:|warning:|Error ' "$log" | head -80 >&2
  echo "check-warnings.sh: $1 $2: the build failed (full log: $log)" >&2
  exit 1
fi
if grep -E 'warning:|CMake Warning' "$log" >&2; then
  echo "check-warnings.sh: $1 $2: warnings above (full log: $log)" >&2
  exit 1
fi
echo "check-warnings.sh: $1 $2: every target built, no warnings"
