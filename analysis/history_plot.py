#!/usr/bin/python3
"""A node's series from the history archive as a PNG.

    history_plot.py ARCHIVE --node HOST [--metric M] [--changes TSV] --out OUT.png
    (or: bwreport history show ARCHIVE --node HOST [--metric M] --plot OUT.png)

One panel per metric of the node (or the one given): x = the survey's
start (UTC), y = the value in display units (GB/s for B/s, µs or ms for
small times); the node's series as a line with markers, its flagged
surveys as red markers, its cohort's median per survey as a dashed line
and the cohort's 25th-75th percentile band shaded. With --changes (the TSV
of `bwreport history changes --format tsv`) the node's change points are
vertical dashed lines labelled with their size in %. At most MAX_PANELS
panels (a note on stdout names how many were left out).
OUT is written through file_guard.py: never over the archive or --changes,
never through a symbolic link or onto a FIFO or device (exit 2).
Exit status: 0 written; 2 bad input (not an archive, an unknown node or
metric, a bad --changes file, --out in a missing directory); 1 anything
else. Every error is one line on stderr."""
import argparse
import datetime
import logging
import os
import sys
import warnings

MAX_PANELS = 24
COLUMNS = 3


def fail(code, message):
    message = str(message).replace("\n", "\\n")
    print(f"history_plot: error: {message[:600]}", file=sys.stderr)
    return code


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        sys.exit(fail(2, message))


def parse_args(argv):
    p = OneLineParser(description="a node's series from a bwreport history archive as a PNG")
    p.add_argument("archive", help="the archive (bwreport history add)")
    p.add_argument("--node", required=True, help="the host whose series is drawn")
    p.add_argument("--metric", help="one metric (default: every metric of the node, at most %d)" % MAX_PANELS)
    p.add_argument("--changes", help="change points: the TSV of bwreport history changes --format tsv")
    p.add_argument("--out", required=True, help="the PNG written")
    return p.parse_args(argv)


def survey_dates(series):
    return [datetime.datetime.fromtimestamp(int(t), tz=datetime.timezone.utc) for t in series.started_unix_s]


def parse_utc(text):
    text = text.strip().replace("Z", "+00:00")
    moment = datetime.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def draw_series(ax, series, changes=(), title=None, legend=True):
    """One panel: the series, its flagged surveys, its cohort's median and
    band, and the change points of changes (host and metric of series)."""
    import numpy as np
    from history_archive import display_scale
    factor, label = display_scale(series.unit, np.concatenate([series.values, series.cohort_q75]))
    dates = survey_dates(series)
    band = np.isfinite(series.cohort_q25) & np.isfinite(series.cohort_q75)
    if band.any():
        ax.fill_between(dates, series.cohort_q25 * factor, series.cohort_q75 * factor, where=band, color="tab:gray",
                        alpha=0.25, linewidth=0, label="cohort 25-75 %")
        ax.plot(dates, series.cohort_median * factor, "--", color="tab:gray", linewidth=1, label="cohort median")
    ax.plot(dates, series.values * factor, "-o", color="tab:blue", markersize=3, linewidth=1.2, label=series.host)
    flagged = series.flagged & np.isfinite(series.values)
    if flagged.any():
        ax.plot([d for d, x in zip(dates, flagged) if x], series.values[flagged] * factor, "o", color="red",
                markersize=6, label="flagged")
    for change in changes:
        if change.host != series.host or change.metric != series.metric:
            continue
        try:
            at = parse_utc(change.changed_utc)
        except ValueError:
            continue
        ax.axvline(at, color="tab:red", linestyle="--", linewidth=1)
        ax.annotate(f"{change.change_percent:+.1f} %", xy=(at, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(3, -12), textcoords="offset points", color="tab:red", fontsize=8)
    ax.set_ylabel(f"{plot_label(series.metric, 40)} [{label}]", fontsize=8)
    ax.set_title(title if title is not None else plot_label(series.metric, 60), fontsize=9)
    ax.tick_params(labelsize=7)
    ax.grid(True, alpha=0.3)
    for tick in ax.get_xticklabels():
        tick.set_rotation(30)
        tick.set_horizontalalignment("right")
    if legend:
        ax.legend(fontsize=7, loc="best")


def plot_label(text, limit):
    text = "".join(ch if ch.isprintable() else "?" for ch in str(text))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def grid_figure(count):
    import matplotlib.pyplot as plt
    columns = min(COLUMNS, count)
    rows = (count + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(4.8 * columns, 3.2 * rows), squeeze=False)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:count])


def main(argv):
    args = parse_args(argv)
    import file_guard
    from history_archive import ArchiveError, host_metrics, node_series, open_archive, read_changes
    out_dir = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(out_dir):
        return fail(2, f"--out: directory {out_dir!r} does not exist")
    inputs = [args.archive, args.changes]
    try:
        file_guard.check_target("--out", out_dir, os.path.basename(args.out), file_guard.identities(inputs))
    except file_guard.UsageError as e:
        return fail(2, e)
    try:
        conn = open_archive(args.archive)
        changes = read_changes(args.changes) if args.changes else []
        if args.metric is not None:
            metrics = [args.metric]
        else:
            metrics = [m for m, _, _ in host_metrics(conn, args.node)]
            if not metrics:
                raise ArchiveError(f"--node: '{plot_label(args.node, 100)}' is not in the archive")
        left_out = max(0, len(metrics) - MAX_PANELS)
        series = [node_series(conn, args.node, m) for m in metrics[:MAX_PANELS]]
    except ArchiveError as e:
        return fail(2, e)
    except OSError as e:
        return fail(2, f"{e.filename or ''}: {e.strerror or e}")
    import matplotlib.pyplot as plt
    fig, axes = grid_figure(len(series))
    for i, (ax, s) in enumerate(zip(axes, series)):
        draw_series(ax, s, changes, legend=(i == 0))
    latest_cohort = plot_label(series[0].cohorts[-1], 60)
    fig.suptitle(f"{plot_label(args.node, 60)}: {len(series[0].values)} surveys, cohort {latest_cohort}", fontsize=10)
    fig.tight_layout()
    try:  # a scratch file beside OUT, renamed onto it (file_guard.py)
        file_guard.save_figure(args.out, fig, inputs, "--out", dpi=100)
    except file_guard.UsageError as e:
        return fail(2, e)
    finally:
        plt.close(fig)
    note = f" ({left_out} more metrics left out; choose one with --metric)" if left_out else ""
    print(f"{args.out}: {len(series)} panels{note}")
    return 0


if __name__ == "__main__":
    try:
        import matplotlib
        import numpy  # noqa: F401
    except ImportError as missing:
        sys.exit(fail(1, f"{missing.name} is missing: install python3-numpy and python3-matplotlib"))
    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False
    warnings.simplefilter("ignore")
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(fail(1, "interrupted"))
    except Exception as e:  # noqa: BLE001 - one line, never a traceback
        sys.exit(fail(1, f"{type(e).__name__}: {e}"))
