#!/usr/bin/env bash
# Quick start (b): install, build, and run the whole test suite (unit
# tests, MPI integration tests with 1, 2 and 3 ranks, and the Slurm
# integration tests on a private Slurm cluster of pretend nodes, label
# "slurm"), first in the Release build, then again in the Debug build with
# AddressSanitizer and UBSan (all but the Slurm tests, which run the same
# binaries through sbatch and srun and are covered once).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --test
# A test build: the fault and slow-host hooks the tests use are compiled in
# (two files; scripts/build.sh alone builds them out again).
BWS_TEST_HOOKS=ON "$root/scripts/build.sh"
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

# Tests run side by side on every core; the MPI, Slurm and timing-sensitive
# ones are marked RUN_SERIAL and run alone (CI must stay under 30 minutes).
jobs=$(nproc)
echo "== Release build: all tests"
(cd "$root/build" && ctest --output-on-failure --timeout 600 -j "$jobs")

echo "== Debug build with ASan and UBSan: all tests"
. "$root/scripts/compiler-cache.sh"
cmake --preset debug -S "$root" "${bws_cache_flags[@]}" >/dev/null
cmake --build "$root/build-debug" -j "$(nproc)"
# Leak checking stays off: Open MPI's plug-ins keep memory from MPI_Init to
# exit by design and are unloaded before LeakSanitizer could name them.
(cd "$root/build-debug" && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure --timeout 600 -j "$jobs" -LE slurm)
