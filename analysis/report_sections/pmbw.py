"""pmbw as its users read it (stats2gnuplot): small multiples of every
routine family (ScanRead, ScanWrite, PermRead, ...) by thread count,
bandwidth in GiB/s (pmbw's convention) against the array size on a log axis
labelled in KiB/MiB/GiB, one curve per routine: the median over the ranks
with the spread as a band (min-max up to 16 ranks, 5-95 % above), so 20,000
ranks are still one curve each. L1/L2/L3 from /nodes/table as vertical
lines (L1 and L2 are per core: at threads x their size on this axis of all
threads' bytes). Then the permutation walk's latency per thread count."""
import re

import numpy as np

from . import axes as ax_
from .common import Section, Table, capped, check_units, fixed, giga, has_columns, host_key, read_table, save, plot_text, text

DRAWS = {"pmbw/results": "pmbw bandwidth by routine family and thread count, permutation latency"}  # with pmbw/nodes
ORDER = 30
FAMILY_ORDER = ["ScanRead", "ScanWrite", "PermRead", "PermWrite"]
MAX_THREAD_COLUMNS = 6
GIB = float(1 << 30)


def family_of(routine):
    m = re.match(r"(Scan|Perm)(Read|Write)", routine)
    return m.group(0) if m else routine


def thread_columns(counts):
    """At most MAX_THREAD_COLUMNS thread counts: all, or the first, the last
    and evenly spaced ones between."""
    counts = sorted(counts)
    if len(counts) <= MAX_THREAD_COLUMNS:
        return counts
    idx = np.unique(np.round(np.linspace(0, len(counts) - 1, MAX_THREAD_COLUMNS)).astype(int))
    return [counts[i] for i in idx]


def load(f):
    """The columns drawn, valid rows only; the routine as codes into
    cols["routine_names"] (cols["routine"])."""
    cols = ax_.read_columns(f, "pmbw/results", ["rank", "threads", "area_bytes", "bandwidth",
                                                "thread_access_seconds", "valid"])
    if cols is None or not all(c in cols for c in ("rank", "threads", "area_bytes")) or len(cols["rank"]) == 0 or \
            "routine" not in f["pmbw/results"].dtype.names:
        return None
    names, cols["routine"] = ax_.text_codes(f, "pmbw/results", "routine")
    if "valid" in cols:
        keep = cols["valid"] != 0
        if not keep.all():
            cols = {k: v[keep] for k, v in cols.items()}
        del cols["valid"]
    cols["routine_names"] = names
    return cols


def sections(f, options):
    cols = load(f)
    if cols is None:
        return []
    check_units(f, "pmbw/results", {"area_bytes": "B", "bandwidth": "B/s", "thread_access_seconds": "s"})
    ranks = len(np.unique(cols.pop("rank")))  # only the count is drawn: 20,000 ranks' column freed now
    caches, spread = ax_.cache_sizes(f)
    out = []
    if "bandwidth" in cols and len(cols["bandwidth"]):
        out.append(bandwidth_grid(options, cols, ranks, caches, spread))
    if "thread_access_seconds" in cols:
        perm = latency_plot(options, cols, ranks, caches)
        if perm is not None:
            out.append(perm)
    if out:
        results = read_table_meta(f)
        out[0].tables.append(Table("/pmbw/results", ["routines in the file", "rows", "ranks"],
                                   [[", ".join(sorted(cols["routine_names"][np.unique(cols["routine"])])), results,
                                     ranks]]))
        nodes_table(f, out[0])
    return out


def read_table_meta(f):
    return int(f["pmbw/results"].shape[0])


def bandwidth_grid(options, cols, ranks, caches, spread):
    import matplotlib.pyplot as plt
    routine_names = cols["routine_names"]
    routine_idx = cols["routine"]
    present = set(int(k) for k in np.unique(routine_idx))
    families = sorted({family_of(routine_names[k]) for k in present},
                      key=lambda x: (FAMILY_ORDER.index(x) if x in FAMILY_ORDER else len(FAMILY_ORDER), x))
    threads_all = sorted(int(t) for t in np.unique(cols["threads"]))
    threads_shown = thread_columns(threads_all)
    (band_lo, band_hi), band_name = ax_.band_of(ranks)
    keys, counts, pct = ax_.group_percentiles(
        [routine_idx, cols["threads"], cols["area_bytes"]],
        cols["bandwidth"].astype(float) / GIB, [band_lo, 50.0, band_hi])
    r_key, t_key, a_key = keys
    lo_x, hi_x = float(cols["area_bytes"].min()), float(cols["area_bytes"].max())

    nrow, ncol = len(families), len(threads_shown)
    fig, grid = plt.subplots(nrow, ncol, figsize=(min(max(3.2 * ncol, 7), 16), 2.5 * nrow + 0.6), squeeze=False,
                             sharex=True)
    panels = []
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, family in enumerate(families):
        members = sorted((k for k in present if family_of(routine_names[k]) == family),
                         key=lambda k: routine_names[k])
        for j, threads in enumerate(threads_shown):
            ax = grid[i][j]
            drawn, curves = [], {}
            for n, k in enumerate(members):
                sel = (r_key == k) & (t_key == threads)
                if not sel.any():
                    continue
                colour = colours[n % len(colours)]
                x = a_key[sel].astype(float)
                ax.plot(x, pct[50.0][sel], "-", color=colour, linewidth=1, label=plot_text(routine_names[k], 40))
                if ranks > 1:
                    ax.fill_between(x, pct[band_lo][sel], pct[band_hi][sel], color=colour, alpha=0.2, linewidth=0)
                drawn.append(str(routine_names[k]))
                curves[str(routine_names[k])] = {"x": x.tolist(), "median": pct[50.0][sel].tolist(),
                                                 "low": pct[band_lo][sel].tolist(), "high": pct[band_hi][sel].tolist()}
            marks = ax_.cache_marks(caches, threads)
            ax_.draw_cache_marks(ax, marks)
            ax_.byte_axis(ax, min([lo_x] + list(marks.values())), max([hi_x] + list(marks.values())),
                                  "array size, all threads" if i == nrow - 1 else "", max_ticks=5)
            ax.set_title(f"{family}, {threads} thread" + ("s" if threads > 1 else ""), fontsize=9)
            ax.tick_params(labelsize=7)
            if j == 0:
                ax.set_ylabel("GiB/s (2^30 B/s)", fontsize=8)
            if drawn and j == ncol - 1:
                ax.legend(fontsize=6, loc="best")
            panels.append({"family": family, "threads": threads, "routines": drawn, "curves_GiBps": curves,
                           "cache_marks": marks,
                           **ax_.x_tick_info(ax), "lines": len(ax.lines), "bands": len(ax.collections)})
    what = "per rank" if ranks == 1 else f"median of {ranks} ranks, {band_name} band"
    fig.suptitle(f"pmbw bandwidth by routine family and thread count\n({what}; dotted/dashed/dash-dot: L1/L2/L3)",
                 fontsize=9)
    fig.tight_layout()
    png = save(fig, options, "pmbw_scan.png")
    ax_.record(options, png, {"kind": "pmbw", "unit": "GiB/s", "ranks": ranks, "band": band_name if ranks > 1 else None,
                              "families": families, "threads_all": threads_all, "threads_shown": threads_shown,
                              "caches": caches, "cache_spread": spread, "panels": panels})
    notes = []
    if threads_shown != threads_all:
        notes.append(f"thread counts shown: {', '.join(map(str, threads_shown))} of {', '.join(map(str, threads_all))}")
    if caches:
        notes.append("cache sizes (/nodes/table, median over the nodes): " +
                     ", ".join(f"{k} {ax_.binary_size(v)}" + (f" (nodes from {ax_.binary_size(spread[k][0])} to "
                                                            f"{ax_.binary_size(spread[k][1])})"
                                                            if spread[k][0] != spread[k][1] else "")
                               for k, v in caches.items()) +
                     "; L1 and L2 per core, drawn at threads x their size")
    return Section(title="pmbw: bandwidth by routine family and thread count (GiB/s)", png=png, notes=notes)


def latency_plot(options, cols, ranks, caches):
    import matplotlib.pyplot as plt
    names = cols["routine_names"]
    routines = sorted(names[k] for k in np.unique(cols["routine"]) if family_of(names[k]) == "PermRead")
    if not routines:
        return None
    routine = "PermRead64UnrollLoop" if "PermRead64UnrollLoop" in routines else routines[0]
    sel = cols["routine"] == list(names).index(routine)
    (band_lo, band_hi), band_name = ax_.band_of(ranks)
    keys, _, pct = ax_.group_percentiles([cols["threads"][sel], cols["area_bytes"][sel]],
                                         cols["thread_access_seconds"][sel].astype(float) * 1e9,
                                         [band_lo, 50.0, band_hi])
    fig, ax = plt.subplots(figsize=(8, 4.4))
    threads = sorted(int(t) for t in np.unique(keys[0]))
    for t in threads:
        s = keys[0] == t
        line, = ax.plot(keys[1][s].astype(float), pct[50.0][s], "-o", markersize=3,
                        label=f"{t} thread" + ("s" if t > 1 else ""))
        if ranks > 1:
            ax.fill_between(keys[1][s].astype(float), pct[band_lo][s], pct[band_hi][s], color=line.get_color(),
                            alpha=0.2, linewidth=0)
    marks = ax_.cache_marks(caches, 1)
    ax_.draw_cache_marks(ax, marks)
    ax_.byte_axis(ax, min([float(keys[1].min())] + list(marks.values())),
                          max([float(keys[1].max())] + list(marks.values())), "array size, all threads")
    ax_.plain_log_y(ax)
    ax.set_ylabel("time per access of one thread (ns)")
    what = "one rank" if ranks == 1 else f"median of {ranks} ranks, {band_name} band"
    ax.set_title(f"pmbw {plot_text(routine)} latency ({what}); L1/L2/L3 of one thread", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    png = save(fig, options, "pmbw_perm_latency.png")
    ax_.record(options, png, {"kind": "pmbw_latency", "routine": routine, "threads": threads, "cache_marks": marks,
                              **ax_.x_tick_info(ax),
                              "lines": len(ax.lines)})
    return Section(title=f"pmbw {routine}: latency against size", png=png)


def nodes_table(f, section):
    nodes = read_table(f, "pmbw/nodes")
    if has_columns(nodes, "host", "scan_routine", "scan_l1_Bps", "scan_l2_Bps", "scan_ram_Bps"):
        rows = [[text(r["host"]), text(r["scan_routine"]), int(r["threads"]), giga(r["scan_l1_Bps"]),
                 giga(r["scan_l2_Bps"]), giga(r["scan_ram_Bps"]),
                 text(r["perm_routine"]) if "perm_routine" in nodes.dtype.names else "",
                 fixed(r["perm_ram_access_seconds"] * 1e9, 1) if "perm_ram_access_seconds" in nodes.dtype.names
                 else "n/a"] for r in sorted(nodes, key=lambda r: host_key(text(r["host"])))]
        rows, note = capped(rows)
        section.tables.append(Table("/pmbw/nodes (plateaus)", ["host", "scan routine", "threads", "L1 GB/s",
                                                               "L2 GB/s", "RAM GB/s", "perm routine",
                                                               "RAM latency ns"], rows, note))
