#!/usr/bin/python3
"""Adds to a copy of a survey file the groups this build does not write yet,
so the report's pmbw, node-flag and scaling plots are exercised: a
/pmbw/results and a /pmbw/nodes table (pmbw's columns, made-up numbers), a
/flags row that
flags the first host's Triad, and a merged scaling study (two runs,
/runs/n1 and /runs/n2, each a copy of the file's /beff with its ranks and
b_eff scaled), and /sum/nodes, a benchmark the report has no module for. usage: add_synthetic_groups.py IN.h5 OUT.h5"""
import shutil
import sys

import h5py
import numpy as np


def main(src, dst):
    shutil.copyfile(src, dst)
    with h5py.File(dst, "r+") as f:
        host = f["stream/nodes"][0]["host"]
        # pmbw: two routines, thread counts 1 and 2, sizes 1 KiB .. 1 GiB.
        names = ["rank", "host", "backend", "routine", "threads", "area_bytes", "thread_bytes", "test_bytes", "repeats",
                 "seed", "reps", "t_median", "access_seconds", "thread_access_seconds", "bytes", "t_min", "t_avg",
                 "t_max", "bandwidth", "valid"]
        kinds = ["<i8", "S128", "S16", "S64"] + ["<i8"] * 7 + ["<f8"] * 3 + ["<i8"] + ["<f8"] * 4 + ["<i8"]
        rows = []
        for routine in ("ScanRead64PtrUnrollLoop", "PermRead64UnrollLoop"):
            for threads in (1, 2):
                for area in 2 ** np.arange(10, 31, 2):
                    gbs = threads * (100.0 if area < 2**20 else 20.0)
                    t = area / (gbs * 1e9)
                    access = 1e-9 if area < 2**20 else 100e-9
                    rows.append((0, host, b"cpu", routine.encode(), threads, area, area // threads, area, 1, 0, 1, t,
                                 access / threads, access, area, t, t, t, gbs * 1e9, 1))
        f.create_dataset("pmbw/results", data=np.array(rows, dtype=list(zip(names, kinds))))
        f.create_dataset("pmbw/nodes", data=np.array(
            [(host, b"ScanRead64PtrUnrollLoop", 2, 200e9, 200e9, 40e9, b"PermRead64UnrollLoop", 100e-9)],
            dtype=[("host", "S128"), ("scan_routine", "S32"), ("threads", "<i8"), ("scan_l1_Bps", "<f8"),
                   ("scan_l2_Bps", "<f8"), ("scan_ram_Bps", "<f8"), ("perm_routine", "S32"),
                   ("perm_ram_access_seconds", "<f8")]))
        # A flag on the Triad of the first host.
        triad = [r for r in f["stream/nodes"][...] if r["kernel"] == b"Triad"][0]["bandwidth"]
        flags = np.array([(host, b"stream.triad", triad, triad * 1.5, triad * 0.05, -6.7, 66.7, b"below median")],
                         dtype=[("host", "S128"), ("metric", "S48"), ("value", "<f8"), ("median", "<f8"),
                                ("mad", "<f8"), ("robust_z", "<f8"), ("percent_of_median", "<f8"), ("reason", "S64")])
        if "flags" in f:  # the survey's own (empty: one node) /flags makes way for the made-up row
            del f["flags"]
        f.create_dataset("flags", data=flags)
        # A merged scaling study: runs of 2 and 4 ranks.
        for run, factor in (("runs/n2", 1), ("runs/n4", 2)):
            f.copy(f["beff"], run + "/beff")
            summary = f[run + "/beff/summary"][...]
            summary["ranks"] *= factor
            summary["b_eff_Bps"] *= factor * 0.95 if factor > 1 else 1
            del f[run + "/beff/summary"]
            f.create_dataset(run + "/beff/summary", data=summary)
        # A benchmark the report knows nothing of: /sum/nodes, one row per host
        # and type, bandwidth in B/s (the generic section draws it).
        nodes = np.array([(host, b"double", 2, 12.5e9, 1), (host, b"float", 2, 11.0e9, 1)],
                         dtype=[("host", "S128"), ("type", "S16"), ("ranks", "<i8"), ("bandwidth", "<f8"),
                                ("valid", "<i8")])
        f.create_dataset("sum/nodes", data=nodes)
        f["sum/nodes"].attrs["column_units"] = [b"", b"", b"", b"B/s", b""]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: add_synthetic_groups.py IN.h5 OUT.h5")
    main(sys.argv[1], sys.argv[2])
