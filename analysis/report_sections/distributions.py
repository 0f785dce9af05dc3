"""Views of one value per node that read at 3 nodes and at 10,000: per node
metric, group and hardware cohort one picture with
  - the distribution in % of the cohort median (a histogram up to
    HISTOGRAM_MAX_NODES nodes, an ECDF drawn as one step line beyond), with
    the flag thresholds drawn (fraction x median; the spread rule's line
    where the cohort has 8 or more nodes) and the outliers (flagged nodes
    and the LABELLED_LOWEST worst) labelled by host name;
  - the nodes ordered by value (not by name) as deviation bars around the
    median, up to STRIP_MAX_NODES nodes; beyond, the worst and best
    WORST_BEST nodes (a 5 % deviation is visible: bars start at 100 %);
  - a box per leaf switch of the % of median when /links/hosts names the
    leaves (the switch tree is known).
The node metrics, their cohorts and the flag rule's limits come from
bwreport (node_metrics.py: `bwreport export --table nodes/verdicts`, the
C++ declarations and rule); nothing of them is repeated here. The fraction
and spread lines are the medians over the cohort's nodes of each node's
own limits (each node is judged against its peers without itself).
stream.py draws STREAM Triad through metric_views().
Every picture's labelled hosts, thresholds and order go into
OUT/[prefix]distributions.json, so a test or script reads what was drawn.
All drawing is numpy-vectorised, a few artists per panel (distribution_panels.py)."""
import json
import re

import numpy as np

from . import distribution_panels as panels
from . import node_metrics
from .distribution_panels import WORST_BEST
from .common import Section, Table, fixed, plot_text, read_table, text

# As a table family: drawn when the file has its node table (the hardware
# cohorts); "nodes" is no benchmark group, so nothing else is claimed.
DRAWS = {"nodes/table": "distributions of every node metric per hardware cohort"}
ORDER = 12

# A cohort is drawn from 3 nodes on: the fraction rule's smallest cohort.
MIN_NODES_DRAWN = 3
HISTOGRAM_MAX_NODES = 50
STRIP_MAX_NODES = 300
LABELLED_LOWEST = 3
LABELS_MAX = 12         # labels in the distribution panel
DPI = 100

# Per-node columns drawn beside the node metrics though no node flag rule
# judges them (the link map's per-node totals have their own verdicts; the
# roofline ceilings show a throttled node's peak): no threshold lines.
UNJUDGED = [
    dict(name="links.node_out", table="links/nodes", column="out_Bps", unit="B/s"),
    dict(name="links.node_in", table="links/nodes", column="in_Bps", unit="B/s"),
    dict(name="roofline.fma_double", table="roofline/nodes", column="fma_double_flop_per_s", unit="FLOP/s"),
    dict(name="roofline.triad", table="roofline/nodes", column="triad_Bps", unit="B/s"),
]

# How a unit is shown: (divide by, shown unit).
DISPLAY = {"B/s": (1e9, "GB/s"), "s": (1e-9, "ns"), "FLOP/s": (1e9, "GFLOP/s")}

SIDECAR = "distributions.json"
_sidecars = {}  # (report's scratch folder, file name) -> entries written by this process


def cells(column):
    """A column's cells as text (integers as decimal text), vectorised."""
    if column.dtype.kind in "SUO":
        return np.array([text(c) for c in column], dtype=object)
    if column.dtype.kind in "iub":
        return column.astype(np.int64).astype(str).astype(object)
    return column.astype(str).astype(object)


_per_file = {}  # (file id, what) -> cohorts / leaves: stream.py and the family read them once


def once_per_file(f, what, make):
    key = (id(f), f.filename, what)
    if key not in _per_file:
        _per_file[key] = make(f)
    return _per_file[key]


def flagged_hosts(f):
    """{metric text: set of hosts} of /flags ({} without it)."""
    flags = read_table(f, "flags")
    if flags is None or not {"host", "metric"} <= set(flags.dtype.names):
        return {}
    out = {}
    for host, metric in zip(cells(flags["host"]), cells(flags["metric"])):
        out.setdefault(metric, set()).add(host)
    return out


def leaf_of_hosts(f):
    """{host: leaf switch} from /links/hosts' leaf column ({} without a tree)."""
    return once_per_file(f, "leaves", read_leaves)


def read_leaves(f):
    hosts = read_table(f, "links/hosts")
    if hosts is None or not {"host", "leaf"} <= set(hosts.dtype.names):
        return {}
    return {h: leaf for h, leaf in zip(cells(hosts["host"]), cells(hosts["leaf"])) if leaf}


def column_values(table, column):
    """(hosts, values): one value per host (the mean of its rows), non-finite
    values left out."""
    names = table.dtype.names or ()
    if column not in names or "host" not in names or not len(table):
        return np.array([], object), np.array([])
    values = table[column].astype(np.float64)
    keep = np.isfinite(values)
    hosts = cells(table["host"][keep]).astype(str)
    unique, inverse = np.unique(hosts, return_inverse=True)
    sums = np.bincount(inverse, weights=values[keep], minlength=len(unique))
    return unique.astype(object), sums / np.bincount(inverse, minlength=len(unique))



def safe_name(value):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", value).strip("_")[:60] or "x"


def record(options, entry):
    """Adds a picture's entry to OUT/[prefix]distributions.json."""
    key = (options.output.scratch, options.prefix + SIDECAR)  # one report's file
    entries = _sidecars.setdefault(key, [])
    entries.append(entry)
    options.put_text(SIDECAR, json.dumps(entries, indent=1))


def metric_views(options, title, metric, flagged, leaves=None, image=None, min_nodes=1):
    """Sections (one per cohort) for one node_metrics.Metric (its values,
    cohorts and the rule's limits per node; no limits: no lines).
    flagged: the hosts /flags names for this metric. A cohort of fewer
    than min_nodes nodes gets a note, no picture."""
    hosts = np.array(list(metric.values), dtype=object)
    values = np.array([metric.values[h] for h in hosts], dtype=np.float64)
    keep = np.isfinite(values) & (values > 0)
    hosts, values = hosts[keep], values[keep]
    if not len(hosts):
        return []
    cohort = np.array([metric.cohort.get(h, "unknown cohort") for h in hosts], dtype=object)
    names, counts = np.unique(cohort.astype(str), return_counts=True)
    order = sorted(range(len(names)), key=lambda i: (-counts[i], names[i]))
    sections = []
    for index, i in enumerate(order):
        members = cohort == names[i]
        if counts[i] < min_nodes:
            scale, shown_unit = DISPLAY.get(metric.unit, (1.0, metric.unit))
            listed = ", ".join(f"{h} {v / scale:.4g}" for h, v in zip(hosts[members][:5], values[members][:5]))
            sections.append(Section(title=f"{title}: cohort {names[i]}",
                                    notes=[f"{counts[i]} node(s), {shown_unit}: {listed}; no distribution "
                                           f"below {min_nodes} nodes (the flag rule needs 3)."]))
            continue
        base = image or f"dist_{safe_name(metric.name)}"
        png = f"{base}_c{index + 1}.png" if index else f"{base}.png"  # the largest cohort keeps the plain name
        limits = {rule: np.array([by_host.get(h, np.nan) for h in hosts[members]], dtype=np.float64)
                  for rule, by_host in metric.rule_limits.items()}
        sections.append(cohort_view(options, title, metric.name, names[i], hosts[members], values[members],
                                    metric.unit, set(flagged), limits, metric.higher_is_better, leaves or {}, png))
    return sections


def rule_lines(limits, median):
    """[(rule, % of median)]: per rule the median of its nodes' own limits,
    where the rule applies (NaN: it does not)."""
    lines = []
    for rule, values in limits.items():
        known = values[np.isfinite(values)]
        if len(known):
            lines.append((rule, 100.0 * float(np.median(known)) / median))
    return lines


def cohort_view(options, title, metric, cohort, hosts, values, unit, flagged, limits, higher_is_better,
                leaves, png):
    scale, shown_unit = DISPLAY.get(unit, (1.0, unit))
    rates = values if higher_is_better else 1.0 / values
    order = np.argsort(rates, kind="stable")  # worst first
    hosts, values, rates = hosts[order], values[order], rates[order]
    limits = {rule: v[order] for rule, v in limits.items()}
    n = len(hosts)
    median = float(np.median(values))
    if not median > 0:  # no scale to draw against (every node measured 0)
        return Section(title=f"{title}: cohort {cohort}", notes=[f"{n} nodes; median is 0: not drawn"])
    percent = 100.0 * values / median
    colors_of = {"fraction": "tab:red", "spread": "tab:orange"}
    names_of = {"fraction": "fraction rule", "spread": f"spread rule (n={n})"}
    lines = [(names_of.get(rule, rule), x, colors_of.get(rule, "tab:purple"), rule)
             for rule, x in rule_lines(limits, median)]  # (label, % of median, colour, rule)
    is_flagged = np.array([h in flagged for h in hosts], bool)
    labelled_idx = list(np.flatnonzero(is_flagged)) + [i for i in range(min(LABELLED_LOWEST, n))]
    labelled_idx = sorted(set(labelled_idx))[:LABELS_MAX]
    leaf = np.array([leaves.get(h, "") for h in hosts], dtype=object)
    has_leaves = len(set(leaf) - {""}) >= 2  # one leaf says nothing a second panel would
    view = "strip" if n <= STRIP_MAX_NODES else "worst_best"
    v = dict(hosts=hosts, percent=percent, n=n, lines=lines, is_flagged=is_flagged, labelled_idx=labelled_idx,
             direction="" if higher_is_better else " (lower is better)", median=median, scale=scale,
             shown_unit=shown_unit, title=title)
    order_layout = panels.strip_layout if view == "strip" else panels.worst_best_layout
    kinds = ["histogram" if n <= HISTOGRAM_MAX_NODES else "ecdf", view] + (["leaves"] if has_leaves else [])
    fig, axes = panels.figure(kinds, DPI)
    layouts = [(panels.NUMERIC_LEFT_IN, panels.PLAIN_BOTTOM_IN, None), order_layout(fig, v)]
    if has_leaves:
        layouts.append(panels.leaf_layout(fig, v, leaf))
    panels.place(fig, axes, [p[0] for p in layouts], max(p[1] for p in layouts))
    panels.draw_distribution(axes[0], v, HISTOGRAM_MAX_NODES)
    shown = layouts[1][2](axes[1])
    leaf_names = layouts[2][2](axes[2]) if has_leaves else []
    fig.suptitle(plot_text(f"{title} - cohort: {cohort}", 110), fontsize=9)
    options.save_figure(fig, png, dpi=DPI)  # the figure stays open: the next picture of its layout reuses it
    png = options.png_name(png)

    entry = {"image": png, "metric": metric, "title": title, "cohort": cohort, "nodes": n, "unit": unit,
             "median": median,
             "thresholds_percent": {rule: x for _, x, _, rule in lines},  # fraction, spread
             "flagged": [h for h in hosts if h in flagged], "labelled": [str(hosts[i]) for i in labelled_idx],
             "view": view, "leaves": leaf_names}
    if view == "strip":
        entry["order"] = [str(h) for h in shown]
    else:
        entry["worst"] = [str(h) for h in hosts[:WORST_BEST]]
        entry["best"] = [str(h) for h in hosts[n - WORST_BEST:]]
    record(options, entry)

    rows = [[str(hosts[i]), f"{values[i] / scale:.4g}", fixed(percent[i], 1), "FLAGGED" if is_flagged[i] else "lowest"]
            for i in labelled_idx]
    notes = [f"{n} nodes; median {median / scale:.4g} {shown_unit}; "
             + "; ".join(f"{label} at {x:.1f} % of median" for label, x, _, _ in lines)
             + (f"; {int(is_flagged.sum())} flagged in /flags" if is_flagged.any() else "; none flagged in /flags")]
    return Section(title=f"{title}: cohort {cohort}", png=png, notes=notes,
                   tables=[Table(f"{title}: flagged and lowest nodes ({shown_unit})",
                                 ["host", shown_unit, "% of median", "why shown"], rows)] if rows else [])


def drawn_by_stream(metric):
    """STREAM Triad (stream.triad, <backend>.triad) is drawn by stream.py."""
    return metric.base.endswith(".triad") and metric.base.count(".") == 1


def sections(f, options):
    flagged = flagged_hosts(f)
    leaves = leaf_of_hosts(f)
    result = []
    for metric in node_metrics.metric_values(f):
        if drawn_by_stream(metric):
            continue
        # A flag row names the metric with its group, or (older files) without.
        named = flagged.get(metric.name, set()) | flagged.get(metric.base, set())
        result += metric_views(options, metric.name, metric, named, leaves, min_nodes=MIN_NODES_DRAWN)
    cohorts = node_metrics.node_cohorts(f)
    for spec in UNJUDGED:
        table = read_table(f, spec["table"])
        if table is None:
            continue
        hosts, values = column_values(table, spec["column"])
        if not len(hosts):
            continue
        metric = node_metrics.Metric(spec["name"], spec["unit"], dict(zip(hosts, values)),
                                     {h: cohorts.get(h, "unknown hardware") for h in hosts}, {}, True, spec["name"])
        result += metric_views(options, f"{spec['name']} (not judged by the node flag rule)", metric, set(), leaves,
                               image=f"dist_{safe_name(spec['name'])}", min_nodes=MIN_NODES_DRAWN)
    # Cohorts too small to draw: one section of notes, not one per metric.
    small = [s for s in result if not s.png and not s.tables]
    result = [s for s in result if s.png or s.tables]
    if small:
        result.append(Section(title=f"Node metrics of cohorts under {MIN_NODES_DRAWN} nodes (no distribution)",
                              notes=[f"{s.title}: {n}" for s in small for n in s.notes]))
    return result
