#!/usr/bin/env bash
# The worked example (lib/load, docs/ARCHITECTURE.md) everywhere a benchmark
# shows, with nothing written for it outside its folder: a quick
# `--tests load` on 2 ranks; its tables read back (bytes and checksums
# worked out by hand); the terminal summary and `bwreport summary`; the CSV
# of `bwreport export`; the HTML page of `bwreport plot`; its node metric in
# `bwreport flags`.
# usage: load_roundtrip.sh MPIRUN BWSURVEY BWREPORT WORKDIR
set -euo pipefail
mpirun=$1 bwsurvey=$2 bwreport=$3 dir=$4
python=/usr/bin/python3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAILED: $*"; exit 1; }

"$mpirun" -np 2 --oversubscribe "$bwsurvey" --tests load --quick --load.elements 100000 --out "$dir/l.h5" \
  >"$dir/run.txt" 2>&1 || { cat "$dir/run.txt"; fail "bwsurvey exited $?"; }
cat "$dir/run.txt"
header="^load \(likwid-bench load, store, update\): node bandwidth in GB/s"
row="^[^ ]+ +2 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$"  # host, 2 ranks, threads, load, store, update
grep -Eq "$header" "$dir/run.txt" || fail "no load summary on the terminal"
grep -Eq "$row" "$dir/run.txt" || fail "no node row in the terminal summary"

# 100000 doubles per rank, 3 passes (--quick): 800000 bytes per pass read
# and/or written; checksums from the initial values 1, 1.25, 1.5, 1.75.
"$python" - "$dir/l.h5" <<'PY' || fail "load tables"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    r = f["load/results"][...]
    assert len(r) == 6 and sorted(set(r["rank"])) == [0, 1], r
    for rank in (0, 1):
        rows = r[r["rank"] == rank]
        assert [k.decode() for k in rows["kernel"]] == ["load", "store", "update"], rows["kernel"]
        assert list(rows["bytes_read"]) == [800000, 0, 800000]
        assert list(rows["bytes_written"]) == [0, 800000, 800000]
        assert list(rows["bytes"]) == [800000, 800000, 1600000]
        assert list(rows["checksum"]) == [137500.0, 300000.0, -137500.0], rows["checksum"]
        assert all(rows["valid"] == 1) and all(rows["bandwidth"] > 0)
    units = dict(zip(r.dtype.names, f["load/results"].attrs["column_units"]))
    assert units["bandwidth"] == "B/s" and units["bytes_read"] == "B" and units["t_min"] == "s", units
    assert f["load/times"].shape == (6, 3), f["load/times"].shape
    n = f["load/nodes"][...]
    assert len(n) == 3 and all(n["ranks"] == 2) and list(n["bytes"]) == [1600000, 1600000, 3200000], n
    c = f["checks"][...]
    mine = c[c["check"] == b"load.validation"]
    assert len(mine) == 6 and all(mine["passed"] == 1), mine
PY

# bwreport summary prints the terminal's summary lines.
"$bwreport" summary "$dir/l.h5" >"$dir/summary.txt" || fail "bwreport summary exited $?"
grep -Eq "$header" "$dir/summary.txt" || fail "no load summary in bwreport summary"
diff <(grep -E "$row" "$dir/run.txt") <(grep -E "$row" "$dir/summary.txt") || fail "summary rows differ"

# bwreport export: every load table as CSV.
"$bwreport" export --csv "$dir/l.h5" --dir "$dir/csv" >/dev/null || fail "bwreport export exited $?"
[ "$(wc -l <"$dir/csv/load_results.csv")" -eq 7 ] || fail "load_results.csv: not 6 rows"
[ "$(wc -l <"$dir/csv/load_nodes.csv")" -eq 4 ] || fail "load_nodes.csv: not 3 rows"
head -1 "$dir/csv/load_results.csv" | grep -q "^rank,host,backend,kernel,threads,elements,reps,bytes_read,bytes_written" \
  || fail "load_results.csv header"

# bwreport plot: the generic section draws it.
"$bwreport" plot "$dir/l.h5" -o "$dir/html" >/dev/null || fail "bwreport plot exited $?"
grep -q "load/nodes" "$dir/html/index.html" || fail "index.html does not show load/nodes"
[ -s "$dir/html/load_nodes_bandwidth.png" ] || fail "no load bandwidth plot"

# Its node metric: an absolute floor above any bandwidth flags the node.
"$bwreport" flags "$dir/l.h5" --flags.floor 'load.bandwidth[load]=1e15' >"$dir/flags.txt" \
  || fail "bwreport flags exited $?"
grep -q "load.bandwidth\[load\]: .*below the floor" "$dir/flags.txt" || { cat "$dir/flags.txt"; fail "not flagged"; }
echo "load: file, terminal, bwreport summary, export, plot and flags all show it"
