#!/usr/bin/env bash
# Installs what bwsurvey needs on Debian 12 (bookworm): compilers, CMake,
# Open MPI, HDF5, hwloc, Boost.Program_options, GoogleTest, OpenCL (PoCL on
# the CPU, ICD loader, CLHPP headers, clinfo), OpenBLAS (the roofline's
# DGEMM), h5py and matplotlib for the analysis and the tests, likwid, hpcc
# and clpeak for the comparison benchmarks (bench/), and Slurm with munge
# for the Slurm integration tests (no daemon is started: the tests start
# their own cluster); SQLite for the history archive; Prometheus's promtool
# and node_exporter to test the metrics export; Chromium (headless) to test
# the HTML report in a real browser.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(
  build-essential cmake pkg-config git ca-certificates
  libopenmpi-dev openmpi-bin
  libhdf5-dev hdf5-tools
  libhwloc-dev hwloc
  libboost-program-options-dev
  libsqlite3-dev sqlite3
  libgtest-dev
  ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd clinfo
  python3 python3-h5py python3-numpy python3-matplotlib
  libopenblas-dev
  likwid hpcc clpeak
  slurmctld slurmd slurm-client munge
  prometheus prometheus-node-exporter
  chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
