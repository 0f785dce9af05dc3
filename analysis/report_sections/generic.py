"""Any benchmark's group that no table family (catalog.py) claims: its
tables listed, its node-level table shown (bounded rows, units from the
column_units attribute) and, when that table has a column in B/s, a bar
per row of the first such column. A benchmark new to bwsurvey appears in
the report this way with no change to the report."""
import re

import numpy as np

from .common import Section, Table, capped, column_units, host_key, plot_text, read_table, save, text

# The file's own groups (run metadata, checks, merged runs): not benchmarks.
NOT_BENCHMARKS = {"config", "provenance", "nodes", "ranks", "checks", "flags", "scaling", "runs"}
MAX_TABLES = 50  # tables listed per group
MAX_BARS = 60
MAX_COLUMNS = 16  # columns of the node table shown


def tables_in(group):
    """Paths (from the file's root) of the compound datasets under group."""
    found = []

    def visit(name, obj):
        if len(found) < MAX_TABLES and hasattr(obj, "dtype") and obj.dtype.names:
            found.append(f"{group.name.strip('/')}/{name}")

    group.visititems(visit)
    return found


def node_table(f, paths):
    """The group's node-level table: one named nodes, else the first with a host column."""
    named = [p for p in paths if p.rsplit("/", 1)[-1] == "nodes"]
    with_host = [p for p in paths if "host" in f[p].dtype.names]
    return (named or with_host or [None])[0]


def cell(value, kind):
    if kind in "SUO":
        return text(value)
    if kind == "f":
        return f"{value:.4g}" if np.isfinite(value) else "n/a"
    return str(int(value)) if kind in "iub" else text(value)


def labels_of(rows, names):
    """A bar's label: its host and the text cells that differ between rows."""
    texts = [n for n in names if n != "host" and rows.dtype[n].kind in "SUO"]
    varying = [n for n in texts if len({text(r[n]) for r in rows}) > 1]
    return [" ".join([text(r["host"]) if "host" in names else ""] + [text(r[n]) for n in varying]).strip() for r in rows]


def bar_chart(f, path, rows, units, options):
    """The first B/s column, one bar per row; None without one."""
    column = next((n for n in rows.dtype.names if units.get(n) == "B/s" and rows.dtype[n].kind == "f"), None)
    if column is None or len(rows) == 0:
        return None, ""
    import matplotlib.pyplot as plt
    if "host" in rows.dtype.names:
        rows = np.array(sorted(rows, key=lambda r: host_key(text(r["host"]))), dtype=rows.dtype)
    shown, note = capped(list(range(len(rows))), MAX_BARS)
    rows = rows[shown]
    labels = labels_of(rows, rows.dtype.names)
    fig, ax = plt.subplots(figsize=(max(6.0, min(16.0, 0.35 * len(rows) + 3)), 4.5))
    x = np.arange(len(rows))
    ax.bar(x, rows[column] / 1e9)
    ax.set_xticks(x, [plot_text(s, 30) for s in labels], rotation=60 if len(rows) > 8 else 0,
                  ha="right" if len(rows) > 8 else "center")
    ax.set_ylabel(f"{plot_text(column)} (GB/s)")
    ax.set_title(f"/{plot_text(path)}: {plot_text(column)}")
    ax.set_ylim(bottom=0)
    fig.tight_layout()
    name = re.sub(r"[^A-Za-z0-9_]+", "_", f"{path}_{column}") + ".png"
    return save(fig, options, name), note


def group_section(f, group, options):
    paths = tables_in(f[group])
    if not paths:
        return None
    listing = Table(f"/{group}: tables", ["table", "rows", "columns"],
                    [[f"/{p}", int(f[p].shape[0]) if f[p].shape else 1, len(f[p].dtype.names)] for p in paths])
    section = Section(title=f"{group} (drawn from its tables)", tables=[listing])
    path = node_table(f, paths)
    rows = read_table(f, path) if path else None
    if rows is None:
        return section
    units = column_units(f, path)
    names = list(rows.dtype.names)[:MAX_COLUMNS]
    header = [f"{n} [{units[n]}]" if units.get(n) else n for n in names]
    body, note = capped([[cell(r[n], rows.dtype[n].kind) for n in names] for r in rows])
    section.tables.append(Table(f"/{path}", header, body, note))
    section.png, bar_note = bar_chart(f, path, rows, units, options)
    if bar_note:
        section.notes.append(f"Bars: {bar_note}.")
    return section


def sections(f, options, claimed):
    """A section per top-level benchmark group not in claimed."""
    out = []
    for group in f:
        if group in NOT_BENCHMARKS or group in claimed or not hasattr(f[group], "visititems"):
            continue
        section = group_section(f, group, options)
        if section:
            out.append(section)
    return out
