"""Every node in one sortable, searchable table (node_table.js, inlined: no
network, the page opens from file://), and nodes.csv with all of them.

Up to INLINE_ROWS nodes the rows are <tr> rows of the page; above, the page
holds them as one compact JSON array (<script type="application/json">)
and draws PAGE_ROWS at a time: 10,000 <tr> rows make a page slow to open
and long to scroll, and a browser refuses to fetch a sibling file from
file://, so the data cannot stay in nodes.json."""
import csv
import html
import json
import os

import numpy as np

from .common import Section
from .node_metrics import in_unit, unit_suffix

INLINE_ROWS = 500
PAGE_ROWS = 100
SCRIPT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "node_table.js")


def script():
    with open(SCRIPT_FILE, encoding="utf-8") as f:
        return f.read()


def rounded(x, decimals):
    return None if x is None or not np.isfinite(x) else round(float(x), decimals)


def node_rows(view):
    """(header [(name, 'num'|'text')], rows [[cell]], csv header, csv rows)."""
    header = [("host", "text"), ("cohort", "text")]
    csv_header = ["host", "cohort", "hardware_class"]
    for m in view.metrics:
        unit = in_unit(0.0, m.unit)[1]
        header += [(f"{m.name} {unit}", "num"), (f"{m.name} % of cohort median", "num")]
        csv_header += [f"{m.name}_{unit_suffix(unit)}", f"{m.name}_percent_of_cohort_median"]
    header.append(("flagged", "text"))
    csv_header.append("flagged")
    flags_of = {}
    for host, metric in view.flagged:
        flags_of.setdefault(host, []).append(metric)
    rows, csv_rows = [], []
    for host in view.hosts:
        label = view.host_cohort.get(host, "unknown hardware")
        row, csv_row = [host, view.cohort_id(label)], [host, view.cohort_id(label), label]
        for m in view.metrics:
            value = m.values.get(host)
            if value is None:
                row += [None, None]
                csv_row += ["", ""]
                continue
            median = view.stats[(m.name, view.cohort[(m.name, host)])].median
            shown = in_unit(value, m.unit)[0]
            pct = 100.0 * value / median if median > 0 else float("nan")
            row += [rounded(shown, 3), rounded(pct, 1)]
            csv_row += [f"{shown:.9g}", f"{pct:.4f}" if np.isfinite(pct) else ""]
        flagged = "; ".join(sorted(flags_of.get(host, [])))
        row.append(flagged)
        csv_row.append(flagged)
        rows.append(row)
        csv_rows.append(csv_row)
    return header, rows, csv_header, csv_rows


def write_csv(options, name, header, rows):
    with options.text_file(name, newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)


def cell_html(value):
    return "" if value is None else html.escape(str(value))


def json_block(element_id, rows):
    # '<' escaped so no host name can close the <script> element.
    data = json.dumps(rows, separators=(",", ":"), ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{data}</script>'


def section(view, options, table_id="bws-nodes"):
    """The node table's Section (its markup in .html) and nodes.csv; None without nodes."""
    if not view.hosts:
        return None
    header, rows, csv_header, csv_rows = node_rows(view)
    csv_name = options.png_name("nodes.csv")
    write_csv(options, "nodes.csv", csv_header, csv_rows)
    large = len(rows) > INLINE_ROWS
    page_rows = PAGE_ROWS if large else max(len(rows), 1)
    parts = [f'<p><input id="{table_id}-filter" type="search" size="40" '
             f'placeholder="filter: host, cohort or flagged metric"> '
             f'<button id="{table_id}-prev" type="button">&lt; prev</button> '
             f'<span id="{table_id}-info">{len(rows)} nodes</span> '
             f'<button id="{table_id}-next" type="button">next &gt;</button></p>',
             f'<div class="bws-wide"><table class="bws-sortable" id="{table_id}" data-page-size="{page_rows}"><thead><tr>']
    parts += [f'<th data-sort="{kind}">{html.escape(name)}</th>' for name, kind in header]
    parts.append("</tr></thead><tbody>")
    for row in rows[:page_rows]:
        parts.append(("<tr class=\"bws-flagged\">" if row[-1] else "<tr>") +
                     "".join(f"<td>{cell_html(c)}</td>" for c in row) + "</tr>")
    parts.append("</tbody></table></div>")
    if large:
        parts.append(json_block(f"{table_id}-data", rows))
    notes = [f"{len(rows)} nodes; a click on a header sorts (again: the other way), the box filters. Values in "
             f"{', '.join(sorted({in_unit(0.0, m.unit)[1] for m in view.metrics})) or 'their units'}; % of cohort "
             "median: of the median over the cohort's nodes with the metric. Every node and value (full "
             f"precision): {csv_name}." + (f" Shown {PAGE_ROWS} rows at a time." if large else "")]
    return Section(title="All nodes", notes=notes, html="\n".join(parts), scripts=[script()],
                   links=[(csv_name, f"{csv_name} (all nodes, CSV)")])
