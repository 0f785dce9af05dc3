#!/usr/bin/python3
"""What pandas reads of a survey, tested on a quick STREAM survey of 2 ranks
and on a copy edited with h5py (hosts renamed: "nœud-1", a UTF-8 name, and
"n2.cluster" for rank 1):

  - pd.read_hdf(FILE, "stream/results") (PyTables reads the plain HDF5
    compound dataset as a generic table) gives text columns as str;
  - pd.DataFrame(h5py.File(FILE)["stream/results"][:]) gives them as bytes,
    and the README's one line, df[c] = df[c].str.decode("utf-8") for each
    object column, makes them str;
  both equal the hosts and kernels written, and the numbers equal h5py's;
  - bwreport export --csv: pd.read_csv gets the unit-suffixed headers
    (bandwidth_Bps, t_min_s) with h5py's values;
  - bwreport export --json: pd.read_json(path, orient="records") reads it,
    the same values;
  - stream/babelstream: pd.read_csv's first eight columns are BabelStream's
    header, one row per host and function, MB/s = stream/nodes' B/s / 1e6.

  - the README's snippet ("Reading the results with other tools") runs on
    the survey as it stands there and gives str columns.

usage: pandas_reads_test.py MPIRUN BWSURVEY BWREPORT WORKDIR README
Exit 77 (skipped) when pandas or PyTables (python3-pandas python3-tables)
is missing."""
import os
import re
import shutil
import socket
import subprocess
import sys

SKIP = 77

try:
    import h5py
    import numpy as np
    import pandas as pd
    import tables  # noqa: F401  (pd.read_hdf needs it)
except ImportError as e:
    print(f"SKIPPED: {e.name} is not installed (Debian: python3-pandas python3-tables python3-h5py)")
    sys.exit(SKIP)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(ok, message):
    if not ok:
        fail(message)


def decoded(df):
    """The README's decode: every object (bytes) column to str."""
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].str.decode("utf-8")
    return df


def run(*args):
    r = subprocess.run(list(args), capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def check_both_ways(path, hosts, what):
    """read_hdf and h5py+decode give the same decoded table, hosts[rank] per row."""
    a = pd.read_hdf(path, "stream/results")
    with h5py.File(path, "r") as f:
        raw = f["stream/results"][:]
    b = pd.DataFrame(raw)
    expect(isinstance(b["host"][0], bytes), f"{what}: h5py's host column is {type(b['host'][0])}, expected bytes")
    b = decoded(b)
    expect(list(a.columns) == list(raw.dtype.names), f"{what}: read_hdf columns {list(a.columns)}")
    for c in ("host", "kernel", "type", "backend"):
        expect(all(isinstance(v, str) for v in a[c]), f"{what}: read_hdf's {c} is not str: {a[c].tolist()}")
        expect(a[c].tolist() == b[c].tolist(), f"{what}: {c}: read_hdf {a[c].tolist()} != h5py {b[c].tolist()}")
    expect(a["host"].tolist() == [hosts[r] for r in a["rank"]],
           f"{what}: hosts {a['host'].tolist()} for ranks {a['rank'].tolist()}, written {hosts}")
    expect(set(a["kernel"]) == {"Copy", "Scale", "Add", "Triad"}, f"{what}: kernels {set(a['kernel'])}")
    expect(np.array_equal(a["bandwidth"].to_numpy(), raw["bandwidth"]), f"{what}: read_hdf's bandwidth differs")
    return raw


def main():
    mpirun, bwsurvey, bwreport, work, readme = sys.argv[1:6]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    survey = os.path.join(work, "o.h5")
    run(mpirun, "-np", "2", "--oversubscribe", bwsurvey, "--quick", "--tests", "stream", "--out", survey)

    host = socket.gethostname()
    raw = check_both_ways(survey, {0: host, 1: host}, "survey")

    # A copy with other host names, one of them UTF-8 beyond ASCII.
    edited = os.path.join(work, "edited.h5")
    shutil.copy(survey, edited)
    hosts = {0: "nœud-1", 1: "n2.cluster"}
    with h5py.File(edited, "r+") as f:
        d = f["stream/results"]
        rows = d[:]
        rows["host"] = [hosts[r].encode("utf-8") for r in rows["rank"]]
        d[:] = rows
    check_both_ways(edited, hosts, "edited copy")

    # CSV: units in the headers, h5py's values.
    csv_path = os.path.join(work, "results.csv")
    with open(csv_path, "w") as out:
        out.write(run(bwreport, "export", "--csv", survey, "--table", "stream/results"))
    c = pd.read_csv(csv_path, float_precision="round_trip")  # pandas' default parser rounds the last bit
    for name in ("bandwidth_Bps", "t_min_s", "t_avg_s", "t_max_s", "bytes", "ceiling_Bps"):
        expect(name in c.columns, f"CSV header lacks {name}: {list(c.columns)}")
    expect(np.array_equal(c["bandwidth_Bps"].to_numpy(), raw["bandwidth"]), "CSV bandwidth_Bps != the file's")
    expect(np.array_equal(c["t_min_s"].to_numpy(), raw["t_min"]), "CSV t_min_s != the file's")
    expect(c["host"].tolist() == [h.decode() for h in raw["host"]], "CSV hosts")

    # JSON: records, read by pd.read_json(orient="records").
    json_path = os.path.join(work, "results.json")
    with open(json_path, "w") as out:
        out.write(run(bwreport, "export", "--json", survey, "--table", "stream/results"))
    j = pd.read_json(json_path, orient="records", precise_float=True)
    expect(list(j.columns) == list(c.columns), f"JSON columns {list(j.columns)} != CSV {list(c.columns)}")
    expect(len(j) == len(raw), f"JSON has {len(j)} records, the file {len(raw)} rows")
    expect(np.array_equal(j["bandwidth_Bps"].to_numpy(dtype=float), raw["bandwidth"]), "JSON bandwidth_Bps")
    expect(j["kernel"].tolist() == [k.decode() for k in raw["kernel"]], "JSON kernels")

    # BabelStream's CSV, one row per node and function.
    bs_path = os.path.join(work, "babelstream.csv")
    with open(bs_path, "w") as out:
        out.write(run(bwreport, "export", "--csv", survey, "--table", "stream/babelstream"))
    with open(bs_path) as f:
        header = f.readline().rstrip("\n")
    want = "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime"
    expect(header.startswith(want + ","), f"BabelStream header: {header}")
    bs = pd.read_csv(bs_path, float_precision="round_trip")
    with h5py.File(survey, "r") as f:
        nodes = f["stream/nodes"][:]
    cpu = nodes[nodes["backend"] == b"cpu"]
    expect(len(bs) == len(cpu), f"stream/babelstream has {len(bs)} rows, stream/nodes {len(cpu)}")
    names = {b"Copy": "Copy", b"Scale": "Mul", b"Add": "Add", b"Triad": "Triad"}
    expect(bs["function"].tolist() == [names[k] for k in cpu["kernel"]], f"functions {bs['function'].tolist()}")
    expect(np.allclose(bs["max_mbytes_per_sec"].to_numpy(), cpu["bandwidth"] / 1e6, rtol=1e-15, atol=0),
           "max_mbytes_per_sec != stream/nodes bandwidth / 1e6")
    expect(set(bs["ranks"]) == {2}, f"one node of 2 ranks: {set(bs['ranks'])}")
    expect(set(bs["num_times"]) == set(raw["reps"]), f"num_times {set(bs['num_times'])}")
    ranks = pd.read_csv(run_to(bwreport, survey, "stream/babelstream-ranks", work))
    expect(len(ranks) == len(raw), f"stream/babelstream-ranks: {len(ranks)} rows, stream/results {len(raw)}")
    # The README's snippet, as printed, on the survey named as it names it.
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Reading the results with other tools"):]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shutil.copy(survey, os.path.join(work, "survey.h5"))
    here = os.getcwd()
    os.chdir(work)
    scope = {}
    try:
        exec(snippet, scope)
    finally:
        os.chdir(here)
    for name in ("r", "df"):
        expect(scope[name]["host"].tolist() == [h.decode() for h in raw["host"]],
               f"README snippet: {name}['host'] is {scope[name]['host'].tolist()}")
    print("pandas reads the survey: read_hdf decoded, h5py with the one-line decode, CSV with units, "
          "JSON records, BabelStream's CSV")


def run_to(bwreport, survey, table, work):
    path = os.path.join(work, table.replace("/", "_") + ".csv")
    with open(path, "w") as out:
        out.write(run(bwreport, "export", "--csv", survey, "--table", table))
    return path


if __name__ == "__main__":
    main()
