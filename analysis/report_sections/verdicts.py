"""What needs action, first on the page: the confirmed flags (node, metric,
value, % of its cohort's median, the rule's evidence, the retest), then the
flags not confirmed, the link verdicts, the failed checks; and the cohort
summary (nodes, median, spread per cohort and metric). Numbers as /flags
and /checks stored them (bandwidth shown in GB/s, 1e9 B/s); the summary's
figures are over the node metrics of the file (node_metrics.py)."""
import numpy as np

from .common import Section, Table, capped, has_columns, read_table, text
from .node_metrics import in_unit, show

FLAG_ROWS_SHOWN = 100  # more are counted, and bwreport flags lists them all
NODES_LISTED = 200     # flagged nodes named in the first paragraph
FAILING_KINDS = ("validation", "model")


def number(row, name):
    return float(row[name]) if name in row.dtype.names else float("nan")


def cell(row, name):
    return text(row[name]) if name in row.dtype.names else ""


def percent(value):
    return "n/a" if not np.isfinite(value) else f"{value:.1f} %"


def retest_text(row):
    status = cell(row, "status") or "not retested"
    median = number(row, "retest_median")
    if np.isfinite(median):
        status += f"; retests' median {show(median, cell(row, 'unit'))}"
        values = cell(row, "retest_values")
        if values:
            try:
                shown = ", ".join(show(float(v), cell(row, "unit")).split(" ")[0] for v in values.split(","))
                status += f" (rounds: {shown})"
            except ValueError:
                status += f" (rounds: {values})"
    return status


def flag_rows(rows, view):
    out = []
    for r in rows:
        unit = cell(r, "unit")
        cohort = cell(r, "cohort")
        out.append([cell(r, "host"), cell(r, "metric"), show(number(r, "value"), unit),
                    percent(number(r, "percent_of_median")), show(number(r, "median"), unit),
                    show(number(r, "threshold"), unit), view.cohort_id(cohort) if cohort else "",
                    cell(r, "rule"), cell(r, "reason"), retest_text(r)])
    return out


FLAG_HEADER = ["node", "metric", "value", "% of cohort median", "cohort median", "threshold", "cohort", "rule",
               "evidence", "retest"]


def flag_table(caption, rows, view, note=""):
    rows = sorted(rows, key=lambda r: (np.nan_to_num(number(r, "percent_of_median"), nan=1e300), cell(r, "host")))
    shown, capped_note = capped(flag_rows(rows, view), FLAG_ROWS_SHOWN)
    if capped_note:
        capped_note += " (worst first); `bwreport flags FILE` lists them all"
    return Table(caption, FLAG_HEADER, shown, "; ".join(n for n in (note, capped_note) if n))


TRANSIENT = "not confirmed (transient)"  # /flags status of a flag the retest dismissed


def flagged_node_list(rows, node_count):
    """One paragraph naming every flagged node once, worst first, with its
    lowest % of cohort median and how many of its metrics are flagged: at
    10,000 nodes the names fit the first screen; the tables follow. A flag
    the retest dismissed does not make a node flagged (as the terminal
    summary counts them): nodes with only such flags are named apart, last."""
    worst, count, confirmed, dismissed = {}, {}, {}, set()
    for r in rows:
        host = cell(r, "host")
        if cell(r, "status") == TRANSIENT:
            dismissed.add(host)
            continue
        pct = np.nan_to_num(number(r, "percent_of_median"), nan=1e300)
        worst[host] = min(worst.get(host, 1e300), pct)
        count[host] = count.get(host, 0) + 1
        confirmed[host] = confirmed.get(host, False) or cell(r, "status") == "confirmed"
    hosts = sorted(worst, key=lambda h: (worst[h], h))
    shown = hosts[:NODES_LISTED]
    items = []
    for h in shown:
        pct = f"{worst[h]:.1f} %" if worst[h] < 1e300 else "n/a"
        metrics = f", {count[h]} metrics" if count[h] > 1 else ""
        items.append(f"{h} ({pct}{metrics}{'' if confirmed[h] else ', not confirmed'})")
    more = f"; and {len(hosts) - len(shown)} more in the tables below" if len(hosts) > len(shown) else ""
    paragraph = (f"Flagged nodes, {len(hosts)} of {node_count}, worst first (lowest % of cohort median): "
                 + (", ".join(items) if items else "none") + more + ".")
    only_dismissed = sorted(dismissed - set(worst))
    if only_dismissed:
        named = only_dismissed[:NODES_LISTED]
        rest = f" and {len(only_dismissed) - len(named)} more" if len(only_dismissed) > len(named) else ""
        paragraph += f" Nodes whose every flag the retest dismissed (not counted): {', '.join(named)}{rest}."
    return paragraph


def verdict_section(f, path, view, title):
    """Section of what needs action in one file (title: its heading)."""
    tables, notes = [], []
    flags = read_table(f, "flags")
    if flags is None:
        notes.append("This file has no /flags table: no node verdicts to show (`bwreport flags FILE` judges a "
                     "survey's nodes).")
        flags = []
    links = [r for r in flags if "->" in cell(r, "host")]
    nodes = [r for r in flags if "->" not in cell(r, "host")]
    confirmed = [r for r in nodes if cell(r, "status") == "confirmed"]
    open_flags = [r for r in nodes if cell(r, "status") != "confirmed"]
    if confirmed:
        tables.append(flag_table(f"Confirmed flags: {len(confirmed)} (retests still beyond the threshold)",
                                 confirmed, view))
    if open_flags:
        tables.append(flag_table(f"Flags not confirmed: {len(open_flags)} (not retested, or dismissed by a retest)",
                                 open_flags, view))
    if links:
        tables.append(flag_table(f"Link verdicts: {len(links)} (a -> b: a pair, or a leaf's uplink)", links, view,
                                 "value: the measured link; cohort median: the expected one"))
    failed, warnings = failed_checks(f)
    if failed:
        rows, note = capped(failed, FLAG_ROWS_SHOWN)
        tables.append(Table(f"Failed checks: {len(failed)} (kind validation or model)",
                            ["check", "subject", "kind", "measured", "allowed"], rows, note))
    if warnings:
        notes.append(f"{warnings} warning check(s) outside their range (recorded only; listed under Checks and flags).")
    if nodes:
        notes.append(flagged_node_list(nodes, len(view.hosts)))
    if not confirmed and not open_flags and not links and not failed:
        notes.insert(0, "Nothing needs action: no node or link flagged, no validation or model check failed.")
    else:
        notes.insert(0, f"{len(confirmed)} confirmed flag(s), {len(open_flags)} not confirmed, {len(links)} link "
                        f"verdict(s), {len(failed)} failed check(s). % of cohort median: of the node's cohort peers "
                        "(/flags).")
    return Section(title=title, tables=tables, notes=notes)


def failed_checks(f):
    """([row], warnings) of /checks not passed: validation and model rows, and how many warnings."""
    checks = read_table(f, "checks")
    if checks is None or not has_columns(checks, "check", "subject", "kind", "passed"):
        return [], 0
    rows, warnings = [], 0
    for r in checks:
        if r["passed"]:
            continue
        kind = text(r["kind"])
        if kind not in FAILING_KINDS:
            warnings += 1
            continue
        unit = cell(r, "unit")
        rows.append([text(r["check"]), text(r["subject"]), kind, f"{number(r, 'measured'):.6g} {unit}".strip(),
                     f"{number(r, 'lower'):.6g} .. {number(r, 'upper'):.6g} {unit}".strip()])
    return rows, warnings


SUMMARY_HEADER = ["cohort", "metric", "nodes", "median", "MAD", "IQR (25 %..75 %)", "min", "max", "unit", "flagged"]


def cohort_summary(view, title="Cohort summary"):
    rows = []
    units = {m.name: m.unit for m in view.metrics}
    metric_order = [m.name for m in view.metrics]
    flagged_count = {}
    for (host, metric) in view.flagged:
        label = view.cohort.get((metric, host))
        if label is not None:
            flagged_count[(metric, label)] = flagged_count.get((metric, label), 0) + 1
    keys = sorted(view.stats, key=lambda k: (int(view.cohort_ids[k[1]][1:]), metric_order.index(k[0])))
    for metric, label in keys:
        s = view.stats[(metric, label)]
        unit = units[metric]
        scaled = [in_unit(v, unit)[0] for v in (s.median, s.mad, s.p25, s.p75, s.low, s.high)]
        rows.append([view.cohort_id(label), metric, s.nodes, f"{scaled[0]:.2f}", f"{scaled[1]:.2f}",
                     f"{scaled[2]:.2f}..{scaled[3]:.2f}", f"{scaled[4]:.2f}", f"{scaled[5]:.2f}",
                     in_unit(0.0, unit)[1], flagged_count.get((metric, label), 0)])
    rows, note = capped(rows)
    cohorts = [[cid, label] for label, cid in sorted(view.cohort_ids.items(), key=lambda kv: int(kv[1][1:]))]
    cohorts, cohort_note = capped(cohorts)
    notes = ["Over every node with a value of the metric (the node itself included; a flag's % compares it with its "
             "cohort's other nodes). MAD: median absolute deviation; flagged: /flags rows of the metric in the "
             "cohort."] if rows else ["No node metric in this file (STREAM Triad, BS Wmax, b_eff per rank)."]
    return Section(title=title, notes=notes,
                   tables=[Table("per cohort and metric", SUMMARY_HEADER, rows, note),
                           Table("cohorts (hardware class: CPU model, cores, memory; a device metric adds the device)",
                                 ["cohort", "hardware class"], cohorts, cohort_note)])
