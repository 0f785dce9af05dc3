"""The report's History section (survey_report.py --history ARCHIVE): the
archive's extent and whether it holds this survey (by content hash); the
series of this survey's flagged nodes (one small panel per flagged host
and metric of /flags, with the cohort's median and 25-75 % band, at most
MAX_SERIES); and the change points of this survey's nodes from the
history_changes.tsv that `bwreport plot --history` writes beside the
report (`bwreport history changes --format tsv`), worst first.

The archive is opened read-only; a flag whose metric the archive does not
hold (or a host it never saw) is named, not drawn."""
import os

import numpy as np

from .common import Section, Table, capped, fixed, has_columns, read_table, save, text

MAX_SERIES = 24
MAX_CHANGE_ROWS = 200
CHANGES_FILE = "history_changes.tsv"


def sections(f, path, options, archive_path, changes_path):
    import history_archive as ha
    conn = ha.open_archive(archive_path)
    try:
        notes = [archive_line(ha, conn, path)]
        hosts = survey_hosts(f)
        flagged = flagged_pairs(f)
        have_changes = bool(changes_path) and os.path.isfile(changes_path)
        changes = None
        if have_changes:
            changes = [c for c in ha.read_changes(changes_path) if hosts is None or c.host in hosts]
        result = [Section(title="History", notes=notes)]
        result.append(series_section(ha, conn, flagged, options, changes or []))
        result.append(changes_section(changes))
        return result
    finally:
        conn.close()


def archive_line(ha, conn, path):
    count, first, last = ha.extent(conn)
    line = (f"The archive holds {count} surveys, from {first} to {last}." if count
            else "The archive holds no surveys.")
    found = ha.survey_of_file(conn, path)
    if found:
        line += f" This survey is in it (survey id {found[0]}, started {found[1]})."
    else:
        line += " This survey is not in the archive (its sha256 is not there; bwreport history add adds it)."
    return line


def survey_hosts(f):
    """This survey's hosts (/nodes/table, else the hosts of /stream/nodes);
    None when the file names none (then no change point is filtered out)."""
    for table_path in ("nodes/table", "stream/nodes"):
        table = read_table(f, table_path)
        if has_columns(table, "host") and len(table):
            return {text(h) for h in table["host"]}
    return None


def flagged_pairs(f):
    """[(host, metric)] of /flags in its order, once each; link verdicts
    (a host holding '->': a pair or an uplink, not a node) left out."""
    flags = read_table(f, "flags")
    if not has_columns(flags, "host", "metric"):
        return []
    seen, pairs = set(), []
    for r in flags:
        pair = (text(r["host"]), text(r["metric"]))
        if "->" in pair[0] or pair in seen:
            continue
        seen.add(pair)
        pairs.append(pair)
    return pairs


def archive_metric(ha, conn, host, metric):
    """The archive's name of a flagged metric: the same name, or, when the
    archive holds only one metric of that family for the host (/flags says
    'stream.triad[double]', an archive may say 'stream.triad'), that one."""
    names = [m for m, _, _ in ha.host_metrics(conn, host)]
    if metric in names:
        return metric
    family = metric.split("[", 1)[0]
    close = [m for m in names if m.split("[", 1)[0] == family]
    return close[0] if len(close) == 1 else None


def series_section(ha, conn, flagged, options, changes):
    section = Section(title="History: series of the flagged nodes")
    if not flagged:
        section.notes.append("No node is flagged in this survey (/flags holds no node rows).")
        return section
    drawn, missing = [], []
    for host, metric in flagged:
        if len(drawn) == MAX_SERIES:
            break
        name = archive_metric(ha, conn, host, metric)
        if name is None:
            missing.append(f"{host} {metric}")
            continue
        drawn.append(ha.node_series(conn, host, name))
    rest = len(flagged) - len(drawn) - len(missing)
    if drawn:
        section.png = draw(drawn, options, changes)
        section.tables.append(series_table(ha, drawn))
    if missing:
        shown = ", ".join(missing[:20]) + (f" and {len(missing) - 20} more" if len(missing) > 20 else "")
        section.notes.append(f"Not in the archive: {shown}.")
    if rest > 0:
        section.notes.append(f"{len(drawn)} series drawn; {rest} more flagged host-metric pairs left out "
                             f"(at most {MAX_SERIES}; bwreport history show ARCHIVE --node HOST draws any one).")
    return section


def draw(series, options, changes):
    from history_plot import draw_series, grid_figure, plot_label
    fig, axes = grid_figure(len(series))
    for i, (ax, s) in enumerate(zip(axes, series)):
        draw_series(ax, s, changes, title=f"{plot_label(s.host, 30)}: {plot_label(s.metric, 40)}", legend=(i == 0))
    fig.tight_layout()
    return save(fig, options, "history_flagged.png")


def series_table(ha, series):
    rows = []
    for s in series:
        factor, unit = ha.display_scale(s.unit, np.concatenate([s.values, s.cohort_q75]))
        last = s.values[-1]
        rows.append([s.host, s.metric, len(s.values), int(s.flagged.sum()), f"{fixed(last * factor, 3)} {unit}",
                     f"{fixed(s.cohort_median[-1] * factor, 3)} {unit}",
                     fixed(100.0 * last / s.cohort_median[-1], 1) if s.cohort_median[-1] else "n/a"])
    return Table("Flagged nodes in the archive (latest survey of each series)",
                 ["host", "metric", "surveys", "flagged in", "latest", "cohort median", "% of median"], rows)


def changes_section(changes):
    """changes: those of this survey's nodes, or None without the TSV."""
    section = Section(title="History: change points of this survey's nodes")
    if changes is None:
        section.notes.append(f"No {CHANGES_FILE} (bwreport plot --history ARCHIVE writes it from "
                             "bwreport history changes).")
        return section
    if not changes:
        section.notes.append("No change point in the series of this survey's nodes.")
        return section
    changes = sorted(changes, key=lambda c: (-abs(c.change_percent), -c.confidence, c.host, c.metric))
    rows = [[c.host, c.metric, c.changed_utc, f"{c.change_percent:+.1f}", fixed(c.confidence, 3)] for c in changes]
    rows, note = capped(rows, MAX_CHANGE_ROWS)
    section.tables.append(Table(f"Change points ({len(changes)}), largest first", ["host", "metric", "date",
                                                                                   "size %", "confidence"], rows, note))
    return section
