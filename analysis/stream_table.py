#!/usr/bin/python3
"""Prints the STREAM results of a survey file per rank and per node, read
with h5py from the file alone (nothing is recomputed: bandwidths are the
ones bwsurvey stored, in B/s)."""
import sys

import h5py

from report_sections.common import text  # text cells escaped as bwreport prints them


def main(path):
    with h5py.File(path, "r") as f:
        print(f"{path}: status {text(f.attrs['status'])}, {f.attrs['n_nodes']} nodes, {f.attrs['n_ranks']} ranks")
        rows = f["/stream/results"][:]
        print(f"{'rank':>4} {'host':<20} {'type':<6} {'kernel':<6} {'GB/s':>9} {'valid':>5}")
        for r in rows:
            print(f"{r['rank']:>4} {text(r['host']):<20} {text(r['type']):<6} {text(r['kernel']):<6} "
                  f"{r['bandwidth'] / 1e9:>9.2f} {r['valid']:>5}")
        if "/stream/nodes" in f:
            print("\nnode aggregates")
            for r in f["/stream/nodes"][:]:
                print(f"{text(r['host']):<20} {text(r['type']):<6} {text(r['kernel']):<6} {r['bandwidth'] / 1e9:>9.2f} GB/s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: stream_table.py SURVEY.h5")
    try:
        main(sys.argv[1])
    except Exception as e:  # noqa: BLE001 - one line, never a traceback
        sys.exit(f"stream_table: error: {text(f'{type(e).__name__}: {e}')[:600]}")
