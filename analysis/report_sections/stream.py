"""STREAM Triad per node: a bar per node (its aggregate bandwidth from
/stream/nodes), the median with the band the node flags use, and the nodes
/flags names marked. Flag median and MAD come from /flags when the file has
it (the scaling study writes them); without it the band is the nodes' median and MAD
computed here, for the picture only. One picture per backend and type:
the device rows are /stream/nodes rows with backend "ocl" (schema 2.x);
a 1.x file kept them in /ocl/stream/nodes, and its CPU rows had no backend
column (backend "cpu")."""
import numpy as np

from .common import Section, Table, check_units, fixed, giga, has_columns, host_key, read_table, save, plot_text, text

# The flag rule of bwsurvey (median - k * 1.4826 * MAD, and below f * median)
# with its defaults; /flags attributes named k / fraction override them.
DEFAULT_K = 4.0
DEFAULT_FRACTION = 0.9
MAD_TO_SIGMA = 1.4826


# The tables this module draws, with what it draws from each (the overview
# names them; their groups are not drawn again by the generic section).
DRAWS = {"stream/nodes": "STREAM Triad per node and backend",
         "ocl/stream/nodes": "STREAM Triad per node on the device (schema 1.x files)"}
ORDER = 10  # where its sections stand on the page

# The node metric of each backend's Triad (its flags in /flags).
TRIAD_METRIC_PREFIX = {"cpu": "stream.", "ocl": "ocl."}


def triad_flags(f, backend="cpu"):
    """{host: flag row} of /flags rows about STREAM Triad of one backend,
    and the table's attributes; ({}, {}) when the file has no /flags."""
    flags = read_table(f, "flags")
    if flags is None or not has_columns(flags, "host", "metric"):
        return {}, {}
    prefix = TRIAD_METRIC_PREFIX.get(backend, backend + ".")
    rows = {}
    for r in flags:
        metric = text(r["metric"]).lower()
        if "triad" in metric and metric.startswith(prefix):
            rows[text(r["host"])] = r
    return rows, dict(f["flags"].attrs)


def node_rows(f):
    """[(backend, row)] of the STREAM node tables (2.x: one table with a
    backend column; 1.x: /stream/nodes for the CPU, /ocl/stream/nodes for
    the device)."""
    rows = []
    for path, default in (("stream/nodes", "cpu"), ("ocl/stream/nodes", "ocl")):
        table = read_table(f, path)
        if table is None or not has_columns(table, "host", "kernel", "type", "bandwidth"):
            continue
        check_units(f, path, {"bandwidth": "B/s"})
        for r in table:
            backend = text(r["backend"]) if "backend" in table.dtype.names else default
            rows.append((backend, r))
    return rows


def field(r, name, default="-"):
    return int(r[name]) if name in r.dtype.names else default


def sections(f, options):
    all_rows = node_rows(f)
    if not all_rows:
        return []
    backends = sorted({b for b, _ in all_rows}, key=lambda b: (b != "cpu", b))
    result = []
    for backend in backends:
        nodes = [r for b, r in all_rows if b == backend]
        result += backend_sections(f, options, backend, nodes)
    return result


def backend_sections(f, options, backend, nodes):
    import matplotlib.pyplot as plt
    flagged, flag_attrs = triad_flags(f, backend)
    k = float(flag_attrs.get("k", DEFAULT_K))
    fraction = float(flag_attrs.get("fraction", DEFAULT_FRACTION))
    types = [t for t in ("double", "float") if any(text(r["type"]) == t for r in nodes)]
    on = "" if backend == "cpu" else f" on {backend}"
    result = []
    for typ in types:
        rows = [r for r in nodes if text(r["kernel"]) == "Triad" and text(r["type"]) == typ]
        if not rows:
            continue
        rows.sort(key=lambda r: host_key(text(r["host"])))
        hosts = [text(r["host"]) for r in rows]
        gbs = np.array([r["bandwidth"] / 1e9 for r in rows])
        stored = [flagged[h] for h in hosts if h in flagged and {"median", "mad"} <= set(flagged[h].dtype.names)]
        if stored:
            median, mad = stored[0]["median"] / 1e9, stored[0]["mad"] / 1e9
            source = "median and MAD as /flags stored them"
        else:
            median = float(np.median(gbs))
            mad = float(np.median(np.abs(gbs - median)))
            source = "median and MAD of these nodes (the file has no /flags values for Triad)"
        low = median - k * MAD_TO_SIGMA * mad

        fig, ax = plt.subplots(figsize=(max(6.0, min(16.0, 0.35 * len(hosts) + 3)), 4.5))
        x = np.arange(len(hosts))
        colors = ["tab:red" if h in flagged else "tab:blue" for h in hosts]
        ax.bar(x, gbs, color=colors)
        ax.axhspan(low, median + k * MAD_TO_SIGMA * mad, color="tab:green", alpha=0.15,
                   label=f"median ± {k:g}·1.4826·MAD")
        ax.axhline(median, color="tab:green", label=f"median {median:.2f} GB/s")
        ax.axhline(fraction * median, color="tab:orange", linestyle="--", label=f"{fraction:g} × median")
        if len(hosts) <= 60:
            ax.set_xticks(x, [plot_text(h, 30) for h in hosts], rotation=60 if len(hosts) > 8 else 0, ha="right" if len(hosts) > 8 else "center")
        else:
            ax.set_xticks([i for i, h in enumerate(hosts) if h in flagged], [plot_text(h, 30) for h in hosts if h in flagged],
                          rotation=60, ha="right")
        ax.set_ylabel("Triad GB/s (node aggregate)")
        ax.set_title(f"STREAM Triad ({typ}{on}) per node" + (f"; {len(flagged)} flagged (red)" if flagged else ""))
        ax.set_ylim(bottom=0)
        ax.legend(loc="lower right", fontsize=8)
        fig.tight_layout()
        png = save(fig, options, f"stream_triad_{typ}.png" if backend == "cpu" else f"stream_triad_{typ}_{backend}.png")

        table_rows = []
        for h, r, g in zip(hosts, rows, gbs):
            flag = flagged.get(h)
            if flag is not None and "percent_of_median" in flag.dtype.names:
                percent = fixed(flag["percent_of_median"], 1)  # as /flags stored it
            else:
                percent = fixed(100 * g / median, 1) if median > 0 else "n/a"
            table_rows.append([h, int(r["ranks"]), field(r, "threads"), giga(r["bandwidth"]), percent,
                               "FLAGGED" if h in flagged else "", "yes" if r["valid"] else "NO"])
        result.append(Section(
            title=f"STREAM Triad per node ({typ}{on})", png=png,
            tables=[Table(f"/stream/nodes, Triad {typ}{on}",
                          ["host", "ranks", "threads", "Triad GB/s", "% of median", "flag", "valid"], table_rows)],
            notes=[f"Band: {source}."]))
    return result

