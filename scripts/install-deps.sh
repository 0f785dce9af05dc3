#!/usr/bin/env bash
# Installs bwsurvey's dependencies on Debian 12 (bookworm) with apt, in sets:
#
#   --run     what building and running need, no more: --core, --opencl and --plot
#             (scripts/survey-this-machine.sh installs this)
#   --core    compilers, CMake, pkg-config, git (the commit in every file),
#             Open MPI, HDF5, hwloc (and hwloc-calc), Boost.Program_options,
#             SQLite (the history archive), OpenBLAS (the roofline's DGEMM),
#             help2man (the man pages, made at build time)
#   --opencl  the OpenCL backend: the ICD loader, the OpenCL-CLHPP headers
#             and PoCL (OpenCL on the CPU, so it runs on a GPU-less node too)
#   --plot    bwreport plot's Python: h5py, NumPy, Matplotlib
#   --test    everything (the default; scripts/test-all.sh and CI): --run and
#             what the tests need: ccache (the two test builds reuse
#             what an earlier build compiled), GoogleTest, the HDF5 and SQLite command
#             line tools, clinfo, pandas and PyTables, stress-ng, Lmod, gnuplot
#             (the pmbw stats2gnuplot test draws its plots), the
#             comparison tools (likwid, hpcc, clpeak), Slurm with munge for
#             the Slurm integration tests (no daemon is started: the tests
#             start their own cluster), Prometheus's promtool and
#             node_exporter, and Chromium (headless) for the HTML report
#   --print   print the selected packages, one a line, and install nothing
#
# Sets add up (--core --plot). No Slurm daemon, munge, comparison tool or
# test framework is in --run.
set -euo pipefail

core=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin
  libhdf5-dev
  libhwloc-dev hwloc
  libboost-program-options-dev
  libsqlite3-dev
  libopenblas-dev
  help2man
)
opencl=(ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd)
plot=(python3 python3-h5py python3-numpy python3-matplotlib)
test_only=(
  ca-certificates ccache
  libgtest-dev
  hdf5-tools sqlite3 clinfo
  python3-pandas python3-tables
  stress-ng lmod man-db gnuplot-nox
  likwid hpcc clpeak
  slurmctld slurmd slurm-client munge
  iproute2
  prometheus prometheus-node-exporter
  chromium
)

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

sets=()
print=0
for arg in "$@"; do
  case "$arg" in
    --run) sets+=(core opencl plot) ;;
    --core) sets+=(core) ;;
    --opencl) sets+=(opencl) ;;
    --plot) sets+=(plot) ;;
    --test) sets+=(core opencl plot test_only) ;;
    --print) print=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-deps.sh: error: unknown argument '$arg'; allowed: --run, --core, --opencl, --plot, --test, --print" >&2
       exit 2 ;;
  esac
done
[ ${#sets[@]} -gt 0 ] || sets=(core opencl plot test_only)

packages=()
declare -A seen=()
for s in "${sets[@]}"; do
  declare -n list="$s"
  for p in "${list[@]}"; do
    if [ -z "${seen[$p]:-}" ]; then seen[$p]=1; packages+=("$p"); fi
  done
  unset -n list
done

if [ "$print" -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
