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
All drawing is numpy-vectorised: one step line, one bar call per picture."""
import json
import math
import re

import numpy as np

from . import node_metrics
from .common import Section, Table, fixed, plot_text, read_table, save, text

# As a table family: drawn when the file has its node table (the hardware
# cohorts); "nodes" is no benchmark group, so nothing else is claimed.
DRAWS = {"nodes/table": "distributions of every node metric per hardware cohort"}
ORDER = 12

# A cohort is drawn from 3 nodes on: the fraction rule's smallest cohort.
MIN_NODES_DRAWN = 3
HISTOGRAM_MAX_NODES = 50
STRIP_MAX_NODES = 300
STRIP_NAMED_MAX = 60    # up to this many nodes every bar has its host name
WORST_BEST = 20
LABELLED_LOWEST = 3
LABELS_MAX = 12         # labels in the distribution panel
LEAVES_MAX = 30         # leaf boxes drawn (the worst by median)
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
    import matplotlib.pyplot as plt
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
    panels = 3 if has_leaves else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.4), dpi=DPI)
    direction = "" if higher_is_better else " (lower is better)"

    # The distribution, in % of the cohort median.
    ax = axes[0]
    if n > HISTOGRAM_MAX_NODES:
        xs = np.sort(percent)
        ys = np.arange(1, n + 1) / n
        ax.step(xs, ys, where="post", color="tab:blue", lw=1.2, label=f"ECDF, {n} nodes")
        position = {i: (percent[i], (np.searchsorted(xs, percent[i], side="right")) / n) for i in labelled_idx}
        ax.set_ylabel("fraction of nodes at or below")
    else:
        bins = max(5, min(20, n))
        ax.hist(percent, bins=bins, color="tab:blue", alpha=0.7, label=f"{n} nodes")
        ax.plot(percent, np.zeros(n), "|", color="black", ms=12)
        position = {i: (percent[i], 0.0) for i in labelled_idx}
        ax.set_ylabel("nodes")
    for label, x, color, _ in lines:
        ax.axvline(x, color=color, ls="--", lw=1, label=f"{label}: {x:.1f} %")
    ax.axvline(100.0, color="tab:green", lw=1, label=f"median {median / scale:.4g} {shown_unit}")
    if labelled_idx:
        px = np.array([position[i][0] for i in labelled_idx])
        py = np.array([position[i][1] for i in labelled_idx])
        ax.plot(px, py, "o", color="tab:red", ms=5, label="flagged / lowest")
        for j, i in enumerate(labelled_idx):
            ax.annotate(plot_text(hosts[i], 24), (px[j], py[j]), xytext=(6, 6 + 9 * (j % 4)),
                        textcoords="offset points", fontsize=7, color="tab:red" if is_flagged[i] else "black")
    ax.set_xlabel(f"% of cohort median{direction}")
    ax.legend(fontsize=7, loc="best")
    ax.set_title(plot_text(f"{title}: distribution", 70), fontsize=9)

    # Per node, ordered by value, as deviation from the median.
    ax = axes[1]
    colors = np.where(is_flagged, "tab:red", "tab:blue")
    view = "strip" if n <= STRIP_MAX_NODES else "worst_best"
    if view == "strip":
        x = np.arange(n)
        ax.bar(x, percent - 100.0, bottom=100.0, color=colors, width=0.8 if n < 100 else 1.0)
        if n <= STRIP_NAMED_MAX:
            ax.set_xticks(x, [plot_text(h, 20) for h in hosts], rotation=90, fontsize=6 if n > 20 else 8)
        else:
            named = np.flatnonzero(is_flagged)[:20]
            ax.set_xticks(named, [plot_text(hosts[i], 20) for i in named], rotation=90, fontsize=6)
        ax.set_xlabel("nodes, worst first")
        ax.set_ylabel(f"% of cohort median{direction}")
        for label, y, color, _ in lines:
            ax.axhline(y, color=color, ls="--", lw=1)
        ax.axhline(100.0, color="tab:green", lw=1)
        ax.set_title(f"per node, ordered by value ({n} nodes)", fontsize=9)
        shown = list(hosts)
    else:
        pick = np.r_[np.arange(WORST_BEST), np.arange(n - WORST_BEST, n)]
        y = np.r_[np.arange(WORST_BEST), np.arange(WORST_BEST + 1, 2 * WORST_BEST + 1)]
        ax.barh(y, percent[pick] - 100.0, left=100.0, color=colors[pick], height=0.8)
        ax.set_yticks(y, [plot_text(h, 20) for h in hosts[pick]], fontsize=5.5)
        ax.invert_yaxis()
        for label, xline, color, _ in lines:
            ax.axvline(xline, color=color, ls="--", lw=1)
        ax.axvline(100.0, color="tab:green", lw=1)
        ax.set_xlabel(f"% of cohort median{direction}")
        ax.set_title(f"worst {WORST_BEST} (top) and best {WORST_BEST} of {n} nodes", fontsize=9)
        shown = list(hosts[pick])

    # Per leaf switch.
    leaf_names = []
    if has_leaves:
        ax = axes[2]
        known = leaf != ""
        names, inverse = np.unique(leaf[known].astype(str), return_inverse=True)
        shown_pct, shown_flag = percent[known], is_flagged[known]
        data = [shown_pct[inverse == j] for j in range(len(names))]
        quartiles = np.array([np.percentile(d, [0, 25, 50, 75, 100]) for d in data])
        worst = np.argsort(quartiles[:, 2], kind="stable")[:LEAVES_MAX]
        leaf_names = [str(names[j]) for j in worst]
        # Boxes (quartiles), whiskers (range) and every node as a point:
        # one call each, whatever the number of leaves and nodes.
        x = np.arange(1, len(worst) + 1)
        q = quartiles[worst]
        ax.vlines(x, q[:, 0], q[:, 4], color="gray", lw=0.8)
        ax.bar(x, q[:, 3] - q[:, 1], bottom=q[:, 1], width=0.6, color="lightsteelblue", edgecolor="steelblue")
        ax.hlines(q[:, 2], x - 0.3, x + 0.3, color="black", lw=1.2)
        position = np.full(len(names), -1)
        position[worst] = np.arange(len(worst))
        member = position[inverse] >= 0
        px = position[inverse][member] + 1 + (np.random.default_rng(0).random(member.sum()) - 0.5) * 0.4
        ax.scatter(px, shown_pct[member], s=4, c=np.where(shown_flag[member], "tab:red", "black"), zorder=3)
        ax.set_xticks(x, [plot_text(s, 16) for s in leaf_names], rotation=90, fontsize=6)
        for label, yline, color, _ in lines:
            ax.axhline(yline, color=color, ls="--", lw=1)
        ax.axhline(100.0, color="tab:green", lw=1)
        ax.set_ylabel(f"% of cohort median{direction}")
        more = f", the {LEAVES_MAX} lowest of {len(names)}" if len(names) > LEAVES_MAX else ""
        ax.set_title(f"per leaf switch{more}", fontsize=9)

    fig.suptitle(plot_text(f"{title} - cohort: {cohort}", 110), fontsize=9)
    fig.tight_layout()
    png = save(fig, options, png)

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
