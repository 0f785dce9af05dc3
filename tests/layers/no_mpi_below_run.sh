#!/bin/bash
# The layers keep MPI where it is needed (docs/design-notes.md, "Layers"):
# bwreport loads no MPI library, and no source outside lib/run/
# (nor apps/bwreport.cpp) includes <mpi.h>.
# Usage: no_mpi_below_run.sh SOURCE_DIR BWREPORT
set -u
source_dir=$1 bwreport=$2
status=0

mpi_libraries=$(ldd "$bwreport" | grep -i mpi)
if [ -n "$mpi_libraries" ]; then
  echo "FAIL: $bwreport loads an MPI library: $(echo "$mpi_libraries" | head -1)"
  status=1
fi
# readelf lists what the binary itself names, ldd what it loads in all.
if readelf -d "$bwreport" | grep -i 'NEEDED.*mpi'; then
  echo "FAIL: $bwreport names an MPI library among its NEEDED entries"
  status=1
fi

includers=$(cd "$source_dir" && grep -rlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<mpi\.h>' lib topology apps/bwreport.cpp |
            grep -vE '^lib/run/')
if [ -n "$includers" ]; then
  echo "FAIL: <mpi.h> included outside lib/run: $(echo $includers)"
  status=1
fi
[ $status -eq 0 ] && echo "ok: bwreport loads no MPI library; <mpi.h> only in lib/run"
exit $status
