#!/usr/bin/env bash
# The DIMM population read from a saved
# dmidecode output (--memory.dmidecode, the recorded fixtures) gives the
# node's theoretical memory bandwidth in /nodes/table, STREAM Triad as a
# fraction of it in the summary, and the configuration flags (a DIMM below
# its rated speed) in /flags and in `bwreport drain`; a missing file is one
# usage error naming the option.
# usage: memory_population.sh MPIRUN BWSURVEY CHECKER WORKDIR BWREPORT FIXTURES
set -euo pipefail
mpirun=$1 bwsurvey=$2 dir=$4 bwreport=$5 fixtures=$6
rm -rf "$dir" && mkdir -p "$dir"
quick=(--tests stream --quick --threads 1 --stream.elements 2M)
"$mpirun" -np 2 "$bwsurvey" "${quick[@]}" --memory.dmidecode "$fixtures/server-2s-16ch-ddr5-4800.txt" \
  --out "$dir/full.h5" >"$dir/full.txt" 2>&1 || { cat "$dir/full.txt"; exit 1; }
cat "$dir/full.txt"
grep -q "stream.triad\[double\]: .* % of the DIMMs' 614.4 GB/s" "$dir/full.txt" || { echo "no Triad fraction"; exit 1; }
grep -q "Flagged nodes: none of 1" "$dir/full.txt"
"$mpirun" -np 2 "$bwsurvey" "${quick[@]}" --memory.dmidecode "$fixtures/server-2s-16ch-ddr5-one-at-4400.txt" \
  --out "$dir/slow-dimm.h5" >"$dir/slow-dimm.txt" 2>&1 || { cat "$dir/slow-dimm.txt"; exit 1; }
cat "$dir/slow-dimm.txt"
/usr/bin/python3 - "$dir/full.h5" "$dir/slow-dimm.h5" <<'PY'
import sys, h5py
full = h5py.File(sys.argv[1], "r")
row = full["nodes/table"][0]
# 16 channels x 4800e6 transfers/s x 8 B (the fixture's configuration, by hand)
assert abs(row["memory_theoretical_Bps"] - 16 * 4800e6 * 8) < 1, row["memory_theoretical_Bps"]
assert row["memory_channels_populated"] == 16 and row["memory_mts_min"] == 4800, row
assert row["memory_source"].decode().startswith("dmidecode file"), row["memory_source"]
assert len(full["flags"]) == 0
slow = h5py.File(sys.argv[2], "r")
row = slow["nodes/table"][0]
# 15 channels at 4800 and one at 4400, x 8 B
assert abs(row["memory_theoretical_Bps"] - (15 * 4800e6 + 4400e6) * 8) < 1, row["memory_theoretical_Bps"]
flags = slow["flags"][:]
assert [r["metric"].decode() for r in flags] == ["memory.dimm_below_rated"], flags
assert flags[0]["status"].decode() == "confirmed" and flags[0]["rule"].decode() == "memory"
print("theoretical bandwidth and the DIMM flag read back")
PY
"$bwreport" drain "$dir/slow-dimm.h5" >"$dir/drain.txt"
cat "$dir/drain.txt"
[ "$(wc -l <"$dir/drain.txt")" = 1 ] && grep -q "'Reason=bwsurvey: memory.dimm_below_rated configuration" "$dir/drain.txt"
set +e
"$mpirun" -q -np 1 "$bwsurvey" "${quick[@]}" --memory.dmidecode "$dir/none-%h.txt" --out "$dir/bad.h5" \
  >"$dir/bad.txt" 2>&1
code=$?
set -e
cat "$dir/bad.txt"
[ $code = 2 ] || { echo "expected exit 2, got $code"; exit 1; }
grep -q "^bwsurvey: error: --memory.dmidecode: cannot read '$dir/none-.*\.txt'" "$dir/bad.txt"
[ ! -e "$dir/bad.h5" ]
