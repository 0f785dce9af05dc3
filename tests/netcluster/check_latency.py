#!/usr/bin/env python3
"""Reads /links/latency_s of a link map back and checks that a delay on one
host's link shows on that host's pairs only (tests/netcluster/
links_delay.sh). Prints the matrix in ms, hosts as the file names them.

  check_latency.py FILE HOST LOW_MS HIGH_MS OTHERS_BELOW_MS

Every ordered pair with HOST at either end must lie in [LOW_MS, HIGH_MS],
every other pair below OTHERS_BELOW_MS. Exit 0 when so, 1 otherwise.
"""
import sys

import h5py
import numpy as np


def main(path, delayed, low_ms, high_ms, others_below_ms):
    with h5py.File(path, "r") as f:
        latency_ms = f["links/latency_s"][()] * 1e3
        hosts = [h.decode() for h in f["links/hosts"]["host"]]
    n = len(hosts)
    print("latency_s (ms), row -> column: " + " ".join("%7s" % h for h in hosts))
    for i in range(n):
        print("  %-4s " % hosts[i] + " ".join("%7.3f" % latency_ms[i][j] for j in range(n)))
    failures = []
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            value = latency_ms[i][j]
            pair = "%s->%s %.3f ms" % (hosts[i], hosts[j], value)
            if delayed in (hosts[i], hosts[j]):
                if not low_ms <= value <= high_ms:
                    failures.append("%s: not the delay (%g-%g ms)" % (pair, low_ms, high_ms))
            elif not value < others_below_ms:
                failures.append("%s: not below %g ms (no delay on this path)" % (pair, others_below_ms))
    if not np.isfinite(latency_ms[~np.eye(n, dtype=bool)]).all():
        failures.append("a pair has no latency")
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], *map(float, sys.argv[3:6])))
