#!/usr/bin/env bash
# Quick start (a): install what building and running need (no test
# framework, no Slurm, no comparison tools), build without the tests, and
# survey this machine with the embedded defaults: one rank per NUMA domain
# (or 2 ranks on a one-domain machine, each with half the cores), all
# allowed cores, the default tests. Prints the summary and the path of the
# HDF5 file. Extra arguments go to bwsurvey.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --run
"$root/scripts/build.sh" --no-tests

if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
numa=$(hwloc-calc --number-of numanode all 2>/dev/null || echo 1)
cores=$(hwloc-calc --number-of core all 2>/dev/null || nproc)
if [ "$numa" -ge 2 ]; then
  launch=(-np "$numa" --map-by ppr:1:numa --bind-to numa)
elif [ "$cores" -ge 2 ]; then
  launch=(-np 2 --map-by "slot:PE=$((cores / 2))" --bind-to core)
else
  launch=(-np 1 --bind-to none)
fi
mkdir -p "$root/results"
out="$root/results/survey-$(date +%Y%m%d-%H%M%S).h5"
exec mpirun "${launch[@]}" "$root/build/apps/bwsurvey" --out "$out" "$@"
