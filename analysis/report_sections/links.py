"""The link map: the links.* verdicts of /flags (above the picture), the
send matrix /links/send_Bps as a heat map ordered by leaf switch then host
(colour = % of the matrix's median; the verdicts' slow pairs boxed), the
latency matrix /links/latency_s beside it when the file has it, and the
slowest nodes of /links/nodes. Large matrices are read in row blocks and
shown as at most 512 x 512 blocks of hosts, each the worst value of its
block (link_matrix.py), so the page stays small and one slow pair shows."""
from collections import Counter

import numpy as np

from .common import (Section, Table, capped, check_units, fixed, giga, has_columns, plot_text, read_table, save,
                     text)
from .link_matrix import block_of_position, display_order, worst_blocks

DRAWS = {"links/send_Bps": "link map (send bandwidth per ordered pair)",
         "links/latency_s": "link latency per ordered pair"}  # with /links/hosts, /links/nodes
ORDER = 45
DEFAULT_FRACTION = 0.75  # the flag fraction when /flags does not record one
MAX_LABELS = 64          # host names on the axes up to this many hosts
MAX_LEAF_LABELS = 40
SLOWEST_NODES = 20
SMALL_MATRIX = 4096      # read whatever the storage says up to this N (64 MB)
MAX_PACKING = 1100       # deflate's best ratio (~1032:1) with room
MAX_LOW_MARKS = 50       # low blocks circled up to this many (more: a slow node's row, seen without them)


def sections(f, options):
    if "links/send_Bps" not in f:
        return []
    shape = f["links/send_Bps"].shape
    if len(shape) != 2:
        raise ValueError(f"/links/send_Bps: shape {shape}, expected N x N")
    verdicts, fraction = link_verdicts(f)
    result = [verdict_section(verdicts)]
    if shape[0] == 0:
        result.append(Section(title="Link map", notes=["/links/send_Bps holds no rows (the phase wrote none)."]))
        return result
    hosts, leaves = host_order_columns(f, shape[0])
    order, groups = display_order(hosts, leaves)
    result.append(map_section(f, options, "links/send_Bps", hosts, order, groups, verdicts, fraction))
    if "links/latency_s" in f:
        result.append(map_section(f, options, "links/latency_s", hosts, order, groups, [], fraction))
    nodes = nodes_section(f)
    if nodes:
        result.append(nodes)
    return result


def host_order_columns(f, n):
    """(hosts, leaves) of the matrices' rows, from /links/hosts (leaf ""
    when the file has no leaf column); checks the matrix is N x N."""
    table = read_table(f, "links/hosts")
    if table is None or not has_columns(table, "index", "host"):
        raise ValueError("/links/hosts: missing, or without the columns index and host")
    if len(table) != n:
        raise ValueError(f"/links/hosts: {len(table)} rows, but /links/send_Bps has {n}")
    hosts, leaves = [""] * n, [""] * n
    for r in table:
        i = int(r["index"])
        if not 0 <= i < n:
            raise ValueError(f"/links/hosts: index {i} outside 0..{n - 1}")
        hosts[i] = text(r["host"])
        if "leaf" in table.dtype.names:
            leaves[i] = text(r["leaf"])
    return hosts, leaves


def link_verdicts(f):
    """([(metric, subject, row)] of the links.* rows of /flags, fraction)."""
    flags = read_table(f, "flags")
    fraction = float(f["flags"].attrs.get("fraction", DEFAULT_FRACTION)) if "flags" in f else DEFAULT_FRACTION
    if flags is None or not has_columns(flags, "host", "metric"):
        return [], fraction
    rows = [(text(r["metric"]), text(r["host"]), r) for r in flags if text(r["metric"]).startswith("links.")]
    return rows, fraction


def measured(r):
    if "value" not in r.dtype.names:
        return "n/a"
    unit = text(r["unit"]) if "unit" in r.dtype.names else "B/s"
    value = float(r["value"])
    if unit == "B/s":
        return f"{giga(value)} GB/s"
    if unit == "s":
        return f"{fixed(value * 1e6, 2)} us"
    return f"{value:.4g} {unit}"


def verdict_section(verdicts):
    if not verdicts:
        return Section(title="Link verdicts", notes=["no link verdicts (/flags holds no links.* rows)"])
    rows = [[metric, subject, measured(r),
             fixed(r["percent_of_median"], 1) if "percent_of_median" in r.dtype.names else "n/a",
             text(r["reason"]) if "reason" in r.dtype.names else ""] for metric, subject, r in verdicts]
    rows, note = capped(rows)
    return Section(title="Link verdicts", tables=[Table(
        f"/flags, links.* rows ({len(verdicts)} verdicts)",
        ["metric", "subject", "measured", "% of expected", "reason"], rows, note)])


def slow_pairs(verdicts, hosts):
    """[(sender index, receiver index)] of the links.pair subjects "a->b"."""
    counts = Counter(hosts)
    index = {h: i for i, h in enumerate(hosts) if counts[h] == 1}  # a shared name (ranks of one host) names no cell
    pairs = []
    for metric, subject, _ in verdicts:
        if not metric.startswith("links.pair"):
            continue
        at = subject.find("->")
        while at >= 0:
            a, b = subject[:at], subject[at + 2:]
            if a in index and b in index:
                pairs.append((index[a], index[b]))
                break
            at = subject.find("->", at + 1)
    return pairs


def uplink_regions(verdicts, groups, n):
    """[(x0, y0, width, height)] in host positions of the links.uplink
    subjects "leaf->other": the block of rows of the leaf and columns of the
    other leaf, or, when the other end is not a leaf (its parent switch: the
    leaf's own uplink), the leaf's rows and its columns across the map."""
    span = {leaf: (start, stop) for leaf, start, stop in groups if leaf}
    regions = []
    for metric, subject, _ in verdicts:
        if not metric.startswith("links.uplink") or "->" not in subject:
            continue
        a, b = subject.split("->", 1)
        if a not in span:
            continue
        rows = span[a]
        if b in span:
            regions.append((span[b][0], rows[0], span[b][1] - span[b][0], rows[1] - rows[0]))
        else:  # the leaf's own uplink: its sends (rows) and its receives (columns) to everywhere
            regions.append((0, rows[0], n, rows[1] - rows[0]))
            regions.append((rows[0], 0, rows[1] - rows[0], n))
    return regions


def map_section(f, options, path, hosts, order, groups, verdicts, fraction):
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.patches import Rectangle
    dataset = f[path]
    n = len(hosts)
    if dataset.shape != (n, n):
        raise ValueError(f"/{path}: shape {dataset.shape}, expected {n} x {n} (the rows of /links/hosts)")
    check_matrix_storage(dataset, path, n)
    latency = path.endswith("latency_s")
    unit = text(dataset.attrs.get("unit", "s" if latency else "B/s"))
    if unit != ("s" if latency else "B/s"):
        raise ValueError(f"/{path}: unit {unit!r}; this report reads {'s' if latency else 'B/s'!r}")
    blocks, median, stride = worst_blocks(lambda a, b: dataset[a:b, :], n, order, "max" if latency else "min")
    d = blocks.shape[0]
    size = (7.5, 6.5) if latency else (10.0, 9.0)
    fig, ax = plt.subplots(figsize=size)
    extent = (0, n, n, 0)  # axes in host positions; display block r covers r*n/d .. (r+1)*n/d
    if latency:
        cmap = plt.get_cmap("viridis", 16).copy()
        cmap.set_bad("0.85")
        image = ax.imshow(blocks * 1e6, cmap=cmap, extent=extent, interpolation="nearest", aspect="equal")
        bar = fig.colorbar(image, ax=ax, shrink=0.85)
        bar.set_label("8-byte latency, half a round trip (us)" + (", block maximum" if d < n else ""))
    else:
        cmap = plt.get_cmap("RdYlBu", 16).copy()
        cmap.set_bad("0.85")
        percent = 100.0 * blocks / median if median > 0 else blocks * np.nan
        image = ax.imshow(percent, cmap=cmap, extent=extent, interpolation="nearest", aspect="equal",
                          norm=TwoSlopeNorm(vmin=0.0, vcenter=100.0, vmax=150.0))
        bar = fig.colorbar(image, ax=ax, shrink=0.85, extend="max")
        bar.set_label(f"% of the matrix median ({giga(median)} GB/s)" + (", block minimum" if d < n else ""))
        bar.ax.axhline(100 * fraction, color="black", linewidth=1.5)
        cell = n / d
        mark = max(3 * cell, n / 60.0)
        if n > MAX_LABELS:  # small maps show each cell; large ones need the low ones pointed at
            mark_low_blocks(ax, percent, 100 * fraction, cell)
        for x0, y0, width, height in uplink_regions(verdicts, groups, n):
            ax.add_patch(Rectangle((x0, y0), width, height, fill=False, edgecolor="black", linewidth=2.0,
                                   linestyle="--"))
        position = np.empty(n, dtype=np.int64)
        position[order] = np.arange(n)
        for i, j in slow_pairs(verdicts, hosts):
            p, q = position[i], position[j]
            x0 = block_of_position(q, n) * cell + cell / 2 - mark / 2
            y0 = block_of_position(p, n) * cell + cell / 2 - mark / 2
            ax.add_patch(Rectangle((x0, y0), mark, mark, fill=False, edgecolor="black", linewidth=1.5))
    draw_axes(ax, hosts, order, groups, n)
    what = "8-byte latency" if latency else "send bandwidth"
    ax.set_title(f"Link map: {what}, sender (row) -> receiver (column), {n} nodes")
    fig.tight_layout()
    png = save(fig, options, "links_latency.png" if latency else "links_send.png")
    notes = [caption(n, d, median, stride, latency, fraction, bool(groups))]
    return Section(title=f"Link map: {what}", png=png, notes=notes)


def mark_low_blocks(ax, percent, limit, cell):
    """Circles round the blocks below the flag fraction (the verdicts' boxes
    name the flagged pairs; these show the low cells at any N), when few."""
    with np.errstate(invalid="ignore"):
        rows, columns = np.nonzero(percent < limit)
    if 0 < len(rows) <= MAX_LOW_MARKS:
        ax.scatter((columns + 0.5) * cell, (rows + 0.5) * cell, s=120, facecolors="none", edgecolors="black",
                   linewidths=0.8)


def check_matrix_storage(dataset, path, n):
    """Raises ValueError when a large matrix stores far fewer bytes than
    deflate could have packed its cells into (bwsurvey writes every row;
    deflate packs at most ~1000:1): a damaged or hostile file must not make
    the report read 10^12 fill values."""
    declared = 4 * n * n
    if n > SMALL_MATRIX and dataset.id.get_storage_size() * MAX_PACKING < declared:
        raise ValueError(f"/{path}: declares {n} x {n} cells but stores only {dataset.id.get_storage_size()} bytes")


def draw_axes(ax, hosts, order, groups, n):
    """Host names (up to MAX_LABELS hosts; a name several rows share, as the
    ranks of one host do, gets its row index), leaf boundaries, leaf names."""
    if n <= MAX_LABELS:
        ticks = np.arange(n) + 0.5
        counts = Counter(hosts)
        labels = [plot_text(hosts[i], 20) + (f" [{i}]" if counts[hosts[i]] > 1 else "") for i in order]
        ax.set_xticks(ticks, labels, rotation=90, fontsize=7)
        ax.set_yticks(ticks, labels, fontsize=7)
    else:
        ax.set_xlabel("receiver (host position)")
        ax.set_ylabel("sender (host position)")
    for _, start, _ in groups[1:]:
        ax.axhline(start, color="black", linewidth=0.8)
        ax.axvline(start, color="black", linewidth=0.8)
    if groups and len(groups) <= MAX_LEAF_LABELS:
        centres = [(start + stop) / 2 for _, start, stop in groups]
        names = [plot_text(leaf or "(no leaf)", 16) for leaf, _, _ in groups]
        top = ax.secondary_xaxis("top")
        top.set_xticks(centres, names, rotation=30 if len(groups) > 4 else 0, fontsize=8)
        right = ax.secondary_yaxis("right")
        right.set_yticks(centres, names, fontsize=8, rotation=90, va="center")


def caption(n, d, median, stride, latency, fraction, leaves):
    order = "ordered by leaf switch, then host name" if leaves else "ordered by host name (no leaf switches in the file)"
    out = [f"Rows and columns {order}; grey: not measured (the diagonal)."]
    if d < n:
        out.append(f"Down-sampled: {n} hosts shown as {d} x {d} blocks of about {n / d:.1f} hosts per side; each block "
                   f"shows the {'highest (worst) latency' if latency else 'lowest (worst) bandwidth'} of its cells, "
                   "NaN ignored, so a single slow pair stays visible. Read in blocks of rows, never whole.")
    if not latency:
        sample = "all cells" if stride == 1 else f"1 in {stride} cells"
        out.append(f"Colour: % of the median send bandwidth ({giga(median)} GB/s, over {sample}); the line on the "
                   f"colour bar is the flag fraction {100 * fraction:g} %; boxes: the slow pairs /flags names, dashed: "
                   f"the blocks behind its slow uplinks; circles: "
                   f"the blocks below {100 * fraction:g} % (beyond {MAX_LABELS} hosts, when at most {MAX_LOW_MARKS}).")
    return " ".join(out)


def nodes_section(f):
    table = read_table(f, "links/nodes")
    if table is None or not has_columns(table, "host", "out_Bps", "in_Bps"):
        return None
    check_units(f, "links/nodes", {"out_Bps": "B/s", "in_Bps": "B/s"})
    worst = sorted(table, key=lambda r: min(float(r["out_Bps"]), float(r["in_Bps"])))[:SLOWEST_NODES]
    rows = [[text(r["host"]), giga(r["out_Bps"]), giga(r["in_Bps"]),
             giga(r["worst_out_Bps"]) if "worst_out_Bps" in r.dtype.names else "n/a",
             giga(r["worst_in_Bps"]) if "worst_in_Bps" in r.dtype.names else "n/a"] for r in worst]
    return Section(title="Link map: slowest nodes", tables=[Table(
        f"/links/nodes, the {len(rows)} of {len(table)} nodes with the lowest median out or in",
        ["host", "median out GB/s", "median in GB/s", "worst out GB/s", "worst in GB/s"], rows)])
