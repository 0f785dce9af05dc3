"""Reading the history archive (bwreport history add; the schema is
lib/history/ArchiveSchema.hpp) from Python: a node's series per metric with
its cohort's median and inter-quartile band (25th-75th percentile) per
survey, the archive's extent, and whether it holds a given survey file.

The archive is opened read-only (sqlite3 URI mode=ro): the report and the
plot never change it. A node's own values come from the node_series view;
the cohort figures of each survey are computed with numpy from that
survey's valid values of the same metric and the same cohort (the node's
cohort in that survey), the node itself included: the band is where its
cohort stood, the same for every member."""
import dataclasses
import hashlib
import os
import sqlite3
import urllib.parse

import numpy as np

import file_guard

MAX_CHANGES_BYTES = 256 << 20  # 1,000,000 change points of about 100 bytes, and room


class ArchiveError(ValueError):
    """Not a readable archive, or a host/metric it does not hold (exit 2)."""


@dataclasses.dataclass
class Series:
    host: str
    metric: str
    unit: str
    higher_is_better: bool
    survey_ids: np.ndarray      # int, in survey order (started_unix_s)
    started_utc: list           # ISO 8601 text per survey
    started_unix_s: np.ndarray  # int
    values: np.ndarray          # float, the metric's unit; NaN when not valid
    flagged: np.ndarray         # bool
    cohorts: list               # the node's cohort per survey
    cohort_median: np.ndarray   # float; NaN when the cohort had no valid value
    cohort_q25: np.ndarray
    cohort_q75: np.ndarray
    cohort_count: np.ndarray    # int: valid values of the cohort in that survey


class ArchiveConnection(sqlite3.Connection):
    """A connection with the cohort figures it has computed,
    {(survey id, metric id, cohort id): (median, q25, q75, count)}: the
    flagged nodes of one report mostly share a metric and a cohort, whose
    values (at 10,000 nodes x 100 surveys ~1 M rows) are then read once."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cohort_figures = {}


def open_archive(path):
    """A read-only connection; ArchiveError when path is not an archive."""
    problem = file_guard.regular_file_problem(path)  # sqlite3 would open a FIFO and wait
    if problem:
        raise ArchiveError(f"{path}: {problem}; allowed: a history archive (a regular file)")
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, factory=ArchiveConnection)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    except sqlite3.DatabaseError as e:
        raise ArchiveError(f"{path}: not a history archive ({e})") from None
    needed = {"surveys", "hosts", "metrics", "cohorts", "node_values", "node_series"}
    if not needed <= names:
        conn.close()
        raise ArchiveError(f"{path}: not a history archive (no {', '.join(sorted(needed - names))})")
    return conn


def extent(conn):
    """(number of surveys, first started_utc, last started_utc)."""
    n, first, last = conn.execute("SELECT COUNT(*), MIN(started_utc), MAX(started_utc) FROM surveys").fetchone()
    return int(n), first, last


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def survey_of_file(conn, path):
    """(survey id, started_utc) of the file in the archive (by content
    hash), or None when the archive does not hold it."""
    return conn.execute("SELECT id, started_utc FROM surveys WHERE sha256 = ?", (file_sha256(path),)).fetchone()


def has_host(conn, host):
    return conn.execute("SELECT 1 FROM hosts WHERE name = ?", (host,)).fetchone() is not None


def host_metrics(conn, host):
    """[(metric, unit, higher_is_better)] the archive holds for host, by name."""
    return [(m, u, bool(h)) for m, u, h in conn.execute(
        "SELECT DISTINCT m.name, m.unit, m.higher_is_better FROM node_values v JOIN hosts h ON h.id = v.host_id "
        "JOIN metrics m ON m.id = v.metric_id WHERE h.name = ? ORDER BY m.name", (host,))]


def node_series(conn, host, metric):
    """The Series of host and metric; ArchiveError when the archive holds none."""
    rows = conn.execute(
        "SELECT survey_id, started_utc, started_unix_s, value, valid, flagged, cohort, unit, higher_is_better "
        "FROM node_series WHERE host = ? AND metric = ? ORDER BY started_unix_s, survey_id", (host, metric)).fetchall()
    if not rows:
        if not has_host(conn, host):
            raise ArchiveError(f"--node: '{host}' is not in the archive")
        raise ArchiveError(f"--metric: '{metric}' has no values of node '{host}' in the archive")
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    values = np.array([r[3] if r[3] is not None and r[4] else np.nan for r in rows], dtype=np.float64)
    stats = cohort_stats(conn, host, metric)
    cohort = np.array([stats.get(int(i), (np.nan, np.nan, np.nan, 0)) for i in ids], dtype=np.float64).reshape(-1, 4)
    return Series(host=host, metric=metric, unit=rows[0][7], higher_is_better=bool(rows[0][8]), survey_ids=ids,
                  started_utc=[r[1] for r in rows], started_unix_s=np.array([r[2] for r in rows], dtype=np.int64),
                  values=values, flagged=np.array([bool(r[5]) for r in rows]), cohorts=[r[6] for r in rows],
                  cohort_median=cohort[:, 0], cohort_q25=cohort[:, 1], cohort_q75=cohort[:, 2],
                  cohort_count=cohort[:, 3].astype(np.int64))


def cohort_stats(conn, host, metric):
    """{survey id: (median, 25th, 75th percentile, count)} of the valid
    values of metric in the node's cohort of each survey it is in."""
    keys = conn.execute(
        "SELECT survey_id, metric_id, cohort_id FROM node_values WHERE host_id = (SELECT id FROM hosts WHERE name = ?) "
        "AND metric_id = (SELECT id FROM metrics WHERE name = ?)", (host, metric)).fetchall()
    cache = conn.cohort_figures
    missing = {}
    for survey, metric_id, cohort in keys:
        if (survey, metric_id, cohort) not in cache:
            missing.setdefault((metric_id, cohort), []).append(survey)
    for (metric_id, cohort), surveys in missing.items():
        values = {survey: [] for survey in surveys}
        for first in range(0, len(surveys), 500):  # SQLite's bound parameters: at most 999 in older builds
            part = surveys[first:first + 500]
            rows = conn.execute(
                f"SELECT survey_id, value FROM node_values WHERE survey_id IN ({', '.join('?' * len(part))}) "
                "AND metric_id = ? AND cohort_id = ? AND valid = 1 AND value IS NOT NULL", (*part, metric_id, cohort))
            for survey, value in rows:
                values[survey].append(value)
        for survey, vals in values.items():
            vals = np.asarray(vals, dtype=np.float64)
            vals = vals[np.isfinite(vals)]
            if len(vals):
                q25, med, q75 = np.percentile(vals, [25, 50, 75])
                cache[(survey, metric_id, cohort)] = (med, q25, q75, len(vals))
            else:
                cache[(survey, metric_id, cohort)] = (np.nan, np.nan, np.nan, 0)
    return {survey: cache[(survey, metric_id, cohort)] for survey, metric_id, cohort in keys}


def display_scale(unit, values):
    """(factor, label) the values are multiplied by for display: B/s as
    GB/s, seconds as µs or ms when small, anything else as it is."""
    finite = np.abs(np.asarray(values, dtype=np.float64))
    finite = finite[np.isfinite(finite)]
    top = finite.max() if len(finite) else 0.0
    if unit == "B/s":
        return 1e-9, "GB/s"
    if unit == "s":
        if top < 1e-3:
            return 1e6, "µs"
        if top < 1.0:
            return 1e3, "ms"
        return 1.0, "s"
    return 1.0, unit


CHANGES_HEADER = ["host", "metric", "changed_utc", "survey_id", "change_percent", "confidence", "before", "after",
                  "unit"]


@dataclasses.dataclass
class Change:
    host: str
    metric: str
    changed_utc: str
    survey_id: int
    change_percent: float
    confidence: float
    before: float
    after: float
    unit: str


def read_changes(path, limit_rows=1_000_000):
    """The change points of `bwreport history changes --format tsv` (header
    CHANGES_HEADER, tab separated). ArchiveError (one line, naming the line)
    when the file is not such a table."""
    changes = []
    try:  # a regular file, read within a bound (file_guard.py)
        lines = file_guard.read_text_input("--changes", path, MAX_CHANGES_BYTES).split("\n")
    except file_guard.UsageError as e:
        raise ArchiveError(str(e)) from None
    header = lines[0].rstrip("\r").split("\t")
    if header != CHANGES_HEADER:
        raise ArchiveError(f"{path}: line 1 is not the header of 'bwreport history changes --format tsv' "
                           f"({' '.join(CHANGES_HEADER)})")
    for number, line in enumerate(lines[1:], start=2):
        line = line.rstrip("\r")
        if not line:
            continue
        if number > limit_rows:
            raise ArchiveError(f"{path}: more than {limit_rows} change points")
        cells = line.split("\t")
        try:
            if len(cells) != len(CHANGES_HEADER):
                raise ValueError(f"{len(cells)} columns")
            changes.append(Change(cells[0], cells[1], cells[2], int(cells[3]), float(cells[4]), float(cells[5]),
                                  float(cells[6]), float(cells[7]), cells[8]))
        except ValueError as e:
            raise ArchiveError(f"{path}: line {number}: not a change point ({str(e)[:80]})") from None
    return changes
