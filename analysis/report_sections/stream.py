"""STREAM Triad per node: per backend, type and hardware cohort the
distribution of the nodes' aggregate bandwidth (/stream/nodes) in % of the
cohort median with the flag thresholds and the flagged nodes labelled, and
the nodes ordered by value (distributions.py draws them; at more than a few
hundred nodes the worst and best 20), plus a table of the nodes, worst first.
The device rows are /stream/nodes rows with backend "ocl" (schema 2.x);
a 1.x file kept them in /ocl/stream/nodes, and its CPU rows had no backend
column (backend "cpu"). A device backend's cohorts add the device name, as
the flags do (docs/hdf5-schema.md /flags)."""
import numpy as np

from . import distributions, node_metrics
from .common import Section, Table, capped, check_units, fixed, giga, has_columns, read_table, text

# The tables this module draws, with what it draws from each (the overview
# names them; their groups are not drawn again by the generic section).
DRAWS = {"stream/nodes": "STREAM Triad per node and backend",
         "ocl/stream/nodes": "STREAM Triad per node on the device (schema 1.x files)"}
ORDER = 10  # where its sections stand on the page

# The node metric of each backend's Triad (its flags in /flags).
TRIAD_METRIC_PREFIX = {"cpu": "stream.", "ocl": "ocl."}


def triad_flags(f, backend="cpu", typ=None):
    """{host: flag row} of /flags rows about STREAM Triad of one backend
    (and type, when given), and the table's attributes; ({}, {}) when the
    file has no /flags."""
    flags = read_table(f, "flags")
    if flags is None or not has_columns(flags, "host", "metric"):
        return {}, {}
    prefix = TRIAD_METRIC_PREFIX.get(backend, backend + ".")
    rows = {}
    for r in flags:
        metric = text(r["metric"]).lower()
        of_type = typ is None or metric.endswith(f"[{typ}]") or "[" not in metric  # no group: an older file
        if "triad" in metric and metric.startswith(prefix) and of_type:
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


def triad_metric(f, backend, typ, rows):
    """The node metric of this backend's Triad of one type, as bwreport
    judges it (node_metrics.py: values, cohorts, the rule's limits); for a
    1.x file's device rows, which bwreport does not judge, the rows' own
    values in the hardware cohorts, without limits."""
    name = f"{TRIAD_METRIC_PREFIX.get(backend, backend + '.')}triad[{typ}]"
    for metric in node_metrics.metric_values(f):
        if metric.name == name:
            return metric
    cohorts = node_metrics.node_cohorts(f)
    values, cohort = {}, {}
    for r in rows:
        host = text(r["host"])
        values[host] = values.get(host, 0.0) + float(r["bandwidth"])
        device = text(r["device"]) if "device" in r.dtype.names else ""
        cohort[host] = cohorts.get(host, "unknown hardware") + (f" / {device}" if device else "")
    return node_metrics.Metric(name, "B/s", values, cohort, {}, True, name.split("[")[0])


def backend_sections(f, options, backend, nodes):
    leaves = distributions.leaf_of_hosts(f)
    types = [t for t in ("double", "float") if any(text(r["type"]) == t for r in nodes)]
    on = "" if backend == "cpu" else f" on {backend}"
    result = []
    for typ in types:
        flagged, _ = triad_flags(f, backend, typ)
        rows = [r for r in nodes if text(r["kernel"]) == "Triad" and text(r["type"]) == typ]
        if not rows:
            continue
        metric = triad_metric(f, backend, typ, rows)
        hosts = [text(r["host"]) for r in rows]
        bandwidth = np.array([float(r["bandwidth"]) for r in rows])
        cohort_of = metric.cohort
        image = f"stream_triad_{typ}" if backend == "cpu" else f"stream_triad_{typ}_{backend}"
        views = distributions.metric_views(options, f"STREAM Triad ({typ}{on}) per node", metric, set(flagged),
                                           leaves=leaves, image=image)
        result += views

        # The nodes, worst first (the page's node table holds them all).
        medians = {}
        for h, g in zip(hosts, bandwidth):
            medians.setdefault(cohort_of.get(h, "unknown cohort"), []).append(g)
        medians = {c: float(np.median(v)) for c, v in medians.items()}
        table_rows = []
        for i in np.argsort(bandwidth, kind="stable"):
            h, r, g = hosts[i], rows[i], bandwidth[i]
            flag = flagged.get(h)
            median = medians[cohort_of.get(h, "unknown cohort")]
            if flag is not None and "percent_of_median" in flag.dtype.names:
                percent = fixed(flag["percent_of_median"], 1)  # as /flags stored it
            else:
                percent = fixed(100 * g / median, 1) if median > 0 else "n/a"
            table_rows.append([h, int(r["ranks"]), field(r, "threads"), giga(r["bandwidth"]), percent,
                               "FLAGGED" if h in flagged else "", "yes" if r["valid"] else "NO"])
        table_rows, note = capped(table_rows)
        table = Table(f"/stream/nodes, Triad {typ}{on}, worst first",
                      ["host", "ranks", "threads", "Triad GB/s", "% of cohort median", "flag", "valid"], table_rows,
                      note)
        if views:
            views[-1].tables.append(table)
        else:
            result.append(Section(title=f"STREAM Triad per node ({typ}{on})", tables=[table]))
    return result
