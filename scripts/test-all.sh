#!/usr/bin/env bash
# Quick start (b): install, build, and run the whole test suite (unit
# tests, MPI integration tests with 1, 2 and 3 ranks, and the Slurm
# integration tests on a private Slurm cluster of pretend nodes, label
# "slurm"), first in the Release build, then again in the build with
# AddressSanitizer and UBSan (-Og, assertions on): all but the Slurm tests,
# which run the same binaries through sbatch and srun and are covered once,
# the tests labelled "once", which run no compiled code (Python and shell
# checks of the sources and the report scripts), and those labelled
# "release", whose checks are about time or a browser's rendering
# (tests/CMakeLists.txt says which other tests run their code sanitized).
# Each phase prints the seconds it took, so a CI log shows where the time goes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
phase_start=$SECONDS
phase_done() { echo "== $1: $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }
"$root/scripts/install-deps.sh" --test
phase_done "dependencies installed"
# A test build: the fault and slow-host hooks the tests use are compiled in
# (two files; scripts/build.sh alone builds them out again).
BWS_TEST_HOOKS=ON "$root/scripts/build.sh"
phase_done "Release build"
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

# Tests run side by side on every core; the MPI, Slurm and timing-sensitive
# ones are marked RUN_SERIAL and run alone (CI must stay under 25 minutes).
jobs=$(nproc)
echo "== Release build: all tests"
(cd "$root/build" && ctest --output-on-failure --timeout 600 -j "$jobs")
phase_done "Release tests"

echo "== Build with ASan and UBSan: all tests but the Slurm ones, those that run no compiled code and the timing and browser checks"
. "$root/scripts/compiler-cache.sh"
cmake --preset debug -S "$root" "${bws_cache_flags[@]}" >/dev/null
cmake --build "$root/build-debug" -j "$(nproc)"
phase_done "ASan/UBSan build"
# Leak checking stays off: Open MPI's plug-ins keep memory from MPI_Init to
# exit by design and are unloaded before LeakSanitizer could name them.
(cd "$root/build-debug" && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure --timeout 600 -j "$jobs" -LE 'slurm|once|release')
phase_done "ASan/UBSan tests"
