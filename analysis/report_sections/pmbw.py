"""pmbw: bandwidth against the array size per thread count (log x) for a
sequential scan (ScanRead64PtrUnrollLoop, or the first Scan routine in the
file), and the time per access of the random permutation walk
(PermRead64UnrollLoop, or the first PermRead routine): one rank's curves,
the lowest rank of the file."""
import numpy as np

from .common import Section, Table, capped, check_units, fixed, giga, has_columns, host_key, read_table, save, plot_text, text

DRAWS = {"pmbw/results": "pmbw scan bandwidth and permutation latency"}  # with pmbw/nodes
ORDER = 30
SCAN_ROUTINE = "ScanRead64PtrUnrollLoop"
PERM_ROUTINE = "PermRead64UnrollLoop"


def pick(routines, preferred, *prefixes):
    """The preferred routine, else the first (by name) with the first prefix that has one."""
    if preferred in routines:
        return preferred
    for prefix in prefixes:
        candidates = sorted(r for r in routines if r.startswith(prefix))
        if candidates:
            return candidates[0]
    return None


def per_thread_count(ax, rows, y_of):
    for threads in sorted(set(int(t) for t in rows["threads"])):
        pts = np.sort(rows[rows["threads"] == threads], order="area_bytes")
        ax.plot(pts["area_bytes"], y_of(pts), "-o", markersize=3, label=f"{threads} thread" + ("s" if threads > 1 else ""))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("array size (bytes, all threads)")
    ax.legend(fontsize=8)


def sections(f, options):
    results = read_table(f, "pmbw/results")
    if results is None or len(results) == 0 or not has_columns(results, "rank", "routine", "threads", "area_bytes"):
        return []
    import matplotlib.pyplot as plt
    check_units(f, "pmbw/results", {"area_bytes": "B", "bandwidth": "B/s", "thread_access_seconds": "s"})

    rank = int(results["rank"].min())
    mine = results[results["rank"] == rank]
    if "valid" in mine.dtype.names:
        mine = mine[mine["valid"] != 0]
    host = text(mine[0]["host"]) if len(mine) else "?"
    names = np.array([text(r) for r in mine["routine"]])
    out = []
    scan = pick(set(names), SCAN_ROUTINE, "ScanRead", "Scan")
    if scan and "bandwidth" in mine.dtype.names:
        fig, ax = plt.subplots(figsize=(8, 4.8))
        per_thread_count(ax, mine[names == scan], lambda p: p["bandwidth"] / 1e9)
        ax.set_ylabel("bandwidth (GB/s)")
        ax.set_title(f"pmbw {plot_text(scan)}: rank {rank} ({plot_text(host)})")
        fig.tight_layout()
        out.append(Section(title=f"pmbw {scan}: bandwidth against size", png=save(fig, options, "pmbw_scan.png")))
    perm = pick(set(names), PERM_ROUTINE, "PermRead")
    if perm and "thread_access_seconds" in mine.dtype.names:
        fig, ax = plt.subplots(figsize=(8, 4.8))
        per_thread_count(ax, mine[names == perm], lambda p: p["thread_access_seconds"] * 1e9)
        ax.set_yscale("log")
        ax.set_ylabel("time per access of one thread (ns)")
        ax.set_title(f"pmbw {plot_text(perm)} (latency): rank {rank} ({plot_text(host)})")
        fig.tight_layout()
        out.append(Section(title=f"pmbw {perm}: latency against size", png=save(fig, options, "pmbw_perm_latency.png")))
    if out:
        routines = sorted(set(names))
        out[0].tables.append(Table("/pmbw/results", ["routines in the file", "rows", "ranks"],
                                   [[", ".join(routines), len(results), len(set(int(r) for r in results["rank"]))]]))
        nodes = read_table(f, "pmbw/nodes")
        if has_columns(nodes, "host", "scan_routine", "scan_l1_Bps", "scan_l2_Bps", "scan_ram_Bps"):
            rows = [[text(r["host"]), text(r["scan_routine"]), int(r["threads"]), giga(r["scan_l1_Bps"]),
                     giga(r["scan_l2_Bps"]), giga(r["scan_ram_Bps"]),
                     text(r["perm_routine"]) if "perm_routine" in nodes.dtype.names else "",
                     fixed(r["perm_ram_access_seconds"] * 1e9, 1) if "perm_ram_access_seconds" in nodes.dtype.names
                     else "n/a"] for r in sorted(nodes, key=lambda r: host_key(text(r["host"])))]
            rows, note = capped(rows)
            out[0].tables.append(Table("/pmbw/nodes (plateaus)", ["host", "scan routine", "threads", "L1 GB/s",
                                                                  "L2 GB/s", "RAM GB/s", "perm routine",
                                                                  "RAM latency ns"], rows, note))
    return out
