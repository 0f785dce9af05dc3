#!/usr/bin/python3
"""Writes a synthetic link-map file as bwsurvey stores it (docs/hdf5-schema.md,
"links"): /links/hosts (with or without a leaf column), /links/switches,
/links/nodes, N x N float32 matrices chunked by whole rows and compressed,
NaN on the diagonal, and /flags rows. Used by links_report_test.py and, by
hand, for the 10,000-node timing in docs/PERFORMANCE.md:

    synthetic_links.py OUT.h5 N [--slow I J] [--noise]   (hosts n0..n(N-1), two leaves)"""
import argparse

import h5py
import numpy as np

BASE_BPS = 10e9


def matrix_rows(n, a, b, slow=(), slow_bps=2e9, noise=False):
    """Rows a..b-1: BASE_BPS +- 1 % (a fixed pattern, or with noise a seeded
    normal 1 % spread, which compresses as measured figures do), NaN on the
    diagonal, slow_bps at the (i, j) of slow."""
    i = np.arange(a, b)[:, None]
    j = np.arange(n)[None, :]
    if noise:
        spread = np.random.default_rng(a).normal(0.0, 0.01, (b - a, n))
    else:
        spread = 0.005 * (((i * 7 + j * 13) % 5) - 2)
    rows = (BASE_BPS * (1.0 + spread)).astype(np.float32)
    rows[i == j] = np.nan
    for si, sj in slow:
        if a <= si < b:
            rows[si - a, sj] = slow_bps
    return rows


def write_matrix(group, name, n, unit, rows_of, row_block=256):
    chunk_rows = max(1, min(n, (1 << 20) // (4 * n)))
    ds = group.create_dataset(name, shape=(n, n), maxshape=(None, n), dtype="<f4", chunks=(chunk_rows, n),
                              shuffle=True, compression="gzip", compression_opts=4, fillvalue=np.nan)
    ds.attrs["unit"] = unit
    ds.attrs["description"] = f"synthetic {name}"
    for a in range(0, n, row_block):
        b = min(n, a + row_block)
        ds[a:b, :] = rows_of(a, b)


def write_file(path, hosts, leaves=None, slow=(), flags=(), latency=True, switches=(), noise=False):
    """hosts: names in matrix order; leaves: the leaf column (None: no column);
    flags: [(metric, subject, value_Bps, percent, reason)]."""
    n = len(hosts)
    with h5py.File(path, "w") as f:
        f.attrs["schema_version"] = "2.0"
        f.attrs["status"] = "complete"
        links = f.create_group("links")
        fields = [("index", "<i8"), ("host", "S128"), ("rank", "<i8")] + ([("leaf", "S128")] if leaves else [])
        table = np.zeros(n, dtype=fields)
        table["index"] = np.arange(n)
        table["host"] = [h.encode() for h in hosts]
        table["rank"] = np.arange(n)
        if leaves:
            table["leaf"] = [leaf.encode() for leaf in leaves]
        links.create_dataset("hosts", data=table)
        if switches:
            links.create_dataset("switches", data=np.array([(s.encode(), p.encode()) for s, p in switches],
                                                           dtype=[("switch", "S128"), ("parent", "S128")]))
        nodes = np.zeros(n, dtype=[("node", "<i8"), ("host", "S128"), ("out_Bps", "<f8"), ("in_Bps", "<f8"),
                                   ("worst_out_Bps", "<f8"), ("worst_in_Bps", "<f8")])
        nodes["node"] = np.arange(n)
        nodes["host"] = table["host"]
        nodes["out_Bps"] = nodes["in_Bps"] = BASE_BPS
        nodes["worst_out_Bps"] = nodes["worst_in_Bps"] = BASE_BPS
        links.create_dataset("nodes", data=nodes)
        write_matrix(links, "send_Bps", n, "B/s", lambda a, b: matrix_rows(n, a, b, slow, noise=noise))
        write_matrix(links, "recv_Bps", n, "B/s", lambda a, b: matrix_rows(n, a, b, [(j, i) for i, j in slow], noise=noise))
        if latency:
            write_matrix(links, "latency_s", n, "s", lambda a, b: BASE_BPS / matrix_rows(n, a, b, noise=noise) * 2e-6)  # ~2 us
        rows = np.zeros(len(flags), dtype=[("host", "S128"), ("metric", "S64"), ("value", "<f8"), ("median", "<f8"),
                                           ("percent_of_median", "<f8"), ("unit", "S16"), ("reason", "S200")])
        for k, (metric, subject, value, percent, reason) in enumerate(flags):
            rows[k] = (subject.encode(), metric.encode(), value, value * 100 / percent, percent, b"B/s",
                       reason.encode())
        f.create_dataset("flags", data=rows, maxshape=(None,))
        f["flags"].attrs["fraction"] = 0.75


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("n", type=int)
    p.add_argument("--slow", type=int, nargs=2, default=None)
    p.add_argument("--noise", action="store_true", help="a seeded 1 %% normal spread (compresses as measured data)")
    a = p.parse_args()
    hosts = [f"n{i}" for i in range(a.n)]
    leaves = ["s1" if i < a.n // 2 else "s2" for i in range(a.n)]
    slow = [tuple(a.slow)] if a.slow else []
    flags = [("links.pair", f"n{a.slow[0]}->n{a.slow[1]}", 2e9, 20.0, "slow link")] if a.slow else []
    write_file(a.out, hosts, leaves, slow, flags, switches=[("s1", "top"), ("s2", "top")],
               noise=a.noise)


if __name__ == "__main__":
    main()
